// A file the turn's actions downloaded after its last action, as one line beside the answer. A
// file still on its way when the turn ended ("Downloading ...") is followed until the browser
// says it ended, then said as downloaded or stopped: by the download's id, which the service
// worker gave (action-downloads.js), never the page. The name and the site are Python's
// harmless ones, drawn as text; only the words and the size change.

import { h } from "../shared/ui/dom.js";
import { t } from "../shared/ui/i18n.js";
import { shown } from "../shared/import-checks/unseen-text.js";

const SAID = { in_progress: "downloadedLateGoing", complete: "downloadedLate", interrupted: "downloadStoppedLate" };

function sizeInWords(size) {
  if (!Number.isFinite(size) || size < 0) return "?";
  return size >= 1024 * 1024 ? `${(size / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(size / 1024))} KB`;
}

export function downloadLine({ file_name: name, size, site, in_progress: going, download_id: id }) {
  const line = h("li", { class: "turn-download" });
  const say = (state, bytes) => { line.textContent = t(SAID[state], shown(String(name)), sizeInWords(bytes), shown(String(site))); };
  say(going ? "in_progress" : "complete", size);
  if (going && Number.isInteger(id)) follow(id, (item) => say(item.state, item.fileSize > 0 ? item.fileSize : size));
  return line;
}

// Calls `ended` once with the download's item when it is no longer in progress: now (a turn
// shown again from storage, or a file that ended before the line was drawn), or when the
// browser says so. A download the browser no longer knows (history cleared) stays as it was said.
function follow(id, ended) {
  const check = async () => {
    const [item] = await chrome.downloads.search({ id }).catch(() => []);
    if (!item || item.state === "in_progress") return;
    chrome.downloads.onChanged.removeListener(changed);
    ended(item);
  };
  const changed = (delta) => { if (delta.id === id && delta.state) check(); };
  chrome.downloads.onChanged.addListener(changed);
  check();
}
