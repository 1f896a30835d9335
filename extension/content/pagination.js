// Cutting read_page's Markdown into pages of a budget: between paragraphs where possible,
// a fenced code block kept whole, a block too long for one page cut at line ends.
// Split Markdown into pages of at most maxChars, between paragraphs where possible.
function paginate(markdown, maxChars) {
  const pieces = blocks(markdown).flatMap((block) => (block.length <= maxChars ? [block] : split(block, maxChars)));
  const pages = [];
  let current = "";
  for (const piece of pieces) {
    if (current && current.length + 2 + piece.length > maxChars) {
      pages.push(current);
      current = piece;
    } else {
      current = current ? `${current}\n\n${piece}` : piece;
    }
  }
  if (current || !pages.length) pages.push(current);
  return pages;
}

// Paragraphs, keeping a fenced code block whole even when it contains blank lines.
function blocks(markdown) {
  const out = [];
  let inFence = false;
  for (const part of markdown.split(/\n{2,}/)) {
    if (inFence) out[out.length - 1] += `\n\n${part}`;
    else out.push(part);
    for (const line of part.split("\n")) if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
  }
  return out;
}

// A block too big for one page is cut at line ends, and a line too long at maxChars.
function split(block, maxChars) {
  const lines = block.split("\n").flatMap((line) => {
    const parts = [];
    for (let i = 0; i < line.length; i += maxChars) parts.push(line.slice(i, i + maxChars));
    return parts.length ? parts : [""];
  });
  const out = [];
  for (const line of lines) {
    if (out.length && out[out.length - 1].length + 1 + line.length <= maxChars) out[out.length - 1] += `\n${line}`;
    else out.push(line);
  }
  return out;
}

export { paginate };
