// Structured reading for code: elements by CSS selector (query_page), the page's links
// (list_links) and raw HTML (page_html). All of them look into same-origin frames too.

import { PAGE_TOOL_DEFAULTS } from "../shared/wire.js";
import { nameOf } from "./element-words.js";
import { squash, truncate } from "./snippets.js";
import { PageToolError, LIMITS, clamp, cap, arg } from "./tool-arguments.js";
import * as frames from "./frames.js";
import * as locators from "./locators.js";
import { hideSecrets, isSecretField, takeOutSecrets } from "./secret-fields.js";

export const tools = {};

// Attributes worth returning when the caller does not name any.
const USEFUL_ATTRIBUTES = ["id", "href", "src", "alt", "title", "name", "type", "value", "placeholder", "aria-label", "role"];
// URL attributes come back resolved, as the browser would follow them.
const URL_ATTRIBUTES = new Set(["href", "src", "action", "poster"]);

function attributesOf(el, names) {
  const out = {};
  const secret = isSecretField(el); // (a password field's value is never shown)
  for (const name of names) {
    if (!el.hasAttribute(name) || (secret && name === "value")) continue;
    const raw = el.getAttribute(name);
    out[name] = URL_ATTRIBUTES.has(name) && typeof el[name] === "string" && el[name] ? el[name] : raw;
  }
  return out;
}

function queryPage({ selector, attributes, max_results, max_chars }) {
  const max = clamp(max_results, 1, LIMITS.results);
  const maxChars = clamp(max_chars, 0, LIMITS.chars);
  const names = attributes ? attributes.map(String) : USEFUL_ATTRIBUTES;
  const found = locators.findAll(selector);
  const { items, note } = cap(found, max, "matching elements", "raise max_results or pass a narrower selector");
  let cut = false;
  const results = items.map((el) => {
    const text = truncate(squash(el.innerText ?? el.textContent), maxChars);
    cut ||= text.cut;
    return { locator: locators.locatorFor(el), tag: el.localName, text: text.text, attributes: attributesOf(el, names) };
  });
  const notes = [note, cut && `Texts longer than ${maxChars} characters were cut; raise max_chars for more.`].filter(Boolean);
  return { selector, count: found.length, results, ...(notes.length && { note: notes.join(" ") }) };
}

// "Stays on the site": same host, ignoring a leading "www.", or one host a subdomain of
// the other (news.example.com and example.com). Without the public-suffix list this is an
// approximation, which is why the rule is stated here.
function sameSite(url, base) {
  if (!/^https?:$/.test(url.protocol)) return false;
  const host = (h) => h.replace(/^www\./, "");
  const a = host(url.hostname);
  const b = host(base.hostname);
  return a === b || a.endsWith(`.${b}`) || b.endsWith(`.${a}`);
}

function listLinks({ filter, scope, max_results }) {
  if (!["all", "internal", "external"].includes(scope)) {
    throw new PageToolError(`list_links: scope should be "all", "internal" or "external", not “${scope}”.`);
  }
  const max = clamp(max_results, 1, LIMITS.results);
  const base = new URL(location.href);
  const needle = (filter || "").toLowerCase();
  const seen = new Set();
  const links = [];
  for (const el of frames.queryAll("a[href], area[href]")) {
    if (/^\s*javascript:/i.test(el.getAttribute("href"))) continue;
    let url;
    try {
      url = new URL(el.href);
    } catch {
      continue;
    }
    const text = nameOf(el);
    const internal = sameSite(url, base);
    if (scope === "internal" ? !internal : scope === "external" ? internal : false) continue;
    if (needle && !text.toLowerCase().includes(needle) && !url.href.toLowerCase().includes(needle)) continue;
    const key = `${url.href}\n${text}`; // a menu repeated in header and footer is listed once
    if (seen.has(key)) continue;
    seen.add(key);
    links.push({ el, text, url: url.href, internal });
  }
  const { items, note } = cap(links, max, "links", "raise max_results or pass a filter");
  return {
    count: links.length,
    links: items.map(({ el, text, url, internal }) => ({ text, url, internal, locator: locators.locatorFor(el) })),
    ...(note && { note }),
  };
}

function pageHtml({ selector, max_chars, keep_scripts }) {
  const maxChars = clamp(max_chars, 100, LIMITS.chars * 5);
  // The whole page comes with its same-origin frames inlined, as the other tools see it.
  const copies = selector
    ? locators.findAll(selector).map((el) => {
      const copy = el.cloneNode(true);
      hideSecrets(el, copy);
      takeOutSecrets(copy);
      return copy;
    })
    : [frames.cloneWithFrames(document).documentElement];
  if (!copies.length) throw new PageToolError(`Nothing on the page matches “${selector}”.`);
  const html = copies.map((copy) => {
    // Scripts, styles and comments are rarely what parsing code wants and are often most
    // of the bytes; keep_scripts=true returns them too.
    if (!keep_scripts) {
      copy.querySelectorAll("script, style").forEach((node) => node.remove());
      const walker = copy.ownerDocument.createTreeWalker(copy, NodeFilter.SHOW_COMMENT);
      const comments = [];
      for (let node = walker.nextNode(); node; node = walker.nextNode()) comments.push(node);
      comments.forEach((node) => node.remove());
    }
    return copy.outerHTML;
  }).join("\n");
  const { text, cut } = truncate(html, maxChars);
  return {
    selector: selector || null,
    count: copies.length,
    length: html.length,
    html: text,
    truncated: cut,
    ...(cut && { note: `The HTML is ${html.length} characters; only the first ${maxChars} are shown. Pass a narrower selector or a larger max_chars.` }),
  };
}

tools.query_page = {
  params: {
    selector: arg("string"),
    attributes: arg("array", null),
    max_results: arg("number", PAGE_TOOL_DEFAULTS.query_page.max_results),
    max_chars: arg("number", PAGE_TOOL_DEFAULTS.query_page.max_chars),
  },
  run: queryPage,
};
tools.list_links = {
  params: { filter: arg("string", ""), scope: arg("string", "all"), max_results: arg("number", PAGE_TOOL_DEFAULTS.list_links.max_results) },
  run: listLinks,
};
tools.page_html = {
  params: { selector: arg("string", null), max_chars: arg("number", PAGE_TOOL_DEFAULTS.page_html.max_chars), keep_scripts: arg("boolean", false) },
  run: pageHtml,
};
