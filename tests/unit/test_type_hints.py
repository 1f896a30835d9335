"""The agent framework's public functions say what they take and return: every parameter and
every return of a public function or method in py/tabagent/*.py, mcp/ and hosts/ (not app/, the
application) is annotated, and each module defers its annotations so they cost nothing at run
time (in Pyodide too)."""

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "py" / "tabagent"
APP = PACKAGE / "app"
FUTURE = "from __future__ import annotations"


def framework_modules() -> list[Path]:
    return [p for p in sorted(PACKAGE.rglob("*.py"))
            if APP not in p.parents and "__pycache__" not in p.parts]


def is_public(name: str) -> bool:
    return not name.startswith("_") or (name.startswith("__") and name.endswith("__"))


def public_functions(body: list[ast.stmt], prefix: str = ""):
    """(qualified name, node, is a method) of each public function at module or class level;
    the methods of a private class and functions nested in functions are not public."""
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and is_public(node.name):
            yield f"{prefix}{node.name}", node, bool(prefix)
        elif isinstance(node, ast.ClassDef) and is_public(node.name):
            yield from public_functions(node.body, f"{prefix}{node.name}.")


def missing_annotations(node: ast.FunctionDef | ast.AsyncFunctionDef, is_method: bool) -> list[str]:
    args = node.args
    positional = [*args.posonlyargs, *args.args]
    static = any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in node.decorator_list)
    if is_method and not static and positional and positional[0].arg in ("self", "cls"):
        positional = positional[1:]
    every = [*positional, *args.kwonlyargs, *filter(None, [args.vararg, args.kwarg])]
    missing = [a.arg for a in every if a.annotation is None]
    return missing + (["return"] if node.returns is None else [])


def unannotated(source: str) -> dict[str, list[str]]:
    found = {name: missing_annotations(node, is_method)
             for name, node, is_method in public_functions(ast.parse(source).body)}
    return {name: missing for name, missing in found.items() if missing}


def test_every_public_function_of_the_framework_is_annotated():
    modules = framework_modules()
    assert len(modules) > 30, "the walk found too few framework modules to mean anything"
    offending = {f"{p.relative_to(PACKAGE)}:{name}": missing
                 for p in modules for name, missing in unannotated(p.read_text()).items()}
    assert offending == {}


def defines_functions(source: str) -> bool:
    return any(isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) for node in ast.walk(ast.parse(source)))


def test_every_framework_module_with_functions_defers_annotations():
    lacking = [str(p.relative_to(PACKAGE)) for p in framework_modules()
               if defines_functions(p.read_text()) and FUTURE not in p.read_text()]
    assert lacking == []


def test_the_walk_sees_what_is_missing():
    source = ("class Tool:\n"
              "    def __init__(self, name): ...\n"
              "    def run(self, text: str): ...\n"
              "    def _hidden(self, x): ...\n"
              "    @staticmethod\n"
              "    def parse(self) -> None: ...\n"
              "async def call(*args: int, **kw) -> None: ...\n"
              "def _private(x): ...\n"
              "class _Private:\n"
              "    def run(self, x): ...\n")
    assert unannotated(source) == {"Tool.__init__": ["name", "return"], "Tool.run": ["return"],
                                   "Tool.parse": ["self"], "call": ["kw"]}
