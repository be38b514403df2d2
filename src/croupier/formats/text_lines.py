"""The lines of a text file, one at a time, with runs of empty lines passed over in one step.

Readers of line-based files (one deal per line, DLM, CSV) go through their
input with these instead of ``text.splitlines()``: a list of every line of a
16 MiB file of empty lines holds millions of objects (hundreds of bytes for
each byte of input), and a Python step per empty line takes seconds.  Line
numbers are those of ``str.splitlines`` (a line ends at ``\\n``, ``\\r``,
``\\r\\n`` and the other line boundaries Python knows), or, for CSV, those of
a file opened with ``newline=""`` (``\\n``, ``\\r``, ``\\r\\n`` only).

>>> list(nonblank_lines("a\\n\\n  \\r\\nb\\x0bc"))
[(1, 'a'), (4, 'b'), (5, 'c')]
>>> [line for _, line in nonblank_lines("x\\ny", breaks="\\n")]
['x', 'y']
"""

from __future__ import annotations

import re
from collections.abc import Iterator

__all__ = ["CSV_BREAKS", "LINE_BREAKS", "count_breaks", "nonblank_lines"]

#: The characters that end a line for ``str.splitlines`` (``\r\n`` counts once).
LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
#: The characters that end a line of a file opened with ``newline=""`` (the ``csv`` module).
CSV_BREAKS = "\n\r"


def count_breaks(text: str, start: int, end: int, breaks: str = LINE_BREAKS) -> int:
    """The number of line ends in ``text[start:end]`` (``\\r\\n`` counts once).

    >>> count_breaks("a\\r\\nb\\rc\\n", 0, 7)
    3
    """
    found = sum(text.count(ch, start, end) for ch in breaks)
    return found - text.count("\r\n", start, end) if "\r" in breaks else found


def _patterns(breaks: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    klass = re.escape(breaks)
    line = re.compile(rf"[^{klass}]*+")
    blank = re.compile(rf"(?:[^\S{klass}]*+(?:\r\n|[{klass}]))*+")
    return line, blank


_PATTERNS = {LINE_BREAKS: _patterns(LINE_BREAKS), CSV_BREAKS: _patterns(CSV_BREAKS)}


def nonblank_lines(text: str, breaks: str = LINE_BREAKS) -> Iterator[tuple[int, str]]:
    """``(line number, line)`` for every line of ``text`` that is not only white space.

    The line is given without its line end; runs of empty (or white-space)
    lines are passed over by one match of a regular expression.
    """
    line_re, blank_re = _PATTERNS.get(breaks) or _patterns(breaks)
    pos, number, size = 0, 1, len(text)
    while pos < size:
        run = blank_re.match(text, pos)
        if run is not None and run.end() > pos:
            number += count_breaks(text, pos, run.end(), breaks)
            pos = run.end()
            if pos >= size:
                return
        end = line_re.match(text, pos).end()  # type: ignore[union-attr]
        line = text[pos:end]
        if line.strip():
            yield number, line
        number += 1
        pos = end + (2 if text.startswith("\r\n", end) else 1)
