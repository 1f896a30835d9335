// A page action waiting for the user's consent (a `confirmation` event, docs/events.md): who
// asks (the actor: TabAgent, one of its agents, a workflow, a schedule, an MCP client or server,
// py/tabagent/app/consent.py), the sentence saying exactly what will happen, its parts (page,
// element, text to type or value to set, address), and three answers. Every character that draws nothing is written out (unseen-text.js
// `shown`): the user approves only what they can read. The answer goes to the agent through the service worker; the box then
// shows the decision and takes no other answer (question-view.js).

import { MessageType } from "../shared/protocol/messages.js";
import { h } from "../shared/ui/dom.js";
import { t } from "../shared/ui/i18n.js";
import { Decision } from "../shared/wire.js";
import { shown } from "../shared/import-checks/unseen-text.js";
import { QuestionView } from "./question-view.js";

// Message keys: the question itself is written by the code that will act (its own words).
const DETAILS = {
  page: "confirmPage", element: "confirmElement", locator: "confirmLocator", target: "confirmTarget", target_locator: "confirmLocator",
  text: "confirmText", value: "confirmValue", url: "confirmUrl",
  file: "confirmFile", from: "confirmFrom", // a download read_download reads
  server: "confirmServer", tool: "confirmTool", arguments: "confirmArguments", changed: "confirmChanged", // an MCP tool's call
  asks: "confirmServerAsks", request: "confirmSamplingRequest", reply: "confirmSamplingReply", // what an MCP server asks
};
const ANSWERS = [
  [Decision.once, "allowOnce"],
  [Decision.turn, "allowForTurn"],
  [Decision.site, "allowOnSite"], // offered for actions on a page (event.data.site)
  [Decision.deny, "denyIt"],
];
const DECIDED = {
  once: "allowedOnce", turn: "allowedForTurn", site: "allowedOnSite", deny: "denied", cancel: "cancelled", ended: "notAnswered",
  allowed_by_settings: "allowedBySettings", refused_by_settings: "refusedBySettings", // the site's rule answered
};
// What allowed an action nobody was asked about (decision "allowed_by_allowance"): event.data.allowed_by.
const ALLOWED_BY = {
  your_turn: "allowedByYourTurn", your_site: "allowedByYourSite", workflow_sites: "allowedByWorkflowSites", schedule_sites: "allowedByScheduleSites",
};
const ACTORS = { model: "actorModel", agent: "actorAgent", workflow: "actorWorkflow", schedule: "actorSchedule", mcp_client: "actorMcpClient", server: "actorServer", app: "actorApp" };

// Who asks, in the panel's words; every character that draws nothing written out (a client or
// a server names itself).
export function actorNamed(actor) {
  if (!actor || !Object.hasOwn(ACTORS, actor.kind)) return "";
  const named = t(ACTORS[actor.kind], shown(String(actor.name ?? "")));
  return actor.within ? t("actorWithin", named, actorNamed(actor.within)) : named;
}

const hostOf = (site) => {
  try {
    return site ? new URL(site).host : "";
  } catch {
    return "";
  }
};

export function detailList(details) {
  const rows = Object.entries(DETAILS)
    .filter(([key]) => details?.[key] != null && details[key] !== "")
    .flatMap(([key, label]) => [h("dt", {}, t(label)), h("dd", { "data-detail": key }, shown(details[key]))]);
  return h("dl", { class: "confirmation-details" }, ...rows);
}

// The spot a click by position or a drag presses, marked, as the page showed it when asked
// (page_actions.py): a picture the extension drew, shown only as the image it says it is.
const PICTURE = /^data:image\/(png|jpeg);base64,[A-Za-z0-9+/]+=*$/;

export function spotPicture(details) {
  const picture = details?.picture;
  if (typeof picture !== "string" || !PICTURE.test(picture)) return null;
  return h("img", { class: "confirmation-picture", src: picture, alt: t("confirmPicture"), "data-detail": "picture" });
}

// One button per answer offered: [decision, its label's message key]; pressing it answers `view`.
export function decisionButtons(view, answers, label = (key) => t(key)) {
  return answers.map(([decision, key]) =>
    h("button", { type: "button", "data-decision": decision, onclick: () => view.answer(decision) }, label(key)));
}

// What the box says once decided (one of wire.js CONFIRMATION_DECISIONS, "ended" when the turn
// ended unanswered, or the site's rule).
export const decisionSaid = (decision) => (DECIDED[decision] ? t(DECIDED[decision]) : decision);

export class ConfirmationView extends QuestionView {
  constructor(event) {
    super(event, MessageType.answerConfirmation, "confirmation-outcome");
    const { tool, message, details, site, answers, actor, allowed_by: allowedBy } = event.data;
    this.allowedBy = allowedBy;
    // answers: the only answers offered, when the question says (an MCP server's request: once or not).
    const offered = ([decision]) => (decision !== Decision.site || site) && (!answers || answers.includes(decision));
    this.buttons = decisionButtons(this, ANSWERS.filter(offered), (key) => t(key, hostOf(site)));
    this.element = this.frame(
      { class: "confirmation", "aria-label": t("confirmAsks", tool), "data-tool": tool },
      actor ? h("p", { class: "confirmation-actor", "data-actor": actor.kind }, t("actorAsks", actorNamed(actor))) : null,
      h("p", { class: "confirmation-message" }, shown(message)),
      spotPicture(details),
      detailList(details),
      h("div", { class: "confirmation-buttons" }, ...this.buttons),
    );
  }

  answer(decision) {
    return this.send(decision, { decision });
  }

  settle(decision) {
    const said = decision === "allowed_by_allowance" ? t(ALLOWED_BY[this.allowedBy] ?? "allowedOnce") : decisionSaid(decision);
    super.settle(decision, said);
  }

  controls() {
    return this.buttons;
  }
}
