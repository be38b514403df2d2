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
'EW'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from croupier.boards import (
    MAX_BOARD,
    Board,
    BoardRangeError,
    Seat,
    Vulnerability,
    is_seat,
    parse_board_number,
    vulnerability_from_word,
)
from croupier.cards import Card
from croupier.errors import CroupierError, FileFormatError, excerpt
from croupier.formats.pbn_deal import (
    PBN_SEATS,
    format_pbn_deal,
    format_pbn_hand,
    parse_pbn_deal_partial,
)
from croupier.formats.records import BoardFileContents, BoardRecord, SkippedGame

__all__ = [
    "MANDATORY_TAGS",
    "PBN_STYLES",
    "PbnGame",
    "format_pbn_file",
    "format_pbn_records",
    "parse_pbn_file",
    "parse_pbn_games",
    "pbn_escape",
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

_SEAT_WORDS: dict[str, Seat] = {"north": "N", "east": "E", "south": "S", "west": "W"}

# Tags whose value may not be inherited with "#" or "##" (PBN 2.1, tag value inheritance).
_NOT_INHERITED = frozenset(
    ("Dealer", "Vulnerable", "Deal", "Declarer", "Contract", "Auction", "Play", "Note")
)
# Tags that may legitimately occur several times in one game.
_REPEATABLE = frozenset(("Note",))

# White space between the tokens of a tag pair: spaces and tabs, and at most one line end.
_GAP = r"[ \t\v\f]*(?:\n[ \t\v\f]*)?"
_STRING_BODY = r'(?:[^"\\\n]|\\.)*'
_TOKEN_RE = re.compile(
    rf"""
    (?P<tag>\[{_GAP}(?P<name>[A-Za-z0-9_]+){_GAP}"(?P<value>{_STRING_BODY})"{_GAP}\])
    |(?P<newline>\n)
    |(?P<data>[^\[\]{{}};"\n]+)
    |(?P<semicolon>;[^\n]*)
    |(?P<brace>\{{[^}}]*\}}?)
    |(?P<badtag>\[[^\]\n]*\]?)
    |(?P<string>"{_STRING_BODY}"?)
    |(?P<stray>.)
    """,
    re.VERBOSE,
)
_SEMI_EMPTY_RE = re.compile(r"[ \t\v\f]*(?=\n|\Z)")
_UNESCAPE_RE = re.compile(r'\\([\\"])')


def pbn_escape(value: str) -> str:
    r"""Escape a tag value for PBN: ``\`` becomes ``\\`` and ``"`` becomes ``\"``.

    >>> pbn_escape('say "hi"')
    'say \\"hi\\"'
    """
    if "\n" in value or "\r" in value:
        raise FileFormatError(f"PBN tag value {excerpt(value)} must be one line")
    return value.replace("\\", "\\\\").replace('"', '\\"')


# -- export -----------------------------------------------------------------------------------


def _export_deal(hands: Sequence[Sequence[Card]], first: str) -> str:
    format_pbn_deal(hands)  # refuses a card twice or a card of no standard deck
    start = PBN_SEATS.index(first)
    parts = [hands[(start + i) % 4] for i in range(4)]
    return f"{first}:" + " ".join(format_pbn_hand(h) if h else "-" for h in parts)


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
            "Deal": _export_deal(record.hands, record.dealer or "N"),
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
    return _UNESCAPE_RE.sub(r"\1", value)


def _scan(text: str, source: str) -> list[list[_Tag]]:
    """The tag pairs of ``text`` (LF line ends), grouped by the empty lines between games."""
    blocks: list[list[_Tag]] = []
    current: list[_Tag] = []
    first_other: tuple[int, str, bool] | None = None  # (line, text, malformed tag?)
    seen_tag = False
    pos, line, size = 0, 1, len(text)
    at_line_start = True
    match_token = _TOKEN_RE.match
    while pos < size:
        if at_line_start:
            at_line_start = False
            blank = _SEMI_EMPTY_RE.match(text, pos)
            if blank is not None:  # a semi-empty line ends the game
                if current:
                    blocks.append(current)
                    current = []
                pos = blank.end()
                continue
            if text[pos] == "%":  # the escape mechanism: "%" in the first column
                end = text.find("\n", pos)
                pos = size if end < 0 else end
                continue
        m = match_token(text, pos)
        assert m is not None  # the last alternative matches any character but a line end
        kind = m.lastgroup
        start, pos = pos, m.end()
        if kind == "newline":
            line += 1
            at_line_start = True
            continue
        if kind == "tag":
            seen_tag = True
            current.append(_Tag(m.group("name"), _unescape(m.group("value")), line))
            line += text.count("\n", start, pos)
        elif kind == "brace":
            if not m.group().endswith("}") and "[" in m.group():
                current.append(
                    _Tag(None, f"a '{{' comment opened on line {line} is never closed", line)
                )
            line += text.count("\n", start, pos)
        elif kind == "badtag":
            current.append(
                _Tag(None, f'malformed tag {excerpt(m.group())}; expected [Name "value"]', line)
            )
            if first_other is None:
                first_other = (line, m.group(), True)
        elif kind != "semicolon" and first_other is None and m.group().strip():
            end = text.find("\n", start)
            first_other = (line, text[start : size if end < 0 else end], False)
    if current:
        blocks.append(current)
    if not seen_tag and first_other is not None:
        where, bad, malformed = first_other
        what = (
            f'malformed tag {excerpt(bad)}; expected [Name "value"]'
            if malformed
            else f'{excerpt(bad)} is not a [Name "value"] tag pair'
        )
        raise FileFormatError(f"{source}: not a PBN file: line {where}: {what}")
    return blocks


def _split_games(block: list[_Tag]) -> list[list[_Tag]]:
    """Split a block that holds several ``Deal`` tags where its empty lines were left out.

    A tag already in the game is ignored (so ``[Room "Open"] ... [Room "IMP"]``
    stays one game), unless the game goes on to a second ``Deal``: then the
    new game starts at the first tag repeated after the first ``Deal``.
    """
    games: list[list[_Tag]] = []
    current: list[_Tag] = []
    names: set[str] = set()
    has_deal = False
    cut: int | None = None
    for tag in block:
        if tag.name == "Deal" and has_deal:
            at = len(current) if cut is None else cut
            games.append(current[:at])
            current = current[at:]
            names = {t.name for t in current if t.name is not None}
            has_deal, cut = False, None
        if tag.name is not None:
            if tag.name in names and has_deal and cut is None and tag.name not in _REPEATABLE:
                cut = len(current)
            names.add(tag.name)
            has_deal = has_deal or tag.name == "Deal"
        current.append(tag)
    games.append(current)
    return games


def parse_pbn_games(text: str, *, source: str = "<pbn>") -> list[PbnGame]:
    """Split a PBN file into games (tag dictionaries); comments and sections are skipped.

    Games are separated by semi-empty lines; the first value of a tag in a
    game counts; ``#`` and ``##`` values are resolved (see the module
    docstring).  A text with no tag pair at all but other content raises
    :class:`~croupier.errors.FileFormatError` ("not a PBN file").

    >>> games = parse_pbn_games('[Board "1"] [Room "Open"]\\n[Room "IMP"]\\n\\n[Board "2"]\\n')
    >>> [(g.tags["Board"], g.tags.get("Room"), g.line) for g in games]
    [('1', 'Open', 1), ('2', None, 4)]
    """
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    last: dict[str, str] = {}  # the last real value of every tag so far
    defaults: dict[str, str] = {}  # tags set with "##": their value where a game leaves them out
    games: list[PbnGame] = []
    for block in _scan(text, source):
        for tags in _split_games(block):
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
            games.append(PbnGame(values, tags[0].line if tags else 0, errors))
    return games


# -- import: records ------------------------------------------------------------------------


class _Unreadable(Exception):
    """Why a game cannot be read (becomes a SkippedGame's reason)."""


def _inherited(name: str, raw: str) -> None:
    if raw.startswith("#"):
        raise _Unreadable(
            f"{name} {excerpt(raw)}: PBN forbids inheriting ('#', '##') the {name} tag"
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
            f"Board tag {excerpt(raw.strip())} is not a board number 1..{MAX_BOARD}"
        ) from None


def _dealer(raw: str | None) -> Seat | None:
    if raw is None or raw.strip() in ("", "?"):
        return None
    _inherited("Dealer", raw)
    word = raw.strip().upper()
    if is_seat(word):
        return word
    found = _SEAT_WORDS.get(word.lower())
    if found is None:
        raise _Unreadable(f"bad Dealer {excerpt(raw)}; expected N, E, S or W")
    return found


def _vulnerable(raw: str | None) -> Vulnerability | None:
    if raw is None or raw.strip() in ("", "?"):
        return None
    _inherited("Vulnerable", raw)
    found = vulnerability_from_word(raw)
    if found is None:
        raise _Unreadable(
            f"bad Vulnerable {excerpt(raw)}; expected None, NS, EW or All (or Love, -, Both)"
        )
    return found


def _hands(raw: str, partial: bool) -> tuple[list[Card], list[Card], list[Card], list[Card]]:
    _inherited("Deal", raw)
    if raw.strip() in ("", "?"):
        hands: tuple[list[Card], list[Card], list[Card], list[Card]] = ([], [], [], [])
    else:
        try:
            hands = parse_pbn_deal_partial(raw)
        except CroupierError as exc:
            raise _Unreadable(f"bad Deal tag: {exc}") from None
    if not partial and any(len(h) != 13 for h in hands):
        known = sum(len(h) for h in hands)
        counts = ", ".join(f"{s} {len(h) or '-'}" for s, h in zip(PBN_SEATS, hands, strict=True))
        raise _Unreadable(f"partial deal: {known} of 52 cards given ({counts})")
    return hands


def _record(game: PbnGame, index: int, partial: bool) -> BoardRecord:
    tags = game.tags
    if game.errors:
        raise _Unreadable(game.errors[0])
    number = _board_number(tags.get("Board"))
    try:
        seat = _dealer(tags.get("Dealer"))
        vul = _vulnerable(tags.get("Vulnerable"))
        hands = _hands(tags["Deal"], partial)
    except _Unreadable as exc:
        if number is None:
            raise
        raise _Unreadable(f"board {number}: {exc}") from None
    room = tags.get("Room", "").strip().lower()
    n, e, s, w = hands
    return BoardRecord(
        (tuple(n), tuple(e), tuple(s), tuple(w)),
        number,
        seat,
        vul,
        game=index,
        line=game.line,
        room=room if room in ("open", "closed") else None,
    )


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
    records: list[BoardRecord] = []
    skipped: list[SkippedGame] = []
    for index, game in enumerate(parse_pbn_games(text, source=source), start=1):
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
