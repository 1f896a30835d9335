// A form an MCP server asks the user to fill in (its elicitation: a `confirmation` event with a
// `form`, docs/events.md): the server named, what it asks, one field per entry of the form as
// Python drew it from the server's schema (simple types only, never a field for a secret:
// py/tabagent/mcp/elicitation.py), and three answers: Send, Decline, Cancel. What the server
// wrote is shown with every character that draws nothing written out (unseen-text.js). What is
// sent is what the fields hold when Send is pressed; the form then takes no other answer
// (question-view.js).

import { MessageType } from "../shared/protocol/messages.js";
import { h } from "../shared/ui/dom.js";
import { t } from "../shared/ui/i18n.js";
import { Decision } from "../shared/wire.js";
import { shown } from "../shared/import-checks/unseen-text.js";
import { decisionButtons, decisionSaid, detailList } from "./confirmation-view.js";
import { QuestionView } from "./question-view.js";

const INPUT_TYPES = { text: "text", email: "email", url: "url", date: "date", datetime: "datetime-local", number: "number", integer: "number" };
const ANSWERS = [[Decision.once, "formSend"], [Decision.deny, "formDecline"], [Decision.cancel, "formCancel"]];

function control(field) {
  const common = { name: field.name, required: field.required && field.kind !== "boolean", "data-field": field.name };
  if (field.kind === "choices") {
    const picked = new Set(field.default ?? []);
    return h("span", { class: "form-choices", "data-field": field.name }, ...field.choices.map((choice) =>
      h("label", {}, h("input", { type: "checkbox", value: choice.value, checked: picked.has(choice.value) }), shown(choice.label))));
  }
  if (field.kind === "boolean") return h("input", { ...common, type: "checkbox", checked: field.default === true });
  if (field.kind === "choice") {
    const blank = field.required ? [] : [h("option", { value: "" }, "")];
    return h("select", common, ...blank, ...field.choices.map((choice) =>
      h("option", { value: choice.value, selected: choice.value === field.default }, shown(choice.label))));
  }
  return h("input", {
    ...common, type: INPUT_TYPES[field.kind] ?? "text", value: field.default ?? "",
    min: field.min, max: field.max, minlength: field.min_length, maxlength: field.max_length,
    step: field.kind === "integer" ? "1" : field.kind === "number" ? "any" : undefined,
  });
}

function row(field, input) {
  const help = field.description ? h("span", { class: "form-help" }, shown(field.description)) : null;
  return h("label", { class: `form-field kind-${field.kind}` }, h("span", { class: "form-label" }, shown(field.label)), input, help);
}

// A field's value as its schema wants it; undefined when an optional field was left empty.
function valueOf(field, input) {
  if (field.kind === "choices") {
    const picked = [...input.querySelectorAll("input:checked")].map((box) => box.value);
    return picked.length || field.required ? picked : undefined;
  }
  if (field.kind === "boolean") return input.checked;
  if (input.value === "") return undefined;
  if (field.kind === "number" || field.kind === "integer") return Number(input.value);
  if (field.kind === "datetime") return new Date(input.value).toISOString();
  return input.value;
}

export class FormView extends QuestionView {
  constructor(event) {
    super(event, MessageType.answerConfirmation, "confirmation-outcome");
    const { tool, message, details, form } = event.data;
    this.fields = form.map((field) => [field, control(field)]);
    this.form = h("form", { class: "elicitation-form", onsubmit: (e) => e.preventDefault() }, ...this.fields.map(([field, input]) => row(field, input)));
    this.buttons = decisionButtons(this, ANSWERS);
    this.element = this.frame(
      { class: "confirmation elicitation", "aria-label": shown(message), "data-tool": tool },
      h("p", { class: "confirmation-message" }, shown(message)),
      detailList(details),
      h("p", { class: "form-never-secrets" }, t("formNeverSecrets")),
      this.form,
      h("div", { class: "confirmation-buttons" }, ...this.buttons),
    );
  }

  // What is sent is what the fields hold when Send is pressed (a required field left empty: not sent).
  answer(decision) {
    if (decision === Decision.once && !this.form.reportValidity()) return;
    return this.send(decision, { decision, values: decision === Decision.once ? this.values() : {} });
  }

  values() {
    const entries = this.fields.map(([field, input]) => [field.name, valueOf(field, input)]).filter(([, value]) => value !== undefined);
    return Object.fromEntries(entries);
  }

  settle(decision) {
    super.settle(decision, decisionSaid(decision));
  }

  controls() {
    return [...this.buttons, ...this.form.elements];
  }
}
