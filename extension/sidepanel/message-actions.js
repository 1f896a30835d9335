// What the user can do with a finished turn: copy the answer (as Markdown or as plain text),
// regenerate it, edit the question and send it again, delete the turn, and save what it did on
// pages as a workflow (a Python tool, opened in the Tools view to read before it runs). Regenerating and
// editing REPLACE the rest of the conversation: the turn and every turn after it go, and the
// new answer continues from what came before (the agent forgets what was replaced).
// Each action is a "turn-action" event bubbling up to the panel, which asks the service worker.

import { h } from "../shared/ui/dom.js";
import { t } from "../shared/ui/i18n.js";

function act(element, action, detail = {}) {
  element.dispatchEvent(new CustomEvent("turn-action", { bubbles: true, detail: { action, ...detail } }));
}

async function copy(button, text) {
  await navigator.clipboard.writeText(text);
  const label = button.textContent;
  button.textContent = t("copied");
  setTimeout(() => (button.textContent = label), 1200);
}

// The answer as a reader sees it: no copy buttons, no MathML twin of each formula.
function visibleText(element) {
  element.classList.add("copying");
  const text = element.innerText.trim();
  element.classList.remove("copying");
  return text;
}

export function answerActions(turn) {
  const button = (label, name, onclick, text = label) => h("button", { type: "button", class: `action-${name}`, "aria-label": label, title: label, onclick }, text);
  const bar = h(
    "div",
    { class: "message-actions", role: "group", "aria-label": t("answerActions") },
    button(t("copyMarkdown"), "copy-markdown", (event) => copy(event.currentTarget, turn.answerText ?? ""), t("copy")),
    button(t("copyText"), "copy-text", (event) => copy(event.currentTarget, visibleText(turn.answer))),
    button(t("regenerateTitle"), "regenerate", () => act(bar, "regenerate", { turnId: turn.id }), t("regenerate")),
    button(t("deleteTurn"), "delete", () => act(bar, "delete", { turnId: turn.id })),
    button(t("saveWorkflowTitle"), "save-workflow", () => act(bar, "save-workflow", { turnId: turn.id }), t("saveWorkflow")),
  );
  bar.querySelector(".action-save-workflow").hidden = true; // until the turn has done something on a page
  return bar;
}

export function editButton(turn) {
  const label = t("editTitle");
  return h("button", { type: "button", class: "action-edit", "aria-label": label, title: label, onclick: () => startEditing(turn) }, t("edit"));
}

// The question becomes a box to edit in place; sending it replaces this turn and the rest.
export function startEditing(turn) {
  if (turn.editor?.isConnected) return turn.editor.querySelector("textarea").focus();
  const box = h("textarea", { class: "edit-box", rows: 3, "aria-label": t("editLabel") });
  box.value = turn.text;
  const close = () => {
    turn.editor.remove();
    turn.question.hidden = false;
    turn.editor = null;
  };
  const send = () => {
    const text = box.value.trim();
    if (!text) return;
    act(turn.element, "edit", { turnId: turn.id, text });
    close();
  };
  box.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      send();
    } else if (event.key === "Escape") {
      event.stopPropagation();
      close();
    }
  });
  turn.editor = h(
    "div",
    { class: "editor" },
    box,
    h("p", { class: "edit-hint" }, t("editHint")),
    h("div", { class: "message-actions" },
      h("button", { type: "button", class: "primary", onclick: send }, t("send")),
      h("button", { type: "button", onclick: close }, t("cancel"))),
  );
  turn.question.hidden = true;
  turn.question.after(turn.editor);
  box.focus();
  box.setSelectionRange(box.value.length, box.value.length);
}
