// Runs the Pyodide-side test cases inside Pyodide under Node.js: the interpreter
// tabagent ships in. tests/pyodide/test_in_pyodide.py starts the local servers and
// runs this once; it can also be run by hand:
//
//   node tests/pyodide/runner.mjs --server http://127.0.0.1:PORT [--only cases_model.py::test_x]
//
// It copies py/tabagent and tests/pyodide/*.py into Pyodide's file system, runs every
// `async def test_*` of each cases_*.py (plain asserts, no pytest), and prints one JSON
// line per case on stdout: {"case", "ok", "seconds", "error"}. Python's own prints go
// to stderr so that stdout stays machine-readable.

import { loadPyodide } from "pyodide";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { installPackage } from "../../scripts/pyodide-package.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const CASE_TIMEOUT_S = 30;

function option(name) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const server = option("--server") ?? process.env.TABAGENT_TEST_SERVER;
if (!server) {
  console.error("usage: node tests/pyodide/runner.mjs --server http://127.0.0.1:PORT");
  process.exit(2);
}
const only = option("--only");
const mcpServer = option("--mcp") ?? process.env.TABAGENT_MCP_SERVER ?? "";
// The same kind of server, resumable, behind a relay that cuts a stream mid-call.
const mcpRelay = option("--mcp-relay") ?? process.env.TABAGENT_MCP_RELAY ?? "";
// A FastMCP 4 server whose long tool runs as a task (tests/helpers/fastmcp_server.py).
const fastMCP = option("--fastmcp") ?? process.env.TABAGENT_FASTMCP_SERVER ?? "";

const pyodide = await loadPyodide({
  env: { TABAGENT_TEST_SERVER: server, TABAGENT_MCP_SERVER: mcpServer, TABAGENT_MCP_RELAY: mcpRelay,
    TABAGENT_FASTMCP_SERVER: fastMCP, HOME: "/home/pyodide" },
  stdout: (line) => process.stderr.write(line + "\n"),
  stderr: (line) => process.stderr.write(line + "\n"),
});
installPackage(pyodide);
const caseFiles = fs.readdirSync(here).filter((f) => /^cases_.*\.py$/.test(f)).sort();
pyodide.FS.mkdirTree("/cases");
for (const file of fs.readdirSync(here).filter((f) => f.endsWith(".py"))) {
  pyodide.FS.writeFile(`/cases/${file}`, fs.readFileSync(path.join(here, file)));
}
// The tools the cases share with the unit tests, importable as `sample_tools`.
pyodide.FS.writeFile("/cases/sample_tools.py", fs.readFileSync(path.join(here, "..", "helpers", "sample_tools.py")));

pyodide.runPython(`
import asyncio, importlib, inspect, json, sys, time, traceback
sys.path[:0] = ["/src", "/cases"]

def list_cases(module_name):
    module = importlib.import_module(module_name)
    return [name for name, value in vars(module).items()
            if name.startswith("test_") and inspect.iscoroutinefunction(value)]

async def run_case(module_name, name, timeout):
    function = getattr(importlib.import_module(module_name), name)
    started = time.monotonic()
    try:
        await asyncio.wait_for(function(), timeout)
        ok, error = True, None
    except BaseException:
        ok, error = False, traceback.format_exc()
    return json.dumps({"ok": ok, "seconds": round(time.monotonic() - started, 3), "error": error})
`);

const listCases = pyodide.globals.get("list_cases");
const runCase = pyodide.globals.get("run_case");
let failed = 0;
for (const file of caseFiles) {
  const module = file.replace(/\.py$/, "");
  let names;
  try {
    names = listCases(module).toJs();
  } catch (error) {
    console.log(JSON.stringify({ case: `${file}::<import>`, ok: false, seconds: 0, error: String(error) }));
    failed++;
    continue;
  }
  for (const name of names) {
    const id = `${file}::${name}`;
    if (only && only !== id) continue;
    const result = JSON.parse(await runCase(module, name, CASE_TIMEOUT_S));
    console.log(JSON.stringify({ case: id, ...result }));
    if (!result.ok) failed++;
  }
}
process.exit(failed ? 1 : 0);
