"""The Pyodide tests' path: the package and the fake endpoint on sys.path (the local server the
cases talk to, `server`, is tests/conftest.py's)."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
for path in (HERE.parents[1] / "py", HERE.parent / "unit", HERE.parent / "helpers", HERE):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))
