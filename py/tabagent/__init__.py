"""TabAgent: a Python agent that lives in the browser's side panel."""

__version__ = "0.1.0"
