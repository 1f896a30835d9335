// Whether the code a model writes can run here (Firefox's version of
// extension/browser/code-sandbox.js): not before Firefox 154. Its sandbox needs a page with a
// unique origin, no extension APIs and a CSP that allows no connection; Firefox 153 ESR has no
// manifest sandbox pages, and an extension page framed with the sandbox attribute keeps the
// extension pages' CSP, which lets it reach the network. So the CodeAgent is not offered and
// never runs here; the ToolCallingAgent, which runs no model code, is the agent.
export const WHY_NO_CODE_SANDBOX =
  "Running the model's code (the CodeAgent) is not available in Firefox yet: it needs sandbox pages, which Firefox 153 lacks. Choose the ToolCallingAgent.";
