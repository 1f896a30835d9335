// The UI's words, from _locales/<language>/messages.json through chrome.i18n (the browser's
// language; English when there is no translation). Pages mark their fixed words with
// data-i18n (text) and data-i18n-title / -placeholder / -aria-label (attributes).

export function t(key, ...substitutions) {
  return chrome.i18n.getMessage(key, substitutions.map(String)) || key;
}

// A message about a count: "<key>One" for 1, "<key>Many" otherwise (enough for en and de).
export function tn(key, count) {
  return t(`${key}${count === 1 ? "One" : "Many"}`, count);
}

export function localizePage(root = document) {
  for (const element of root.querySelectorAll("[data-i18n]")) element.textContent = t(element.dataset.i18n);
  for (const attribute of ["title", "placeholder", "aria-label"]) {
    for (const element of root.querySelectorAll(`[data-i18n-${attribute}]`)) {
      element.setAttribute(attribute, t(element.getAttribute(`data-i18n-${attribute}`)));
    }
  }
  document.documentElement.lang = t("langCode"); // the language of the words shown (not always @@ui_locale)
}
