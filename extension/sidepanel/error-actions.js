// A turn that failed says why and offers what fixes it: Open settings when the setting is
// what is wrong (no model, a bad key, a wrong address or model name), Retry otherwise too.

import { h } from "../shared/ui/dom.js";
import { t } from "../shared/ui/i18n.js";
import { FIXED_IN_SETTINGS } from "../shared/wire.js";

const SETTINGS_FIX = new Set(FIXED_IN_SETTINGS);

export function turnError({ kind, message }, turnId) {
  const act = (action) => (event) =>
    event.currentTarget.dispatchEvent(new CustomEvent("turn-action", { bubbles: true, detail: { action, turnId } }));
  const buttons = [];
  if (SETTINGS_FIX.has(kind)) buttons.push(h("button", { type: "button", class: "fix-settings", onclick: act("open-settings") }, t("openSettings")));
  buttons.push(h("button", { type: "button", class: "fix-retry", onclick: act("regenerate") }, t("retry")));
  return h("div", { class: `error turn-error kind-${kind}` }, h("span", {}, message), h("span", { class: "fixes" }, ...buttons));
}
