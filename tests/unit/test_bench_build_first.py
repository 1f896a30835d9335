"""A benchmark run directly (`python bench/bench_controls.py`) measures the checkout, not the
extension as it was last built: each one that starts a browser builds first."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STARTS_A_BROWSER = ("Browser(", "Firefox(")


def benches_that_start_a_browser() -> list[Path]:
    return [path for path in sorted((ROOT / "bench").glob("*.py"))
            if any(start in path.read_text() for start in STARTS_A_BROWSER)]


def builds_in_main(path: Path) -> bool:
    tree = ast.parse(path.read_text())
    main = next((node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name == "main"), None)
    return main is not None and any(
        isinstance(node, ast.Call) and getattr(node.func, "id", None) == "build_checkout" for node in ast.walk(main))


def test_every_benchmark_that_starts_a_browser_builds_the_checkout_first():
    benches = benches_that_start_a_browser()
    assert len(benches) >= 15, [path.name for path in benches]
    assert [path.name for path in benches if not builds_in_main(path)] == []
