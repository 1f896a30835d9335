// Starts Pyodide once for the offscreen document and imports tabagent into it.
// Everything comes from the extension's own vendor/ folder, written by the build: the
// Pyodide runtime, py/tabagent packed as a zip (unpacked into Pyodide's file system at
// start, so an edited .py file is live after a rebuild and a reload), and a memory
// snapshot of an interpreter that has already imported it.

import { loadPyodide } from "../../vendor/pyodide/pyodide.mjs";
import { PACKAGE_DIR, WARM_IMPORTS } from "../../shared/python/interpreter-setup.js";
import { packageFiles, writePackageFiles } from "./package-files.js";

const VENDOR = new URL("../../vendor/", import.meta.url);
const PYODIDE_URL = new URL("pyodide/", VENDOR).href;

async function fetchVendor(name, as = "arrayBuffer") {
  const response = await fetch(new URL(name, VENDOR));
  if (!response.ok) throw new Error(`${name} is missing from the extension (${response.status}): run make build`);
  return response[as]();
}

// The snapshot made by the build, if it was made from exactly this runtime and package;
// rejects otherwise. It is the largest file, so it is fetched while Pyodide itself loads.
async function matchingSnapshot(buildInfo) {
  const [made, bytes, build] = await Promise.all([
    fetchVendor("python.snapshot.json", "json"),
    fetchVendor("python.snapshot"),
    buildInfo,
  ]);
  const expected = `${build.pyodideVersion}/${build.packageHash}`;
  if (made.key !== expected) throw new Error(`the snapshot was made for ${made.key}, this build is ${expected}`);
  return new Uint8Array(bytes);
}

function installPackage(pyodide, files) {
  writePackageFiles(pyodide, PACKAGE_DIR, files);
  pyodide.runPython(`import sys\nif ${JSON.stringify(PACKAGE_DIR)} not in sys.path: sys.path.insert(0, ${JSON.stringify(PACKAGE_DIR)})`);
}

// Moments of the start, as Unix times in ms (comparable across the panel, the offscreen
// document and this worker), for the start-up profile (bench/profile_start.py).
const phases = { workerStarted: Math.round(performance.timeOrigin) };
const mark = (name) => (phases[name] = Math.round(performance.timeOrigin + performance.now()));

async function timed(work) {
  const started = performance.now();
  const value = await work();
  return [value, Math.round(performance.now() - started)];
}

async function boot(snapshot, files) {
  try {
    const fetched = snapshot.then((bytes) => (mark("snapshotFetched"), bytes));
    const [pyodide, loadMs] = await timed(() => loadPyodide({ indexURL: PYODIDE_URL, _loadSnapshot: fetched }));
    mark("pyodideLoaded");
    // The file system is not part of the snapshot: put the package files back for lazy imports.
    installPackage(pyodide, await files);
    mark("packageInstalled");
    return { pyodide, loadMs, fromSnapshot: true };
  } catch (error) {
    console.warn("TabAgent: starting Python without the snapshot:", error.message ?? error);
  }
  const [pyodide, loadMs] = await timed(() => loadPyodide({ indexURL: PYODIDE_URL }));
  installPackage(pyodide, await files);
  pyodide.runPython(WARM_IMPORTS);
  return { pyodide, loadMs, fromSnapshot: false };
}

// Returns { pyodide, info } where info describes the start for the readiness indicator.
export async function startPython() {
  const startedAt = performance.now();
  mark("moduleRan");
  const build = fetchVendor("build-info.json", "json");
  // The package's files are read from their zip while Pyodide loads.
  const files = fetchVendor("tabagent.zip").then(packageFiles);
  const { pyodide, loadMs, fromSnapshot } = await boot(matchingSnapshot(build), files);
  const versions = pyodide.runPython("import sys, tabagent; [sys.version.split()[0], tabagent.__version__]").toJs();
  mark("ready");
  return {
    pyodide,
    info: {
      pythonVersion: versions[0],
      tabagentVersion: versions[1],
      pyodideVersion: pyodide.version,
      startupMs: Math.round(performance.now() - startedAt),
      pyodideLoadMs: loadMs,
      fromSnapshot,
      readyAt: Date.now(),
      phases,
    },
  };
}
