"""How the tests share: a helper lives in tests/helpers (or a helper module beside its tests), a
fixture in a conftest.py, and no test module imports another test module (importing one runs
its tests' module again under another name, and a fixture imported that way is one more copy).

In the browser tests (tests/e2e, tests/firefox, tests/both, their conftests and tests/helpers) a
fixture name is defined in one place: a conftest, or the one module that uses it. A name may be
defined again only where what it gives truly differs, each list saying why: a module that starts
a browser of its own, or talks to the scripted model that sees pictures (OWN_BROWSER); the
browser a folder drives, and each browser's downloads (PER_BROWSER); a module's own attack
sites (PER_MODULE)."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
BROWSER_TESTS = ("e2e", "firefox", "both", "helpers", "conftest.py")

# One name in several folders' conftests, as each folder's browser needs it.
PER_BROWSER = {
    # the browser the tests of a folder drive: Chromium (tests/e2e), Firefox (tests/firefox), each in turn (tests/both)
    "browser_name": {"conftest.py", "both/conftest.py"},
    # Chromium saves where the DevTools protocol tells it, for a test; Firefox where the preferences it was started with say
    "downloads": {"e2e/conftest.py", "firefox/conftest.py"},
}

OWN_BROWSER = {
    # Firefox started with preferences, a locale or a build of the module's own
    "firefox": {"conftest.py", "firefox/test_idle_timer.py", "firefox/test_import.py",
                "firefox/test_languages.py", "firefox/test_red_team_pdf.py", "firefox/test_user_tools.py"},
    # the module's scripted model is the one whose model list says it takes pictures
    "model": {"conftest.py", "e2e/test_attached_pictures.py", "e2e/test_red_team_sight.py", "e2e/test_screenshot.py",
              "firefox/test_screenshot.py", "both/test_screenshot.py"},
    # the llama.cpp server, and a module that starts it with a window wide enough for tools
    "llama": {"e2e/conftest.py", "e2e/test_llama_tools.py"},
    # the user's tab in a window of its own, opened after another page in front of a window of its own
    "tabs": {"conftest.py", "e2e/test_red_team_sight.py"},
}

# The same kind of site in each red-team module, serving the pages that module's attacks need
# (a bank answering a transfer, a bank serving the user's statements as PDFs; a shop with a
# look-alike search field, a shop whose PDF download is redirected).
PER_MODULE = {
    "bank": {"e2e/test_red_team_actions.py", "e2e/test_red_team_pdf.py", "firefox/test_red_team_pdf.py"},
    "shop": {"e2e/test_red_team_actions.py", "e2e/test_red_team_pdf.py"},
}


def python_files():
    return sorted(p for p in TESTS.rglob("*.py") if "node_modules" not in p.parts)


def is_test_module(module: str) -> bool:
    parts = module.split(".")
    return parts[-1].startswith("test_") and (len(parts) == 1 or parts[0] == "tests")


def imported_modules(path: Path):
    """(line, module) of each import in `path`, relative imports resolved."""
    package = ["tests", *path.relative_to(TESTS).parent.parts]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from ((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            yield node.lineno, module
            if not node.module:  # from . import test_x
                yield from ((node.lineno, f"{module}.{alias.name}") for alias in node.names)


def test_modules_importing_other_test_modules():
    found = [f"{path.relative_to(TESTS)}:{line} imports {module}" for path in python_files()
             for line, module in imported_modules(path) if is_test_module(module)]
    assert not found, "move what is shared to tests/helpers or a conftest.py:\n" + "\n".join(found)


def is_fixture(node) -> bool:
    return isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
        "fixture" in ast.unparse(decorator) for decorator in node.decorator_list)


def fixture_places() -> dict[str, set[str]]:
    places = defaultdict(set)
    for path in python_files():
        where = path.relative_to(TESTS).as_posix()
        if where.split("/")[0] in BROWSER_TESTS:
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if is_fixture(node):
                    places[node.name].add(where)
    return places


def test_each_browser_test_fixture_is_defined_in_one_place():
    listed = {**PER_MODULE, **OWN_BROWSER, **PER_BROWSER}
    twice = {name: where for name, where in fixture_places().items() if len(where) > 1 and listed.get(name) != where}
    assert not twice, "defined in more than one place (share it from a conftest.py, or name it for what it is):\n" + \
        "\n".join(f"{name}: {', '.join(sorted(where))}" for name, where in sorted(twice.items()))


def test_the_lists_of_fixtures_defined_twice_say_what_is():
    places = fixture_places()
    stale = {name: where for lists in (PER_BROWSER, OWN_BROWSER, PER_MODULE)
             for name, where in lists.items() if places.get(name) != where}
    assert not stale, f"listed, but not (or no longer) where the code has them: {stale}"


def test_the_check_sees_a_test_module_imported_and_a_fixture_copied(tmp_path, monkeypatch):
    (tmp_path / "e2e").mkdir()
    (tmp_path / "e2e" / "test_one.py").write_text(
        "import pytest\n\n@pytest.fixture\ndef shared():\n    return 1\n")
    (tmp_path / "e2e" / "test_two.py").write_text(
        "import pytest\nfrom .test_one import shared\n\n@pytest.fixture(scope='module')\ndef shared():\n    return 2\n")
    monkeypatch.setitem(globals(), "TESTS", tmp_path)
    assert [module for _, module in imported_modules(tmp_path / "e2e" / "test_two.py")] == ["pytest", "tests.e2e.test_one"]
    assert is_test_module("tests.e2e.test_one") and not is_test_module("tests.e2e.red_team")
    assert fixture_places() == {"shared": {"e2e/test_one.py", "e2e/test_two.py"}}
