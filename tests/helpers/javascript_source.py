"""What the layout tests read in the extension's JavaScript: the modules a file imports and the
globals it makes (by regular expressions over the source, which the tests check on examples)."""

from __future__ import annotations

import re

# A relative import, static or dynamic: `import { a } from "./x.js"`, `import("../y.js")`.
IMPORT = re.compile(r"""(?:\bimport\b[^"'();]*?\bfrom\s*|\bimport\s*\(?\s*)["'](\.{1,2}/[^"']+)["']""")
# An import of a package by name (from node_modules, which only a bundle can resolve).
PACKAGE_IMPORT = re.compile(r"""(?:\bimport\b[^"'();]*?\bfrom\s*|\bimport\s*\(?\s*)["']([^."'/][^"']*)["']""")
# A global made by assignment, Object.assign or Object.defineProperty on the page's global.
GLOBAL_MADE = re.compile(r"""\b(?:globalThis|window|self)\s*(?:\.\s*(\w+)|\[[^\]]*\])\s*(?:=(?!=)|\?\?=|\|\|=)"""
                         r"""|Object\.(?:assign|defineProperty|defineProperties)\(\s*(?:globalThis|window|self)\b""")


def globals_made(source: str) -> list[str]:
    return [match.group(1) or match.group(0) for match in GLOBAL_MADE.finditer(source)]
