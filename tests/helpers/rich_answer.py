"""An answer with every kind of Markdown the panel renders: headings, maths, a table, code."""

from __future__ import annotations

RICH_ANSWER = """## Result

The sum is **42**, with $e^{i\\pi} + 1 = 0$ in mind.

$$\\int_0^1 x^2\\,dx = \\frac{1}{3}$$

| name | value |
|---|---|
| a | 1 |

```python
def add(a, b):
    return a + b
```

Done."""
