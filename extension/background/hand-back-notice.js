// A hand-back (the agent's ask_user: it waits for the user) that nobody may see: when no
// TabAgent panel is open, a notification says the agent needs them. Its text is the agent's
// question, plain text in the browser's own notification, with what draws nothing written out.
// A scheduled run's question is said once, by the run's own notice (scheduled-runs.js). Its
// click opens the panel on the conversation (notice-clicks.js).

import { panelIsOpen } from "../platform/chrome/panel.js";
import { isScheduledRun } from "./scheduled-runs.js";
import { t } from "../shared/ui/i18n.js";
import { shown } from "../shared/import-checks/unseen-text.js";
import { EventKind } from "../shared/wire.js";
import { noticeIdFor } from "./notice-clicks.js";

const ICON = chrome.runtime.getURL("extension/icons/icon-128.png");
const LONGEST = 300;

const asking = (events) => events.filter((event) => event.kind === EventKind.hand_back && typeof event.data?.answer !== "string");

export async function noticeHandBacks(events, conversationId) {
  const requests = asking(events ?? []);
  if (!requests.length || (await panelIsOpen()) || (await isScheduledRun(conversationId))) return;
  for (const { data } of requests) {
    const question = shown(String(data.question ?? ""));
    chrome.notifications.create(noticeIdFor("hand-back", { conversationId, request: data.id }), {
      type: "basic", iconUrl: ICON, title: t("handBackNotificationTitle"),
      message: question.length > LONGEST ? `${question.slice(0, LONGEST - 1)}…` : question,
    });
  }
}
