// Settings in one spelling, and of this version. Earlier versions stored the settings (and a conversation's own
// settings, record.overrides) under a second spelling of wire.js's names, in camelCase
// (baseUrl, maxSteps); they are stored under wire.js's names now, as they cross to Python.
// This module is the one place that knows the old spelling: it reads an object of either shape
// and gives it in the one spelling, and the service worker rewrites what is stored, once, at
// its start (a value stored under the new name wins over the old one).
// tests/unit/test_contract.py fails when the old spelling shows anywhere else.
//
// The settings' version is stored beside them (settings_version). Before version 2, every save
// wrote every default into storage, request_timeout's 120 among them; since, an empty
// request_timeout means the provider's own (900 s for a model on this computer, 120 s for an API
// on the internet: providers.default_timeout). So a 120 stored before version 2 is the old
// default, not the user's choice: it becomes empty, once. A number saved since stays.

import { SETTINGS } from "../wire.js";

const SETTINGS_KEY = "settings";
const VERSION_KEY = "settings_version";
export const SETTINGS_VERSION = 2;
// What a version before SETTINGS_VERSION stored for a setting the user had not set.
const OLD_DEFAULTS = Object.freeze({ request_timeout: 120 });
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

// Stored settings of `version` (undefined: stored before versions were) as this version reads
// them: in the one spelling, an older version's defaults left empty.
export function asCurrent(stored, version) {
  const settings = inOneSpelling(stored);
  if (version >= SETTINGS_VERSION) return settings;
  for (const [name, old] of Object.entries(OLD_DEFAULTS)) if (settings[name] === old) settings[name] = null;
  return settings;
}

// What storeSettings writes: the settings, and the version that wrote them.
export const storedAsCurrent = (settings) => ({ [SETTINGS_KEY]: settings, [VERSION_KEY]: SETTINGS_VERSION });

// The settings as stored, and the version that stored them.
export async function readStoredSettings() {
  const { [SETTINGS_KEY]: stored, [VERSION_KEY]: version } = await chrome.storage.local.get([SETTINGS_KEY, VERSION_KEY]);
  return { stored, version };
}

// The stored settings rewritten in the one spelling and this version, if they were not; true
// if they were rewritten.
export async function migrateStoredSettings() {
  const { stored, version } = await readStoredSettings();
  if (stored === undefined || (version >= SETTINGS_VERSION && !inOldSpelling(stored))) return false;
  await chrome.storage.local.set(storedAsCurrent(asCurrent(stored, version)));
  return true;
}
