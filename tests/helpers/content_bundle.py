"""The content scripts' modules bundled for tests and benchmarks, as scripts/build.py bundles
them for the service worker, from an entry of the caller's.

The tests' entry (FOR_TESTS) imports the extension's own, injected.js, so TabAgentPage is the
service worker's object, as the extension leaves it; the parts tests look into besides (the
Markdown converter, the pagination, ...) are a second object, TabAgentTest, that only the tests'
bundle makes: nothing is added to the extension for them. A git revision's modules can be
bundled too (bench/), from a copy of its tree.
"""

from __future__ import annotations

import subprocess
import tarfile
import tempfile
from functools import lru_cache
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# What the tests of the content scripts look into: TabAgentPage as the service worker calls it,
# and the parts tests read on their own. (Readability alone: what Firefox's Reader View gives,
# which the extraction measurements compare with.)
FOR_TESTS = """
import "./injected.js";
import { Readability } from "@mozilla/readability";
import { toMarkdown } from "./html-to-markdown.js";
import { paginate } from "./pagination.js";
import { innermostWithText } from "./text-blocks.js";
import { tools as actions } from "./actions.js";
import { tools as controls } from "./controls.js";
import { tools as query } from "./query.js";
import { tools as reading } from "./read-page.js";
import { tools as screenshot } from "./screenshot-layout.js";
import { tools as search } from "./search.js";
import { tools as selection } from "./selection.js";
import { tools as tables } from "./tables.js";
import { tools as waiting } from "./waiting.js";

globalThis.TabAgentTest ??= {
  Readability, markdown: { toMarkdown }, pagination: { paginate }, textBlocks: { innermostWithText },
  tools: { ...actions, ...controls, ...query, ...reading, ...screenshot, ...search, ...selection, ...tables, ...waiting },
};
"""


# esbuild's API (its command line takes no directory to resolve a piped entry's imports from).
BUILD = """
import { buildSync } from "esbuild";
import { readFileSync } from "node:fs";
const [resolveDir, nodeModules] = process.argv.slice(1);
const { outputFiles } = buildSync({
  stdin: { contents: readFileSync(0, "utf8"), resolveDir, sourcefile: "tabagent-test-entry.js" },
  bundle: true, format: "iife", platform: "browser", charset: "utf8", logLevel: "warning", write: false,
  nodePaths: [nodeModules],
});
process.stdout.write(outputFiles[0].text);
"""


def bundle(entry: str, tree: Path = ROOT) -> str:
    """`entry` (a module's text, importing from beside the content scripts) and what it imports,
    under `tree`, as one classic script that sets what the entry sets. (A revision's copy has
    no node_modules of its own: the work tree's libraries serve it.)"""
    command = ["node", "--input-type=module", "-e", BUILD, str(tree / "extension" / "content"), str(ROOT / "node_modules")]
    done = subprocess.run(command, input=entry, capture_output=True, text=True, cwd=ROOT, timeout=120)
    if done.returncode != 0:
        raise RuntimeError(f"esbuild could not bundle the content scripts:\n{done.stderr}")
    return done.stdout


@lru_cache(maxsize=None)
def for_tests() -> str:
    return bundle(FOR_TESTS)


def tree_at(revision: str, into: Path) -> Path:
    """The extension's sources at a git revision, unpacked under `into`."""
    archive = subprocess.run(["git", "archive", revision, "extension"], cwd=ROOT, capture_output=True, check=True).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into


def temporary_tree(revision: str) -> Path:
    return tree_at(revision, Path(tempfile.mkdtemp(prefix="tabagent-revision-")))
