"""A site the user keeps TabAgent out of, in Firefox: the host permission Firefox lets the user
take back (about:addons, TabAgent, Permissions: "Access your data for all websites" off). The
page tools then say which page, why and where to allow it, rather than Firefox's own words."""

from __future__ import annotations

from tests.helpers.panel_backends import FirefoxPanel


def test_a_site_the_user_took_tabagent_s_access_from_is_named_with_where_to_allow_it(firefox, site):
    tab = FirefoxPanel.beside_a_page(firefox)
    url = site.url("article.html")
    tab.show(url)
    assert "Title: Growing Tomatoes on a Balcony" in tab.call_tool("read_page")  # (allowed, as installed)
    # What the switch in about:addons does (this module's Firefox is its own: nothing after it needs the access).
    assert tab.run("browser.permissions.remove({ origins: ['<all_urls>'] })") is True
    sentence = (f"TabAgent may not read or act on {url}: the user has not allowed TabAgent on {url.split('/')[2]}. "
                "To allow it, the user can open the Extensions menu (the puzzle piece in the browser's toolbar), let "
                "TabAgent read and change this site there, and ask again.")
    assert tab.call_tool("read_page") == sentence
    assert tab.call_tool("find_in_page", query="tomatoes") == sentence
