"""The trace in Firefox (issue 46): what the model was sent and said, with every character that
draws nothing written out, as in Chromium (tests/e2e/test_trace.py): a reply carrying a
right-to-left override, a word joiner and tag characters, sent back to the model in the next
request, is drawn as ⟨U+202E⟩ and the rest, never as nothing."""

from __future__ import annotations

from tests.helpers.model_server import Reply
from tests.helpers.panel_driver import LAST_TURN


def test_red_team_the_trace_writes_out_what_draws_nothing_in_firefox(panel, model):
    turned = "Nothing to see\u202e ti kcilc\u2060" + "".join(chr(0xE0000 + ord(c)) for c in "go")
    model.script(Reply(text=turned, tool_calls=[{"name": "list_tabs", "arguments": {}}]), Reply(text="Done."))
    panel.send("Which tabs are open?")
    panel.wait_for_status("ok")
    panel.run(f"{LAST_TURN}.querySelector('button.show-trace').click()")
    texts = panel.wait_for_value("""document.getElementById('trace').open
      && [...document.querySelectorAll('#trace .call-request, #trace .call-response')].map((pre) => pre.textContent)""",
                               10, "the trace never opened")
    assert "Nothing to see⟨U+202E⟩ ti kcilc⟨U+2060⟩⟨U+E0067⟩⟨U+E006F⟩" in texts[2]
    assert not any(ch in "".join(texts) for ch in ("\u202e", "\u2060", chr(0xE0067)))
    panel.run("document.querySelector('#trace .close-trace').click()")
