// Whether the code a model writes can run here (Chrome's version: yes, in the manifest's
// sandbox page; Firefox's is extension/platform/firefox/code-sandbox.js). Empty: it can; otherwise the
// reason it cannot, in words a person can act on.
export const WHY_NO_CODE_SANDBOX = "";
