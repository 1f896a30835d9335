// The one policy for HTML that someone else wrote (the model, a page, an imported file)
// before it reaches an extension page. DOMPurify removes what could run; the rules here
// remove what could make the page fetch anything: an answer that loads a URL can carry the
// user's data out in it with no click (images, media, frames, styles, forms, SVG
// references, CSS url()). A remote image becomes a link the user may open; every link
// opens in a new tab, without referrer, and shows where it really goes.
//
//   element.replaceChildren(sanitizeHtml(marked.parse(text)));

import createDOMPurify from "../vendor/dompurify/purify.es.mjs";
import { t } from "../shared/ui/i18n.js";

// Elements that fetch, submit, navigate or restyle the page whatever their attributes say.
const FORBIDDEN_TAGS = [
  "style", "link", "meta", "base", "script", "noscript", "template", "slot",
  "form", "button", "textarea", "select", "option", "optgroup", "datalist", "fieldset", "output",
  "iframe", "frame", "frameset", "object", "embed", "applet", "param", "portal", "fencedframe",
  "map", "area", "dialog", "marquee", "use", "animate", "set", "animatemotion", "animatetransform",
];

// Attributes through which an element can fetch, submit or ping a URL.
const URL_ATTRIBUTES = [
  "src", "srcset", "imagesrcset", "poster", "data", "background", "lowsrc", "dynsrc", "longdesc",
  "ping", "action", "formaction", "codebase", "archive", "manifest", "icon", "usemap", "cite",
  "profile", "href", "xlink:href", "download", "attributionsrc",
];

// Media: what they would have loaded is shown as links instead.
const MEDIA = new Set(["img", "image", "feimage", "video", "audio", "picture", "source", "track"]);
const MEDIA_URL_ATTRIBUTES = ["src", "srcset", "poster", "href", "xlink:href", "data"];

// Inline style properties the rendered Markdown needs (KaTeX sizes and places its glyphs with
// them, colours come from \color): nothing that loads a URL, and no position but relative
// with small offsets, so an answer cannot move its text over the panel's own (confirmations
// also sit above it, in sidepanel.css).
const STYLE_PROPERTIES = new Set([
  "color", "background-color", "height", "min-height", "max-height", "width", "min-width", "max-width",
  "vertical-align", "top", "bottom", "left", "right", "position",
  "margin-top", "margin-right", "margin-bottom", "margin-left",
  "padding-top", "padding-right", "padding-bottom", "padding-left",
  "border-top-width", "border-right-width", "border-bottom-width", "border-left-width",
  "border-top-style", "border-right-style", "border-bottom-style", "border-left-style",
  "border-top-color", "border-right-color", "border-bottom-color", "border-left-color",
  "font-style", "font-weight", "font-size", "line-height", "text-align", "white-space",
  "text-decoration-line", "text-decoration-style", "text-decoration-color",
]);
const LOADING_CSS = /url\s*\(|image|\\|@|expression|var\s*\(|attr\s*\(|env\s*\(|src\s*\(/i;

const PLAIN_TEXT_ATTRIBUTES = /^(alt|title|aria-.*)$/i;
// The panel's own question boxes (confirmation-view.js, hand-back-view.js, form-view.js): an
// answer that writes their classes or states would draw a look-alike of TabAgent's question,
// asking for a yes or a password that nobody asked for. Those names are taken out of it.
const QUESTION_CLASS = /^(confirmation|hand-back|elicitation|form-|question)/i;
const QUESTION_ATTRIBUTES = /^(role|data-(state|decision|tool|kind|detail|actor|id|request))$/i;
const DATA_IMAGE = /^data:image\/(png|gif|jpeg|webp|avif|bmp|x-icon|svg\+xml)[;,]/i;
const LINK_PROTOCOLS = new Set(["http:", "https:", "mailto:"]);
const HTML_NAMESPACE = "http://www.w3.org/1999/xhtml";

const purify = createDOMPurify(window);
let remoteMedia = null; // element to replace -> the remote URLs it would have loaded, per call
let madeHere = null; // the links made here for remote media, already decorated

function absoluteUrl(value) {
  try {
    return new URL(String(value).trim());
  } catch {
    return null; // relative or malformed: it would resolve inside the extension, drop it
  }
}

function linkTarget(value) {
  const url = absoluteUrl(value);
  return url && LINK_PROTOCOLS.has(url.protocol) ? url : null;
}

function remoteUrls(element) {
  const urls = [];
  for (const name of MEDIA_URL_ATTRIBUTES) {
    const value = element.getAttribute(name);
    if (!value) continue;
    const candidates = name === "srcset" ? value.split(",").map((c) => c.trim().split(/\s+/)[0]) : [value];
    for (const candidate of candidates) {
      const url = absoluteUrl(candidate);
      if (url && (url.protocol === "http:" || url.protocol === "https:")) urls.push(url.href);
    }
  }
  return [...new Set(urls)];
}

function defuseMedia(element, tag) {
  const src = element.getAttribute("src") ?? "";
  const keep = tag === "img" && DATA_IMAGE.test(src.trim());
  const urls = remoteUrls(element);
  const alt = element.getAttribute("alt") ?? "";
  for (const name of [...element.getAttributeNames()]) {
    if (!(keep && ["src", "alt", "title", "width", "height"].includes(name))) element.removeAttribute(name);
  }
  if (!keep) remoteMedia.set(element, { urls, alt, tag });
}

const OFFSETS = /^(top|bottom|left|right|margin-.*)$/;
const SMALL_OFFSET = /^(auto|-?(\d{1,2}(\.\d+)?|\.\d+)(em|ex|rem|%)?|-?\d{1,3}(\.\d+)?px|0)$/; // within ±99em or ±999px

function allowedStyle(name, value) {
  if (!STYLE_PROPERTIES.has(name) || LOADING_CSS.test(value)) return false;
  if (name === "position") return value === "relative" || value === "static";
  return !OFFSETS.test(name) || SMALL_OFFSET.test(value.trim());
}

function defuseStyle(element) {
  if (!element.style) return element.removeAttribute("style"); // an element of no known namespace
  const kept = [];
  for (const name of [...element.style]) {
    const value = element.style.getPropertyValue(name);
    if (allowedStyle(name, value)) kept.push(`${name}: ${value}`);
  }
  if (kept.length) element.setAttribute("style", kept.join("; "));
  else element.removeAttribute("style");
}

function defuse(element) {
  const tag = element.localName.toLowerCase();
  if (MEDIA.has(tag)) return defuseMedia(element, tag);
  const isLink = tag === "a" && element.namespaceURI === HTML_NAMESPACE;
  for (const name of URL_ATTRIBUTES) {
    if (!element.hasAttribute(name)) continue;
    const value = element.getAttribute(name);
    if (name === "href" && isLink && linkTarget(value)) continue;
    if ((name === "href" || name === "xlink:href") && !isLink && value.trim().startsWith("#")) continue; // SVG's own gradients
    element.removeAttribute(name);
  }
  for (const name of [...element.getAttributeNames()]) {
    if (name === "style" || PLAIN_TEXT_ATTRIBUTES.test(name)) continue;
    // SVG paints, masks, filters and markers may point at another document: url(#id) stays.
    const value = element.getAttribute(name).replace(/url\(\s*['"]?#[^)]*\)/gi, "");
    if (/url\s*\(|image(-set)?\s*\(|\\/i.test(value)) element.removeAttribute(name);
    if (/^(form|target|rel|referrerpolicy|http-equiv|srcdoc|is)$/i.test(name)) element.removeAttribute(name);
  }
  if (element.hasAttribute("style")) defuseStyle(element);
  withoutQuestionLooks(element);
  if (tag === "input") {
    // Only the checkboxes of a Markdown task list, which cannot be changed or submitted.
    if (element.getAttribute("type")?.toLowerCase() !== "checkbox") return remoteMedia.set(element, { urls: [], alt: "", tag });
    const checked = element.hasAttribute("checked");
    for (const name of [...element.getAttributeNames()]) element.removeAttribute(name);
    element.setAttribute("type", "checkbox");
    element.setAttribute("disabled", "");
    if (checked) element.setAttribute("checked", "");
  }
}

function withoutQuestionLooks(element) {
  for (const name of element.getAttributeNames().filter((one) => QUESTION_ATTRIBUTES.test(one))) element.removeAttribute(name);
  const classes = [...element.classList].filter((one) => QUESTION_CLASS.test(one));
  if (classes.length) element.classList.remove(...classes);
  if (element.getAttribute("class") === "") element.removeAttribute("class");
}

purify.addHook("afterSanitizeAttributes", (node) => {
  if (node.nodeType === Node.ELEMENT_NODE) defuse(node);
});

function hostOf(text) {
  const trimmed = text.trim();
  for (const candidate of [trimmed, `https://${trimmed}`]) {
    const url = absoluteUrl(candidate);
    if (url && url.host) return url.host;
  }
  return null;
}

// What the user sees of where a link goes: the host, or the address for mail.
function shownTarget(url) {
  if (url.protocol !== "mailto:") return url.host;
  try {
    return decodeURIComponent(url.pathname);
  } catch {
    return url.pathname;
  }
}

function decorateLink(link, url) {
  link.setAttribute("href", url.href);
  link.setAttribute("target", "_blank");
  link.setAttribute("rel", "noopener noreferrer");
  link.setAttribute("referrerpolicy", "no-referrer");
  link.setAttribute("title", url.href);
  const shown = shownTarget(url);
  const text = link.textContent;
  // The host is shown unless the text already names it plainly: not with a user name before
  // it (https://bank.example@evil.example) nor in punycode a reader would see as another host.
  const plain = !url.username && !url.password && !url.hostname.split(".").some((label) => label.startsWith("xn--"));
  const honest = url.protocol === "mailto:" ? text.includes(shown) : plain && hostOf(text) === url.host;
  if (!honest) {
    const host = link.ownerDocument.createElement("span");
    host.className = "link-target";
    host.textContent = ` (${shown})`;
    link.append(host);
  }
}

function imageLink(document, url, alt, tag) {
  const link = document.createElement("a");
  link.className = "remote-media";
  const kind = { video: "remoteVideo", audio: "remoteAudio" }[tag] ?? "remoteImage";
  link.textContent = t(kind, alt.trim() || t("notLoaded"));
  decorateLink(link, new URL(url));
  madeHere.add(link);
  return link;
}

// Remote media become links where they stood (form fields just go); containers (video,
// picture) keep their fallback content. Children are replaced before their parents.
function replaceRemoteMedia(fragment) {
  for (const [element, { urls, alt, tag }] of [...remoteMedia].reverse()) {
    if (!fragment.contains(element)) continue;
    const links = urls.flatMap((url) => [imageLink(element.ownerDocument, url, alt, tag), " "]);
    element.replaceWith(...links, ...element.childNodes);
  }
}

export function sanitizeHtml(html) {
  remoteMedia = new Map();
  madeHere = new Set();
  try {
    const fragment = purify.sanitize(String(html ?? ""), {
      RETURN_DOM_FRAGMENT: true,
      FORBID_TAGS: FORBIDDEN_TAGS,
      FORBID_ATTR: ["ping", "formaction", "action", "srcdoc", "background", "target"],
      SANITIZE_NAMED_PROPS: true, // an id in an answer never shadows one of the panel's own
    });
    replaceRemoteMedia(fragment);
    for (const link of fragment.querySelectorAll("a[href]")) {
      if (madeHere.has(link)) continue;
      const url = link.namespaceURI === HTML_NAMESPACE ? linkTarget(link.getAttribute("href")) : null;
      if (url) decorateLink(link, url);
      else link.removeAttribute("href");
    }
    return fragment;
  } finally {
    remoteMedia = null;
    madeHere = null;
  }
}
