import { showPythonStatus } from "./python-status.js";

showPythonStatus(document.getElementById("python-status"));
