"""Read and write board files in every format croupier knows, chosen by name or extension.

==========  =========  ===============================================
format      extension  module
==========  =========  ===============================================
``pbn``     ``.pbn``   :mod:`croupier.formats.pbn` (PBN 2.1 export)
``lin``     ``.lin``   :mod:`croupier.formats.lin` (BBO)
``dup``     ``.dup``   :mod:`croupier.formats.dup` (Duplimate, binary)
``dlm``     ``.dlm``   :mod:`croupier.formats.dlm` (Duplimate for Windows)
``csv``     ``.csv``   :mod:`croupier.formats.board_csv`
``lines``   ``.txt``   one deal per line (Big Deal's ``allpbn``)
``html``    ``.html``  :mod:`croupier.formats.hand_record_html` (write only)
``json``    ``.json``  :mod:`croupier.formats.board_json` (JSON board file)
==========  =========  ===============================================

Two levels: :func:`render_boards`/:func:`read_boards` work on complete
:class:`~croupier.boards.Board` values (what tournament dealing makes and
verification checks; :func:`load_boards` reads them from a path);
:func:`render_records`/:func:`read_board_file` work on
:class:`~croupier.formats.records.BoardRecord` values, which keep exactly what
a file says, partial deals and unknown values included (``croupier convert``).

>>> from croupier.ranking.bigdeal import goedel_unrank
>>> from croupier.boards import Board, BoardRangeError
>>> data = render_boards([Board.standard(1, goedel_unrank(5))], "lines")
>>> read_boards(data, "lines")[0].goedel is None, format_for_path("S1.PBN")
(True, <BoardFormat.PBN: 'pbn'>)
"""

from __future__ import annotations

import contextlib
import gc
import re
from collections.abc import Iterator, Sequence
from enum import StrEnum
from pathlib import Path, PurePath

from croupier.boards import Board, BoardRangeError
from croupier.bounded_read import read_within
from croupier.errors import FileFormatError
from croupier.formats.records import (
    MAX_FILE_GAMES,
    BoardFileContents,
    BoardRecord,
    SkippedGame,
    check_games,
)

__all__ = [
    "BOARD_FORMATS",
    "EXTENSIONS",
    "MAX_BOARD_FILE_BYTES",
    "BoardFormat",
    "format_for_path",
    "games_at_least",
    "load_boards",
    "read_board_file",
    "read_boards",
    "render_boards",
    "render_records",
]


class BoardFormat(StrEnum):
    """The board-file formats (the table above); each value is the format's name.

    >>> BoardFormat("dup"), [f.value for f in BoardFormat][:3]
    (<BoardFormat.DUP: 'dup'>, ['pbn', 'lin', 'dup'])
    """

    PBN = "pbn"
    LIN = "lin"
    DUP = "dup"
    DLM = "dlm"
    CSV = "csv"
    LINES = "lines"
    HTML = "html"
    JSON = "json"


#: Format names, in the order of :class:`BoardFormat`.
BOARD_FORMATS = tuple(f.value for f in BoardFormat)
#: File extension of each format.
EXTENSIONS: dict[BoardFormat, str] = {
    BoardFormat.PBN: ".pbn",
    BoardFormat.LIN: ".lin",
    BoardFormat.DUP: ".dup",
    BoardFormat.DLM: ".dlm",
    BoardFormat.CSV: ".csv",
    BoardFormat.LINES: ".txt",
    BoardFormat.HTML: ".html",
    BoardFormat.JSON: ".json",
}


#: The largest board file read (999 boards with auctions, play and notes take a few MiB).
MAX_BOARD_FILE_BYTES = 16 * 1024 * 1024


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while a file is read, and restore it.

    A reader builds tens of thousands of small objects (records, hands) that all
    stay alive; each collection the collector runs meanwhile walks every one of
    them again, which took up to half of the reading time.  Readers make no
    reference cycles, so nothing waits for the collector; reference counting
    frees everything as before.  (If the collector was off already it stays off.)
    """
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


# A line that starts with a printable ASCII character other than a space: for one deal per line
# a game, and for CSV (without quotes) a row with a first cell (a game, the header aside).  The
# line ends are those of str.splitlines (CSV's are fewer: a lower count still).
_GAME_LINE = re.compile(rb"(?:\A|[\n\r\x0b\x0c\x1c\x1d\x1e])[!-~]")
_CSV_ROW = re.compile(rb"(?:\A|[\n\r])[!#-+\--~]")  # (not a quote, not a comma)


def games_at_least(data: bytes, fmt: BoardFormat | str, most: int = MAX_FILE_GAMES + 1) -> int:
    """A count of the games of a board file that never exceeds what its reader finds, made
    without reading the games (a search of the bytes), and that stops at ``most``; 0 when
    no quick count is known.

    Readers refuse a file of more than :data:`~croupier.formats.records.MAX_FILE_GAMES`
    games; with this count a file clearly too large is refused before any game is read.
    The search stops at ``most`` games, so it costs little however many lines the file has.

    >>> games_at_least(b"AKQ... - - -\\n\\n  \\nx - - -\\n", "lines")
    2
    >>> games_at_least(b"north,east,south,west\\nA...,-,-,-\\n,,,\\n", "csv")
    1
    """
    fmt = _check(fmt)
    if fmt is BoardFormat.LINES:
        return _count(_GAME_LINE, data, most)
    if fmt is BoardFormat.CSV and b'"' not in data:  # (a quoted cell may hold line ends)
        return max(0, _count(_CSV_ROW, data, most + 1) - 1)
    if fmt is BoardFormat.DUP:
        from croupier.formats.dup import DUP_RECORD_BYTES

        return min(most, len(data) // DUP_RECORD_BYTES)
    return 0


def _count(pattern: re.Pattern[bytes], data: bytes, most: int) -> int:
    """The matches of ``pattern`` in ``data``, counted up to ``most`` (no list of them)."""
    found = 0
    for found, _ in enumerate(pattern.finditer(data), start=1):
        if found >= most:
            break
    return found


def _refuse_many(data: bytes, fmt: BoardFormat, source: str) -> None:
    """Refuse, before reading any game, a file that clearly holds too many games.

    A file with fewer line ends than the limit cannot hold too many games (each is a line
    at least), so it is not searched: its line-end bytes are only counted.
    """
    if fmt in (BoardFormat.LINES, BoardFormat.CSV):
        breaks = sum(data.count(end) for end in _LINE_END_BYTES)
        if breaks < MAX_FILE_GAMES:
            return
        check_games(games_at_least(data, fmt), source)


_LINE_END_BYTES = (b"\n", b"\r", b"\x0b", b"\x0c", b"\x1c", b"\x1d", b"\x1e")


def _check(fmt: BoardFormat | str) -> BoardFormat:
    if fmt not in BOARD_FORMATS:
        raise FileFormatError(f"unknown format {fmt!r}; expected one of {', '.join(BOARD_FORMATS)}")
    return BoardFormat(fmt)


def format_for_path(path: str | PurePath) -> BoardFormat:
    """The format of a file, from its extension (case-insensitive).

    >>> format_for_path("deals.dlm") == "dlm"
    True
    """
    suffix = PurePath(path).suffix.lower()
    for fmt, ext in EXTENSIONS.items():
        if ext == suffix:
            return fmt
    raise FileFormatError(
        f"cannot tell the format of {str(path)!r} from its extension; expected one of "
        + ", ".join(EXTENSIONS.values())
    )


def render_boards(
    boards: Sequence[Board],
    fmt: BoardFormat | str,
    *,
    generator: str = "croupier",
    title: str = "Hand record",
    pbn_style: str = "export",
    event: str = "?",
    newline: str | None = None,
) -> bytes:
    """The file bytes of ``boards`` in format ``fmt`` (text formats are UTF-8).

    ``pbn_style`` is the PBN layout: ``"export"`` (PBN 2.1 export format) or
    ``"bigdeal"`` (Big Deal 2.0's own files, byte for byte); see
    :func:`croupier.formats.pbn.format_pbn_file`.  ``event`` is the value of
    every PBN game's ``Event`` tag (``?``: unknown) and ``newline`` (``"\\r\\n"``
    or ``"\\n"``) its line end; by default each style keeps its own (CR LF for
    ``export``, as PBN 2.1 requires; LF for ``bigdeal``, as Big Deal writes on
    Linux).  The commands pass CR LF unless ``--lf`` is given.

    >>> render_boards([], "pbn", generator="g", pbn_style="bigdeal").splitlines()[3]
    b'[Generator "g"]'
    """
    fmt = _check(fmt)
    if fmt is BoardFormat.PBN:
        from croupier.formats.pbn import format_pbn_file

        text = format_pbn_file(
            boards, generator=generator, style=pbn_style, event=event, newline=newline
        )
        return text.encode("utf-8")
    if fmt is BoardFormat.LIN:
        from croupier.formats.lin import format_lin_file

        return format_lin_file(boards).encode("utf-8")
    if fmt is BoardFormat.DUP:
        from croupier.formats.dup import format_dup_file

        return format_dup_file(boards)
    if fmt is BoardFormat.DLM:
        from croupier.formats.dlm import format_dlm_file

        return format_dlm_file(boards).encode("ascii")
    if fmt is BoardFormat.CSV:
        from croupier.formats.board_csv import format_board_csv

        return format_board_csv(boards).encode("utf-8")
    if fmt is BoardFormat.LINES:
        from croupier.formats.board_csv import format_board_lines

        return format_board_lines(boards).encode("utf-8")
    if fmt is BoardFormat.JSON:
        return render_records([BoardRecord.from_board(b) for b in boards], fmt)
    from croupier.formats.hand_record_html import format_hand_record_html

    return format_hand_record_html(boards, title=title).encode("utf-8")


def read_boards(
    data: bytes, fmt: BoardFormat | str, *, source: str = "<file>", first_board: int = 1
) -> list[Board]:
    """Parse file bytes in format ``fmt`` into boards (``html`` cannot be read).

    Text is UTF-8; a PBN file that is not UTF-8 is read as ISO 8859-1, the
    character set of PBN 2.1.  ``lines`` files carry no board numbers: their
    boards are numbered from ``first_board``.  Data over
    :data:`MAX_BOARD_FILE_BYTES` is refused unparsed.

    >>> read_boards(b"", "pbn")
    []
    """
    fmt = _check(fmt)
    if len(data) > MAX_BOARD_FILE_BYTES:
        raise FileFormatError(
            f"{source}: {len(data)} bytes; a board file holds at most {MAX_BOARD_FILE_BYTES}"
        )
    _refuse_many(data, fmt, source)
    try:
        with _collector_paused():
            return _read(data, fmt, source, first_board)
    except BoardRangeError as exc:  # a board number out of range, found below the parsers
        raise FileFormatError(f"{source}: {exc}") from None


def load_boards(path: str | Path, *, first_board: int = 1) -> list[Board]:
    """The boards of the file at ``path``, its format from the extension (:func:`read_boards`).

    Errors name the file by its name (``S1.pbn: ...``); a ``.txt`` file's boards are
    numbered from ``first_board``.  At most one byte past :data:`MAX_BOARD_FILE_BYTES` is
    read: a larger or endless file is refused without being read whole.

    >>> load_boards("missing.pbn")
    Traceback (most recent call last):
    ...
    croupier.errors.FileFormatError: file 'missing.pbn' not found
    """
    path = Path(path)
    fmt = format_for_path(path)
    data = read_within(path, MAX_BOARD_FILE_BYTES, what="a board file")
    return read_boards(data, fmt, source=path.name, first_board=first_board)


def _read(data: bytes, fmt: BoardFormat, source: str, first_board: int) -> list[Board]:
    if fmt is BoardFormat.DUP:
        from croupier.formats.dup import parse_dup_file

        return parse_dup_file(data, source=source)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        if fmt is not BoardFormat.PBN:
            raise FileFormatError(f"{source}: not UTF-8 text") from None
        text = data.decode("latin-1")
    if fmt is BoardFormat.PBN:
        from croupier.formats.pbn import parse_pbn_file

        return parse_pbn_file(text, source=source)
    if fmt is BoardFormat.LIN:
        from croupier.formats.lin import parse_lin_file

        return parse_lin_file(text, source=source)
    if fmt is BoardFormat.DLM:
        from croupier.formats.dlm import parse_dlm_file

        return parse_dlm_file(text, source=source)
    if fmt is BoardFormat.CSV:
        from croupier.formats.board_csv import parse_board_csv

        return parse_board_csv(text, source=source)
    if fmt is BoardFormat.LINES:
        from croupier.formats.board_csv import parse_board_lines

        return parse_board_lines(text, first_board=first_board, source=source)
    if fmt is BoardFormat.JSON:
        from croupier.formats.board_json import read_json_records

        return read_json_records(text, source=source).require_all().boards(first_board)
    raise FileFormatError(f"{source}: HTML hand records are for printing and cannot be read")


def read_board_file(
    data: bytes,
    fmt: BoardFormat | str,
    *,
    source: str = "<file>",
    strict: bool = False,
    partial: bool = False,
) -> BoardFileContents:
    """Read file bytes in format ``fmt`` as board records, skipping the games that cannot be read.

    Unlike :func:`read_boards`, nothing is invented: a value the file does not
    give stays ``None`` in its :class:`~croupier.formats.records.BoardRecord`.
    A game that cannot be read is listed in ``skipped`` (game, line, reason)
    and the rest of the file is still read; ``strict=True`` makes any skip an
    error.  ``partial=True`` keeps partial deals (hands with unknown cards) as
    records; otherwise they are skipped.  A file that is not a board file at all
    (wrong format, nothing readable) is an error.

    >>> read_board_file(b"", "pbn").records
    []
    """
    fmt = _check(fmt)
    if len(data) > MAX_BOARD_FILE_BYTES:
        raise FileFormatError(
            f"{source}: {len(data)} bytes; a board file holds at most {MAX_BOARD_FILE_BYTES}"
        )
    _refuse_many(data, fmt, source)
    try:
        with _collector_paused():
            contents = _read_records(data, fmt, source, partial)
    except BoardRangeError as exc:
        raise FileFormatError(f"{source}: {exc}") from None
    return contents.require_all() if strict else contents


def _read_records(data: bytes, fmt: BoardFormat, source: str, partial: bool) -> BoardFileContents:
    if fmt is BoardFormat.DUP:
        from croupier.formats.dup import read_dup_records

        return read_dup_records(data, source=source, partial=partial)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        if fmt not in (BoardFormat.PBN, BoardFormat.LIN):
            raise FileFormatError(f"{source}: not UTF-8 text") from None
        text = data.decode("latin-1")
    if fmt is BoardFormat.PBN:
        from croupier.formats.pbn import read_pbn_records

        return read_pbn_records(text, source=source, partial=partial)
    if fmt is BoardFormat.LIN:
        from croupier.formats.lin import read_lin_records

        return read_lin_records(text, source=source, partial=partial)
    if fmt is BoardFormat.DLM:
        from croupier.formats.dlm import read_dlm_records

        return read_dlm_records(text, source=source, partial=partial)
    if fmt is BoardFormat.CSV:
        from croupier.formats.board_csv import read_csv_records

        return read_csv_records(text, source=source, partial=partial)
    if fmt is BoardFormat.LINES:
        from croupier.formats.board_csv import read_lines_records

        return read_lines_records(text, source=source, partial=partial)
    if fmt is BoardFormat.JSON:
        from croupier.formats.board_json import read_json_records

        return read_json_records(text, source=source, partial=partial)
    raise FileFormatError(f"{source}: HTML hand records are for printing and cannot be read")


def render_records(
    records: Sequence[BoardRecord],
    fmt: BoardFormat | str,
    *,
    skipped: Sequence[SkippedGame] = (),
    generator: str = "croupier",
    newline: str | None = None,
    title: str = "Hand record",
) -> bytes:
    """The file bytes of board ``records`` in format ``fmt`` (text formats are UTF-8).

    What a format cannot hold is refused with a one-line error, never
    invented: DUP and DLM need complete deals with consecutive ascending board
    numbers.  A value a record does not know is written as the format spells
    "unknown" (PBN ``?``, an empty CSV cell, JSON ``null``); an unknown hand is
    ``-`` (in LIN, empty).  ``skipped`` (the games the reader could not read) is written only
    by the JSON format.  ``newline`` replaces the line end of PBN (CRLF by
    default) and CSV (CRLF); the other formats keep their own.  ``html``
    prints boards, numbering those without a number by their position.

    >>> from croupier.cards import parse_cards
    >>> partial = BoardRecord((parse_cards("AS KS"), (), (), ()), number=2)
    >>> render_records([partial], "lines")
    b'AK... - - -\\n'
    >>> render_records([partial], "csv", newline="\\n").splitlines()[1]
    b'2,,,AK...,-,-,-,'
    """
    fmt = _check(fmt)
    if fmt is BoardFormat.CSV:
        from croupier.formats.board_csv import format_csv_records

        return format_csv_records(records, newline=newline or "\r\n").encode("utf-8")
    if fmt is BoardFormat.LINES:
        from croupier.formats.board_csv import format_lines_records

        return format_lines_records(records).encode("utf-8")
    if fmt is BoardFormat.JSON:
        from croupier.formats.board_json import format_json_records

        return format_json_records(records, skipped).encode("utf-8")
    if fmt is BoardFormat.PBN:
        from croupier.formats.pbn import format_pbn_records

        text = format_pbn_records(records, generator=generator, newline=newline or "\r\n")
        return text.encode("utf-8")
    if fmt is BoardFormat.LIN:
        from croupier.formats.lin import format_lin_records

        return format_lin_records(records).encode("utf-8")
    if fmt is BoardFormat.DUP:
        from croupier.formats.dup import format_dup_records

        return format_dup_records(records)
    if fmt is BoardFormat.DLM:
        from croupier.formats.dlm import format_dlm_records

        return format_dlm_records(records).encode("ascii")
    boards = BoardFileContents(list(records)).boards()
    return render_boards(boards, fmt, title=title)
