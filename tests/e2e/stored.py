"""Conversations put straight into the extension's storage, as if saved in an earlier session:
a stored answer opens from History without a model."""

from __future__ import annotations

import uuid

STORE = """
const [record, done] = arguments;
chrome.storage.local.get("conversations").then(async ({ conversations: index = {} }) => {
  index[record.id] = { id: record.id, title: record.title, createdAt: record.createdAt, updatedAt: record.updatedAt };
  await chrome.storage.local.set({ ["conversation:" + record.id]: record, conversations: index });
  done();
});
"""


def stored_answer(answer: str, title: str = "A long answer") -> dict:
    """A conversation of one finished turn whose answer is `answer`."""
    events = [{"kind": kind, "conversation_id": "long", "agent": "agent", "depth": 0, "step": 1, "seq": seq, "time": 1.764e9, "data": data}
              for seq, (kind, data) in enumerate([("step_start", {}), ("token", {"text": answer}), ("final_answer", {"answer": answer}),
                                                  ("done", {"status": "ok", "steps": 1, "usage": {}})], start=1)]
    turn = {"id": "t1", "text": "Everything, please", "context": None, "startedAt": 1_764_000_000_000, "status": "ok", "events": events}
    return {"id": str(uuid.uuid4()), "title": title, "createdAt": 1_764_000_000_000, "updatedAt": 1_764_000_000_000,
            "memory": None, "turns": [turn]}


def store(driver, record: dict) -> None:
    driver.execute_async_script(STORE, record)
