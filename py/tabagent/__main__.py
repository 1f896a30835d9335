"""`python -m tabagent`: the agent in a terminal (see cli.py)."""

import sys

from .cli import main

sys.exit(main())
