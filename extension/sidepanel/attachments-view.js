// Attaching other open tabs, and the selection on the page, to the next message: type "@" in
// the message box for a list of suggestions, or press the Attach button for the same list.
// What is attached shows as chips above the box, each with a button to remove it. The user
// chose these, so the agent reads them at the start of the turn without asking
// (py/tabagent/attachments.py); send() takes them with forTurn(). A picture pasted or dropped
// in the box is attached too, shown as a chip with its thumbnail, and sent to the model with
// the message (as an image part, to a model that takes images).

import { MessageType } from "../shared/protocol/messages.js";
import { askBackground } from "../shared/protocol/runtime.js";
import { readyForModel } from "../shared/pictures/screenshot-canvas.js";
import { PICTURE_URL, asDataUrl } from "../shared/pictures/data-url.js";
import { h } from "../shared/ui/dom.js";
import { t } from "../shared/ui/i18n.js";
import { ATTACHED_PICTURES } from "../shared/wire.js";

const OWN_PAGES = chrome.runtime.getURL("");
const MENTION = /(^|\s)@([^\s@]*)$/; // "@words" just before the caret
const READABLE = /^(https?|file):/;
const PICTURE_TYPES = new Set(["image/png", "image/jpeg", "image/webp", "image/gif"]);
const { max_pictures: MAX_PICTURES, max_file_mb: MAX_PICTURE_MB } = ATTACHED_PICTURES;
const MAX_PICTURE_BYTES = MAX_PICTURE_MB * 1024 * 1024;

const shorten = (text, max) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
const tabName = (tab) => tab.title || tab.url;
const webPage = (url) => {
  const parsed = URL.parse(url ?? "");
  return parsed && ["http:", "https:"].includes(parsed.protocol) ? parsed : null;
};
// The site a tab chip stands for (the title is the page's to choose, the host is not): the
// attachment is read only while the tab shows that site (background/tab-tools.js, read_tab).
const siteName = (url) => webPage(url)?.host ?? "";
const siteOf = (url) => webPage(url)?.origin ?? String(url).replace(/#.*$/, "");
// Where an attached tab has gone, when that is another site than its chip's (else "").
const movedTo = (tab) => (tab.now && siteOf(tab.now) !== siteOf(tab.url) ? siteName(tab.now) || tab.now : "");

export class AttachmentsView {
  constructor({ prompt, button, options, chips, onError }) {
    Object.assign(this, { prompt, button, options, chips, onError });
    this.tabs = new Map(); // tabId -> { tabId, title, url, now? (where it has gone since) }
    this.selection = null; // { text, url, title }
    this.images = []; // { name, url (a data URL) }: pictures pasted or dropped in the box
    this.choices = []; // what the open list offers: { kind: "tab", tab } | { kind: "selection" }
    this.active = 0;
    this.mode = null; // null (closed), "mention" (typing @...) or "picker" (the button)
    this.query = ""; // what the open list was asked for
    this.asked = 0; // the latest list asked for: an older answer arriving late is dropped
    this.blurredOpen = false; // the mention list was closed by a blur: focus brings it back

    prompt.setAttribute("aria-autocomplete", "list");
    prompt.addEventListener("paste", (event) => this.takePictures(event, event.clipboardData));
    prompt.addEventListener("drop", (event) => this.takePictures(event, event.dataTransfer));
    prompt.addEventListener("input", () => this.followTyping());
    // Capture: before the panel's own Enter-sends handler, so Enter picks while the list is open.
    prompt.addEventListener("keydown", (event) => this.onKey(event), { capture: true });
    prompt.addEventListener("blur", () => setTimeout(() => this.closeOnBlur(), 150));
    prompt.addEventListener("focus", () => this.blurredOpen && !this.mode && this.followTyping());
    options.addEventListener("keydown", (event) => this.onKey(event));
    // The list opened with the button closes when focus goes anywhere else.
    options.addEventListener("focusout", (event) => {
      if (this.mode === "picker" && event.relatedTarget !== button && !options.contains(event.relatedTarget)) this.close();
    });
    options.addEventListener("mousedown", (event) => event.preventDefault()); // keep the caret where it is
    button.addEventListener("click", () => (this.mode === "picker" ? this.close({ focus: button }) : this.open("picker", "")));
    // A tab that opens, closes, or loads its title while the list is open shows as it is now;
    // an attached tab the page sends to another site says so on its chip before it is sent.
    chrome.tabs.onUpdated.addListener((tabId, change) => {
      if (change.title || change.url) this.refresh();
      if (change.url && this.tabs.has(tabId)) this.tabMoved(tabId, change.url);
    });
    chrome.tabs.onCreated.addListener(() => this.refresh());
    chrome.tabs.onRemoved.addListener(() => this.refresh());
  }

  // -- the list -----------------------------------------------------------------------

  followTyping() {
    const before = this.prompt.value.slice(0, this.prompt.selectionStart);
    const mention = before.match(MENTION);
    if (mention) this.open("mention", mention[2]);
    else if (this.mode === "mention") this.close();
  }

  async open(mode, query) {
    const asked = ++this.asked;
    this.query = query.toLowerCase();
    const choices = await this.suggestions(this.query);
    if (asked !== this.asked) return;
    this.mode = mode;
    this.blurredOpen = false;
    this.choices = choices;
    this.active = 0;
    this.render();
    this.options.hidden = false;
    this.button.setAttribute("aria-expanded", "true");
    this.prompt.setAttribute("aria-controls", this.options.id);
    if (mode === "picker") this.options.focus();
  }

  // The open list asked again, keeping the highlighted choice where it still is.
  async refresh() {
    if (!this.mode) return;
    const asked = ++this.asked;
    const choices = await this.suggestions(this.query);
    if (asked !== this.asked || !this.mode) return;
    const current = this.choices[this.active];
    const same = (choice) => choice.kind === current?.kind && choice.tab?.tabId === current?.tab?.tabId;
    this.choices = choices;
    this.active = Math.max(0, choices.findIndex(same));
    this.render();
  }

  // Some time after the message box lost the focus: unless it is back (a quick click away and
  // back again) or in the list, the mention list closes, and comes back with the focus.
  closeOnBlur() {
    const focused = document.hasFocus() ? document.activeElement : null;
    if (this.mode !== "mention" || focused === this.prompt || this.options.contains(focused)) return;
    this.close();
    this.blurredOpen = true;
  }

  close({ focus } = {}) {
    this.blurredOpen = false;
    this.asked++;
    this.mode = null;
    this.choices = [];
    this.options.hidden = true;
    this.options.replaceChildren();
    this.button.setAttribute("aria-expanded", "false");
    this.prompt.removeAttribute("aria-activedescendant");
    this.prompt.removeAttribute("aria-controls");
    this.options.removeAttribute("aria-activedescendant");
    focus?.focus();
  }

  async suggestions(query) {
    const matches = (...texts) => texts.some((text) => (text || "").toLowerCase().includes(query));
    const tabs = await chrome.tabs.query({ currentWindow: true });
    const choices = tabs
      .filter((tab) => READABLE.test(tab.url || "") && !tab.url.startsWith(OWN_PAGES) && !this.tabs.has(tab.id))
      .filter((tab) => matches(tab.title, tab.url))
      .map((tab) => ({ kind: "tab", tab: { tabId: tab.id, title: tab.title || "", url: tab.url } }));
    if (matches(t("attachScreenshotOption"), "screenshot")) choices.push({ kind: "screenshot" }); // after the tabs: the list keeps its order
    if (!this.selection && matches(t("attachSelectionOption"), "selection")) choices.unshift({ kind: "selection" });
    return choices;
  }

  render() {
    if (!this.choices.length) {
      this.options.replaceChildren(h("li", { class: "attach-none", role: "option", "aria-disabled": "true" }, t("attachNoMatch")));
      return;
    }
    this.options.replaceChildren(...this.choices.map((choice, index) => h(
      "li",
      { id: `attach-option-${index}`, role: "option", class: "attach-option", "aria-selected": String(index === this.active),
        onclick: () => this.pick(index) },
      choice.kind === "tab"
        ? h("span", { class: "attach-title" }, shorten(tabName(choice.tab), 80))
        : h("span", { class: "attach-title" }, t(choice.kind === "selection" ? "attachSelectionOption" : "attachScreenshotOption")),
      choice.kind === "tab" ? h("span", { class: "attach-url" }, shorten(choice.tab.url, 80)) : null,
    )));
    const active = `attach-option-${this.active}`;
    this.prompt.setAttribute("aria-activedescendant", active);
    this.options.setAttribute("aria-activedescendant", active);
    document.getElementById(active)?.scrollIntoView({ block: "nearest" });
  }

  onKey(event) {
    if (!this.mode) return;
    const count = this.choices.length;
    const move = { ArrowDown: 1, ArrowUp: -1 }[event.key];
    if (move && count) this.active = (this.active + move + count) % count;
    else if (event.key === "Home" && this.mode === "picker") this.active = 0;
    else if (event.key === "End" && this.mode === "picker") this.active = Math.max(0, count - 1);
    else if (event.key === "Enter" || event.key === "Tab" || (event.key === " " && this.mode === "picker")) {
      if (!count) return;
      this.pick(this.active);
    } else if (event.key === "Escape") {
      this.close({ focus: this.mode === "picker" ? this.button : null });
    } else return;
    event.preventDefault();
    event.stopImmediatePropagation();
    if (this.mode) this.render();
  }

  async pick(index) {
    const choice = this.choices[index];
    if (!choice) return;
    if (this.mode === "mention") this.removeMention();
    this.close();
    this.prompt.focus();
    if (choice.kind === "tab") this.tabs.set(choice.tab.tabId, choice.tab);
    else if (choice.kind === "screenshot") await this.attachScreenshot();
    else await this.attachSelection();
    this.renderChips();
  }

  tabMoved(tabId, url) {
    this.tabs.get(tabId).now = url;
    this.renderChips();
  }

  // The "@words" typed to find the tab go: the chip says what was attached.
  removeMention() {
    const caret = this.prompt.selectionStart;
    const before = this.prompt.value.slice(0, caret).replace(MENTION, "$1");
    this.prompt.value = before + this.prompt.value.slice(caret);
    this.prompt.setSelectionRange(before.length, before.length);
  }

  async attachSelection() {
    try {
      this.selection = await askBackground(MessageType.readSelection);
    } catch (error) {
      this.onError(error.message);
    }
  }

  // The one check of how many pictures a message takes: a screenshot, a paste and a drop alike.
  get picturesFull() {
    return this.images.length >= MAX_PICTURES;
  }

  // A picture of the tab the panel is beside, as it is in front now, sized as the screenshot
  // tool sizes one for a model; it goes with the message as a pasted picture does. A message
  // that has all the pictures it may take gets none: the tab is not even captured.
  async attachScreenshot() {
    if (this.picturesFull) return this.onError(t("screenshotNotTaken", MAX_PICTURES));
    try {
      const shot = await askBackground(MessageType.screenshotTab);
      const ready = await readyForModel({ ...shot, layout: null });
      // page_url and page_title: Python marks the picture as page content (attachments.py).
      this.images.push({ name: t("screenshotName", shot.title || shot.url), url: ready.image, page_url: shot.url, page_title: shot.title });
    } catch (error) {
      this.onError(error.message);
    }
  }

  // Pictures among what was pasted or dropped are attached; text goes into the box as usual.
  async takePictures(event, transfer) {
    const files = [...(transfer?.files ?? [])].filter((file) => PICTURE_TYPES.has(file.type));
    if (!files.length) return;
    event.preventDefault();
    for (const file of files) {
      if (file.size > MAX_PICTURE_BYTES || this.picturesFull) {
        this.onError(t("pictureTooLarge", file.name || file.type, MAX_PICTURES, MAX_PICTURE_MB));
        continue;
      }
      this.images.push({ name: file.name || file.type, url: await asDataUrl(file) });
    }
    this.renderChips();
  }

  // -- the chips ----------------------------------------------------------------------

  renderChips() {
    const chip = (kind, label, title, remove, site = "", moved = "") => h(
      "li",
      { class: "attachment", "data-kind": kind, title },
      h("span", { class: "attachment-label" }, label),
      site ? h("span", { class: "attachment-site" }, site) : null,
      moved ? h("span", { class: "attachment-moved" }, t("attachmentMoved", moved)) : null,
      h("button", { type: "button", class: "attachment-remove", "aria-label": t("removeAttachment", label), onclick: () => {
        remove();
        this.renderChips();
        this.prompt.focus();
      } }, "×"),
    );
    const items = [...this.tabs.values()].map((tab) =>
      chip("tab", shorten(tabName(tab), 40), tab.url, () => this.tabs.delete(tab.tabId), siteName(tab.url), movedTo(tab)));
    if (this.selection) {
      const label = t("selectionChip", shorten(this.selection.text.replace(/\s+/g, " ").trim(), 40));
      items.unshift(chip("selection", label, this.selection.url, () => (this.selection = null)));
    }
    for (const image of this.images) {
      const item = chip("picture", t("pictureChip", shorten(image.name, 30)), image.name, () => this.images.splice(this.images.indexOf(image), 1));
      item.prepend(thumbnail(image));
      items.push(item);
    }
    this.chips.replaceChildren(...items);
    this.chips.hidden = !items.length;
  }

  // What send() hands the service worker with the message.
  forTurn() {
    return { attachedTabs: [...this.tabs.values()], attachedSelection: this.selection, attachedImages: [...this.images] };
  }

  clear() {
    this.tabs.clear();
    this.selection = null;
    this.images = [];
    this.renderChips();
  }
}

// Under a sent message: what the user attached to it (the turn's record keeps it), or null.
// An imported conversation may hold anything here: only strings are shown, as text (String()
// of a file's {"toString": "x"} throws, which would leave the conversation undrawn).
const textOf = (value) => (typeof value === "string" ? value : "");

export function attachedList(turn) {
  const { tabs, selection } = turn.attachments ?? {};
  const items = (Array.isArray(tabs) ? tabs : []).map((tab) => {
    const [title, url] = [textOf(tab?.title), textOf(tab?.url)];
    return h("li", { class: "attachment", "data-kind": "tab", title: url }, shorten(title || url, 60));
  });
  if (typeof selection?.text === "string") {
    const label = t("selectionChip", shorten(selection.text.replace(/\s+/g, " ").trim(), 60));
    items.unshift(h("li", { class: "attachment", "data-kind": "selection", title: textOf(selection.url) }, label));
  }
  const images = Array.isArray(turn.attachments?.images) ? turn.attachments.images : [];
  for (const image of images) {
    if (PICTURE_URL.test(textOf(image?.url))) {
      items.push(h("li", { class: "attachment", "data-kind": "picture", title: textOf(image.name) }, thumbnail(image, "sent-picture")));
    } else if (image?.not_kept === true) { // dropped to keep the conversation small (shared/storage/kept-pictures.js)
      items.push(h("li", { class: "attachment", "data-kind": "picture-not-kept" }, t("pictureNotKept", shorten(textOf(image.name), 40))));
    }
  }
  if (!items.length) return null;
  return h("ul", { class: "attachments sent-attachments", "aria-label": t("attachedToThisMessage") }, ...items);
}

// A picture the user attached, drawn small (a data URL: nothing is fetched).
function thumbnail(image, kind = "picture-thumbnail") {
  return h("img", { class: kind, src: image.url, alt: textOf(image.name) });
}
