// Past conversations: newest first, searchable by title and text; open, rename, export,
// delete each one; export all, import a JSON export.

import { listConversations, loadAllConversations, loadConversation } from "../shared/storage/conversations.js";
import { EventKind } from "../shared/wire.js";
import { download, toJson, toMarkdown } from "../shared/storage/export.js";
import { MessageType } from "../shared/protocol/messages.js";
import { askBackground } from "../shared/protocol/runtime.js";
import { h } from "../shared/ui/dom.js";
import { t } from "../shared/ui/i18n.js";

// Records stored before imports were checked may have any shape: one that does not fit is
// searched for what it has, never allowed to break the search for the others.
const listOf = (value) => (Array.isArray(value) ? value : []);

function searchableText(record) {
  const parts = [record.title];
  for (const turn of listOf(record.turns)) {
    parts.push(turn?.text);
    for (const event of listOf(turn?.events)) if (event?.kind === EventKind.final_answer) parts.push(String(event.data?.answer));
  }
  return parts.filter((part) => typeof part === "string").join("\n").toLowerCase();
}

// An import goes to the service worker in parts: one message may not exceed 64 MiB, and an
// export of a long history does. A part of 4 M characters stays far below that however the
// message escapes them, and never splits a character made of two UTF-16 units.
const IMPORT_PART = 4_000_000;

function* textParts(text, size = IMPORT_PART) {
  let at = 0;
  do {
    let end = Math.min(at + size, text.length);
    if (end < text.length && /[\uD800-\uDBFF]/.test(text[end - 1])) end -= 1;
    yield text.slice(at, end);
    at = end;
  } while (at < text.length);
}

function timeOf(milliseconds) {
  const date = new Date(milliseconds);
  return Number.isNaN(date.getTime()) ? h("time", {}, "") : h("time", { datetime: date.toISOString() }, date.toLocaleDateString());
}

// A scheduled run's conversation says so, and names its schedule (and when a run was missed
// while the browser was closed, that it ran at the start).
function scheduledMark({ scheduled }) {
  if (!scheduled) return null;
  const missed = scheduled.missedAt ? ` ${t("runMissed", new Date(scheduled.missedAt).toLocaleString())}` : "";
  return h("span", { class: "scheduled", title: `${t("scheduledBy", scheduled.name)}${missed}` }, t("scheduledMark"));
}

function fileName(title, extension) {
  return `${(title || "conversation").replace(/[^\w.-]+/g, "-").slice(0, 60)}.${extension}`;
}

export class HistoryView {
  constructor({ section, list, search, onOpen, onError }) {
    Object.assign(this, { section, list, search, onOpen, onError });
    this.generation = 0; // counts refreshes: only the newest one's list is shown
    search.addEventListener("input", () => this.refresh());
  }

  get visible() {
    return !this.section.hidden;
  }

  toggle(show = !this.visible) {
    this.section.hidden = !show;
    if (show) this.refresh();
  }

  async refresh() {
    if (!this.visible) return;
    const query = this.search.value.trim().toLowerCase();
    const generation = (this.generation += 1);
    let entries = await listConversations();
    if (query) {
      const matching = new Set((await loadAllConversations()).filter((r) => searchableText(r).includes(query)).map((r) => r.id));
      entries = entries.filter((entry) => matching.has(entry.id));
    }
    if (generation !== this.generation) return; // a newer refresh is under way: it wins
    this.list.replaceChildren(...entries.map((entry) => this.item(entry)));
    if (entries.length === 0) this.list.append(h("li", { class: "empty" }, query ? t("nothingMatches") : t("noConversations")));
  }

  item(entry) {
    const act = (work) => () => work().catch((error) => this.onError(error.message));
    return h(
      "li",
      { "data-id": entry.id },
      h("button", { class: "open", type: "button", title: entry.title, onclick: () => this.onOpen(entry.id) }, entry.title),
      scheduledMark(entry),
      timeOf(entry.updatedAt),
      h("button", { class: "rename", type: "button", title: t("rename"), onclick: act(() => this.rename(entry)) }, t("rename")),
      h("button", { class: "export-json", type: "button", title: t("exportJson"), onclick: act(() => this.export([entry.id], "json")) }, "JSON"),
      h("button", { class: "export-md", type: "button", title: t("exportMd"), onclick: act(() => this.export([entry.id], "md")) }, "MD"),
      h("button", { class: "delete", type: "button", title: t("delete"), onclick: act(() => this.remove(entry)) }, t("delete")),
    );
  }

  // Rename in place: the title becomes a field; Enter saves, Escape cancels.
  async rename(entry) {
    const row = this.list.querySelector(`li[data-id="${entry.id}"]`);
    const field = h("input", { class: "title-field", value: entry.title, "aria-label": t("newTitle") });
    row.querySelector(".open").replaceWith(field);
    field.focus();
    field.select();
    field.addEventListener("keydown", (event) => {
      if (event.key === "Escape") this.refresh();
      if (event.key !== "Enter") return;
      askBackground(MessageType.renameConversation, { conversationId: entry.id, title: field.value })
        .then(() => this.refresh())
        .catch((error) => this.onError(error.message));
    });
  }

  // Deleting asks once more on the same button, so a stray click loses nothing.
  async remove(entry) {
    const button = this.list.querySelector(`li[data-id="${entry.id}"] .delete`);
    if (button.dataset.armed !== "true") {
      button.dataset.armed = "true";
      button.textContent = t("sure");
      setTimeout(() => {
        button.dataset.armed = "false";
        button.textContent = t("delete");
      }, 4000);
      return;
    }
    await askBackground(MessageType.deleteConversation, { conversationId: entry.id });
    await this.refresh();
  }

  async export(ids, format) {
    const records = ids ? (await Promise.all(ids.map(loadConversation))).filter(Boolean) : await loadAllConversations();
    const name = records.length === 1 ? records[0].title : "tabagent-conversations";
    if (format === "json") download(fileName(name, "json"), toJson(records), "application/json");
    else download(fileName(name, "md"), toMarkdown(records), "text/markdown");
  }

  async import(file) {
    const importId = crypto.randomUUID();
    for (const text of textParts(await file.text())) await askBackground(MessageType.importPart, { importId, text });
    const result = await askBackground(MessageType.importConversations, { importId });
    await this.refresh();
    return result; // { imported, notes }
  }
}
