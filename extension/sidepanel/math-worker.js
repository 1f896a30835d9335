// Renders one formula at a time with KaTeX, away from the panel's main thread: a formula
// built to be slow (a TeX macro bomb) costs this worker, which the panel stops after a time
// limit, never the panel. What comes back is HTML for sanitize.js, or a refusal when the
// formula is deeper or larger than the panel shows.

import katex from "../vendor/katex/katex.mjs";
import { escapeHtml, LIMITS } from "./render-limits.js";

const TOO_MUCH = /Too many expansions|maximum call stack|too much recursion/i;

function render({ tex, displayMode }) {
  try {
    const html = katex.renderToString(tex, {
      displayMode, output: "htmlAndMathml", throwOnError: true, trust: false, strict: "ignore", maxSize: 20, maxExpand: LIMITS.texExpansions,
    });
    return html.match(/<[a-z]/gi)?.length > LIMITS.texElements ? { tooLarge: true } : { html };
  } catch (error) {
    if (error instanceof RangeError || TOO_MUCH.test(error.message)) return { tooLarge: true };
    // Bad TeX shows as its source in red, as KaTeX shows it, never as an exception.
    return { html: `<span class="katex-error" title="${escapeHtml(error.message)}" style="color: #cc0000">${escapeHtml(tex)}</span>` };
  }
}

self.onmessage = ({ data }) => self.postMessage({ id: data.id, ...render(data) });
