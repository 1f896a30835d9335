"""The event schema: one definition in Python, documented in docs/events.md."""

import json
import re
from pathlib import Path

from tabagent.events import KINDS, SCHEMA_VERSION, Event, deliver, jsonable

DOC = (Path(__file__).resolve().parents[2] / "docs" / "events.md").read_text()


def doc_sections() -> dict[str, str]:
    parts = re.split(r"^### `(\w+)`\n", DOC, flags=re.MULTILINE)
    return dict(zip(parts[1::2], parts[2::2]))


def test_every_kind_and_data_key_is_documented():
    sections = doc_sections()
    assert list(sections) == list(KINDS)
    for kind, keys in KINDS.items():
        for key in keys:
            assert re.search(rf'[`"]{key}[`"]', sections[kind]), f"{kind}.{key} is not documented"


def test_the_envelope_is_documented():
    for name in Event.__dataclass_fields__:
        assert f"| `{name}`" in DOC
    assert SCHEMA_VERSION == 1


def test_event_round_trips_through_json():
    event = Event("tool_result", "c", "agent", 2, 3, 17, 1.5,
                  {"id": "x", "name": "n", "result": "é\\n", "is_error": False})
    assert Event.from_json(event.to_json()) == event
    assert Event.from_dict(json.loads(json.dumps(event.to_dict()))) == event


def test_an_events_dict_is_asdicts_and_its_data_a_copy_the_listener_cannot_change_back():
    from dataclasses import asdict
    step = {"id": "x", "arguments": {"option": ["a", "b"]}, "pair": (1, 2)}
    event = Event("tool_call", "c", "agent", 0, 1, 2, 1.5, step)
    given = event.to_dict()
    assert given == asdict(event) and list(given) == list(asdict(event))
    given["data"]["arguments"]["option"].append("c")
    assert step["arguments"]["option"] == ["a", "b"]


def test_jsonable_keeps_json_values_and_stringifies_the_rest():
    assert jsonable({"a": [1, 2.5, None, "x"]}) == {"a": [1, 2.5, None, "x"]}
    assert jsonable((1, 2)) == "(1, 2)"  # a tuple would come back as a list
    assert jsonable(object).startswith("<class")


async def test_deliver_calls_plain_and_async_listeners_in_order():
    heard = []

    async def later(event):
        heard.append(("async", event.seq))

    event = Event("step_start", "c", "a", 0, 1, 1, 0.0, {})
    await deliver(event, [lambda e: heard.append(("plain", e.seq)), later])
    assert heard == [("plain", 1), ("async", 1)]
