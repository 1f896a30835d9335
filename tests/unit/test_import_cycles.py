"""No circles in py/tabagent's imports: a module never imports, even late (inside a function) or
for its type hints only (under TYPE_CHECKING), a module that imports it back. A helper is given
what it needs (arguments, a small Protocol), so each module reads without the ones above it."""

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "py" / "tabagent"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules(root: Path = PACKAGE) -> dict[str, str]:
    """{dotted name: source} of every module of the package."""
    return {module_name(p): p.read_text() for p in sorted(root.rglob("*.py")) if "__pycache__" not in p.parts}


def imports_of(name: str, source: str, known: set[str], is_package: bool = False) -> set[str]:
    """The modules of `known` that module `name` imports anywhere in `source`: at the top, in a
    function, under TYPE_CHECKING. `from . import x` names module x when there is one."""
    package = name if is_package else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            targets = [f"{module}.{a.name}" if f"{module}.{a.name}" in known else module for a in node.names]
        else:
            continue
        found |= {_known_part(t, known) for t in targets}
    return found - {"", name}


def _known_part(target: str, known: set[str]) -> str:
    while target and target not in known:
        target = target.rpartition(".")[0]
    return target


def import_graph(sources: dict[str, str], packages: set[str] = frozenset()) -> dict[str, set[str]]:
    known = set(sources)
    return {name: imports_of(name, source, known, name in packages) for name, source in sources.items()}


def circles(graph: dict[str, set[str]]) -> list[tuple[str, ...]]:
    """The strongly connected groups of more than one module (each module, with what reaches it
    and what it reaches), sorted: every group is one or more circles of imports."""
    reaches = {name: _reached(graph, name) for name in graph}
    groups = {tuple(sorted(m for m in reaches[name] if name in reaches[m])) for name in graph}
    return sorted(g for g in groups if len(g) > 1)


def _reached(graph: dict[str, set[str]], start: str) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        for target in graph.get(todo.pop(), ()):
            if target not in seen:
                seen.add(target)
                todo.append(target)
    return seen


def package_graph() -> dict[str, set[str]]:
    sources = modules()
    packages = {module_name(p) for p in PACKAGE.rglob("__init__.py")}
    return import_graph(sources, packages)


def test_the_package_has_no_import_circles():
    """None is allowed: a helper that needs its caller is given what it needs (see the
    Protocols in context_keeper.py, tool_set.py, notes.py, managed.py, mcp/tasks.py)."""
    graph = package_graph()
    assert len(graph) > 40 and sum(map(len, graph.values())) > 150, "the walk found too few imports to mean anything"
    assert circles(graph) == []


def test_the_walk_sees_late_and_type_only_imports():
    sources = {
        "p": "", "p.a": "from .b import f\n",
        "p.b": "def f():\n    from .c import g\n", "p.c": "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from .a import A\n",
        "p.d": "from . import e\n", "p.e": "import p.d\n", "p.f": "from .a import f\nimport os\n",
    }
    assert circles(import_graph(sources, {"p"})) == [("p.a", "p.b", "p.c"), ("p.d", "p.e")]
    assert circles(import_graph({"p": "", "p.q": "from ..p import r\n", "p.r": "from .q import x\n"}, {"p"})) \
        == [("p.q", "p.r")]
    assert circles(import_graph({"p": "from .s import x\n", "p.s": "y = 1\n"}, {"p"})) == []
