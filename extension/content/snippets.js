// Page text made short enough to show: whitespace squashed, cut to a length, the start or end
// of a snippet without a half word.

// Collapse runs of whitespace (including newlines) so snippets read as one line.
// (A lone space is left as it is rather than replaced by another: read_page squashes the
// text of every block several times, and most of its whitespace is lone spaces.)
const squash = (text) => (text || "").replace(/\s{2,}|[^\S ]/g, " ").trim();

// Cut `text` to `max` characters; `cut` tells whether anything was dropped.
function truncate(text, max) {
  return text.length <= max ? { text, cut: false } : { text: text.slice(0, max) + "…", cut: true };
}

// The last / first `max` characters of a context snippet, without a half word at the cut.
function tail(text, max) {
  const s = squash(text);
  if (s.length <= max) return s;
  const cut = s.slice(s.length - max);
  return /\s/.test(s[s.length - max - 1]) ? cut : cut.replace(/^\S*\s*/, "");
}
function head(text, max) {
  const s = squash(text);
  if (s.length <= max) return s;
  const cut = s.slice(0, max);
  return /\s/.test(s[max]) ? cut.trimEnd() : cut.replace(/\s*\S*$/, "");
}

export { squash, truncate, tail, head };
