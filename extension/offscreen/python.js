// Starts Pyodide once for the offscreen document and imports tabagent into it.
// Everything comes from the extension's own vendor/ folder, written by the build:
// the Pyodide runtime, and py/tabagent packed as a zip (unpacked into Pyodide's file
// system at start, so an edited .py file is live after a rebuild and a reload).

import { loadPyodide } from "../vendor/pyodide/pyodide.mjs";
import { loadSnapshot, saveSnapshot } from "./snapshot-store.js";

const VENDOR = new URL("../vendor/", import.meta.url);
const PYODIDE_URL = new URL("pyodide/", VENDOR).href;
const PACKAGE_DIR = "/home/pyodide/tabagent-src";

// Modules the agent needs on every turn: importing them before the snapshot is taken
// means a restored interpreter has them already.
const WARM_IMPORTS = "import asyncio, json, re, ast, inspect, dataclasses, typing, traceback, tabagent";

async function fetchBytes(name) {
  const response = await fetch(new URL(name, VENDOR));
  if (!response.ok) throw new Error(`${name} is missing from the extension (${response.status}): run make build`);
  return response.arrayBuffer();
}

async function readBuildInfo() {
  const response = await fetch(new URL("build-info.json", VENDOR));
  if (!response.ok) throw new Error("vendor/build-info.json is missing: run make build");
  return response.json();
}

function installPackage(pyodide, zipBytes) {
  pyodide.unpackArchive(zipBytes, "zip", { extractDir: PACKAGE_DIR });
  pyodide.runPython(`import sys\nif ${JSON.stringify(PACKAGE_DIR)} not in sys.path: sys.path.insert(0, ${JSON.stringify(PACKAGE_DIR)})`);
}

async function bootFromSnapshot(snapshot, zipBytes) {
  const pyodide = await loadPyodide({ indexURL: PYODIDE_URL, _loadSnapshot: snapshot });
  // The file system is not part of the snapshot: put the package files back for lazy imports.
  installPackage(pyodide, zipBytes);
  return pyodide;
}

async function bootFresh(zipBytes, snapshotKey) {
  const pyodide = await loadPyodide({ indexURL: PYODIDE_URL, _makeSnapshot: true });
  installPackage(pyodide, zipBytes);
  pyodide.runPython(WARM_IMPORTS);
  try {
    const bytes = pyodide.makeMemorySnapshot();
    // Saving is not on the critical path: the interpreter is ready now.
    saveSnapshot(snapshotKey, bytes).catch((error) => console.warn("TabAgent: snapshot not saved:", error));
  } catch (error) {
    console.warn("TabAgent: no memory snapshot this time:", error);
  }
  return pyodide;
}

// Returns { pyodide, info } where info describes the start for the readiness indicator.
export async function startPython() {
  const startedAt = performance.now();
  const [build, zipBytes] = await Promise.all([readBuildInfo(), fetchBytes("tabagent.zip")]);
  const snapshotKey = `${build.pyodideVersion}/${build.packageHash}`;
  let snapshot = null;
  try {
    snapshot = await loadSnapshot(snapshotKey);
  } catch (error) {
    console.warn("TabAgent: snapshot store unreadable, starting without it:", error);
  }
  let pyodide = null;
  if (snapshot) {
    try {
      pyodide = await bootFromSnapshot(snapshot, zipBytes);
    } catch (error) {
      console.warn("TabAgent: snapshot did not restore, starting without it:", error);
    }
  }
  const fromSnapshot = pyodide !== null;
  pyodide ??= await bootFresh(zipBytes, snapshotKey);
  const versions = pyodide.runPython("import sys, tabagent; [sys.version.split()[0], tabagent.__version__]").toJs();
  return {
    pyodide,
    info: {
      pythonVersion: versions[0],
      tabagentVersion: versions[1],
      pyodideVersion: pyodide.version,
      startupMs: Math.round(performance.now() - startedAt),
      fromSnapshot,
    },
  };
}
