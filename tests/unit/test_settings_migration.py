"""Settings in one spelling (extension/shared/settings/settings-migration.js): what an older version
stored under the camelCase second spelling (baseUrl, maxSteps) is read once, in the service
worker, and rewritten under wire.py's names, with nothing the user saved lost. The old shape
(tests/helpers/old_settings.py) is written out by hand, not derived from the new code."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tabagent.app.wire import SETTINGS
from tests.helpers.old_settings import NEW_SHAPE, OLD_SHAPE

ROOT = Path(__file__).resolve().parents[2]

MIGRATE = """
  const stored = { settings: %s };
  const writes = [];
  globalThis.chrome = { storage: { local: {
    get: async (key) => (key in stored ? { [key]: structuredClone(stored[key]) } : {}),
    set: async (items) => { writes.push(items); Object.assign(stored, structuredClone(items)); },
  } } };
  const { migrateStoredSettings } = await import("./extension/shared/settings/settings-migration.js");
  const first = await migrateStoredSettings();
  const second = await migrateStoredSettings();
  console.log(JSON.stringify({ first, second, writes: writes.length, stored: stored.settings }));
"""


def node(script: str):
    done = subprocess.run(["node", "--input-type=module", "-e", script], cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def migrated(settings: dict) -> dict:
    return node(MIGRATE % json.dumps(settings))


def test_the_shapes_here_cover_every_setting():
    assert set(NEW_SHAPE) == set(SETTINGS) and len(OLD_SHAPE) == len(SETTINGS)


def test_settings_stored_in_the_old_spelling_are_rewritten_once_with_every_value_kept():
    result = migrated(OLD_SHAPE)
    assert result["stored"] == NEW_SHAPE
    assert (result["first"], result["second"], result["writes"]) == (True, False, 1)  # once, then nothing to do


def test_settings_already_in_the_one_spelling_are_left_alone():
    result = migrated(NEW_SHAPE)
    assert (result["first"], result["writes"], result["stored"]) == (False, 0, NEW_SHAPE)


def test_a_value_under_the_new_name_wins_and_the_old_name_goes():
    result = migrated({**NEW_SHAPE, "maxSteps": 99})
    assert result["stored"] == NEW_SHAPE


def test_a_conversations_own_settings_and_loaded_settings_read_in_the_one_spelling():
    """record.overrides an older version stored ({systemPrompt, maxOutputTokens}) still apply."""
    read = node("""
      const { inOneSpelling } = await import("./extension/shared/settings/settings-migration.js");
      console.log(JSON.stringify([inOneSpelling({ systemPrompt: "Be brief.", maxOutputTokens: 50, temperature: 1 }),
                                  inOneSpelling(undefined), inOneSpelling("text"), inOneSpelling([1])]));
    """)
    assert read == [{"system_prompt": "Be brief.", "max_output_tokens": 50, "temperature": 1}, {}, {}, {}]
