"""Settling turns nothing runs any more (extension/shared/storage/conversations.js,
markInterruptedTurns), run by Node over a storage that counts what is read: the side panel asks
for it at every start and the service worker at every wake, so it reads the conversations that
can have a turn left running, not the whole history; and records an earlier version wrote, with
no list of those, are all read once and settled all the same.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CONVERSATIONS = ROOT / "extension" / "shared" / "storage" / "conversations.js"

# The scenario (a function body, given `conversations`, `storage`, `reads` and `stored`) runs
# with chrome.storage.local in memory; `reads` counts the conversation records read from it.
RUN = """
const stored = new Map();
let reads = 0;
const names = (keys) => (keys == null ? [...stored.keys()] : typeof keys === "string" ? [keys] : keys);
const copy = (value) => (value === undefined ? undefined : structuredClone(value));
globalThis.chrome = {
  i18n: { getMessage: () => "" },
  storage: { local: {
    get: async (keys) => {
      const found = names(keys).filter((key) => stored.has(key));
      reads += found.filter((key) => key.startsWith("conversation:")).length;
      return Object.fromEntries(found.map((key) => [key, copy(stored.get(key))]));
    },
    set: async (items) => { for (const [key, value] of Object.entries(items)) stored.set(key, copy(value)); },
    remove: async (keys) => { for (const key of names(keys)) stored.delete(key); },
  } },
};
const conversations = await import(process.argv[1]);
const counted = async (work) => { reads = 0; const result = await work(); return { result, reads }; };
const statuses = (id) => stored.get("conversation:" + id).turns.map((turn) => turn.status);
const scenario = async () => { %s };
process.stdout.write(JSON.stringify(await scenario()));
"""


def run(scenario: str):
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not on PATH: install Node.js 20 to check the JavaScript modules")
    done = subprocess.run([node, "--input-type=module", "-e", RUN % scenario, CONVERSATIONS.as_uri()],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


# Conversations as an earlier version stored them: the index and the records, and no list of
# the conversations with a turn running. `running` of them have their last turn left running.
OLDER_VERSION = """
const old = (n, running) => {
  const index = {};
  for (let i = 0; i < n; i += 1) {
    const id = "old-" + i;
    const turn = { id: "turn-" + i, text: "x".repeat(2000), status: i < running ? "running" : "ok", events: [], memoryAt: 0 };
    stored.set("conversation:" + id, { id, title: id, createdAt: i, updatedAt: i, memory: null, turns: [turn] });
    index[id] = { id, title: id, createdAt: i, updatedAt: i };
  }
  stored.set("conversations", index);
};
"""
NOTHING_LIVE = "async () => new Set()"


def test_settling_reads_only_the_conversations_with_a_turn_left_running():
    seen = run(OLDER_VERSION + f"""
      old(300, 0);
      const first = await counted(() => conversations.markInterruptedTurns({NOTHING_LIVE}));  // the one read of all
      const a = await conversations.createConversation("A");
      await conversations.addTurn(a.id, {{ id: "a1", text: "Cut me off" }});  // its end is never saved
      const b = await conversations.createConversation("B");
      await conversations.addTurn(b.id, {{ id: "b1", text: "Answered" }});
      await conversations.finishTurn(b.id, "b1", {{ status: "ok", memory: null, events: [] }});
      const second = await counted(() => conversations.markInterruptedTurns({NOTHING_LIVE}));
      const third = await counted(() => conversations.markInterruptedTurns({NOTHING_LIVE}));
      return {{ first, second, third, a: statuses(a.id), b: statuses(b.id), list: stored.get("unfinished-turns") }};
    """)
    assert seen["first"] == {"result": 0, "reads": 300}
    assert seen["a"] == ["interrupted"] and seen["b"] == ["ok"]
    assert seen["second"] == {"result": 1, "reads": 1}  # A alone, of 302 conversations
    assert seen["third"] == {"result": 0, "reads": 0}
    assert seen["list"] == {}


def test_records_an_earlier_version_left_running_are_settled_once_and_nothing_else_changes():
    seen = run(OLDER_VERSION + f"""
      old(50, 3);
      const before = structuredClone(Object.fromEntries(stored));
      const first = await counted(() => conversations.markInterruptedTurns({NOTHING_LIVE}));
      const after = Object.fromEntries(stored);
      const changed = Object.keys(after).filter((key) => key.startsWith("conversation:")
        && JSON.stringify({{ ...after[key], updatedAt: 0 }}) !== JSON.stringify({{ ...before[key], updatedAt: 0 }}));
      const second = await counted(() => conversations.markInterruptedTurns({NOTHING_LIVE}));
      const index = Object.keys(stored.get("conversations")).length;
      return {{ first, second, changed, statuses: [0, 1, 2, 3].map((i) => statuses("old-" + i)), index,
               texts: [...stored.values()].filter((v) => v.turns).every((r) => r.turns[0].text.length === 2000) }};
    """)
    assert seen["first"] == {"result": 3, "reads": 50}
    assert sorted(seen["changed"]) == ["conversation:old-0", "conversation:old-1", "conversation:old-2"]
    assert seen["statuses"] == [["interrupted"]] * 3 + [["ok"]]
    assert seen["second"] == {"result": 0, "reads": 0}
    assert seen["index"] == 50 and seen["texts"]


def test_a_live_turn_stays_running_and_listed_until_it_ends():
    seen = run(OLDER_VERSION + f"""
      old(20, 0);
      await conversations.markInterruptedTurns({NOTHING_LIVE});
      const a = await conversations.createConversation("A");
      await conversations.addTurn(a.id, {{ id: "a1", text: "Still going" }});
      const whileLive = await counted(() => conversations.markInterruptedTurns(async () => new Set(["a1"])));
      const unknown = await conversations.markInterruptedTurns(async () => null);  // Python cannot tell: nothing marked
      const live = {{ statuses: statuses(a.id), list: stored.get("unfinished-turns") }};
      await conversations.finishTurn(a.id, "a1", {{ status: "ok", memory: null, events: [] }});
      const ended = stored.get("unfinished-turns");
      await conversations.addTurn(a.id, {{ id: "a2", text: "Stop me" }});
      const stopped = await conversations.markInterruptedTurns({NOTHING_LIVE}, {{ conversationId: a.id, status: "cancelled" }});
      const afterStop = stored.get("unfinished-turns");
      await conversations.addTurn(a.id, {{ id: "a3", text: "Then delete me" }});
      await conversations.deleteConversation(a.id);
      const later = await counted(() => conversations.markInterruptedTurns({NOTHING_LIVE}));
      return {{ whileLive, unknown, live, ended, stopped, afterStop, deleted: stored.get("unfinished-turns"), later, a: a.id }};
    """)
    a = seen["a"]
    assert seen["whileLive"] == {"result": 0, "reads": 1} and seen["unknown"] == 0
    assert seen["live"] == {"statuses": ["running"], "list": {a: True}}
    assert seen["ended"] == {}
    assert seen["stopped"] == 1 and seen["afterStop"] == {}
    assert seen["deleted"] == {} and seen["later"] == {"result": 0, "reads": 0}
