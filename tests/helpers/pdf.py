"""Small, valid PDF files written by the tests themselves (no library, no vendored file).

    make_pdf(["First page text", "Second page text"])     # one page per string, with text
    make_pdf([None, None])                                 # two pages with no text layer
                                                           # (a drawing only: as a scan looks)

Each page's text is set in Helvetica, one line per "\\n"; the byte offsets of the
cross-reference table are computed, so pdf.js reads the file without repairing it.
"""

from __future__ import annotations


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def _page_stream(text: str | None) -> bytes:
    if text is None:  # a grey box where a scan's picture would be, and no text at all
        return b"0.8 g 72 72 451 698 re f"
    lines = [f"({_escape(line)}) Tj T*" for line in text.split("\n")]
    return ("BT /F1 12 Tf 14 TL 72 740 Td " + " ".join(lines) + " ET").encode("latin-1")


def make_pdf(pages: list[str | None], title: str | None = None) -> bytes:
    objects: list[bytes] = []  # object n is objects[n - 1]

    def add(body: bytes) -> int:
        objects.append(body)
        return len(objects)

    catalog = add(b"")  # filled in once the page tree's number is known
    pages_id = add(b"")
    font = add(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    kids = []
    for text in pages:
        stream = _page_stream(text)
        content = add(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
        kids.append(add(b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 595 842] "
                        b"/Resources << /Font << /F1 %d 0 R >> >> /Contents %d 0 R >>" % (pages_id, font, content)))
    objects[catalog - 1] = b"<< /Type /Catalog /Pages %d 0 R >>" % pages_id
    objects[pages_id - 1] = (b"<< /Type /Pages /Count %d /Kids [" % len(kids)
                             + b" ".join(b"%d 0 R" % kid for kid in kids) + b"] >>")
    info = add(b"<< /Title (%s) >>" % _escape(title).encode("latin-1")) if title else None

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
    out += b"trailer\n" + trailer + b" >>\nstartxref\n%d\n%%%%EOF\n" % xref
    return bytes(out)
