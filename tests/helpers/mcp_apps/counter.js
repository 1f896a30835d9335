// An MCP App as servers ship them: built on the official App SDK (@modelcontextprotocol/ext-apps),
// bundled into its page. It shows the count its tool returned, and a button that calls the
// server's app-only tool `bump` back through the host; what came back (or why not) is written
// on the page.
import { App } from "@modelcontextprotocol/ext-apps";

const app = new App({ name: "Counter", version: "1.0.0" });
const count = document.getElementById("count");
const said = document.getElementById("said");
app.ontoolresult = (result) => {
  count.textContent = String(result.structuredContent?.count ?? "?");
  document.body.dataset.ready = "yes";
};
async function callServerTool(name, args) {
  try {
    const result = await app.callServerTool({ name, arguments: args });
    if (result.structuredContent?.count !== undefined) count.textContent = String(result.structuredContent.count);
    said.textContent = `${name}: ${result.isError ? "error" : "ok"}`;
  } catch (error) {
    said.textContent = `${name} refused: ${error.message}`;
  }
}
document.getElementById("bump").addEventListener("click", () => callServerTool("bump", { by: 1 }));
document.getElementById("model-only").addEventListener("click", () => callServerTool("model_only", {}));
document.getElementById("other").addEventListener("click", () => callServerTool("other__add", { a: 1, b: 2 }));
app.connect();
