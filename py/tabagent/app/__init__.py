"""TabAgent the application, on top of the agent framework in `tabagent`.

The framework (agents, tools, models, memory, events) knows nothing of where it runs; this
package is what runs it for a user: turns described as plain data (turns.py), the JSON entry
points the extension's offscreen document calls (json_entry_points.py), the page tools and
page actions that reach the user's tabs (page_tools.py, page_actions.py, page_bridge.py),
the marking of what they read (untrusted_content.py), the developer's own tools (user_tools.py, and the page they read, user_tool_page.py), Chrome's built-in model (builtin_model.py), the
code sandbox's two sides (sandbox_executor.py here, in_sandbox/runtime.py in the sandbox's own
Pyodide), the command line (cli.py), and wire.py: every shape that crosses between JavaScript
and Python, declared once. Nothing in the framework imports this package.
"""
