"""Each benchmark that loads the extension builds it from the checkout first, as `make bench`
does before it.

Run directly (`python bench/bench_controls.py`), a benchmark once measured `extension/vendor/`
as it was last built, not the commit its rows named: on 2026-12-06, real-model rows labelled
a607363 and b08407a ran the Python of 786374b, built hours before. scripts/build.py (the unpacked
extension: the Python package, its snapshot, the content scripts) and scripts/browser_builds.py
(dist/chrome, dist/firefox) write nothing when up to date: about 2 s.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STEPS = ("build.py", "browser_builds.py")


def build_checkout() -> None:
    """The unpacked extension and both browsers' builds made from this checkout; stops the
    benchmark (with the build's own error) when the build fails."""
    for step in STEPS:
        subprocess.run([sys.executable, str(ROOT / "scripts" / step)], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
