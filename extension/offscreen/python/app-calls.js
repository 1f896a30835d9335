// A call an MCP App makes to a tool of its server (sidepanel/app-view.js), run in Python
// (py/tabagent/app/mcp_apps.py) under the consent a model's call of that tool gets: its steps
// (tool_call, confirmation, tool_result) go to the panels as they happen, where the app's
// step shows them and the user answers the question (MessageType.answerConfirmation, which
// the page bridge waits for). The call lasts as long as the user takes to answer.

import { Broadcast } from "../../shared/protocol/messages.js";
import { EntryPoint } from "../../shared/wire.js";
import { pageBridge } from "./page-bridge.js";

export async function appCall(python, { server, headers, appId, call }) {
  const page = pageBridge(call.conversation_id);
  const emit = (events) => {
    chrome.runtime.sendMessage({ type: Broadcast.appCallEvents, appId, events }).catch(() => {}); // no panel open: nobody to show
  };
  try {
    return await (await python).runEntryPoint(EntryPoint.mcp_app_call_json, [server, headers ?? {}, call], { emit, page_bridge: page });
  } finally {
    page.close(); // a question nobody answered is denied
  }
}
