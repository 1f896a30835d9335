// Quick actions (titles are _locales/ message names): the context menu's ready-made requests, and the user's own prompts (saved in
// settings as "name: prompt" lines) with {{selection}} and {{page}} slots, offered in the
// menu and as /name slash commands in the composer. The selection itself never goes into the
// request's text: it travels as the turn's context, marked as page content.

export const BUILT_IN = Object.freeze({
  "summarize-page": { title: "menuSummarizePage", contexts: ["page"], text: "Summarize this page." },
  "explain-selection": { title: "menuExplain", contexts: ["selection"], text: "Explain this selection." },
  "translate-selection": { title: "menuTranslate", contexts: ["selection"], text: "Translate this selection into {{language}}." },
  "rewrite-selection": { title: "menuRewrite", contexts: ["selection"], text: "Rewrite this selection: clearer and shorter, same meaning." },
});

export const ASK_ABOUT_SELECTION = "ask-about-selection"; // opens the panel with the selection attached
export const PENDING_SELECTION = "pendingContext"; // chrome.storage.session: the attached selection

const NAME = /^[\p{L}\p{N}_-]{1,30}$/u;

// "name: prompt" per line -> [{ name, prompt }]; lines that are not that are reported.
export function parsePrompts(text) {
  const prompts = [];
  const problems = [];
  for (const [index, line] of String(text ?? "").split("\n").entries()) {
    if (!line.trim()) continue;
    const colon = line.indexOf(":");
    const name = line.slice(0, colon).trim().replace(/^\//, "");
    const prompt = line.slice(colon + 1).trim();
    if (colon < 0 || !NAME.test(name) || !prompt) problems.push(`line ${index + 1}: write it as “name: what to ask”`);
    else prompts.push({ name, prompt });
  }
  return { prompts, problems };
}

// The request's text: slots filled. Only words of ours go in: the selection is named and
// travels as the turn's marked context; the page (its title is the page's words) is read by
// the agent with its tools.
export function fillPrompt(template, { selection } = {}, language = "English") {
  return template
    .replaceAll("{{selection}}", selection ? "the selected text (below)" : "")
    .replaceAll("{{page}}", "the page I am on")
    .replaceAll("{{language}}", language)
    .trim();
}
