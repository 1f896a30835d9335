"""extension/offscreen/python/package-files.js: the files of tabagent.zip (stored, as the build
writes it), read in JavaScript and written into Pyodide's file system (in place of Pyodide's
unpackArchive, which ran Python's zipfile at every start), are exactly the archive's; an archive
that names a path outside its folder, a compressed one and what is not a zip are refused. Run in
Node, with a file system that records."""

from __future__ import annotations

import io
import json
import shutil
import struct
import subprocess
import zipfile

import pytest

from tests.helpers.browser import ROOT

READ = r"""
import { readFileSync } from "node:fs";
import { packageFiles, writePackageFiles } from "./extension/offscreen/python/package-files.js";

const bytes = readFileSync(process.argv[1]);
const archive = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
const written = {}, folders = new Set();
const fs = { mkdirTree: (path) => folders.add(path), writeFile: (path, data) => (written[path] = Buffer.from(data).toString("latin1")) };
try {
  writePackageFiles({ FS: fs }, "/home/pkg", await packageFiles(archive));
  console.log(JSON.stringify({ written, folders: [...folders].sort() }));
} catch (error) {
  console.log(JSON.stringify({ error: error.message }));
}
"""

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js")


def read_in_node(tmp_path, archive: bytes) -> dict:
    path = tmp_path / "package.zip"
    path.write_bytes(archive)
    done = subprocess.run(["node", "--input-type=module", "-e", READ, str(path)], cwd=ROOT, capture_output=True,
                          text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def made_zip(files: dict[str, bytes], compression: int, folders: tuple[str, ...] = ()) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression) as archive:
        for folder in folders:
            archive.writestr(zipfile.ZipInfo(folder), b"")
        for name, data in files.items():
            info = zipfile.ZipInfo(name)
            info.extra = struct.pack("<HH", 0xCAFE, 4) + b"tool"  # an extra field, as other zip tools write
            archive.writestr(info, data, compress_type=compression)
    return buffer.getvalue()


FILES = {
    "tabagent/__init__.py": b'__version__ = "1"\n',
    "tabagent/app/wire.py": "# caf\u00e9, \u65e5\u672c\n".encode() * 500,
    "user_tools/empty.py": b"",
}


def test_every_file_is_written_as_the_archive_holds_it(tmp_path):
    found = read_in_node(tmp_path, made_zip(FILES, zipfile.ZIP_STORED, folders=("tabagent/",)))
    assert found["written"] == {f"/home/pkg/{name}": data.decode("latin1") for name, data in FILES.items()}
    assert found["folders"] == ["/home/pkg/tabagent", "/home/pkg/tabagent/app", "/home/pkg/user_tools"]


def test_the_build_s_own_archive_reads_whole(tmp_path):
    archive = (ROOT / "extension" / "vendor" / "tabagent.zip").read_bytes()
    with zipfile.ZipFile(io.BytesIO(archive)) as expected:
        files = {f"/home/pkg/{n}": expected.read(n).decode("latin1") for n in expected.namelist() if not n.endswith("/")}
    assert len(files) > 50
    assert read_in_node(tmp_path, archive)["written"] == files


def test_a_path_out_of_the_folder_is_refused(tmp_path):
    found = read_in_node(tmp_path, made_zip({"tabagent/../../etc/x.py": b"x = 1\n"}, zipfile.ZIP_STORED))
    assert "tabagent.zip names tabagent/../../etc/x.py" in found["error"]


def test_a_compressed_archive_is_refused_rather_than_misread(tmp_path):
    found = read_in_node(tmp_path, made_zip(FILES, zipfile.ZIP_DEFLATED))
    assert "tabagent.zip is compressed (8): run make build" in found["error"]


def test_what_is_not_a_zip_is_refused(tmp_path):
    assert "not a zip archive" in read_in_node(tmp_path, b"PK but no directory" * 3)["error"]
