// Conversations out of and back into TabAgent: JSON (complete, re-importable) and Markdown
// (for reading). Records never hold the API key, so exports cannot leak it.

import { t } from "../ui/i18n.js";
import { EventKind, NotFatal } from "../wire.js";

export const EXPORT_FORMAT = "tabagent-conversations";

export function toJson(records) {
  return JSON.stringify({ format: EXPORT_FORMAT, version: 1, exportedAt: new Date().toISOString(), conversations: records }, null, 2);
}

export function fromJson(text) {
  let data;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new Error(t("importNotJson", error.message));
  }
  if (data?.format !== EXPORT_FORMAT || !Array.isArray(data.conversations)) {
    throw new Error(t("importNotExport"));
  }
  return data.conversations;
}

// Records stored before imports were checked may have any shape: each is written out as
// far as it can be read, and never stops the export of the others.
const listOf = (value) => (Array.isArray(value) ? value : []);

function answerOf(turn) {
  const final = listOf(turn.events).findLast((event) => event?.kind === EventKind.final_answer && event.depth === 0);
  if (!final) return null;
  const answer = final.data?.answer;
  return typeof answer === "string" ? answer : "```json\n" + JSON.stringify(answer, null, 2) + "\n```";
}

function stepsOf(turn) {
  const lines = [];
  for (const event of listOf(turn.events)) {
    if (!event?.data) continue;
    const indent = "  ".repeat(Number.isSafeInteger(event.depth) && event.depth > 0 ? Math.min(event.depth, 20) : 0);
    if (event.kind === EventKind.reasoning) lines.push(`${indent}- thought: ${String(event.data.text ?? "").trim().replaceAll("\n", `\n${indent}  `)}`);
    if (event.kind === EventKind.tool_call) lines.push(`${indent}- called \`${event.data.name}\` with \`${JSON.stringify(event.data.arguments)}\``);
    if (event.kind === EventKind.code) lines.push(`${indent}- ran code:\n\n\`\`\`python\n${event.data.code}\n\`\`\``);
    if (event.kind === EventKind.error && event.data.kind !== NotFatal.retrying) lines.push(`${indent}- error: ${event.data.message}`);
  }
  return lines;
}

function recordAsMarkdown(record) {
  const parts = [`# ${record.title}`, "", `_${new Date(record.createdAt).toLocaleString()}_`, ""];
  for (const turn of listOf(record.turns)) {
    if (!turn || typeof turn !== "object") continue;
    parts.push(`**You:** ${turn.text}`, "");
    const selection = turn.context?.selection;
    if (typeof selection === "string" && selection) parts.push(`> ${selection.replaceAll("\n", "\n> ")}`, "");
    const steps = stepsOf(turn);
    if (steps.length) parts.push("<details><summary>Steps</summary>", "", ...steps, "", "</details>", "");
    parts.push(`**TabAgent:** ${answerOf(turn) ?? `(${turn.status})`}`, "");
  }
  return parts;
}

export function toMarkdown(records) {
  const parts = [];
  for (const record of records) {
    try {
      parts.push(...recordAsMarkdown(record));
    } catch (error) {
      parts.push(`# ${record?.title ?? "A conversation"}`, "", `_(This conversation could not be read: ${error.message})_`, "");
    }
  }
  return parts.join("\n");
}

export function download(filename, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = Object.assign(document.createElement("a"), { href: url, download: filename });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
