"""Board files written by other programs (``tests/data/real``): read, agree with endplay, convert.

Every deal file of the collection is listed in ``tests/data/real/manifest.json`` with its format,
the number of deals it holds and how it is checked against an independent reader:

- ``"endplay": "file"``: endplay's own parser (``endplay.parsers.pbn`` / ``.lin``) reads the file
  and gives the same deals, in order, with the same board numbers, dealers and vulnerabilities
  wherever both readers give them;
- ``"endplay": {"fails": ..., "match": ..., "why": ..., "check": ...}``: endplay cannot read the
  file for the reason given (asserted to stay so; no ``"fails"`` for a DLM file, which endplay
  has no reader for), and the deals are checked another way:
  ``"deal-tags"`` gives endplay's PBN parser only the file's ``Board``/``Dealer``/``Vulnerable``/
  ``Deal`` tag lines; ``"lin"`` reads the LIN file with the small independent LIN reader below
  (endplay's reads one board per line with three hands only); ``"dlm"`` decodes the DLM file's
  board letters by the documented code in the test; ``"games"`` (the PBN reference
  implementation's test files, full of deliberately broken games) checks game by game: every
  well-formed game whose first ``Deal`` tag is a valid whole deal must be read, in order, and
  anything else kept must be a valid deal of the file or a partial deal that is in the file.
- ``"endplay": {"differs": ..., "endplay_records": ..., "check": ...}``: both read the file but
  differently, by a documented rule of croupier's (recorded, and asserted to stay so);
- ``"endplay": {"same_deals_as": PBN file}``: DUP and DLM (endplay reads neither) hold the same
  deals as that PBN file of the same source, as endplay reads it;
- ``"not_a_board_file"``: the reader must refuse the file with its one-line "not a … file" error.

Then every file goes through ``render_records`` to every writable format and back without a deal
changing; DUP and DLM, which hold only complete deals numbered consecutively, must refuse other
files with a one-line error, and take them once renumbered 1, 2, … (``--renumber``).
"""

from __future__ import annotations

import dataclasses
import functools
import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import endplay.parsers.lin as endplay_lin
import endplay.parsers.pbn as endplay_pbn
import pytest

from croupier.errors import FileFormatError
from croupier.formats import board_files
from croupier.formats.board_files import read_board_file
from croupier.formats.records import BoardFileContents, BoardRecord
from tests.conftest import CliRunner

REAL = Path(__file__).resolve().parent / "data" / "real"
MANIFEST: dict[str, dict[str, Any]] = json.loads((REAL / "manifest.json").read_text("utf-8"))[
    "files"
]
DEAL_FILES = sorted(MANIFEST)
BOARD_FILES = [f for f in DEAL_FILES if "not_a_board_file" not in MANIFEST[f]]
DEAL_SUFFIXES = (".pbn", ".lin", ".dup", ".dlm")

Hands = tuple[frozenset[str], frozenset[str], frozenset[str], frozenset[str]]
#: (board number, dealer, vulnerability, hands N E S W); None where the reader gives nothing.
Deal = tuple[int | None, str | None, str | None, Hands]

SEATS = "NESW"
#: Formats that keep board numbers / dealer and vulnerability when written and read back.
NUMBERED = {"pbn", "lin", "dup", "dlm", "csv", "json"}
WITH_DEALER = {"pbn", "lin", "csv", "json"}
#: Formats that hold only complete deals with consecutive ascending board numbers.
CONSECUTIVE_ONLY = {"dup", "dlm"}
#: The highest board number of each: DUP's trailer has three digits; a DLM file has 99 board
#: slots (``Board 01`` to ``Board 99``, as deal-convert's DLM in this collection shows).
MAX_BOARD = {"dup": 999, "dlm": 99}


def _target_formats() -> list[str]:
    return [f for f in board_files.BOARD_FORMATS if f != "html"]


# --- reading -------------------------------------------------------------------------------


@functools.cache
def _contents(rel: str) -> BoardFileContents:
    entry = MANIFEST[rel]
    return read_board_file((REAL / rel).read_bytes(), entry["format"], source=rel, partial=True)


def _hand(text: str) -> frozenset[str]:
    """The cards of a PBN hand ``S.H.D.C`` (``-`` or ``...`` is the empty hand)."""
    if text in ("-", ""):
        return frozenset()
    suits = text.split(".")
    assert len(suits) == 4, text
    return frozenset(s + r for s, ranks in zip("SHDC", suits, strict=True) for r in ranks.upper())


def _pbn_hands(deal: str) -> Hands:
    """Hands N, E, S, W of a PBN deal string ``F:h h h h`` (first seat F, clockwise)."""
    first, _, rest = deal.strip().partition(":")
    hands = rest.split()
    assert len(hands) == 4, deal
    start = SEATS.index(first.strip().upper())
    by_seat = {SEATS[(start + i) % 4]: _hand(h) for i, h in enumerate(hands)}
    return (by_seat["N"], by_seat["E"], by_seat["S"], by_seat["W"])


def _record_deal(rec: BoardRecord) -> Deal:
    return (rec.number, rec.dealer, rec.vulnerable, _pbn_hands(rec.deal))


def _complete(hands: Hands) -> bool:
    return all(len(h) == 13 for h in hands) and len(frozenset().union(*hands)) == 52


# --- endplay and the other independent readers ----------------------------------------------

_ENDPLAY_VUL = {"none": "None", "ns": "NS", "ew": "EW", "both": "All"}


def _text(rel: str) -> str:
    data = (REAL / rel).read_bytes()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def _endplay_deals(boards: Sequence[Any]) -> list[Deal]:
    deals: list[Deal] = []
    for b in boards:
        hands = _pbn_hands(b.deal.to_pbn())
        if not any(hands):  # a game without a Deal tag: no deal to compare
            continue
        # endplay's Board.dealer and .vul invent the standard values when the file gives none;
        # the values read from the file are in _dealer and _vul.  endplay 0.5 applies a Dealer
        # tag only to a game with a contract (else it takes the Auction tag's seat, or nothing).
        dealer = b._dealer.abbr if b._dealer is not None else None
        vul = _ENDPLAY_VUL[b._vul.name] if b._vul is not None else None
        deals.append((b.board_num, dealer, vul, hands))
    return deals


_DEAL_TAG_LINE = re.compile(r'^\[(Board|Dealer|Vulnerable|Deal) "[^"]*"\]\s*$')


def _deal_tag_lines(text: str) -> str:
    """The file cut down to its Board/Dealer/Vulnerable/Deal tag lines and its empty lines."""
    kept = [ln for ln in text.splitlines() if not ln.strip() or _DEAL_TAG_LINE.match(ln.strip())]
    return "\n".join(kept) + "\n"


def _lin_oracle(text: str) -> list[Deal]:
    """A minimal LIN reader: a board per ``qx`` (or per ``md`` when there is no ``qx``).

    Number from ``qx|o12|`` / ``qx|c12|`` or ``ah|Board 12|``; ``md|<dealer 1-4><S>,<W>,<N>,<E>|``
    with the missing fourth hand completed; ``sv`` o/0/n/e/b.
    """
    fields = text.replace("\r", "").replace("\n", "").split("|")
    pairs = list(zip(fields[0::2], fields[1::2], strict=False))
    boards: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    has_qx = any(k.strip() == "qx" for k, _ in pairs)
    for key, value in pairs:
        key = key.strip()
        if key == "qx" or (key == "md" and not has_qx):
            current = {}
            boards.append(current)
            if key == "qx":
                current["number"] = int(value[1:].split(",")[0])
        if current is None:
            continue
        if key == "md":
            current["md"] = value
        elif key == "ah" and "number" not in current:
            current["number"] = int(value.split()[-1])
        elif key == "sv" and "sv" not in current:
            current["sv"] = value
    deals: list[Deal] = []
    for b in boards:
        md = b["md"]
        dealer = "SWNE"[int(md[0]) - 1]
        hands_swne = [_lin_hand(h) for h in md[1:].split(",")[:4]]
        while len(hands_swne) < 4:
            hands_swne.append(frozenset())
        if not hands_swne[3] and all(len(h) == 13 for h in hands_swne[:3]):
            hands_swne[3] = frozenset(_DECK) - frozenset().union(*hands_swne[:3])
        s, w, n, e = hands_swne
        vul = {"o": "None", "0": "None", "n": "NS", "e": "EW", "b": "All"}.get(b.get("sv", ""))
        deals.append((b.get("number"), dealer, vul, (n, e, s, w)))
    return deals


_DECK = [s + r for s in "SHDC" for r in "AKQJT98765432"]


def _dlm_oracle(text: str) -> list[Deal]:
    """A minimal DLM reader: the ``Board NN`` lines from ``From board`` to ``To board``.

    Each letter is two cards in deck order (♠A ♠K … ♣2): letter ``a`` + 4x + y gives the first
    to seat x and the second to seat y (N, E, S, W = 0..3); the other board slots are unused.
    """
    values = {}
    for line in text.splitlines():
        key, sep, value = line.partition("=")
        if sep:
            values[key.strip().lower()] = value.strip()
    first, last = int(values["from board"]), int(values["to board"])
    deals: list[Deal] = []
    for number in range(first, last + 1):
        letters = values[f"board {number:02d}"][:26]
        hands: list[set[str]] = [set(), set(), set(), set()]
        for i, letter in enumerate(letters):
            code = ord(letter) - ord("a")
            hands[code // 4].add(_DECK[2 * i])
            hands[code % 4].add(_DECK[2 * i + 1])
        n, e, s, w = (frozenset(h) for h in hands)
        deals.append((number, None, None, (n, e, s, w)))
    return deals


def _lin_hand(text: str) -> frozenset[str]:
    cards: set[str] = set()
    suit = ""
    for ch in text.upper():
        if ch in "SHDC":
            suit = ch
        elif suit:
            cards.add(suit + ch)
    return frozenset(cards)


# --- the PBN reference tests: game by game --------------------------------------------------


def _pbn_games(text: str) -> list[str]:
    """The games of a PBN file: runs of lines between empty lines, outside ``{...}`` comments."""
    games: list[str] = []
    current: list[str] = []
    in_brace = False
    for line in text.splitlines():
        if not in_brace and not line.strip():
            if current:
                games.append("\n".join(current))
                current = []
            continue
        current.append(line)
        stripped = re.sub(r'"(?:[^"\\]|\\.)*"', '""', line)  # braces inside tag values do not count
        if not stripped.lstrip().startswith("%"):
            opens, closes = stripped.rfind("{"), stripped.rfind("}")
            if opens > closes:
                in_brace = True
            elif closes > opens and in_brace:
                in_brace = False
    if current:
        games.append("\n".join(current))
    return games


_DEAL_TAG = re.compile(r'\[\s*Deal\s*"([^"]*)"\s*\]')


_WELL_FORMED_TAGS = re.compile(r'^(\s*\[\s*\w+\s*"(?:[^"\\]|\\.)*"\s*\])+\s*$')


def _whole_deals_of_games(text: str) -> tuple[list[Hands], list[Hands]]:
    """The whole deals of the file's games: those a reader must read, and those it may read.

    A game's deal is its first ``Deal`` tag.  It must be read when it is a valid whole deal in
    a game whose tag lines are all well formed ``[Name "value"]`` and which copies no value
    (``#``); it may be read when it is valid once ``#`` is resolved to the previous game's deal.
    """
    required: list[Hands] = []
    allowed: list[Hands] = []
    previous: str | None = None
    for game in _pbn_games(text):
        lines = [ln for ln in game.splitlines() if not ln.lstrip().startswith("%")]
        body = re.sub(r"\{[^}]*\}", "", "\n".join(lines))
        match = _DEAL_TAG.search(body)
        if match is None:
            continue
        value = match.group(1)
        copies = '"#' in body
        if value == "#" and previous is not None:
            value = previous
        previous = value
        try:
            hands = _pbn_hands(value)
        except (AssertionError, ValueError):
            continue
        if not _complete(hands) or any(c[1] not in "AKQJT98765432" for h in hands for c in h):
            continue
        allowed.append(hands)
        tag_lines = [ln for ln in body.splitlines() if ln.lstrip().startswith("[")]
        if not copies and all(_WELL_FORMED_TAGS.match(ln) for ln in tag_lines):
            required.append(hands)
    return required, allowed


def _all_deal_values(text: str) -> list[Hands]:
    out: list[Hands] = []
    for value in _DEAL_TAG.findall(text):
        try:
            out.append(_pbn_hands(value))
        except (AssertionError, ValueError):
            continue
    return out


# --- tests ----------------------------------------------------------------------------------


def test_manifest_lists_every_deal_file() -> None:
    on_disk = sorted(
        str(p.relative_to(REAL))
        for p in REAL.rglob("*")
        if p.is_file() and p.suffix.lower() in DEAL_SUFFIXES
    )
    assert on_disk == DEAL_FILES
    assert len(DEAL_FILES) >= 60
    for rel in DEAL_FILES:
        assert MANIFEST[rel]["format"] == Path(rel).suffix.lower().lstrip(".")


@pytest.mark.parametrize("rel", DEAL_FILES)
def test_reads(rel: str) -> None:
    entry = MANIFEST[rel]
    if "not_a_board_file" in entry:
        with pytest.raises(FileFormatError) as info:
            _contents(rel)
        message = str(info.value)
        assert "\n" not in message
        assert f"not a {entry['format'].upper()} file" in message, message
        return
    contents = _contents(rel)
    by_games = isinstance(entry["endplay"], dict) and entry["endplay"].get("check") == "games"
    if not by_games:  # the reference tests are checked game by game instead
        assert len(contents.records) == entry["records"], [s.reason for s in contents.skipped]
        assert [s.game for s in contents.skipped] == entry.get("skipped", [])
    for skip in contents.skipped:
        assert skip.reason and "\n" not in skip.reason
    for rec in contents.records:
        cards = [c for h in rec.hands for c in h]
        assert len(cards) == len(set(cards)) and all(len(h) <= 13 for h in rec.hands)
        if not entry.get("partial", False):
            assert rec.complete, rec.deal


@pytest.mark.parametrize("rel", BOARD_FILES)
def test_agrees_with_independent_reader(rel: str) -> None:
    entry = MANIFEST[rel]
    ours = [_record_deal(r) for r in _contents(rel).records]
    how = entry["endplay"]
    parser = endplay_pbn if entry["format"] == "pbn" else endplay_lin
    if how == "file":
        _same_deals(ours, _endplay_deals(parser.loads(_text(rel))))
        return
    if "same_deals_as" in how:  # DUP and DLM: endplay has no reader; the same deals as a PBN file
        pbn = _endplay_deals(endplay_pbn.loads(_text(how["same_deals_as"])))
        _same_deals(ours, [(num, None, None, hands) for num, _, _, hands in pbn])  # no dealer/vul
        return
    if "differs" in how:  # endplay reads the file otherwise, for the reason recorded
        theirs = _endplay_deals(parser.loads(_text(rel)))
        assert len(theirs) == how["endplay_records"]
        if how["check"] == "every-deal-tag":  # one game per Deal tag; endplay keeps the first
            assert [d[3] for d in ours] == _all_deal_values(_text(rel))
            assert ours[0][3] == theirs[0][3]
        else:
            assert how["check"] == "board-zero"  # endplay reads board 0; croupier: no number
            assert [d[0] for d in theirs] == [0] and [d[0] for d in ours] == [None]
            assert [d[3] for d in ours] == [d[3] for d in theirs]
        return
    if "fails" in how:  # endplay fails on the whole file, for the reason recorded: it must stay so
        with pytest.raises(Exception) as info:
            parser.loads(_text(rel))
        assert type(info.value).__name__ == how["fails"]
        assert how["match"] in str(info.value), str(info.value)
    check = how["check"]
    if check == "deal-tags":
        _same_deals(ours, _endplay_deals(endplay_pbn.loads(_deal_tag_lines(_text(rel)))))
    elif check == "lin":
        _same_deals(ours, _lin_oracle(_text(rel)))
    elif check == "dlm":
        _same_deals(ours, _dlm_oracle(_text(rel)))
    else:
        assert check == "games"
        required, allowed = _whole_deals_of_games(_text(rel))
        kept = [d[3] for d in ours]
        it = iter(kept)
        missing = [h for h in required if not any(h == k for k in it)]
        assert not missing, f"{len(missing)} valid whole deals were not read (in order)"
        in_file = _all_deal_values(_text(rel))
        for hands in kept:
            assert hands in allowed or (not _complete(hands) and hands in in_file), hands


def _same_deals(ours: list[Deal], theirs: list[Deal]) -> None:
    assert [d[3] for d in ours] == [d[3] for d in theirs]
    for (num, dealer, vul, _), (t_num, t_dealer, t_vul, _) in zip(ours, theirs, strict=True):
        # what the other reader took from the file, croupier must have read too
        assert (num, dealer, vul) == (
            t_num if t_num is not None else num,
            t_dealer if t_dealer is not None else dealer,
            t_vul if t_vul is not None else vul,
        )


def _holdable(records: Sequence[BoardRecord], fmt: str) -> bool:
    numbers = [r.number for r in records]
    if not records or any(n is None for n in numbers):
        return False
    first = numbers[0]
    assert first is not None
    return (
        all(r.complete for r in records)
        and numbers == list(range(first, first + len(records)))
        and first >= 1
        and first + len(records) - 1 <= MAX_BOARD[fmt]
    )


def _render(records: Sequence[BoardRecord], fmt: str) -> bytes:
    render = getattr(board_files, "render_records", None)
    assert render is not None, "croupier.formats.board_files.render_records is missing"
    result = render(list(records), fmt)
    assert isinstance(result, bytes)
    return result


def _round_trip(records: Sequence[BoardRecord], fmt: str, rel: str) -> None:
    back = read_board_file(_render(records, fmt), fmt, source=f"{rel}.{fmt}", partial=True)
    assert back.skipped == [], [s.to_dict() for s in back.skipped]
    assert [_pbn_hands(r.deal) for r in back.records] == [_pbn_hands(r.deal) for r in records]
    for src, got in zip(records, back.records, strict=True):
        if fmt in NUMBERED and src.number is not None:
            assert got.number == src.number
        if fmt in WITH_DEALER:
            if src.dealer is not None:
                assert got.dealer == src.dealer
            if src.vulnerable is not None:
                assert got.vulnerable == src.vulnerable


@pytest.mark.parametrize("fmt", _target_formats())
@pytest.mark.parametrize("rel", BOARD_FILES)
def test_round_trips_through_every_format(rel: str, fmt: str) -> None:
    records = _contents(rel).records
    partial = not all(r.complete for r in records)
    if not records and fmt in CONSECUTIVE_ONLY:  # no boards: an empty file, or a one-line refusal
        try:
            _round_trip(records, fmt, rel)
        except FileFormatError as exc:
            assert "\n" not in str(exc)
        return
    if fmt not in CONSECUTIVE_ONLY or _holdable(records, fmt):
        _round_trip(records, fmt, rel)
        return
    with pytest.raises(FileFormatError) as info:
        _render(records, fmt)
    assert "\n" not in str(info.value)
    renumbered = [dataclasses.replace(r, number=i + 1) for i, r in enumerate(records)]
    if partial or len(records) > MAX_BOARD[fmt]:
        with pytest.raises(FileFormatError) as info:
            _render(renumbered, fmt)
        assert "\n" not in str(info.value)
    else:
        _round_trip(renumbered, fmt, rel)


#: A few files through the command line: PBN club results (one game per table), LIN with two
#: rooms, DLM, PBN with CRLF, and PBN with 100 boards (too many for DLM, even renumbered).
CLI_FILES = [
    "pbntools/wb120802.pbn",
    "deal-convert/test.lin",
    "deal-convert/test.dlm",
    "bridge-pbn/three_test_records_crlf.pbn",
    "zdenecek-pbn/large1.pbn",
]


@pytest.mark.parametrize("rel", CLI_FILES)
def test_convert_command(rel: str, cli: CliRunner, tmp_path: Path) -> None:
    # The command writes a board repeated for another room or table (same number, same deal) once.
    records: list[BoardRecord] = []
    for rec in _contents(rel).records:
        if not any(r.number == rec.number and r.hands == rec.hands for r in records):
            records.append(rec)
    hands = [_pbn_hands(r.deal) for r in records]
    for fmt in ("pbn", "lin", "dup", "dlm"):
        out = tmp_path / f"out.{fmt}"
        result = cli(["convert", str(REAL / rel), str(out)])
        if fmt in CONSECUTIVE_ONLY and not _holdable(records, fmt):
            assert result.code != 0 and not out.exists()
            assert len(result.err.strip().splitlines()) == 1, result.err
            result = cli(["convert", str(REAL / rel), str(out), "--renumber"])
            if len(records) > MAX_BOARD[fmt]:
                assert result.code != 0 and not out.exists()
                assert len(result.err.strip().splitlines()) == 1, result.err
                continue
        assert result.code == 0, result.err
        back = read_board_file(out.read_bytes(), fmt, source=out.name, partial=True)
        assert [_pbn_hands(r.deal) for r in back.records] == hands
