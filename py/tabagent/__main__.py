"""`python -m tabagent`: the agent in a terminal (see app/cli.py)."""

import sys

from .app.cli import main

sys.exit(main())
