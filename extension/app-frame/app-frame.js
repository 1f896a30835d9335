// The frame an MCP App runs in (the MCP Apps spec's "sandbox proxy"): a unique ("null") origin
// with no extension APIs (manifest: sandbox.pages; in Firefox, the sandbox attribute the panel
// frames it with), which puts the app's HTML in a frame of its own inside it:
// - that frame is sandboxed too ("allow-scripts" only: no popups, no forms, no top navigation,
//   an origin of its own, so it can reach neither this page nor the panel);
// - its document starts with a Content-Security-Policy <meta> built here from the network the app
//   declares (its `_meta.ui.csp`, checked again below), so it reaches nothing else: no fetch, image,
//   style, font or script from anywhere it did not declare, no frame, no form, no worker. This
//   page's own policy (the manifest's sandbox CSP) still holds under it, and forbids any frame
//   navigation, so the app cannot leave by navigating itself either;
// - messages pass between the panel (our parent, the extension's origin) and the app's frame,
//   JSON-RPC both ways, and nothing else: from anyone else they are dropped, and the spec's
//   sandbox-* messages stay here.
// Classic script, no imports: in Firefox an opaque origin may load only web-accessible files.

(() => {
  const PARENT_ORIGIN = new URL(location.href).origin;
  const SANDBOX_MESSAGES = "ui/notifications/sandbox-";
  const RESOURCE_READY = "ui/notifications/sandbox-resource-ready";
  const PROXY_READY = "ui/notifications/sandbox-proxy-ready";
  // A source an app may declare: scheme://host[:port], the host maybe "*."-prefixed (as mcp/apps.py).
  const DOMAIN = /^(https?|wss?):\/\/(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:[0-9]{1,5})?$/i;
  let view = null;

  const declared = (list) => (Array.isArray(list) ? list.filter((one) => typeof one === "string" && DOMAIN.test(one)).slice(0, 20) : []);
  const sources = (fixed, list) => [fixed, ...list].filter(Boolean).join(" ") || "'none'";
  const isSandboxMessage = (data) => typeof data?.method === "string" && data.method.startsWith(SANDBOX_MESSAGES);

  // The app's policy: the spec's restrictive default, opened only to what it declares.
  function policy(csp) {
    const connect = declared(csp?.connectDomains);
    const resources = declared(csp?.resourceDomains);
    return [
      "default-src 'none'",
      `script-src ${sources("'unsafe-inline'", resources)}`,
      `style-src ${sources("'unsafe-inline'", resources)}`,
      `img-src ${sources("data:", resources)}`,
      `font-src ${sources("data:", resources)}`,
      `media-src ${sources("data:", resources)}`,
      `connect-src ${sources("", connect)}`,
      "frame-src 'none'",
      "worker-src 'none'",
      "object-src 'none'",
      "base-uri 'none'",
      "form-action 'none'",
    ].join("; ");
  }

  function show({ html, csp }) {
    if (view || typeof html !== "string") return; // one app per frame, shown once
    view = document.createElement("iframe");
    view.setAttribute("sandbox", "allow-scripts");
    view.setAttribute("title", "MCP App");
    // First in the document, before anything of the app's: the policy holds for all that follows.
    view.srcdoc = `<!doctype html><meta http-equiv="Content-Security-Policy" content="${policy(csp)}">${html}`;
    document.body.append(view);
  }

  addEventListener("message", (event) => {
    if (event.source === parent && event.origin === PARENT_ORIGIN) {
      if (event.data?.method === RESOURCE_READY) return show(event.data.params ?? {});
      if (!isSandboxMessage(event.data)) view?.contentWindow?.postMessage(event.data, "*"); // an opaque origin: "*" only
    } else if (view && event.source === view.contentWindow && !isSandboxMessage(event.data)) {
      parent.postMessage(event.data, PARENT_ORIGIN);
    }
  });

  // Framed without the sandbox attribute (where no manifest makes this a sandbox page), this page
  // would have the extension's origin: it then shows nothing, and the panel says so.
  if (self.origin === "null") parent.postMessage({ jsonrpc: "2.0", method: PROXY_READY, params: {} }, PARENT_ORIGIN);
})();
