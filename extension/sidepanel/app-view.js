// An MCP App in a step (a `tool_app` event, docs/events.md): the tool's result shown as the
// server's own view, the page its `ui://` resource holds (docs/tools.md, "MCP Apps").
//
// The app runs walled in: extension/app-frame/ frames it with no extension APIs, an origin of
// its own and a CSP that reaches only the network it declares (named above it here). It talks
// to TabAgent only through the JSON-RPC bridge of the official package (@modelcontextprotocol/
// ext-apps' AppBridge, vendored by the build), which this view drives: it hands the app the
// call's arguments and result, sizes its frame, and passes on the one thing an app may ask,
// calling a tool of its own server (the server the step names, never one the app names), which
// Python runs under the consent a model's call of that tool gets; the question, and each call,
// show under the app. Nothing else an app may ask (a message in the chat, a link to open, the
// model's context) is offered.

import { MessageType } from "../shared/protocol/messages.js";
import { askBackground } from "../shared/protocol/runtime.js";
import { h } from "../shared/ui/dom.js";
import { t } from "../shared/ui/i18n.js";
import { shown } from "../shared/import-checks/unseen-text.js";
import { EventKind } from "../shared/wire.js";
import { ConfirmationView } from "./confirmation-view.js";

const FRAME = chrome.runtime.getURL("extension/app-frame/app-frame.html");
const BRIDGE = chrome.runtime.getURL("extension/vendor/ext-apps/app-bridge.mjs");
const MAX_HEIGHT = 600; // px of panel an app may take; it scrolls inside past that
const views = new Map(); // app id -> AppView on screen, for the steps of its calls

// The steps of an app's call, as Python makes them (offscreen/python/app-calls.js).
export function receiveAppCallEvents({ appId, events }) {
  const view = views.get(appId);
  for (const event of Array.isArray(events) ? events : []) view?.showCallEvent(event);
}

export class AppView {
  constructor(event) {
    const { server_id: serverId, server, uri, arguments: args, result } = event.data;
    this.id = crypto.randomUUID();
    this.conversationId = event.conversation_id;
    this.app = { serverId, server, uri, args: args ?? {}, result: result ?? { content: [] } };
    this.frame = h("iframe", { class: "app-frame", sandbox: "allow-scripts", title: t("appFrameTitle", server) });
    this.status = h("p", { class: "app-status" }, t("appLoading"));
    this.network = h("p", { class: "app-network", hidden: true });
    this.calls = h("div", { class: "app-calls" });
    this.element = h("section", { class: "mcp-app", "data-server": server, "data-uri": uri },
      h("header", {}, t("appFrom", server)), this.network, this.status, this.frame, this.calls);
    this.confirmations = new Map();
    views.set(this.id, this);
  }

  // Once the view is in the document (its frame has a window to talk to).
  async show() {
    try {
      const page = await askBackground(MessageType.readMcpApp, { serverId: this.app.serverId, uri: this.app.uri });
      if (!page.ok) return this.fail(page.error);
      this.declare(page.csp);
      await this.connect(page);
      this.frame.src = FRAME; // after the bridge listens: the frame's first word is that it is ready
    } catch (error) {
      this.fail(error.message);
    }
  }

  declare(csp) {
    const domains = [...(csp?.connectDomains ?? []), ...(csp?.resourceDomains ?? [])];
    this.network.hidden = false;
    this.network.textContent = domains.length ? t("appNetwork", [...new Set(domains)].join(", ")) : t("appNoNetwork");
  }

  async connect(page) {
    const { AppBridge, PostMessageTransport } = await import(BRIDGE);
    const dark = matchMedia("(prefers-color-scheme: dark)").matches;
    const capabilities = { serverTools: {}, sandbox: { csp: page.csp, permissions: {} } };
    const context = { theme: dark ? "dark" : "light", displayMode: "inline", availableDisplayModes: ["inline"],
      containerDimensions: { maxHeight: MAX_HEIGHT }, platform: "web", locale: navigator.language };
    this.bridge = new AppBridge(null, { name: "TabAgent", version: chrome.runtime.getManifest().version }, capabilities, { hostContext: context });
    this.bridge.onsandboxready = () => this.bridge.sendSandboxResourceReady({ html: page.html, csp: page.csp });
    this.bridge.oninitialized = () => {
      this.status.hidden = true;
      this.bridge.sendToolInput({ arguments: this.app.args });
      this.bridge.sendToolResult(this.app.result);
    };
    this.bridge.onsizechange = ({ height }) => {
      if (Number.isFinite(height)) this.frame.style.height = `${Math.min(Math.max(height, 40), MAX_HEIGHT)}px`;
    };
    this.bridge.oncalltool = (params) => this.callTool(params);
    await this.bridge.connect(new PostMessageTransport(this.frame.contentWindow, this.frame.contentWindow));
  }

  // A call from the app: to its own server only, answered as Python answers (an error in words
  // reaches the app as the JSON-RPC error it gets).
  async callTool({ name, arguments: args }) {
    const reply = await askBackground(MessageType.mcpAppCall, {
      conversationId: this.conversationId, appId: this.id, serverId: this.app.serverId, tool: String(name), arguments: args ?? {},
    });
    if (!reply.ok) throw new Error(reply.error);
    return reply.result;
  }

  showCallEvent(event) {
    if (event.kind === EventKind.tool_call) {
      this.calls.append(h("div", { class: "app-call", "data-call": event.data.id }, t("appCalls", shown(event.data.name))));
    } else if (event.kind === EventKind.confirmation) {
      let box = this.confirmations.get(event.data.id);
      if (!box) {
        box = new ConfirmationView(event);
        this.confirmations.set(event.data.id, box);
        this.calls.append(box.element);
      }
      if (event.data.decision && box.asking) box.settle(event.data.decision);
    } else if (event.kind === EventKind.tool_result) {
      const line = this.calls.querySelector(`[data-call="${CSS.escape(String(event.data.id))}"]`);
      line?.append(h("pre", { class: `result${event.data.is_error ? " error" : ""}` }, shown(String(event.data.result ?? ""))));
    }
  }

  fail(message) {
    this.status.hidden = false;
    this.status.classList.add("error");
    this.status.textContent = shown(String(message));
    this.frame.hidden = true;
  }

  // Off the screen: the app is told, then forgotten (its frame goes with the turn's view).
  close() {
    views.delete(this.id);
    this.bridge?.teardownResource({ reason: "closed" }, { timeout: 500 }).catch(() => {});
  }
}

