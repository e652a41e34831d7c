# smallfont.py under MicroPython: how the error screen's text is cut into lines.
# SPDX-License-Identifier: MIT
# mpcheck: heapsize=16k
import mptest
from mptest import check


def wrapped(text, width=84):
    """The lines smallfont.line() and skip() cut text into, as rescue.screen() does."""
    import smallfont

    data = text.encode()
    lines = []
    k = smallfont.skip(data, 0)
    while k < len(data):
        end = smallfont.line(data, k, width)
        check(smallfont.width(data, k, end) <= width, "%r: line too wide" % text)
        lines.append(data[k:end].decode())
        k = smallfont.skip(data, end)
    return lines


def test_error_message_wraps_at_spaces():
    cases = {
        "": [],
        "short": ["short"],
        "  padded words here  ": ["padded words here"],
        "no module named 'engine_v2'": ["no module named", "'engine_v2'"],
        "'NoneType' object has no attribute 'draw'": [
            "'NoneType' object has",
            "no attribute 'draw'",
        ],
        "one\ntwo": ["one", "two"],
        "x" * 30: ["x" * 21, "x" * 9],  # a word wider than the line is cut (4 px a letter)
        "NotImplementedError": ["NotImplementedError"],
    }
    for message in cases:
        got = wrapped(message)
        check(got == cases[message], "%r -> %r" % (message, got))
    # A character outside ASCII shows as one "?" (its UTF-8 bytes take the width of one).
    import smallfont

    check(smallfont.width("\u00e9t\u00e9".encode()) == smallfont.width(b"?t?"))


mptest.run(globals())
