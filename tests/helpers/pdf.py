"""Small, valid PDF files written by the tests themselves (no library, no vendored file).

    make_pdf(["First page text", "Second page text"])     # one page per string, with text
    make_pdf([None, None])                                 # two pages with no text layer
                                                           # (a drawing only: as a scan looks)
    make_pdf(["Secret"], password="pw")                    # encrypted: opens only with "pw"
    make_pdf(["中文文本"], cjk=True)                        # Chinese, in a CJK font with a CMap

Each page's text is set in Helvetica, one line per "\\n"; the byte offsets of the
cross-reference table are computed, so pdf.js reads the file without repairing it.
"""

from __future__ import annotations

import hashlib
import struct

# The standard security handler, revision 2 (PDF 1.7, 7.6.3): RC4 with a 40-bit key.
_PAD = bytes.fromhex("28BF4E5E4E758A4164004E56FFFA01082E2E00B6D0683E802F0CA9FE6453697A")
_PERMISSIONS = -4  # everything allowed
_FILE_ID = bytes(range(16))


def _rc4(key: bytes, data: bytes) -> bytes:
    box = list(range(256))
    j = 0
    for i in range(256):
        j = (j + box[i] + key[i % len(key)]) % 256
        box[i], box[j] = box[j], box[i]
    out, i, j = bytearray(), 0, 0
    for byte in data:
        i = (i + 1) % 256
        j = (j + box[i]) % 256
        box[i], box[j] = box[j], box[i]
        out.append(byte ^ box[(box[i] + box[j]) % 256])
    return bytes(out)


def _padded(password: str) -> bytes:
    return (password.encode("latin-1") + _PAD)[:32]


def _security(user: str) -> tuple[bytes, bytes, bytes]:
    """(file key, /O, /U) for a user password (the owner's is derived from it)."""
    owner = _rc4(hashlib.md5(_padded("owner-" + user)).digest()[:5], _padded(user))
    key = hashlib.md5(_padded(user) + owner + struct.pack("<i", _PERMISSIONS) + _FILE_ID).digest()[:5]
    return key, owner, _rc4(key, _PAD)


def _object_key(key: bytes, number: int) -> bytes:
    return hashlib.md5(key + number.to_bytes(3, "little") + b"\0\0").digest()[:10]


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


# Chinese text in the reader's own font (not embedded): its codes are UCS-2, mapped to glyphs by
# Adobe's predefined CMap "UniGB-UCS2-H", which a reader must have (pdf.js: its cmaps folder).
_CJK_FONT = (b"<< /Type /Font /Subtype /Type0 /BaseFont /STSong-Light /Encoding /UniGB-UCS2-H /DescendantFonts "
             b"[<< /Type /Font /Subtype /CIDFontType0 /BaseFont /STSong-Light "
             b"/CIDSystemInfo << /Registry (Adobe) /Ordering (GB1) /Supplement 4 >> "
             b"/FontDescriptor << /Type /FontDescriptor /FontName /STSong-Light /Flags 6 /FontBBox [0 -200 1000 900] "
             b"/ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 880 /StemV 93 >> >>] >>")


def _page_stream(text: str | None, cjk: bool = False) -> bytes:
    if text is None:  # a grey box where a scan's picture would be, and no text at all
        return b"0.8 g 72 72 451 698 re f"
    if cjk:
        lines = [f"<{line.encode('utf-16-be').hex()}> Tj T*" for line in text.split("\n")]
    else:
        lines = [f"({_escape(line)}) Tj T*" for line in text.split("\n")]
    return ("BT /F1 12 Tf 14 TL 72 740 Td " + " ".join(lines) + " ET").encode("latin-1")


def make_pdf(pages: list[str | None], title: str | None = None, password: str | None = None,
             cjk: bool = False) -> bytes:
    objects: list[bytes] = []  # object n is objects[n - 1]
    key, owner, user = _security(password) if password is not None else (None, b"", b"")

    def add(body: bytes) -> int:
        objects.append(body)
        return len(objects)

    catalog = add(b"")  # filled in once the page tree's number is known
    pages_id = add(b"")
    font = add(_CJK_FONT if cjk else b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    kids = []
    for text in pages:
        stream = _page_stream(text, cjk)
        if key:  # the stream's object number is the next one
            stream = _rc4(_object_key(key, len(objects) + 1), stream)
        content = add(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
        kids.append(add(b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 595 842] "
                        b"/Resources << /Font << /F1 %d 0 R >> >> /Contents %d 0 R >>" % (pages_id, font, content)))
    objects[catalog - 1] = b"<< /Type /Catalog /Pages %d 0 R >>" % pages_id
    objects[pages_id - 1] = (b"<< /Type /Pages /Count %d /Kids [" % len(kids)
                             + b" ".join(b"%d 0 R" % kid for kid in kids) + b"] >>")
    info = add(b"<< /Title (%s) >>" % _escape(title).encode("latin-1")) if title and not key else None
    encrypt = add(b"<< /Filter /Standard /V 1 /R 2 /O <%s> /U <%s> /P %d >>"
                  % (owner.hex().encode(), user.hex().encode(), _PERMISSIONS)) if key else None

    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    trailer = b"<< /Size %d /Root %d 0 R" % (len(objects) + 1, catalog)
    if info:
        trailer += b" /Info %d 0 R" % info
    if encrypt:
        trailer += b" /Encrypt %d 0 R /ID [<%s> <%s>]" % (encrypt, _FILE_ID.hex().encode(), _FILE_ID.hex().encode())
    out += b"trailer\n" + trailer + b" >>\nstartxref\n%d\n%%%%EOF\n" % xref
    return bytes(out)
