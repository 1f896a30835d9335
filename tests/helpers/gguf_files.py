"""GGUF files for the tests: a real model file (SmolLM2's) with header keys of the test's choosing
(a hostile name, a hostile chat template), its tensors unchanged. The header is rewritten as
GGUF v3 lays it out (llama.cpp's gguf.cpp): magic, version, tensor count, key count, the keys,
the tensors' infos, padding to the alignment, then the tensor data (whose offsets are relative to
the start of the data, so they stay as they are)."""

from __future__ import annotations

import struct
from pathlib import Path

STRING, ARRAY = 8, 9
SIZES = {0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8}
ALIGNMENT = 32


class _Reader:
    def __init__(self, data: bytes):
        self.data, self.at = data, 0

    def take(self, n: int) -> bytes:
        piece = self.data[self.at:self.at + n]
        self.at += n
        return piece

    def u32(self) -> int:
        return struct.unpack("<I", self.take(4))[0]

    def u64(self) -> int:
        return struct.unpack("<Q", self.take(8))[0]

    def string(self) -> bytes:
        return self.take(self.u64())

    def value(self, kind: int) -> bytes:
        """The value's raw bytes."""
        start = self.at
        if kind == STRING:
            self.string()
        elif kind == ARRAY:
            item, count = self.u32(), self.u64()
            for _ in range(count):
                self.value(item)
        else:
            self.take(SIZES[kind])
        return self.data[start:self.at]


def _string(text: str) -> bytes:
    raw = text.encode()
    return struct.pack("<Q", len(raw)) + raw


def with_keys(source: Path, target: Path, strings: dict[str, str]) -> Path:
    """`source` with these string keys set (replaced, or added), written to `target`."""
    data = source.read_bytes()
    reader = _Reader(data)
    assert reader.take(4) == b"GGUF" and reader.u32() == 3
    tensors, keys = reader.u64(), reader.u64()
    entries = []
    for _ in range(keys):
        key = reader.string().decode()
        kind = reader.u32()
        entries.append((key, kind, reader.value(kind)))
    infos_start = reader.at
    for _ in range(tensors):
        reader.string()
        dims = reader.u32()
        reader.take(8 * dims + 4 + 8)  # the dimensions, the type, the offset
    infos = data[infos_start:reader.at]
    data_start = -(-reader.at // ALIGNMENT) * ALIGNMENT
    kept = [(k, kind, raw) for k, kind, raw in entries if k not in strings]
    kept += [(k, STRING, _string(v)) for k, v in strings.items()]
    header = b"GGUF" + struct.pack("<IQQ", 3, tensors, len(kept))
    header += b"".join(_string(k) + struct.pack("<I", kind) + raw for k, kind, raw in kept) + infos
    header += b"\0" * (-len(header) % ALIGNMENT)
    target.write_bytes(header + data[data_start:])
    return target
