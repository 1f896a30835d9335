// Who sent a runtime message. chrome.runtime.sendMessage from a content script reaches every
// extension context too (service worker, offscreen document, side panels), and content
// scripts live inside web pages: a page that compromises one can send anything a content
// script can. So every handler names the contexts meant to send each message type, and
// this module tells them apart by what Chrome reports, which a page cannot forge: the
// sender's extension id and URL. A content script's URL is its web page's; no web page
// can frame one of ours (the manifest lists no web_accessible_resources).

import { BACKGROUND_PATH } from "../../platform/chrome/background-page.js";

const OWN_PAGES = chrome.runtime.getURL("");
const OFFSCREEN_URL = chrome.runtime.getURL("extension/offscreen/offscreen.html");
const SERVICE_WORKER_URL = chrome.runtime.getURL(BACKGROUND_PATH);

const withoutFragment = (url) => String(url ?? "").replace(/[?#].*$/, "");

// One of the extension's own pages or its service worker: never a content script.
export function isExtensionContext(sender) {
  return sender?.id === chrome.runtime.id && Boolean(sender.url?.startsWith(OWN_PAGES));
}

export const isOffscreenDocument = (sender) => isExtensionContext(sender) && withoutFragment(sender.url) === OFFSCREEN_URL;

export const isServiceWorker = (sender) => isExtensionContext(sender) && !sender.tab && withoutFragment(sender.url) === SERVICE_WORKER_URL;

// The pages a person uses (side panel, settings, history): the extension's pages other
// than the offscreen document, whose own messages have types of their own.
export const isUserPage = (sender) => isExtensionContext(sender) && !isOffscreenDocument(sender) && !isServiceWorker(sender);
