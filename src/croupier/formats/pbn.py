"""PBN 2.1 files of boards: tolerant import and strict export.

**Export** (:func:`format_pbn_records`, :func:`format_pbn_file`) writes PBN
2.1 *export format*: the file starts ``% PBN 2.1`` and ``% EXPORT``; every game
has the 15 mandatory tags in the standard's order, ``?`` where the value is
unknown, then the supplemental ``Generator`` tag and an empty line::

    [Event "?"] [Site "?"] [Date "?"] [Board "5"] [West "?"] [North "?"]
    [East "?"] [South "?"] [Dealer "N"] [Vulnerable "NS"]
    [Deal "<dealer>:<dealer's hand> <next clockwise> ..."] [Scoring "?"]
    [Declarer "?"] [Contract "?"] [Result "?"] [Generator "croupier"]

(one tag per line, every line ended by CR LF).  The ``Deal`` tag starts with
the dealer's hand and writes an unknown hand as ``-``.  The ``bigdeal`` style
of :func:`format_pbn_file` is instead Big Deal 2.0's own layout byte for byte
(LF line ends, ``N:`` first, ``Generator`` in a header), which ``croupier
bigdeal`` and ``croupier squaredeal make`` keep so their files can be
compared with Big Deal's.

**Import** (:func:`read_pbn_records`) follows the standard's *import format*
rules: no tag is mandatory, a tag repeated in a game is ignored, tags may be
spaced freely, span lines or share one, ``%`` lines, ``;`` and ``{...}``
comments and auction, play and table sections are skipped, ``#`` and ``##``
values are inherited.  A game that cannot be read is reported as a
:class:`~croupier.formats.records.SkippedGame` and the rest of the file is
still read.  ``docs/file-formats.md`` lists every rule with its source.

>>> from croupier.formats.pbn_deal import parse_pbn_deal
>>> hands = parse_pbn_deal("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. -")
>>> text = format_pbn_file([Board.standard(3, hands)], generator="croupier")
>>> text.splitlines()[10], text.splitlines()[12][:9]
('[Dealer "S"]', '[Deal "S:')
>>> parse_pbn_file(text)[0].vulnerable
<Vulnerability.EW: 'EW'>
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from croupier.boards import (
    MAX_BOARD,
    Board,
    BoardRangeError,
    Hands,
    parse_board_number,
)
from croupier.cards import Card
from croupier.errors import CroupierError, FileFormatError, excerpt, masked_excerpt
from croupier.formats.codec import BoardFileCodec
from croupier.formats.pbn_deal import (
    format_pbn_deal,
    format_pbn_hand,
    parse_pbn_deal_partial,
    sorted_pbn_deal,
)
from croupier.formats.records import (
    MAX_FILE_GAMES,
    BoardFileContents,
    BoardRecord,
    SkippedGame,
    check_games,
    sorted_hands,
    sorted_record,
)
from croupier.seats import SEATS, Seat, SeatError, Vulnerability

__all__ = [
    "HEADER_BYTES",
    "MANDATORY_TAGS",
    "PBN_STYLES",
    "PbnGame",
    "format_pbn_file",
    "format_pbn_records",
    "parse_pbn_file",
    "parse_pbn_games",
    "pbn_escape",
    "pbn_header_tags",
    "pbn_text",
    "read_pbn_records",
]

#: The mandatory tag set of PBN 2.1, in the order export format writes it.
MANDATORY_TAGS = (
    "Event",
    "Site",
    "Date",
    "Board",
    "West",
    "North",
    "East",
    "South",
    "Dealer",
    "Vulnerable",
    "Deal",
    "Scoring",
    "Declarer",
    "Contract",
    "Result",
)

#: Layouts of :func:`format_pbn_file`: strict PBN 2.1 export, or Big Deal 2.0's own files.
PBN_STYLES = ("export", "bigdeal")

# Tags whose value may not be inherited with "#" or "##" (PBN 2.1, tag value inheritance).
_NOT_INHERITED = frozenset(
    ("Dealer", "Vulnerable", "Deal", "Declarer", "Contract", "Auction", "Play", "Note")
)
# Tags that may legitimately occur several times in one game.
_REPEATABLE = frozenset(("Note",))

# White space between the tokens of a tag pair: spaces and tabs, and at most one line end.
# Every repetition below is possessive (``*+``, ``++``): the regular expression engine keeps
# no backtracking state per character, so a tag value of megabytes is matched in constant
# memory (a plain ``(?:a|b)*`` kept about 200 bytes per character).
_GAP = r"[ \t\v\f]*+(?:\n[ \t\v\f]*+)?+"
_STRING_BODY = r'(?:[^"\\\n]++|\\.)*+'
_TAG = rf'\[{_GAP}[A-Za-z0-9_]+{_GAP}"{_STRING_BODY}"{_GAP}\]'
# What is skipped without a word: text outside tags, ']' and '}', strings, ';' and closed
# '{...}' comments, '%' lines, and line ends (in a game: those not followed by a semi-empty
# line, which ends the game).  Long runs of them are one token, so hostile files of millions
# of tiny lines or comments take one step of the engine, not one Python step per line.
_SKIPPED = rf"""
    [^\[{{;"\n]++
    |"{_STRING_BODY}"?+
    |;[^\n]*+
    |\{{[^}}]*+\}}
    |\n%[^\n]*+
"""
_NEWLINE_IN_GAME = r"\n(?![ \t\v\f]*+(?:\n|\Z))"
_BAD_TAG = rf"(?!{_TAG})\[[^\]\n]*+\]?+"
_BAD_TAG_RE = re.compile(_BAD_TAG)
_BETWEEN_BAD_TAGS = re.compile(rf"(?:{_SKIPPED}|{_NEWLINE_IN_GAME})*+", re.VERBOSE)


def _token_re(newline: str) -> re.Pattern[str]:
    return re.compile(
        rf"""
        (?P<tag>\[{_GAP}(?P<name>[A-Za-z0-9_]+){_GAP}"(?P<value>{_STRING_BODY})"{_GAP}\])
        |(?P<skipped>(?:{_SKIPPED}|{newline})++)
        |(?P<newline>\n)
        |(?P<badtag>{_BAD_TAG}(?:{_SKIPPED}|{_NEWLINE_IN_GAME}|{_BAD_TAG})*+)
        |(?P<brace>\{{[^}}]*+)
        """,
        re.VERBOSE,
    )


_TOKEN_IN_GAME = _token_re(_NEWLINE_IN_GAME)
_TOKEN_BETWEEN_GAMES = _token_re(r"\n")  # empty lines end nothing here
# At the start of a line: '%' lines and semi-empty lines, as many as follow each other.
_LINE_START_RE = re.compile(r"(?:%[^\n]*+(?:\n|\Z)|[ \t\v\f]*+(?:\n|\Z))*+")
_NOT_PERCENT_LINE = re.compile(r"\n(?=[^%])")
# Skipped text that is no more than white space, comments and '%' lines.
_NOTHING_RE = re.compile(r"(?:\n%[^\n]*+|\n|[^\S\n]++|;[^\n]*+|\{[^}]*+\})*+")
#: The most different tag names a PBN file may use (PBN 2.1 defines fewer than 100).
MAX_PBN_TAG_NAMES = 10_000
# Problems kept per game (the first one is the reason the game is skipped).
_MAX_GAME_ERRORS = 8


def pbn_escape(value: str) -> str:
    r"""Escape a tag value for PBN: ``\`` becomes ``\\`` and ``"`` becomes ``\"``.

    >>> pbn_escape('say "hi"')
    'say \\"hi\\"'
    """
    if "\n" in value or "\r" in value:
        raise FileFormatError(f"PBN tag value {excerpt(value)} must be one line")
    return value.replace("\\", "\\\\").replace('"', '\\"')


# -- export -----------------------------------------------------------------------------------


def _export_deal(hands: Sequence[Sequence[Card]], first: Seat) -> str:
    format_pbn_deal(hands)  # refuses a card twice or a card of no standard deck
    parts = [hands[seat.position] for seat in first.clockwise()]
    return f"{first.letter}:" + " ".join(format_pbn_hand(h) if h else "-" for h in parts)


def format_pbn_records(
    records: Iterable[BoardRecord],
    *,
    generator: str = "croupier",
    event: str = "?",
    site: str = "?",
    date: str = "?",
    newline: str = "\r\n",
) -> str:
    """A PBN 2.1 export-format file of ``records``: every line ended by ``newline``.

    Each game has the mandatory tags in order, then ``Generator``, then an
    empty line.  What a record does not know is written ``?`` (an unknown
    dealer also makes the ``Deal`` tag start from North); an empty hand is
    ``-``.  ``newline`` is CR LF (what export format requires) or ``"\\n"``.

    >>> from croupier.cards import parse_cards
    >>> rec = BoardRecord((parse_cards("AS"), parse_cards("KS"), (), ()), dealer="E")
    >>> text = format_pbn_records([rec], newline="\\n")
    >>> print(text, end="")  # doctest: +ELLIPSIS
    % PBN 2.1
    % EXPORT
    [Event "?"]
    ...
    [Board "?"]
    ...
    [Dealer "E"]
    [Vulnerable "?"]
    [Deal "E:K... - - A..."]
    [Scoring "?"]
    [Declarer "?"]
    [Contract "?"]
    [Result "?"]
    [Generator "croupier"]
    <BLANKLINE>
    """
    if newline not in ("\r\n", "\n"):
        raise FileFormatError(f"newline={newline!r}; expected '\\r\\n' (PBN export) or '\\n'")
    fixed = {"Event": event, "Site": site, "Date": date}
    lines = ["% PBN 2.1", "% EXPORT"]
    for record in records:
        values = {
            **fixed,
            "Board": "?" if record.number is None else str(record.number),
            "Dealer": record.dealer or "?",
            "Vulnerable": record.vulnerable or "?",
            "Deal": _export_deal(record.hands, record.dealer or Seat.NORTH),
        }
        lines.extend(f'[{name} "{pbn_escape(values.get(name, "?"))}"]' for name in MANDATORY_TAGS)
        lines.append(f'[Generator "{pbn_escape(generator)}"]')
        lines.append("")
    return newline.join(lines) + newline


def _format_bigdeal(
    boards: Sequence[Board], generator: str, event: str, site: str, date: str, newline: str
) -> str:
    lines = ["% PBN 2.1", "% EXPORT", "%", f'[Generator "{pbn_escape(generator)}"]']
    for board in boards:
        values = {
            "Event": event,
            "Site": site,
            "Date": date,
            "Board": str(board.number),
            "Dealer": board.dealer,
            "Vulnerable": board.vulnerable,
            "Deal": format_pbn_deal(board.hands, first="N"),
        }
        lines.extend(f'[{name} "{pbn_escape(values.get(name, "?"))}"]' for name in MANDATORY_TAGS)
        lines.append("")
    return newline.join(lines) + newline


def format_pbn_file(
    boards: Sequence[Board],
    *,
    generator: str = "croupier",
    event: str = "?",
    site: str = "?",
    date: str = "?",
    style: str = "export",
    newline: str | None = None,
) -> str:
    """A PBN file of ``boards``: ``style="export"`` (PBN 2.1 export) or ``"bigdeal"``.

    ``export`` is :func:`format_pbn_records` of the boards (CR LF unless
    ``newline="\\n"``).  ``bigdeal`` is Big Deal 2.0's layout byte for byte:
    ``% PBN 2.1``, ``% EXPORT``, ``%``, the ``Generator`` tag, then the
    mandatory tags of each board with ``Deal`` from North, LF line ends.

    >>> print(format_pbn_file([], generator="croupier 0.1", style="bigdeal"), end="")
    % PBN 2.1
    % EXPORT
    %
    [Generator "croupier 0.1"]
    >>> format_pbn_file([])
    '% PBN 2.1\\r\\n% EXPORT\\r\\n'
    """
    if style == "export":
        records = [BoardRecord.from_board(b) for b in boards]
        return format_pbn_records(
            records,
            generator=generator,
            event=event,
            site=site,
            date=date,
            newline="\r\n" if newline is None else newline,
        )
    if style == "bigdeal":
        if newline not in (None, "\n", "\r\n"):
            raise FileFormatError(f"newline={newline!r}; expected '\\r\\n' or '\\n'")
        return _format_bigdeal(boards, generator, event, site, date, newline or "\n")
    raise FileFormatError(f"style={style!r}; expected one of {', '.join(PBN_STYLES)}")


# -- import: games --------------------------------------------------------------------------


@dataclass(frozen=True)
class PbnGame:
    """One game of a PBN file: its tags (first value of each, inheritance resolved) and where.

    ``line`` is the line of the game's first tag; ``errors`` lists what could
    not be read in the game (a malformed tag, an unclosed comment).

    >>> PbnGame({"Board": "1"}, 5).tags["Board"]
    '1'
    """

    tags: dict[str, str] = field(default_factory=dict)
    line: int = 0
    errors: tuple[str, ...] = ()


@dataclass
class _Tag:
    name: str | None  # None: something that could not be read (``value`` says what)
    value: str
    line: int


def _unescape(value: str) -> str:
    r"""``\\`` becomes ``\``, ``\"`` becomes ``"``; any other backslash stays.

    (String methods, not ``re.sub``: a substitution with a group reference calls
    back into Python for every match, seconds for a value of many escapes.)

    >>> print(_unescape(r'a\\\"b\c'))
    a\"b\c
    """
    if "\\" not in value:
        return value
    return "\\".join(part.replace('\\"', '"') for part in value.split("\\\\"))


class _Games:
    """Splits a stream of tag pairs into games, keeping only what can still count.

    Empty lines end a game (:meth:`end`).  A game that goes on to a second
    ``Deal`` is split where its empty line was left out: the new game starts at
    the first tag repeated after the first ``Deal`` (so ``[Room "Open"] ...
    [Room "IMP"]`` stays one game).  A tag whose name the game (or the part
    after that first repeated tag) holds already can never count and is
    dropped at once, and at most a few problems are kept per game, so a game
    of a million tags holds a handful of them, not a million.
    """

    def __init__(self) -> None:
        self.done: list[list[_Tag]] = []  # finished games, taken by the caller
        self.current: list[_Tag] = []
        self.names: set[str] = set()  # names in ``current`` before the cut
        self.cut: int | None = None  # where a new game would start at a second Deal
        self.cut_names: set[str] = set()  # names in ``current`` from the cut on
        self.has_deal = False
        self.errors = 0  # problems in ``current`` since the cut (or the start)

    def problem(self, reason: str, line: int) -> None:
        """Something in the game that could not be read (the first few are kept)."""
        if self.errors < _MAX_GAME_ERRORS:
            self.errors += 1
            self.current.append(_Tag(None, reason, line))

    def keeps(self, name: str) -> bool:
        """Whether a tag ``name`` would change anything (a quick test for repeated tags)."""
        if self.cut is not None:
            return name == "Deal" or name not in self.cut_names
        return name not in self.names or (self.has_deal and name not in _REPEATABLE)

    def add(self, name: str, value: str, line: int) -> None:
        """A tag pair; ``value`` as written (escapes are resolved only if the tag is kept)."""
        if name == "Deal" and self.has_deal:
            at = len(self.current) if self.cut is None else self.cut
            self.done.append(self.current[:at])
            self.current = self.current[at:]
            self.names, self.cut_names = self.cut_names, set()
            self.cut, self.has_deal = None, False
            self.errors = sum(t.name is None for t in self.current)
        if self.cut is not None:
            if name in self.cut_names:
                return  # repeated after the cut: counts neither here nor in a new game
            self.cut_names.add(name)
        elif name in self.names:
            if not self.has_deal or name in _REPEATABLE:
                return  # a repeated tag counts in no game
            self.cut = len(self.current)
            self.cut_names = {name}
            self.errors = 0
        else:
            self.names.add(name)
            self.has_deal = self.has_deal or name == "Deal"
        self.current.append(_Tag(name, _unescape(value), line))

    def end(self) -> None:
        if self.current:
            self.done.append(self.current)
        self.current, self.names, self.cut_names = [], set(), set()
        self.cut, self.has_deal, self.errors = None, False, 0


def _scan(text: str, source: str) -> Iterator[list[_Tag]]:
    """The games of ``text`` (LF line ends), each as its tag pairs, in file order.

    Games are yielded as they are read, so a file of many games is never held
    as a list of them.  A text with no tag pair at all but other content
    raises "not a PBN file" once it has been read to the end.
    """
    games = _Games()
    first_other: tuple[int, int, str] | None = None  # (line, column, malformed tag or "")
    seen_tag = False
    names: dict[str, str] = {}  # one copy of each tag name
    pos, line, size = 0, 1, len(text)
    at_line_start = True
    while pos < size:
        if games.done:
            yield from games.done
            games.done = []
        if at_line_start:
            at_line_start = False
            run = _LINE_START_RE.match(text, pos)
            if run is not None and run.end() > pos:  # '%' lines and semi-empty lines
                start, pos = pos, run.end()
                if text[start] != "%" or _NOT_PERCENT_LINE.search(text, start, pos) is not None:
                    games.end()  # a semi-empty line ends the game
                line += text.count("\n", start, pos)
                continue
        m = (_TOKEN_IN_GAME if games.current else _TOKEN_BETWEEN_GAMES).match(text, pos)
        assert m is not None  # every character starts one of the alternatives
        kind = m.lastgroup
        start, pos = pos, m.end()
        if kind == "newline":
            line += 1
            at_line_start = True
            continue
        if kind == "tag":
            seen_tag = True
            name, value = m.group("name", "value")
            known = names.get(name)
            if known is None:
                names[name] = known = name
                if len(names) > MAX_PBN_TAG_NAMES:
                    raise FileFormatError(
                        f"{source} line {line}: more than {MAX_PBN_TAG_NAMES:,} different tag "
                        "names; PBN defines fewer than 100"
                    )
            if games.keeps(known):
                games.add(known, value, line)
        elif kind == "brace":  # a '{' comment that is never closed
            if "[" in m.group():
                games.problem(f"a '{{' comment opened on line {line} is never closed", line)
        elif kind == "badtag":
            for at, where in _bad_tags(text, start, pos, line):
                bad = text[at : _BAD_TAG_RE.match(text, at).end()]  # type: ignore[union-attr]
                what = f'malformed tag {masked_excerpt(bad)}; expected [Name "value"]'
                games.problem(what, where)
                if first_other is None:
                    first_other = (where, _column(text, at), what)
        elif first_other is None and not seen_tag:
            other = _NOTHING_RE.match(text, start).end()  # type: ignore[union-attr]
            if other < pos:
                first_other = (line + text.count("\n", start, other), _column(text, other), "")
        line += text.count("\n", start, pos)
    games.end()
    yield from games.done
    if not seen_tag and first_other is not None:
        where, column, malformed = first_other
        what = malformed or f'expected a [Name "value"] tag pair at column {column}'
        raise FileFormatError(f"{source}: not a PBN file: line {where}: {what}")


def _bad_tags(text: str, start: int, end: int, line: int) -> Iterator[tuple[int, int]]:
    """Where the first few malformed tags of a ``badtag`` token are: (position, line)."""
    pos = start
    for _ in range(_MAX_GAME_ERRORS):
        yield pos, line
        after = _BAD_TAG_RE.match(text, pos).end()  # type: ignore[union-attr]
        pos = _BETWEEN_BAD_TAGS.match(text, after).end()  # type: ignore[union-attr]
        line += text.count("\n", after, pos)
        if pos >= end:
            return


def _column(text: str, pos: int) -> int:
    """The 1-based column of ``pos`` in its line."""
    return pos - text.rfind("\n", 0, pos)


# A plain PBN file, as croupier, Big Deal and most dealing programs write one: '%' lines at the
# top, then games of one tag a line, canonically spaced, values without escapes or '#', each
# tag once, games separated by empty lines.  Such a file is split with a few calls of the
# regular expression engine a game (:func:`_plain_games`); any other file is read by the
# scanner (:func:`_scan`), which knows every rule.  Both give the same games.
_PLAIN_TAG = re.compile(r'^\[([A-Za-z0-9_]+) "([^"\\\n]*)"\]$', re.MULTILINE)
_PLAIN_HEAD = re.compile(r"(?:%[^\n]*+\n)*+")
_PLAIN_BLANK = re.compile(r"\n*+")


def _plain_games(text: str) -> list[PbnGame] | None:
    """The games of ``text`` (LF line ends) if it is a plain PBN file, else ``None``.

    >>> [(g.tags, g.line) for g in _plain_games('% PBN\\n[Board "1"]\\n\\n\\n[Board "2"]\\n')]
    [({'Board': '1'}, 2), ({'Board': '2'}, 5)]
    >>> _plain_games('[Board "1"]\\n{a comment}\\n') is None
    True
    """
    head = _PLAIN_HEAD.match(text).end()  # type: ignore[union-attr]
    if text.find("\n%", max(0, head - 1)) >= 0 or '"#' in text or "\\" in text:
        return None  # '%' lines among the games, inheritance, escapes: the scanner's work
    games: list[PbnGame] = []
    names: set[str] = set()
    line = 1 + text.count("\n", 0, head)
    pos, size = head, len(text)
    findall = _PLAIN_TAG.findall
    while pos < size:
        blank = _PLAIN_BLANK.match(text, pos).end()  # type: ignore[union-attr]
        line += blank - pos
        if blank >= size:
            break
        end = text.find("\n\n", blank)
        end = size if end < 0 else end
        chunk = text[blank:end]
        tags = findall(chunk)
        lines = chunk.count("\n", 0, len(chunk) - 1) + 1  # (a last line end ends no line)
        values = dict(tags)
        if len(tags) != lines or len(values) != len(tags):
            return None  # a line that is no plain tag, or a tag repeated
        names.update(values)
        if len(games) == MAX_FILE_GAMES:
            return None  # too many games: the scanner hands them out one at a time
        games.append(PbnGame(values, line))
        line += chunk.count("\n")
        pos = end
    if not games or len(names) > MAX_PBN_TAG_NAMES:
        return None  # (the scanner says what is wrong)
    return games


def _lf_text(text: str) -> str:
    """``text`` without a byte-order mark, with LF line ends only."""
    return text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")


def _pbn_games(text: str, source: str) -> Iterator[PbnGame]:
    """The games of a PBN file, one at a time (see :func:`parse_pbn_games`)."""
    text = _lf_text(text)
    plain = _plain_games(text)
    if plain is not None:
        yield from plain
        return
    yield from _scanned_games(text, source)


def _scanned_games(text: str, source: str) -> Iterator[PbnGame]:
    """The games of any PBN text (LF line ends) by the scanner, which knows every rule."""
    last: dict[str, str] = {}  # the last real value of every tag so far
    defaults: dict[str, str] = {}  # tags set with "##": their value where a game leaves them out
    for tags in _scan(text, source):
        values: dict[str, str] = {}
        errors = tuple(t.value for t in tags if t.name is None)
        for tag in tags:
            if tag.name is None or tag.name in values:
                continue
            value = tag.value
            if tag.name not in _NOT_INHERITED:
                if value == "#":
                    value = last.get(tag.name, "")
                elif value.startswith("##"):
                    value = value[2:]
                    defaults[tag.name] = value
                elif tag.name in defaults:
                    defaults[tag.name] = value
                last[tag.name] = value
            values[tag.name] = value
        for name, value in defaults.items():
            values.setdefault(name, value)
        yield PbnGame(values, tags[0].line if tags else 0, errors)


def parse_pbn_games(text: str, *, source: str = "<pbn>") -> list[PbnGame]:
    """Split a PBN file into games (tag dictionaries); comments and sections are skipped.

    Games are separated by semi-empty lines; the first value of a tag in a
    game counts; ``#`` and ``##`` values are resolved (see the module
    docstring).  A text with no tag pair at all but other content raises
    :class:`~croupier.errors.FileFormatError` ("not a PBN file").  A game's
    ``errors`` list at most its first few problems.

    >>> games = parse_pbn_games('[Board "1"] [Room "Open"]\\n[Room "IMP"]\\n\\n[Board "2"]\\n')
    >>> [(g.tags["Board"], g.tags.get("Room"), g.line) for g in games]
    [('1', 'Open', 1), ('2', None, 4)]
    """
    return list(_pbn_games(text, source))


# -- import: records ------------------------------------------------------------------------


class _Unreadable(Exception):
    """Why a game cannot be read (becomes a SkippedGame's reason)."""


def _inherited(name: str, raw: str) -> None:
    if raw.startswith("#"):
        raise _Unreadable(
            f"{name} {masked_excerpt(raw)}: PBN forbids inheriting ('#', '##') the {name} tag"
        )


def _board_number(raw: str | None) -> int | None:
    if raw is None or raw.strip() in ("", "?"):
        return None
    if raw.strip().isdigit() and not raw.strip().strip("0"):
        return None  # Bridge Bidding Analyser's board "0": a deal outside any set, no number
    try:
        return parse_board_number(raw)
    except BoardRangeError:
        raise _Unreadable(
            f"Board tag {masked_excerpt(raw.strip())} is not a board number 1..{MAX_BOARD}"
        ) from None


def _dealer(raw: str | None) -> Seat | None:
    if raw is None or raw.strip() in ("", "?"):
        return None
    _inherited("Dealer", raw)
    try:
        return Seat.parse(raw)  # a letter or a word, any case
    except SeatError:
        raise _Unreadable(f"bad Dealer {masked_excerpt(raw)}; expected N, E, S or W") from None


def _vulnerable(raw: str | None) -> Vulnerability | None:
    if raw is None or raw.strip() in ("", "?"):
        return None
    _inherited("Vulnerable", raw)
    found = Vulnerability.from_word(raw)
    if found is None:
        raise _Unreadable(
            f"bad Vulnerable {masked_excerpt(raw)}; expected None, NS, EW or All (or Love, -, Both)"
        )
    return found


def _hands(raw: str, partial: bool) -> Hands:
    """The hands of a ``Deal`` value, sorted as a record holds them."""
    _inherited("Deal", raw)
    fast = sorted_pbn_deal(raw)
    if fast is not None:
        n, e, s, w = fast
        hands: Hands = (n, e, s, w)
    elif raw.strip() in ("", "?"):
        hands = ((), (), (), ())
    else:
        try:
            hands = sorted_hands(parse_pbn_deal_partial(raw))
        except CroupierError as exc:
            raise _Unreadable(f"bad Deal tag: {exc}") from None
    if not partial and not len(hands[0]) == len(hands[1]) == len(hands[2]) == len(hands[3]) == 13:
        known = sum(len(h) for h in hands)
        counts = ", ".join(f"{s} {len(h) or '-'}" for s, h in zip(SEATS, hands, strict=True))
        raise _Unreadable(f"partial deal: {known} of 52 cards given ({counts})")
    return hands


def _record(game: PbnGame, index: int, partial: bool) -> BoardRecord:
    tags = game.tags
    if game.errors:
        raise _Unreadable(game.errors[0])
    get = tags.get
    return _tags_record(
        get("Board"), get("Dealer"), get("Vulnerable"), tags["Deal"], get("Room"),
        index, game.line, partial,
    )  # fmt: skip


_T = TypeVar("_T")

# The values of the Board, Dealer, Vulnerable and Room tags met so far, read (the few values a
# file repeats in every game); a value that cannot be read is never kept, so it says why again.
_KNOWN_BOARDS: dict[str | None, int | None] = {}
_KNOWN_DEALERS: dict[str | None, Seat | None] = {}
_KNOWN_VULNERABLE: dict[str | None, Vulnerability | None] = {}
_KNOWN_ROOMS: dict[str | None, str | None] = {}
_MAX_KNOWN = 4096  # values kept for each tag at most


def _known(table: dict[str | None, _T], raw: str | None, read: Callable[[str | None], _T]) -> _T:
    """``read(raw)``, kept in ``table`` once read (at most :data:`_MAX_KNOWN` values)."""
    try:
        return table[raw]
    except KeyError:
        value = read(raw)
        if len(table) < _MAX_KNOWN:
            table[raw] = value
        return value


def _room(raw: str | None) -> str | None:
    room = (raw or "").strip().lower()
    return room if room in ("open", "closed") else None


def _tags_record(
    board: str | None,
    dealer: str | None,
    vulnerable: str | None,
    deal: str,
    room: str | None,
    index: int,
    line: int,
    partial: bool,
) -> BoardRecord:
    """The record of a game's Board, Dealer, Vulnerable, Deal and Room values."""
    number = _known(_KNOWN_BOARDS, board, _board_number)
    try:
        seat = _known(_KNOWN_DEALERS, dealer, _dealer)
        vul = _known(_KNOWN_VULNERABLE, vulnerable, _vulnerable)
        hands = _hands(deal, partial)
    except _Unreadable as exc:
        if number is None:
            raise
        raise _Unreadable(f"board {number}: {exc}") from None
    return sorted_record(
        hands, number, seat, vul, game=index, line=line, room=_known(_KNOWN_ROOMS, room, _room)
    )


# -- import: records of a plain file, without building the games' tag dictionaries ----------
_PLAIN_LINES = re.compile(
    r'(?:\[[A-Za-z0-9_]+ "[^"\\\n]*"\]\n|\n)*+(?:\[[A-Za-z0-9_]+ "[^"\\\n]*"\])?'
)
_COMMON_NAMES = (
    "Event|Site|Date|Board|West|North|East|South|Dealer|Vulnerable|Deal|Scoring|Declarer|"
    "Contract|Result|Generator|Room|Round|Score|Table|Section|Stage|Time|UTCDate|UTCTime|"
    "HomeTeam|VisitTeam|Annotator|Competition|Mode|Application|Description|DoubleDummyTricks|"
    "OptimumScore|ParContract|BCFlags|EventDate|EventSponsor|Hidden|TimeControl|Termination"
)
_COMMON_COUNT = _COMMON_NAMES.count("|") + 1
_COMMON_LINES = re.compile(
    rf'(?:\[(?:{_COMMON_NAMES}) "[^"\\\n]*"\]\n|\n)*+(?:\[(?:{_COMMON_NAMES}) "[^"\\\n]*"\])?'
)
_UNCOMMON_NAME = re.compile(rf'^\[(?!(?:{_COMMON_NAMES}) ")([A-Za-z0-9_]+) ', re.MULTILINE)


def _plain_records(text: str, source: str, partial: bool) -> BoardFileContents | None:
    """The records of ``text`` (LF line ends) if it is a plain PBN file (as
    :func:`_plain_games` takes one), else ``None``; what the games give is exactly what
    :func:`read_pbn_records` reads from their tags, found by position in the text."""
    head = _PLAIN_HEAD.match(text).end()  # type: ignore[union-attr]
    if text.find("\n%", max(0, head - 1)) >= 0 or '"#' in text or "\\" in text:
        return None
    if _COMMON_LINES.fullmatch(text, head) is None:  # names other than the usual ones:
        if _PLAIN_LINES.fullmatch(text, head) is None:
            return None  # a line that is no plain tag
        if len(set(_UNCOMMON_NAME.findall(text, head))) > MAX_PBN_TAG_NAMES - _COMMON_COUNT:
            return None  # (the scanner counts the names and says what is wrong)
    text = "\n" + text  # every tag line, the first one too, starts after a line end
    spans = _game_spans(text, head + 1, source)
    if not spans:
        return None  # (the scanner says whether an empty file is a PBN file)
    records: list[BoardRecord] = []
    skipped: list[SkippedGame] = []
    find = text.find
    boards, dealers, vulnerabilities = _KNOWN_BOARDS, _KNOWN_DEALERS, _KNOWN_VULNERABLE
    rooms = _KNOWN_ROOMS
    for index, (first, end, line) in enumerate(spans, start=1):
        at = find('\n[Deal "', first, end)
        if at < 0:
            continue  # a game without a deal (a header, a note)
        if find('\n[Deal "', at + 8, end) >= 0:
            return None  # two games with no empty line between them: the scanner splits them
        # the first value of each tag (a tag line starts after a line end; its value, which
        # holds no quote, ends at the next quote)
        at_board = find('\n[Board "', first, end)
        board = None if at_board < 0 else text[at_board + 9 : find('"', at_board + 9)]
        at_dealer = find('\n[Dealer "', first, end)
        dealer = None if at_dealer < 0 else text[at_dealer + 10 : find('"', at_dealer + 10)]
        at_vul = find('\n[Vulnerable "', first, end)
        vulnerable = None if at_vul < 0 else text[at_vul + 14 : find('"', at_vul + 14)]
        room = _value(text, '\n[Room "', first, end)
        deal = text[at + 8 : find('"', at + 8)]
        try:  # the usual case: values met before, a whole deal written the plain way
            known = (boards[board], dealers[dealer], vulnerabilities[vulnerable], rooms[room])
            hands = sorted_pbn_deal(deal)
        except KeyError:
            hands = None
        if hands is not None and (partial or 13 == len(hands[0]) == len(hands[1]) == len(
            hands[2]) == len(hands[3])):  # fmt: skip
            n, e, s, w = hands
            records.append(sorted_record((n, e, s, w), *known[:3], index, line, known[3]))
            continue
        try:
            records.append(
                _tags_record(board, dealer, vulnerable, deal, room, index, line, partial)
            )
        except _Unreadable as exc:
            skipped.append(SkippedGame(index, line, str(exc)))
    return BoardFileContents(records, skipped, source)


def _game_spans(text: str, pos: int, source: str) -> list[tuple[int, int, int]]:
    """Each game of a plain file (after a line end at ``pos - 1``): the line end before its
    first tag, where it ends and its first line; all counted before any is read."""
    spans: list[tuple[int, int, int]] = []
    line, size = text.count("\n", 0, pos), len(text)
    while True:
        while pos < size and text[pos] == "\n":
            pos, line = pos + 1, line + 1
        if pos >= size:
            return spans
        end = text.find("\n\n", pos)
        end = size if end < 0 else end
        check_games(len(spans) + 1, source)
        spans.append((pos - 1, end, line))
        line += text.count("\n", pos, end)
        pos = end


def _value(text: str, key: str, start: int, end: int) -> str | None:
    """The value of the first tag line ``key`` (``\\n[Name "``) in ``text[start:end]``."""
    at = text.find(key, start, end)
    if at < 0:
        return None
    at += len(key)
    return text[at : text.find('"', at)]


def read_pbn_records(
    text: str, *, source: str = "<pbn>", partial: bool = False
) -> BoardFileContents:
    """The records of a PBN file by PBN 2.1's import rules, and the games it skipped.

    Every game with a ``Deal`` tag gives a record holding what the game says
    (``None`` for a missing or ``?`` Board, Dealer or Vulnerable).  A game
    that cannot be read (a bad deal, dealer, vulnerability or board number, a
    malformed tag) becomes a :class:`~croupier.formats.records.SkippedGame`
    and reading goes on.  A partial deal (unknown hands, or hands of fewer
    than 13 cards) is kept with ``partial=True`` and skipped otherwise; one
    unknown hand of a whole deal is completed from the other three.

    >>> text = '[Deal "N:AKQJT98765432... - - -"]\\n\\n[Board "x"]\\n[Deal "N:- - - -"]\\n'
    >>> contents = read_pbn_records(text, partial=True)
    >>> contents.records[0].deal, contents.records[0].number
    ('N:AKQJT98765432... - - -', None)
    >>> contents.skipped
    [SkippedGame(game=2, line=3, reason="Board tag 'x' is not a board number 1..999")]
    >>> read_pbn_records(text).skipped[0].reason
    'partial deal: 13 of 52 cards given (N 13, E -, S -, W -)'
    """
    plain = _plain_records(_lf_text(text), source, partial)
    if plain is not None:
        return plain
    games: list[PbnGame] = []
    for index, game in enumerate(_pbn_games(text, source), start=1):
        check_games(index, source)  # (all counted before any is read: a file too large is not)
        games.append(game)
    records: list[BoardRecord] = []
    skipped: list[SkippedGame] = []
    for index, game in enumerate(games, start=1):
        if "Deal" not in game.tags and not game.errors:
            continue
        try:
            records.append(_record(game, index, partial))
        except _Unreadable as exc:
            skipped.append(SkippedGame(index, game.line, str(exc)))
    return BoardFileContents(records, skipped, source)


def parse_pbn_file(text: str, *, source: str = "<pbn>") -> list[Board]:
    """The boards of a PBN file, strictly: any game that cannot be read is an error.

    Every game with a ``Deal`` tag is a board, in file order.  A game without
    a ``Board`` tag takes 1 + its position among the boards; a missing or
    ``?`` dealer or vulnerability takes the standard value for the number.

    >>> parse_pbn_file('[Board "x"]\\n[Deal "N:- - - -"]\\n', source="a.pbn")
    Traceback (most recent call last):
    ...
    croupier.errors.FileFormatError: a.pbn line 1 (game 1): Board tag 'x' is not a board ...
    """
    return read_pbn_records(text, source=source).require_all().boards()


def pbn_text(data: bytes) -> str:
    """A PBN file's bytes as text: UTF-8 (a byte-order mark dropped), else Latin-1, PBN's
    own character set (every byte is a character: never an error).

    >>> pbn_text('[Event "Café"]'.encode("utf-8")), pbn_text('[Event "Café"]'.encode("latin-1"))
    ('[Event "Café"]', '[Event "Café"]')
    """
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


HEADER_BYTES = 65536
"""How much of a file :func:`pbn_header_tags` reads (its first game's tags are there)."""


def pbn_header_tags(data: bytes) -> dict[str, str]:
    """``Event``, ``Site`` and ``Date`` of a PBN file's first game, where it gives them.

    Only the start of the file is looked at (:data:`HEADER_BYTES`); ``?`` (unknown),
    empty and multi-line values are left out, and a file whose start cannot be read as
    PBN gives none.

    >>> pbn_header_tags(b'[Event "Club Cup"]\\r\\n[Date "?"]\\r\\n[Board "1"]\\r\\n')
    {'Event': 'Club Cup'}
    >>> pbn_header_tags(b"not a PBN file [")
    {}
    """
    text = pbn_text(data)
    head = text[:HEADER_BYTES]
    if len(text) > len(head):
        head = head.rsplit("\n", 1)[0]
    try:
        games = parse_pbn_games(head)
    except CroupierError:
        return {}
    if not games:
        return {}
    tags = games[0].tags
    return {
        name: tags[name]
        for name in ("Event", "Site", "Date")
        if tags.get(name, "").strip() not in ("", "?") and "\n" not in tags[name]
    }


BOARD_FILE = BoardFileCodec(
    read_boards=lambda text, *, source, first_board: parse_pbn_file(text, source=source),
    read_records=read_pbn_records,
    render_boards=lambda boards, o: format_pbn_file(
        boards, generator=o.generator, style=o.pbn_style, event=o.event, newline=o.newline
    ).encode("utf-8"),
    render_records=lambda records, o: format_pbn_records(
        records, generator=o.generator, newline=o.newline or "\r\n"
    ).encode("utf-8"),
    latin1=True,
)
"""PBN files as board files (:mod:`croupier.formats.registry`): text, ISO 8859-1 when
not UTF-8 (PBN 2.1's character set)."""
