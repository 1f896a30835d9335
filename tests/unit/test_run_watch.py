"""`make run`'s watcher: what counts as a saved edit of the extension, and what does not."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def load_run_script():
    spec = importlib.util.spec_from_file_location("run_script", ROOT / "scripts" / "run.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


run = load_run_script()


def extension_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "extension"
    (folder / "sidepanel").mkdir(parents=True)
    (folder / "sidepanel" / "sidepanel.css").write_text("body {}\n")
    (folder / "sidepanel" / "sidepanel.js").write_text("export {};\n")
    return folder


def saved_later(path: Path, data: str) -> None:
    """Written as an editor saves, a second after the last look (file times can be coarse)."""
    path.write_text(data)
    later = path.stat().st_mtime_ns + 1_000_000_000
    os.utime(path, ns=(later, later))


def test_what_editors_keep_beside_a_file_is_no_edit(tmp_path):
    folder = extension_folder(tmp_path)
    before = run.snapshot([folder])
    for scratch in (".sidepanel.css.swp", "sidepanel.css~", "#sidepanel.css#", ".#sidepanel.css"):
        (folder / "sidepanel" / scratch).write_text("half a thought")
    (folder / "sidepanel" / "__pycache__").mkdir()
    (folder / "sidepanel" / "__pycache__" / "x.cpython-311.pyc").write_bytes(b"\0")
    (folder / ".idea").mkdir()
    (folder / ".idea" / "workspace.xml").write_text("<x/>")
    assert run.changed(before, run.snapshot([folder])) == []


def test_a_saved_added_or_removed_file_is_an_edit(tmp_path):
    folder = extension_folder(tmp_path)
    manifest = tmp_path / "manifest.json"
    manifest.write_text("{}\n")
    before = run.snapshot([manifest, folder])
    saved_later(folder / "sidepanel" / "sidepanel.css", "body {}\n")  # saved unchanged: still a save
    (folder / "sidepanel" / "sidepanel.js").unlink()
    (folder / "sidepanel" / "new.js").write_text("export {};\n")
    saved_later(manifest, '{"name": "x"}\n')
    assert run.changed(before, run.snapshot([manifest, folder])) == sorted([
        manifest, folder / "sidepanel" / "new.js", folder / "sidepanel" / "sidepanel.css", folder / "sidepanel" / "sidepanel.js"])


def test_web_ext_watches_the_stamp_alone(tmp_path, monkeypatch):
    """Left to watch the repository, web-ext reloaded on Chromium's own profile writes."""
    started = []
    monkeypatch.setattr(run, "PROFILE", tmp_path / "profile")
    monkeypatch.setattr(run.subprocess, "Popen", lambda command, **_: started.append(command))
    run.start_web_ext(headless=True, stamp=tmp_path / "reload")
    (command,) = started
    assert command[command.index("--watch-file") + 1] == str(tmp_path / "reload")
    assert "--watch-ignored" not in command and "--watch-files" not in command


def test_a_saved_script_is_rebuilt_before_the_one_reload(tmp_path, monkeypatch):
    """Chrome's service worker and the content scripts are bundles (scripts/build.py): a saved
    module reaches the browser only rebuilt. The build's own writes make no second reload."""
    folder = extension_folder(tmp_path)
    vendor = folder / "vendor"
    vendor.mkdir()
    (tmp_path / "py").mkdir()
    monkeypatch.setattr(run, "EXTENSION_SOURCES", [folder])
    monkeypatch.setattr(run, "PYTHON_SOURCES", [tmp_path / "py"])
    monkeypatch.setattr(run, "VENDOR", vendor)
    monkeypatch.setattr(run, "keep_side_panel_open", lambda *_: None)
    monkeypatch.setattr(run.time, "sleep", lambda _: None)
    happened = []

    def rebuild():
        happened.append("rebuild")
        saved_later(vendor / "service-worker.js", f"// build {len(happened)}\n")

    monkeypatch.setattr(run, "rebuild", rebuild)
    monkeypatch.setattr(run, "reload_extension", lambda _stamp, edited: happened.append(("reload", [p.name for p in edited])))
    edits = iter([lambda: saved_later(folder / "sidepanel" / "sidepanel.js", "export const a = 1;\n"), lambda: None,
                  lambda: saved_later(folder / "sidepanel" / "sidepanel.css", "body { color: red }\n"), lambda: None])

    class Browser:
        def poll(self):
            edit = next(edits, None)
            return 0 if edit is None else edit()

    run.watch(Browser(), tmp_path / "stamp", "panel", {})
    assert happened == ["rebuild", ("reload", ["sidepanel.js"]), ("reload", ["sidepanel.css"])]
