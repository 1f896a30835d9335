"""What runs in the code sandbox's own Pyodide, not in the agent's interpreter.

extension/sandbox/worker.js imports runtime.py there, beside the code a model wrote; it talks
to the agent's side (tabagent.app.sandbox_executor, in the offscreen document's Pyodide) only
in the JSON messages wire.py's SANDBOX_MESSAGES declares. Nothing in the agent's interpreter
imports this package (tests/unit/test_layout.py).
"""
