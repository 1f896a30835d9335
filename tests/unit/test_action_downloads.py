"""Which downloads a turn's actions started (extension/background/action-downloads.js), run in
Node.js over a browser's downloads list and session storage made here, with a clock whose timers
never fire: an action's reply waits for no download (a click that starts none is answered at
once); a download that appears after the reply is claimed by the next call of the turn and said
there as late, kept as the acting tab's; an extension's download, another site's, one from before
the action, one another tab has claimed, and one after a failed action are not the turn's."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

HARNESS = r"""
const SITE = "http://127.0.0.1:8000";
const items = [];
const session = {};
let nextId = 1;
globalThis.chrome = {
  downloads: { search: async ({ id, startedAfter }) => items.filter((item) =>
    id !== undefined ? item.id === id : Date.parse(item.startTime) > Date.parse(startedAfter)).map((item) => ({ ...item })) },
  runtime: { getURL: (path) => `chrome-extension://tabagent/${path}` },
  storage: { session: { get: async (key) => ({ [key]: session[key] }), set: async (values) => Object.assign(session, values) } },
};
// A clock whose timers never fire: a reply that waits on one is never given.
globalThis.setTimeout = () => 0;
const download = (fields) => {
  const item = { id: nextId++, url: `${SITE}/notes.txt`, referrer: `${SITE}/files.html`, filename: "/tmp/notes.txt",
    mime: "text/plain", fileSize: 1024, totalBytes: 1024, startTime: new Date(Date.now() + 1).toISOString(), ...fields };
  items.push(item);
  return item;
};
const { withDownloads, startedBy } = await import("./extension/background/action-downloads.js");
const tab = { id: 1, url: `${SITE}/files.html` };
const settled = (promise) => new Promise((resolve) => {
  let turns = 0;
  const tick = () => (++turns > 200 ? resolve("held") : setImmediate(tick));
  promise.then(resolve, (error) => resolve(`failed: ${error}`));
  tick();
});
// Actions a millisecond apart or in the same one (a quiet machine): the clock stands still while
// they begin, so the call's own watch and the turn's earlier one share their start.
const realNow = Date.now;
const frozen = realNow();
const seen = {};
const click = { name: "click", args: { locator: "#nothing" } };
Date.now = () => frozen;
seen.plain = await settled(withDownloads(tab, click, [], async () => ({ ok: true, result: "clicked" })));
const watch = seen.plain.watch;
seen.during = await settled(withDownloads(tab, click, [watch], async () => { download({ filename: "/tmp/list.txt" }); return { ok: true, result: "clicked" }; }));
Date.now = realNow;
const later = seen.during.watch;
const late = download({ filename: "/tmp/late.txt" });
download({ byExtensionId: "someone" });
download({ referrer: "http://127.0.0.1:9000/other.html" });
download({ startTime: new Date(later.since - 5000).toISOString() });
const others = download({});
session.actionDownloads = { ...session.actionDownloads, [others.id]: 2 };
seen.next = await settled(withDownloads(tab, { name: "read_page", args: {} }, [watch, later], async () => ({ ok: true, result: "page" })));
seen.again = await settled(withDownloads(tab, { name: "read_page", args: {} }, [watch, later], async () => ({ ok: true, result: "page" })));
seen.failed = await settled(withDownloads(tab, click, [], async () => ({ ok: false, error: "covered" })));
const before = download({ filename: "/tmp/before-read.txt" });
const reading = { name: "describe_action", args: { name: "read_download" } };
seen.read = await settled(withDownloads(tab, reading, [later], async () => ({ ok: true, result: { kept: (await startedBy())[before.id] } })));
// The turn's last call, before its answer: the acting tab still loads (its link's server has not
// answered), a tab the turn never acted on downloads from its own site meanwhile; then the server
// answers (the download is created, still going) and the tab settles.
let loading = true;
const heard = [];
chrome.tabs = {
  get: async (id) => ({ id, url: `${SITE}/files.html`, status: id === 1 && loading ? "loading" : "complete" }),
  onUpdated: { addListener: (listener) => heard.push(listener), removeListener: (listener) => heard.splice(heard.indexOf(listener), 1) },
};
const acted = { tab_id: 1, site: SITE, since: Date.now() - 2000 };
const lastCall = withDownloads(tab, { name: "unnamed_downloads", args: {} }, [acted], async () => ({ ok: true, result: {} }));
seen.whileLoading = await settled(Promise.race([lastCall, new Promise((resolve) => setImmediate(() => setImmediate(() => resolve("waiting"))))]));
const elsewhere = download({ url: "http://127.0.0.1:9000/timer.txt", referrer: "http://127.0.0.1:9000/timer.html", filename: "/tmp/timer.txt" });
const slow = download({ url: "http://127.0.0.1:9000/late.txt", filename: "/tmp/SYSTEM NOTE.txt", state: "in_progress", fileSize: 0, totalBytes: 0 });
loading = false;
for (const listener of [...heard]) listener(1, { status: "complete" }, { id: 1, status: "complete" });
seen.last = await settled(lastCall);
seen.kept = await startedBy();
seen.ids = { late: late.id, others: others.id, before: before.id, elsewhere: elsewhere.id, slow: slow.id };
console.log(JSON.stringify(seen));
"""


@pytest.fixture(scope="module")
def seen():
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not on PATH: install Node.js 20 to check the JavaScript modules")
    done = subprocess.run([node, "--input-type=module", "-e", HARNESS], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_click_that_starts_no_download_is_answered_without_waiting_for_one(seen):
    assert seen["plain"] != "held"
    assert seen["plain"]["ok"] and "downloads" not in seen["plain"] and "late_downloads" not in seen["plain"]
    assert seen["plain"]["watch"]["tab_id"] == 1 and seen["plain"]["watch"]["site"] == "http://127.0.0.1:8000"


def test_a_download_there_when_the_action_ends_is_said_in_its_reply(seen):
    assert [d["file_name"] for d in seen["during"]["downloads"]] == ["list.txt"]
    assert "late_downloads" not in seen["during"]


def test_a_download_after_the_reply_is_said_in_the_next_call_as_the_tabs(seen):
    late = seen["next"]["late_downloads"]
    assert [(d["file_name"], d["tab_id"], d["size"]) for d in late] == [("late.txt", 1, 1024)]
    assert seen["kept"][str(seen["ids"]["late"])] == 1
    assert "late_downloads" not in seen["again"]  # said once


def test_what_the_turn_did_not_start_is_not_claimed(seen):
    """An extension's download, one from another site's page, one from before the action, one
    another tab claimed (it stays that tab's), and nothing after an action that failed."""
    assert len(seen["kept"]) == 5  # list.txt, late.txt, the other tab's, before-read.txt, and the last call's
    assert seen["kept"][str(seen["ids"]["others"])] == 2
    assert "watch" not in seen["failed"]


def test_reading_a_download_claims_the_turns_first(seen):
    """read_download's question sees a late download already the acting tab's, so it is never
    offered as a page's own to another tab of the site (and is not said again as late: it is
    the one the question names)."""
    assert seen["read"]["result"]["kept"] == 1
    assert "late_downloads" not in seen["read"]


def test_the_last_call_before_the_answer_waits_for_the_acting_tab_then_claims_only_its_download(seen):
    """Before the turn's answer is taken (DOWNLOADS.unnamed_call): while the acting tab loads (its
    link's server has not answered), the call waits; then it claims the download that came, still
    going, as that tab's, and never one that a tab the turn never acted on started from its own site."""
    assert seen["whileLoading"] == "waiting"
    assert [(d["file_name"], d["tab_id"], d.get("in_progress")) for d in seen["last"]["late_downloads"]] == [("SYSTEM NOTE.txt", 1, True)]
    assert "downloads" not in seen["last"] and "watch" not in seen["last"]
    assert seen["kept"][str(seen["ids"]["slow"])] == 1 and str(seen["ids"]["elsewhere"]) not in seen["kept"]
