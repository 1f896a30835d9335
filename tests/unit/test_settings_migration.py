"""Settings in one spelling (extension/shared/settings/settings-migration.js): what an older version
stored under the camelCase second spelling (baseUrl, maxSteps) is read once, in the service
worker, and rewritten under wire.py's names, with nothing the user saved lost. The old shape
(tests/helpers/old_settings.py) is written out by hand, not derived from the new code.

And of this version (settings_version 2): before it, every save wrote every default into storage,
request_timeout's 120 among them, which then counted as the user's choice and held a model on
this computer to 120 s, not 900; a 120 stored before version 2 becomes empty, once."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tabagent.app.wire import SETTINGS
from tests.helpers.old_settings import NEW_SHAPE, OLD_SHAPE

ROOT = Path(__file__).resolve().parents[2]

MIGRATE = """
  const stored = %s;
  const writes = [];
  const some = (keys) => Object.fromEntries([keys].flat().filter((k) => k in stored).map((k) => [k, structuredClone(stored[k])]));
  globalThis.chrome = { storage: { local: {
    get: async (keys) => some(keys),
    set: async (items) => { writes.push(items); Object.assign(stored, structuredClone(items)); },
  } } };
  const { migrateStoredSettings } = await import("./extension/shared/settings/settings-migration.js");
  const first = await migrateStoredSettings();
  const second = await migrateStoredSettings();
  console.log(JSON.stringify({ first, second, writes: writes.length, stored: stored.settings,
                              version: stored.settings_version }));
"""


def node(script: str):
    done = subprocess.run(["node", "--input-type=module", "-e", script], cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def migrated(settings: dict, version: int | None = None) -> dict:
    stored = {"settings": settings, **({"settings_version": version} if version is not None else {})}
    return node(MIGRATE % json.dumps(stored))


def test_the_shapes_here_cover_every_setting():
    assert set(NEW_SHAPE) == set(SETTINGS) and len(OLD_SHAPE) == len(SETTINGS)


def test_settings_stored_in_the_old_spelling_are_rewritten_once_with_every_value_kept():
    result = migrated(OLD_SHAPE)
    assert result["stored"] == NEW_SHAPE
    assert (result["first"], result["second"], result["writes"]) == (True, False, 1)  # once, then nothing to do


def test_settings_already_in_the_one_spelling_and_this_version_are_left_alone():
    result = migrated(NEW_SHAPE, version=2)
    assert (result["first"], result["writes"], result["stored"]) == (False, 0, NEW_SHAPE)


def test_settings_of_an_older_version_keep_every_value_and_get_this_version():
    result = migrated(NEW_SHAPE)  # request_timeout 60: the user's
    assert (result["first"], result["second"], result["writes"]) == (True, False, 1)
    assert (result["stored"], result["version"]) == (NEW_SHAPE, 2)


def test_the_old_default_request_timeout_becomes_empty_once():
    """120 was the default every save stored before version 2: it was no choice of the user's."""
    for old in ({**OLD_SHAPE, "requestTimeout": 120}, {**NEW_SHAPE, "request_timeout": 120}):
        result = migrated(old)
        assert result["stored"] == {**NEW_SHAPE, "request_timeout": None} and result["version"] == 2
        assert (result["first"], result["second"], result["writes"]) == (True, False, 1)


def test_a_120_saved_since_this_version_is_the_users():
    result = migrated({**NEW_SHAPE, "request_timeout": 120}, version=2)
    assert (result["first"], result["stored"]["request_timeout"]) == (False, 120)


def test_nothing_stored_is_nothing_to_migrate():
    result = node(MIGRATE % "{}")
    assert (result["first"], result["writes"], result.get("stored")) == (False, 0, None)


LOAD_AND_SAVE = """
  const stored = %s;
  globalThis.chrome = { storage: { local: {
    get: async (keys) => Object.fromEntries([keys].flat().filter((k) => k in stored).map((k) => [k, structuredClone(stored[k])])),
    set: async (items) => { Object.assign(stored, structuredClone(items)); },
  } } };
  const { loadSettings, storeSettings } = await import("./extension/shared/settings/settings.js");
  const loaded = (await loadSettings()).settings.request_timeout;
  await storeSettings({ ...(await loadSettings()).settings, request_timeout: 120 });
  const saved = { version: stored.settings_version, timeout: (await loadSettings()).settings.request_timeout };
  console.log(JSON.stringify({ loaded, saved }));
"""


def test_settings_read_before_the_migration_ran_are_read_as_this_version():
    """A panel that loads the settings before the service worker rewrote them reads the old
    default as empty too; a save marks the version, so a 120 typed then stays 120."""
    result = node(LOAD_AND_SAVE % json.dumps({"settings": {**NEW_SHAPE, "request_timeout": 120}}))
    assert result == {"loaded": None, "saved": {"version": 2, "timeout": 120}}


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
