// The words for secrets (py/tabagent/secret_words.py, through wire.js SECRET_WORDS), read as
// Python reads them: the same normalizing, the same patterns. The content scripts take a field
// named or labelled with one for a password field (content/secret-fields.js); a test checks the
// two languages read the list alike (tests/unit/test_secret_words.py).

import { SECRET_WORDS } from "./wire.js";

const LETTER = "[\\p{L}\\p{N}]";
const NO_SPACES = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\u1100-\u11ff\uf900-\ufaff]/u;
const escaped = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

// Text as the lists are read: a camelCase or snake_case name in words, accents and case gone,
// everything but letters and digits a single space (secret_words.py `normalized`).
export function normalized(text) {
  const spaced = String(text ?? "").replace(/(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/g, " ");
  return spaced.normalize("NFKD").replace(/\p{Mn}/gu, "").toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();
}

// One entry of the lists as a regular expression (secret_words.py `entry_pattern`).
function entryPattern(entry) {
  const words = entry.split(/\s+/).map((word) => {
    const core = escaped(normalized(word.replace(/^\*+|\*+$/g, "")));
    return (word.startsWith("*") ? `${LETTER}*` : "") + core + (word.endsWith("*") ? `${LETTER}*` : "");
  });
  const body = words.join(" ");
  return NO_SPACES.test(entry) ? body : `(?<!${LETTER})${body}(?!${LETTER})`;
}

export const patternOf = (kinds) => new RegExp(kinds.flatMap((kind) => SECRET_WORDS[kind])
  .sort((a, b) => b.length - a.length).map(entryPattern).join("|"), "u");

// The secret words `text` holds (normalized), of the kinds given; null when none.
export function secretWordIn(text, kinds = Object.keys(SECRET_WORDS)) {
  return normalized(text).match(patternOf(kinds))?.[0] ?? null;
}
