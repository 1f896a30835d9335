"""The server-sent events parser: whole events from arbitrarily split bytes."""

from hypothesis import given, settings
from hypothesis import strategies as st

from tabagent.sse import SSEEvent, SSEParser


def parse(*chunks: bytes) -> list[SSEEvent]:
    parser, events = SSEParser(), []
    for chunk in chunks:
        events += parser.feed(chunk)
    return events + parser.close()


def test_fields_comments_and_multiline_data():
    stream = (b": comment\n"
              b"event: update\nid: 7\ndata: first\ndata: second\n\n"
              b"data:no space\n\n"
              b"data\n\n"            # a field with no colon: empty data
              b"retry: 100\n\n"       # no data: nothing dispatched
              b"data: after\n\n")
    assert parse(stream) == [SSEEvent("first\nsecond", "update", "7"), SSEEvent("no space", "message", "7"),
                             SSEEvent("", "message", "7"), SSEEvent("after", "message", "7")]


def test_crlf_and_cr_line_endings():
    assert parse(b"data: a\r\n\r\ndata: b\r\rdata: c\n\n") == [
        SSEEvent("a"), SSEEvent("b"), SSEEvent("c")]


def test_crlf_split_between_chunks_is_one_line_end():
    assert parse(b"data: a\r", b"\n\r", b"\ndata: b\r\n\r\n") == [SSEEvent("a"), SSEEvent("b")]


def test_utf8_character_split_between_chunks():
    data = "data: é🙂\n\n".encode()
    assert parse(data[:7], data[7:9], data[9:]) == [SSEEvent("é🙂")]


def test_byte_order_mark_and_unterminated_last_event():
    assert parse(b"\xef\xbb\xbfdata: x\n\ndata: cut off") == [SSEEvent("x")]


def test_the_id_to_resume_from_is_the_last_whole_event_s():
    """A stream cut after an event's id but before its blank line: resuming after that id would
    lose the event, so the last id stays the previous whole event's (a data-less one counts)."""
    parser = SSEParser()
    parser.feed(b"id: 1\ndata: a\n\nid: 2\n\nid: 3\nevent: message\ndata: {\"half")
    assert parser.last_id == "2"
    assert parser.feed(b"\"}\n\n") == [SSEEvent('{"half"}', "message", "3")] and parser.last_id == "3"


# Any valid stream, cut into chunks anywhere (inside a CRLF pair, inside a UTF-8
# character), gives the same events as the stream in one piece.

text = st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n\0"),
               max_size=20)
line_end = st.sampled_from(["\n", "\r\n", "\r"])
field = st.one_of(
    st.tuples(st.just("data"), text), st.tuples(st.just("event"), text),
    st.tuples(st.just("id"), text), st.tuples(st.just(""), text),  # a comment
)


@st.composite
def streams(draw) -> bytes:
    parts = []
    for _ in range(draw(st.integers(0, 6))):
        for name, value in draw(st.lists(field, min_size=1, max_size=4)):
            parts.append(f"{name}: {value}{draw(line_end)}")
        parts.append(draw(line_end))  # the blank line that ends the event
    return "".join(parts).encode()


@settings(max_examples=300, deadline=None)
@given(streams(), st.data())
def test_any_split_gives_the_same_events(stream, data):
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=12)))
    chunks = [stream[a:b] for a, b in zip([0, *cuts], [*cuts, len(stream)])]
    assert parse(*chunks) == parse(stream)


@settings(max_examples=100, deadline=None)
@given(st.lists(text, min_size=1, max_size=5), st.data())
def test_data_survives_any_split(values, data):
    stream = "".join(f"data: {v}\n\n" for v in values).encode()
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=8)))
    chunks = [stream[a:b] for a, b in zip([0, *cuts], [*cuts, len(stream)])]
    assert [e.data for e in parse(*chunks)] == values
