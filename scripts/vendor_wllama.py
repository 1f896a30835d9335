"""llama.cpp in WebAssembly (@wllama/wllama), vendored for the on-device model.

wllama starts its inference worker from a blob: URL of code it puts together at run time.
Firefox refuses that in an extension page (its extension CSP keeps `worker-src` to the
extension's own files, and rejects a policy that adds blob:), and Chrome's rules may tighten the
same way. So the build puts the worker together itself, from the same pieces wllama would use,
as two files of the extension (one with WebGPU, one without), and the vendored index.js starts
the worker from the file: the only change made to wllama's code, checked here (the build fails
when wllama's code no longer reads as expected). The options wllama puts in the first line of
its worker code (threads, the wasm's address) reach the file's worker as its name.

Pthreads (Chrome, cross-origin isolated) still start from a blob: of the emscripten module,
which Chrome allows an extension page: Firefox runs the model on one thread, with no blob:.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

PACKAGE = "@wllama/wllama"
RUN_OPTIONS_LINE = "const RUN_OPTIONS = JSON.parse(self.name);"
NO_WEBGPU = 'try{Object.defineProperty(WorkerNavigator.prototype,"gpu",{get:()=>({requestAdapter:async()=>null})});}catch(e){}'
WORKERS = {"llama-worker.js": False, "llama-worker-cpu.js": True}  # file -> without WebGPU

ORIGINAL_CREATE_WORKER = """var createWorker = (workerCode) => {
  const workerURL = URL.createObjectURL(
    isString(workerCode) ? new Blob([workerCode], { type: "text/javascript" }) : workerCode
  );
  return new Worker(workerURL, { type: "module" });
};"""
# The inference worker from its file (the options as its name); any other worker as before.
VENDORED_CREATE_WORKER = """var createWorker = (workerCode) => {
  // TabAgent's build (scripts/vendor_wllama.py): the inference worker runs from the extension's own file.
  const runOptions = isString(workerCode) && workerCode.match(/^const RUN_OPTIONS = (\\{.*\\});/);
  if (runOptions) {
    const file = workerCode.includes('WorkerNavigator.prototype,"gpu"') ? "./llama-worker-cpu.js" : "./llama-worker.js";
    return new Worker(new URL(file, import.meta.url), { type: "module", name: runOptions[1] });
  }
  const workerURL = URL.createObjectURL(
    isString(workerCode) ? new Blob([workerCode], { type: "text/javascript" }) : workerCode
  );
  return new Worker(workerURL, { type: "module" });
};"""


class VendorError(Exception):
    pass


def _generated_strings(source: str) -> dict[str, str]:
    """The worker code wllama keeps as string literals (src/workers-code/generated.ts)."""
    return {name: json.loads(text) for name, text in re.findall(r'^export const (\w+) = (".*");$', source, re.M)}


def _jspi_stub(index: str) -> str:
    match = re.search(r"^var JSPI_STUB = `(.*?)`;$", index, re.M | re.S)
    if not match or "${" in match.group(1):
        raise VendorError("wllama's JSPI_STUB is not where it was: check scripts/vendor_wllama.py")
    return match.group(1)


def worker_file(strings: dict[str, str], stub: str, without_webgpu: bool) -> str:
    """What wllama's ProxyToWorker.moduleInit would make, with the options read from the name."""
    module_code = stub + strings["WLLAMA_EMSCRIPTEN_CODE"]
    if without_webgpu:
        module_code = NO_WEBGPU + module_code
    main_module_code = module_code.replace("var Module", "var ___Module", 1)
    return ";\n\n".join([RUN_OPTIONS_LINE, f"function wModuleInit() {{ {main_module_code}; return Module; }}",
                         strings["LLAMA_CPP_WORKER_CODE"]])


def vendored_files(node_modules: Path) -> dict[str, bytes]:
    """vendor path -> bytes: wllama's module (its one change), its two worker files, the wasm."""
    root = node_modules / PACKAGE
    index = (root / "esm" / "index.js").read_text()
    if index.count(ORIGINAL_CREATE_WORKER) != 1 or "const RUN_OPTIONS = ${JSON.stringify(runOptions)};" not in index:
        raise VendorError("wllama's createWorker is not what scripts/vendor_wllama.py replaces: check it")
    strings = _generated_strings((root / "src" / "workers-code" / "generated.ts").read_text())
    if not {"WLLAMA_EMSCRIPTEN_CODE", "LLAMA_CPP_WORKER_CODE"} <= strings.keys():
        raise VendorError("wllama's generated worker code is not where it was: check scripts/vendor_wllama.py")
    stub = _jspi_stub(index)
    files = {"wllama/index.js": index.replace(ORIGINAL_CREATE_WORKER, VENDORED_CREATE_WORKER).encode(),
             "wllama/wllama.wasm": (root / "esm" / "wasm" / "wllama.wasm").read_bytes(),
             "wllama/LICENCE": (root / "LICENCE").read_bytes()}
    for name, without_webgpu in WORKERS.items():
        files[f"wllama/{name}"] = worker_file(strings, stub, without_webgpu).encode()
    return files
