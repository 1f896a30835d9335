"""The boot benchmark's baseline is a bare extension the same harness drives as TabAgent."""

import json
from pathlib import Path

from tests.helpers.browser import SERVICE_WORKER_PATH

ROOT = Path(__file__).resolve().parents[2]
BARE = ROOT / "bench" / "bare-extension"


def test_the_bare_extension_sits_at_the_paths_the_harness_drives():
    # Browser finds an extension by its worker's path and opens the panel by its page's: the
    # baseline must be found and opened as TabAgent is, or the two rows time different things.
    bare, ours = (json.loads((root / "manifest.json").read_text()) for root in (BARE, ROOT))
    assert "/" + bare["background"]["service_worker"] == SERVICE_WORKER_PATH
    assert bare["side_panel"]["default_path"] == ours["side_panel"]["default_path"]
    for page in ("extension/sidepanel/sidepanel.html", "extension/offscreen/offscreen.html"):
        assert (BARE / page).is_file() and (ROOT / page).is_file()
    # ... and it is bare: nothing but what the baseline needs.
    assert set(bare["permissions"]) == {"sidePanel", "offscreen"}
    assert sorted(p.name for p in BARE.rglob("*.js")) == ["offscreen.js", "service-worker.js", "sidepanel.js"]
