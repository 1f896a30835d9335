// Settings in one spelling. Earlier versions stored the settings (and a conversation's own
// settings, record.overrides) under a second spelling of wire.js's names, in camelCase
// (baseUrl, maxSteps); they are stored under wire.js's names now, as they cross to Python.
// This module is the one place that knows the old spelling: it reads an object of either shape
// and gives it in the one spelling, and the service worker rewrites what is stored, once, at
// its start (a value stored under the new name wins over the old one).
// tests/unit/test_contract.py fails when the old spelling shows anywhere else.

import { SETTINGS } from "../wire.js";

const SETTINGS_KEY = "settings";
const oldSpelling = (name) => name.replace(/_([a-z])/g, (_, letter) => letter.toUpperCase());
const RESPELLED = Object.keys(SETTINGS).filter((name) => oldSpelling(name) !== name);

export function inOneSpelling(stored) {
  if (!stored || typeof stored !== "object" || Array.isArray(stored)) return {};
  const settings = { ...stored };
  for (const name of RESPELLED) {
    const old = oldSpelling(name);
    if (!Object.hasOwn(settings, old)) continue;
    if (!Object.hasOwn(settings, name)) settings[name] = settings[old];
    delete settings[old];
  }
  return settings;
}

export const inOldSpelling = (stored) => RESPELLED.some((name) => Object.hasOwn(stored ?? {}, oldSpelling(name)));

// The stored settings rewritten in the one spelling, if they were not; true if they were rewritten.
export async function migrateStoredSettings() {
  const { [SETTINGS_KEY]: stored } = await chrome.storage.local.get(SETTINGS_KEY);
  if (!inOldSpelling(stored)) return false;
  await chrome.storage.local.set({ [SETTINGS_KEY]: inOneSpelling(stored) });
  return true;
}
