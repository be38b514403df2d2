"""``croupier deal``, ``rank``, ``unrank`` and ``entropy``: deal cards and number deals.

One module-level Typer app (:data:`app`); the games, deal methods, numbering
schemes and deck presets named in the help and accepted by the options come
from the library's registries (:data:`croupier.dealing.GAMES`,
:data:`croupier.dealing.METHODS`, :func:`croupier.ranking.schemes.scheme_names`,
:data:`croupier.decks.DECK_PRESETS`).  Both engines (``deal``,
``croupier-deal/2``, and ``bulk``, ``croupier-bulk/1``) write the formats of
:data:`PER_DEAL_FORMATS`; the text formats deal by deal (:data:`WRITERS`),
the board formats and the others through the bulk writers of
:mod:`croupier.bulk.writers` (see :data:`BULK_WRITER_NAMES`).

>>> sorted(typer.main.get_group(app).commands)
['deal', 'entropy', 'rank', 'unrank']
>>> PER_DEAL_FORMATS
('text', 'json', 'jsonl', 'pbn', 'pbn-deal', 'lin', 'csv')
>>> list(WRITERS)
['text', 'json', 'jsonl', 'csv']
>>> BULK_ONLY_FORMATS, BINARY_FORMATS, BOARD_FORMATS
(('oneline', 'pbn-games', 'npy', 'npz'), ('npy', 'npz'), ('pbn', 'lin', 'pbn-games'))
"""

from __future__ import annotations

import json
import math
import queue
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal, cast, get_args

import numpy as np
import typer

import croupier
from croupier.boards import MAX_BOARD
from croupier.bulk import BULK_ALGORITHM_ID, BulkDealer, DealArray
from croupier.bulk.chunk_files import CHUNK_FORMATS
from croupier.bulk.generate import COMPILED_FROM
from croupier.bulk.unrank import Engine, compiled_available, compiled_fits
from croupier.bulk.writers import BULK_FORMATS, NpyWriter, NpzWriter, open_writer
from croupier.cli.cluster_options import (
    ChunkOpt,
    ClusterRequest,
    SchedulerOpt,
    WorkersOpt,
    cluster_request,
)
from croupier.cli.conditioned import ConditionedDealer, DealerLike
from croupier.cli.options import (
    BitsOpt,
    EntropyOpt,
    JsonOpt,
    OverwriteOpt,
    SeedOpt,
    count_option,
    method_option,
    option,
    out_option,
)
from croupier.cli.running import (
    INTERRUPTED,
    Advance,
    RunState,
    Sink,
    is_terminal,
    progress_bar,
    stop_on_ctrl_c,
)
from croupier.dealing import (
    ALGORITHM_ID,
    DEFAULT_SCHEME,
    GAMES,
    METHODS,
    Deal,
    Layout,
    deal_from_number,
    deal_from_piles,
    deal_many,
    get_deal_method,
    make_layout,
)
from croupier.decks import DECK_PRESETS
from croupier.errors import CroupierError, EntropyExhaustedError, LayoutError, RankingError
from croupier.files import AtomicFile
from croupier.formats.deal_csv import format_deals_csv
from croupier.formats.deal_json import deal_to_dict, format_deal_json
from croupier.formats.deal_text import (
    format_deal_piles,
    format_deal_text,
    parse_deal_piles,
    sorted_hand,
)
from croupier.formats.pbn import pbn_escape
from croupier.formats.pbn_deal import format_pbn_deal, parse_pbn_deal
from croupier.randomness import (
    SEEDED_STREAM_ID,
    EntropySource,
    OsRandomSource,
    RandomSource,
    UniformSampler,
    make_source,
    seed_warning,
    source_note,
)
from croupier.ranking.partitions import decimal, parse_decimal
from croupier.ranking.schemes import get_scheme, scheme_names
from croupier.simulate.run import Strategy

__all__ = [
    "BINARY_FORMATS",
    "BOARD_FORMATS",
    "BULK_BATCH",
    "BULK_ONLY_FORMATS",
    "BULK_SEEDED_LABEL",
    "BULK_WRITER_NAMES",
    "INTERRUPTED",
    "MAX_BULK_COUNT",
    "MAX_DEAL_COUNT",
    "MAX_ENTROPY_DEALS",
    "MAX_ENTROPY_WORK",
    "PER_DEAL_FORMATS",
    "PROGRESS_MIN_DEALS",
    "SEEDED_LABEL",
    "WRITERS",
    "BulkOnlyFormat",
    "DealEngine",
    "DealFormat",
    "PerDealFormat",
    "app",
    "deal_command",
    "default_engine",
    "entropy_command",
    "number_json",
    "progress_wanted",
    "rank_command",
    "unrank_command",
]

app = typer.Typer(add_completion=False, rich_markup_mode=None)

PerDealFormat = Literal["text", "json", "jsonl", "pbn", "pbn-deal", "lin", "csv"]
"""The formats both engines write (:data:`PER_DEAL_FORMATS`); default ``--engine deal``."""

BulkOnlyFormat = Literal["oneline", "pbn-games", "npy", "npz"]
"""The formats only the bulk engine writes; they default to ``--engine bulk``.

``pbn-games`` is kept for scripts written before ``pbn`` wrote games: it is
``--format pbn`` dealt by the bulk engine (deprecated)."""

DealFormat = Literal[PerDealFormat, BulkOnlyFormat]
"""Every output format of ``croupier deal``."""

DealEngine = Literal["deal", "bulk"]
"""The two dealing algorithms of ``croupier deal``: ``croupier-deal/2`` and ``croupier-bulk/1``."""

MAX_DEAL_COUNT = 1_000_000_000
"""The most deals one ``croupier deal`` run prints (``--count``); every format streams."""

MAX_BULK_COUNT = 10_000_000_000
"""The most deals one ``croupier deal --engine bulk`` run writes (batch by batch)."""

BULK_BATCH = 65_536
"""Deals the bulk engine makes and writes at a time (memory stays a few MB)."""

PROGRESS_MIN_DEALS: dict[str, int] = {"deal": 20_000, "bulk": 1_000_000}
"""Runs of at least this many deals (by engine: a fraction of a second or more) show a
progress bar (see :func:`progress_wanted`)."""

BULK_WRITER_NAMES: dict[str, str] = {w: w for w in BULK_FORMATS} | {"pbn-games": "pbn"}
"""Each ``--format`` written through a writer of :mod:`croupier.bulk.writers`, and its writer.

``pbn`` is a PBN 2.1 export file of full games, ``lin`` BBO LIN boards and
``pbn-deal`` one PBN deal string per line, with either engine (the deal
engine's deals go to the same writers); ``pbn-games`` is the old name of
``pbn`` with the bulk engine.  ``text``, ``json`` and ``csv`` have no bulk
writer: the bulk engine prints them deal by deal, as the deal engine does.
"""

PER_DEAL_FORMATS: tuple[PerDealFormat, ...] = get_args(PerDealFormat)
"""The formats both engines write: they default to ``--engine deal``, so a published seed
keeps its deals."""

BULK_ONLY_FORMATS: tuple[BulkOnlyFormat, ...] = get_args(BulkOnlyFormat)
"""The formats only the bulk engine writes: they default to ``--engine bulk``."""

BOARD_FORMATS: tuple[DealFormat, ...] = ("pbn", "lin", "pbn-games")
"""The formats of numbered boards: ``--first-board`` and at most board :data:`MAX_BOARD`."""

_BRIDGE_FORMATS: dict[str, str] = {
    "pbn": "PBN games",
    "pbn-games": "PBN games",
    "pbn-deal": "PBN deals",
    "lin": "LIN boards",
}  # the formats of bridge deals only, and what they hold

BINARY_FORMATS: tuple[str, ...] = (NpyWriter.format_name, NpzWriter.format_name)
"""Formats that are not text: written only to a file (``--out``), never to standard output."""

MAX_ENTROPY_DEALS = 10_000
"""The most deals per method ``croupier entropy --deals`` measures."""

MAX_ENTROPY_WORK = 30_000_000
"""The bound on ``--deals`` x (deck size)² for ``croupier entropy`` (dealing a big deck
costs about the square of its size; bridge: 10,000 deals, 208 cards: 693)."""

SEEDED_LABEL = (
    f"seeded: reproducible from its seed ({SEEDED_STREAM_ID}), so only as secret as the seed"
)
"""The line that labels the output of a seeded run (a ``%`` comment in PBN).

It never quotes the seed: whoever reads the deals must not be able to deal the
rest of the stream.
"""

BULK_SEEDED_LABEL = (
    f"seeded: reproducible from its seed ({BULK_ALGORITHM_ID}), so only as secret as the seed"
)
"""The line that labels the text output of a seeded bulk run, as :data:`SEEDED_LABEL` does."""

_DEFAULT_METHOD = next(iter(METHODS))  # the registry lists the default first
_GAMES = ", ".join(GAMES)
_METHODS = ", ".join(METHODS)
_SCHEMES = ", ".join(scheme_names())
_BRIDGE_SCHEMES = ", ".join(s for s in scheme_names() if get_scheme(s).bridge_only)
_ANY_SCHEMES = ", ".join(s for s in scheme_names() if not get_scheme(s).bridge_only)
_FORMATS = ", ".join(get_args(DealFormat))
_PER_DEAL = ", ".join(PER_DEAL_FORMATS)
_BULK_ONLY = ", ".join(BULK_ONLY_FORMATS)

DEAL_HELP = f"""\
Deal cards: exactly uniform, with the least randomness, reproducible with --seed.

GAME is one of {_GAMES} (default bridge), or custom with --hands.
Methods: {_METHODS}; all are exactly uniform, and {_DEFAULT_METHOD} (the
default) draws one uniform number below the number of deals, the fewest bits.
Randomness: the OS CSPRNG by default (not reproducible); --seed TEXT for a
reproducible stream (only as secret as the seed); --entropy dice:3,6,1,... (or
coins:HT..., hex:...) for your own rolls (a bridge deal needs about 37 d6 rolls;
too few is an error saying how many more).  --json is --format json.  A note on
the source goes to stderr, so stdout stays clean for every --format; the output
of a --seed run starts with a line saying it is seeded (a % comment in PBN,
after its two header lines; LIN has no comments, so only the note says it).
A layout deals at most 5,200 cards.

Boards (bridge): --format pbn writes a PBN 2.1 export file of full games (CRLF
line ends; --lf for LF): Event (--event, else ?), Site and Date ?, Board from
--first-board (default 1) counting up, Dealer and Vulnerable by the standard
cycles, the Deal from the dealer's hand, then Generator.  --format lin writes
the same boards as BBO LIN, one a line.  Board numbers go up to {MAX_BOARD}: a run
that would pass it is refused before dealing (for longer runs, pbn-deal prints
one PBN deal string a line, from North).  pbn-games is deprecated: it is
--format pbn dealt by --engine bulk.

Engines: deal ({ALGORITHM_ID}: deal by deal, every method, --entropy, --scheme;
--count up to {MAX_DEAL_COUNT:,}) and bulk ({BULK_ALGORITHM_ID}: deals in
batches of {BULK_BATCH:,}, millions a second, from the OS CSPRNG or --seed;
--count up to {MAX_BULK_COUNT:,}).  The default engine depends on --format,
never on --count: {_BULK_ONLY} are written by bulk; {_PER_DEAL} by deal,
so every published seed keeps its deals (--engine bulk writes them too, other
deals from the same seed).  {" and ".join(BINARY_FORMATS)} need --out FILE.  --out writes
the file atomically (--overwrite replaces one).  A long run shows a progress bar
when stderr is a terminal (not with --quiet, which also drops the note).
Ctrl-C stops after the deals being written and leaves valid output (exit 130).

Conditions (bridge): --where 'EXPR' keeps only the deals where a dealer-language
expression holds, and --predeal 'N:AQ542.KJ87.32.AK' (or dealer's 'south SAQ542,
HKJ87') gives cards before dealing; the deals are exactly uniform among those
that pass, found by rejection or by exact smart stacking (--strategy auto
chooses; the note says which and how many deals pass).  Both use the bulk
engine.  For whole scripts with statistics, see croupier dealer.

On a Dask cluster (the cluster extra): --workers N (a local cluster of N
processes) or --scheduler ADDRESS (a running one) with --out DIR writes one
file per chunk of --chunk deals (default 1,048,576) into DIR, then
DIR/manifest.json (files in order, rows, sizes, SHA-256).  Formats {", ".join(CHUNK_FORMATS)}
with --engine bulk; the files in order hold what one process writes for the
same seed.  Run the same command again to finish an interrupted run (chunks
already written are checked by SHA-256 and kept); a DIR of another run is
refused unless --overwrite.

\b
Examples:
  croupier deal
  croupier deal go-fish --players 4
  croupier deal --hands 7,7,7 --count 3
  croupier deal bridge --seed "club night 12" --format pbn --count 4
  croupier deal --seed "club night 12" -n 8 --first-board 9 -e "Club night" -f pbn
  croupier deal --seed "club night 12" -n 4 --format lin
  croupier deal holdem --players 6 --json --bits
  croupier deal --count 5 --format oneline --seed "sim 1"
  croupier deal --engine bulk --count 3 --format pbn-deal --seed "sim 1" --bits
  croupier deal --where 'hcp(north) >= 15 and shape(north, any 4333 + any 4432)' -n 20
  croupier deal --count 200000 --format oneline --seed s1 --workers 2 --chunk 100000 --out deals/
"""

RANK_HELP = f"""\
Print the number of a deal under a numbering scheme.

DEAL is a PBN deal string for bridge-like games ("N:AKQ.JT9.876.5432 ..."),
else the piles in layout order separated by "/" (the remainder may be left out).
Schemes: {_ANY_SCHEMES} (any game; default {DEFAULT_SCHEME}), and for bridge
{_BRIDGE_SCHEMES} (the -1 schemes count from 1).

\b
Examples:
  croupier rank bridge "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
  croupier rank gin "AS KS QS JS TS 9S 8S 7S 6S 5S / AH KH QH JH TH 9H 8H 7H 6H 5H / 2C"
  croupier rank euchre "9S TS JS QS KS / AS 9H TH JH QH / KH AH 9D TD JD / QD KD AD 9C TC" --json
"""

UNRANK_HELP = f"""\
Print the deal with a given number under a numbering scheme (inverse of rank).

Schemes: {_SCHEMES} (default {DEFAULT_SCHEME}).

\b
Examples:
  croupier unrank bridge 0
  croupier unrank bridge 1 --scheme pavlicek-1
  croupier unrank skat 12345 --json
"""

ENTROPY_HELP = f"""\
How much randomness a deal of GAME needs: log2 of the number of deals, log2 of a
full deck order, and the bits each deal method ({_METHODS}) used on average
(measured).

\b
Examples:
  croupier entropy bridge
  croupier entropy go-fish --players 4 --json
"""


GameArg = Annotated[
    str | None,
    typer.Argument(help="Game preset (default bridge; custom with --hands).", show_default=False),
]
NamedGameArg = Annotated[str, typer.Argument(help=f"Game preset ({_GAMES}), or custom.")]
PlayersOpt = Annotated[int | None, option("--players", "Number of players.")]
HandsOpt = Annotated[
    str | None, typer.Option("--hands", help="Hand sizes, e.g. 7,7,7 (the rest is the stock).")
]
DeckOpt = Annotated[
    str | None,
    typer.Option("--deck", help=f"Deck preset ({', '.join(DECK_PRESETS)}, shoe:K, ...)."),
]
SchemeOpt = Annotated[str, typer.Option("--scheme", help=f"Numbering scheme: {_SCHEMES}.")]


# -- helpers ------------------------------------------------------------------------------


def _layout(game: str | None, players: int | None, hands: str | None, deck: str | None) -> Layout:
    if hands is None and game is not None and game.strip().lower() == "custom":
        raise LayoutError("a custom layout needs hand sizes, e.g. --hands 7,7,7")
    return make_layout(game, players=players, hands=hands, deck=deck)


def _check_scheme(layout: Layout, scheme: str) -> str:
    """The scheme's canonical name, or an error when it cannot number this layout's deals."""
    s = get_scheme(scheme)
    if s.bridge_only and not layout.bridge_like:
        raise RankingError(
            f"scheme {s.name!r} numbers bridge deals only; {layout.game} needs one of "
            f"{_ANY_SCHEMES}"
        )
    return s.name


def number_json(number: int, scheme: str, deal: Deal) -> dict[str, Any]:
    """``{"number", "scheme", "pbn" or "hands"}``: the JSON of ``rank`` and ``unrank``.

    >>> number_json(0, "croupier", deal_from_number(make_layout("war"), 0))["hands"][0]["seat"]
    'P1'
    >>> sorted(number_json(0, "croupier", deal_from_number(make_layout("bridge"), 0)))
    ['number', 'pbn', 'scheme']
    """
    obj: dict[str, Any] = {"number": decimal(number), "scheme": scheme}
    if deal.layout.bridge_like:
        obj["pbn"] = format_pbn_deal(deal.piles)
    else:
        obj["hands"] = [
            {"seat": p.name, "cards": [c.code for c in sorted_hand(cards, deal.layout.order)]}
            for p, cards in zip(deal.layout.piles, deal.piles, strict=True)
        ]
    return obj


def _short_int(value: int) -> str:
    """An integer for a message: in full when short, else its first digits and length.

    >>> _short_int(52), _short_int(10**400)
    ('52', '10000000000000000000... (401 digits)')
    """
    text = decimal(value)
    return text if len(text) <= 30 else f"{text[:20]}... ({len(text)} digits)"


def _dice_note(layout: Layout) -> str:
    rolls = math.ceil(math.log2(layout.count) / math.log2(6) - 1e-12) if layout.count > 1 else 0
    flips = math.ceil(math.log2(layout.count) - 1e-12) if layout.count > 1 else 0
    return f"about {rolls} d6 rolls or {flips} coin flips per deal"


def _source_notes(source: RandomSource, layout: Layout, count: int, method: str) -> list[str]:
    """What goes to stderr after the deals: warnings, then where the randomness came from.

    Worded by :func:`croupier.randomness.source_note`, as ``croupier shuffle`` is.
    """
    lines: list[str] = []
    log2m = math.log2(layout.count) if layout.count > 1 else 0.0
    warning = seed_warning(source, log2m, f"~2^{log2m:.1f} deals of {layout.game}")
    if warning is not None:
        lines.append(f"warning: {warning}")
    what = "" if count == 1 else f" {count} deals"
    lines.append(f"dealt{what} with {method} {source_note(source)}")
    return lines


# -- where the deals go -------------------------------------------------------------------


# -- output formats -----------------------------------------------------------------------

_Writer = Callable[[Iterable[Deal], str, bool, Layout, "str | None", Sink], None]
"""``(deals, scheme, bits, layout, label, sink)``: write deals in one format, as they come;
``label`` is the seeded label (:data:`SEEDED_LABEL`) of a seeded run, else ``None``."""


def _write_text(
    deals: Iterable[Deal], scheme: str, bits: bool, layout: Layout, label: str | None, out: Sink
) -> None:
    if label is not None:
        out.line(label)
    total = 0.0
    for i, d in enumerate(deals):
        if i:
            out.line("")
        out.line(format_deal_text(d, scheme=scheme, bits=bits))
        total += d.bits_used
    if bits:
        out.line(f"total bits used: {total:.2f} (log2 M = {math.log2(layout.count):.2f})")


def json_document_chunks(deals: Iterable[Deal], scheme: str) -> Iterator[str]:
    """The JSON document of ``croupier deal``, piece by piece, in bounded memory.

    One deal is its object; several are ``{"deals": [...], "total_bits": ...}``,
    written deal by deal so a long run never sits in memory.  The pieces join
    to exactly what :func:`~croupier.formats.deal_json.deals_to_json` writes.

    >>> from croupier.dealing import deal_from_number
    >>> from croupier.formats.deal_json import deals_to_json
    >>> run = [deal_from_number(make_layout("war"), k) for k in (0, 1, 2)]
    >>> "".join(json_document_chunks(run, "croupier")) == deals_to_json(run) + "\\n"
    True
    """
    it = iter(deals)
    first = next(it, None)
    if first is None:
        yield json.dumps({"deals": [], "total_bits": 0.0}, indent=2) + "\n"
        return
    second = next(it, None)
    if second is None:
        yield format_deal_json(first, scheme) + "\n"
        return
    total = 0.0
    yield '{\n  "deals": [\n'
    for i, deal in enumerate(_chain(first, second, it)):
        obj = deal_to_dict(deal, scheme)
        total += float(obj["bits_used"])
        text = json.dumps(obj, indent=2, ensure_ascii=False).replace("\n", "\n    ")
        yield ("    " if i == 0 else ",\n    ") + text
    yield f'\n  ],\n  "total_bits": {json.dumps(round(total, 6))}\n}}\n'


def _chain(first: Deal, second: Deal, rest: Iterator[Deal]) -> Iterator[Deal]:
    yield first
    yield second
    yield from rest


def _write_json(
    deals: Iterable[Deal], scheme: str, bits: bool, layout: Layout, label: str | None, out: Sink
) -> None:
    for chunk in json_document_chunks(deals, scheme):
        out.chunk(chunk)


def _write_jsonl(
    deals: Iterable[Deal], scheme: str, bits: bool, layout: Layout, label: str | None, out: Sink
) -> None:
    for d in deals:
        out.line(format_deal_json(d, scheme, indent=None))


def _write_csv(
    deals: Iterable[Deal], scheme: str, bits: bool, layout: Layout, label: str | None, out: Sink
) -> None:
    for i, d in enumerate(deals):  # row by row: the header, then one row per deal
        rows = format_deals_csv([d], scheme).splitlines(keepends=True)
        if i:
            rows[1] = f"{i + 1}{rows[1][1:]}"  # the row starts "1,": the deal's place in the run
        out.chunk("".join(rows if i == 0 else rows[1:]))


WRITERS: dict[PerDealFormat, _Writer] = {
    "text": _write_text,
    "json": _write_json,
    "jsonl": _write_jsonl,
    "csv": _write_csv,
}
"""Each ``--format`` of ``croupier deal`` that is written deal by deal, and its function.

The deal engine writes these formats so, and ``pbn``, ``pbn-deal`` and ``lin``
through the bulk writers (:data:`BULK_WRITER_NAMES`), a thousand deals at a
time; the bulk engine writes ``text``, ``json`` and ``csv`` through these
functions too, and the others through its writers.
"""

_DEAL_ENGINE_BATCH = 1024
"""Deals of the deal engine handed to a bulk writer at a time (``pbn``, ``pbn-deal``, ``lin``)."""


def _deal_arrays(deals: Iterable[Deal], layout: Layout) -> Iterator[DealArray]:
    """``deals`` in arrays of up to :data:`_DEAL_ENGINE_BATCH`, for the bulk writers.

    The deals made before an error (too little ``--entropy``) are handed over
    before the error is raised, as the deal-by-deal formats print them.

    >>> from croupier.dealing import deal_from_number
    >>> run = [deal_from_number(make_layout("bridge"), k) for k in range(1500)]
    >>> [len(a) for a in _deal_arrays(run, make_layout("bridge"))]
    [1024, 476]
    """
    batch: list[Deal] = []
    it = iter(deals)
    while True:
        try:
            deal = next(it)
        except StopIteration:
            break
        except CroupierError:
            if batch:
                yield DealArray.from_deals(batch, layout)
            raise
        batch.append(deal)
        if len(batch) == _DEAL_ENGINE_BATCH:
            yield DealArray.from_deals(batch, layout)
            batch = []
    if batch:
        yield DealArray.from_deals(batch, layout)


def _resolve_format(fmt: DealFormat | None, as_json: bool) -> DealFormat:
    """``--format``, with ``--json`` standing for ``--format json`` (a different one is an error).

    >>> _resolve_format(None, True), _resolve_format(None, False), _resolve_format("pbn", False)
    ('json', 'text', 'pbn')
    """
    if as_json and fmt not in (None, "json"):
        raise CroupierError(f"--json is --format json; it cannot be combined with --format {fmt}")
    if as_json:
        return "json"
    return "text" if fmt is None else fmt


# -- engines ------------------------------------------------------------------------------


def default_engine(fmt: DealFormat) -> DealEngine:
    """The engine a format is dealt by when ``--engine`` is not given: never chosen by count.

    The formats the deal engine writes keep it (so every published seed keeps
    its deals); the formats only the bulk engine writes take that one.

    >>> default_engine("pbn"), default_engine("lin"), default_engine("oneline")
    ('deal', 'deal', 'bulk')
    >>> default_engine("pbn-games")  # the old name of pbn with the bulk engine
    'bulk'
    """
    return "deal" if fmt in PER_DEAL_FORMATS else "bulk"


def _check_engine(
    engine: DealEngine,
    chosen: bool,
    fmt: DealFormat,
    *,
    method: str,
    scheme: str,
    entropy: str | None,
    count: int,
) -> None:
    """Refuse what the engine cannot do, saying what works instead (one line each)."""
    if engine == "deal" and fmt not in PER_DEAL_FORMATS:
        raise CroupierError(
            f"--format {fmt} is written by --engine bulk only; leave out --engine deal, "
            f"or choose a --format of the deal engine ({_PER_DEAL})"
        )
    limit = MAX_BULK_COUNT if engine == "bulk" else MAX_DEAL_COUNT
    if not 1 <= count <= limit:
        more = (
            f" (--engine bulk deals up to {MAX_BULK_COUNT:,})"
            if engine == "deal" and count > limit
            else ""
        )
        raise CroupierError(
            f"--count must be at least 1 and at most {limit:,}, got {_short_int(count)}{more}"
        )
    if engine == "deal":
        return
    why = "--engine bulk" if chosen else f"--format {fmt} is written by --engine bulk, which"
    if entropy is not None:
        raise CroupierError(
            f"{why} draws from the OS CSPRNG or a --seed stream, not from --entropy; "
            f"--entropy works with --engine deal (formats {_PER_DEAL})"
        )
    if method != _DEFAULT_METHOD:
        raise CroupierError(
            f"{why} has one algorithm ({BULK_ALGORITHM_ID}), so no --method {method}; "
            f"the methods ({_METHODS}) work with --engine deal (formats {_PER_DEAL})"
        )
    if scheme != DEFAULT_SCHEME:
        raise CroupierError(
            f"{why} numbers deals in the {DEFAULT_SCHEME} scheme only, so no --scheme {scheme}; "
            f"--scheme works with --engine deal (formats {_PER_DEAL})"
        )


# -- progress and Ctrl-C ------------------------------------------------------------------


def progress_wanted(
    count: int,
    engine: DealEngine,
    *,
    quiet: bool,
    stderr_is_terminal: bool,
    output_is_terminal: bool,
) -> bool:
    """Whether a run shows a progress bar on stderr.

    Only a long run (:data:`PROGRESS_MIN_DEALS` deals of the engine or more), only when
    stderr is a terminal (a person watches it), never with ``--quiet``, and
    not when the deals themselves scroll past on that terminal.

    >>> watched = {"stderr_is_terminal": True, "output_is_terminal": False}
    >>> progress_wanted(10**7, "bulk", quiet=False, **watched)
    True
    >>> progress_wanted(10**5, "bulk", quiet=False, **watched)  # a fraction of a second
    False
    >>> progress_wanted(10**5, "deal", quiet=False, **watched)  # several seconds
    True
    >>> progress_wanted(10**7, "bulk", quiet=True, **watched)
    False
    >>> piped = {"stderr_is_terminal": False, "output_is_terminal": False}
    >>> progress_wanted(10**7, "bulk", quiet=False, **piped)
    False
    """
    return (
        count >= PROGRESS_MIN_DEALS[engine]
        and not quiet
        and stderr_is_terminal
        and not output_is_terminal
    )


_PROGRESS_STEP = 1024  # deals between updates of the bar when dealing deal by deal


def _watched(deals: Iterable[Deal], run: RunState, advance: Advance) -> Iterator[Deal]:
    """``deals`` one by one, counted, until Ctrl-C asks the run to stop."""
    pending = 0
    for deal in deals:
        yield deal
        run.written += 1
        run.bits += int(deal.bits_used)
        pending += 1
        if pending == _PROGRESS_STEP:
            advance(pending)
            pending = 0
        if run.stop:
            break
    advance(pending)


# -- the bulk engine ----------------------------------------------------------------------


def _bulk_engine(layout: Layout, count: int) -> Engine:
    """The compiled kernel for runs long enough to pay for loading it (same deals either way).

    >>> from croupier.dealing.layout import make_layout
    >>> _bulk_engine(make_layout("bridge"), 10)
    'numpy'
    """
    if count >= COMPILED_FROM and compiled_fits(layout.sizes) and compiled_available():
        return "compiled"
    return "numpy"


_SOURCE_KINDS = {"seeded": "seeded", "os": "os-csprng"}  # bulk stream label -> deal source kind


def _bulk_deals(dealer: DealerLike, count: int, kind: str) -> Iterator[Deal]:
    """The next ``count`` deals of ``dealer`` as :class:`Deal` objects (for text, json, csv)."""
    for batch in dealer.batches(count, BULK_BATCH):
        for deal in batch:
            yield Deal(
                deal.layout,
                deal.piles,
                method=deal.method,
                bits_used=deal.bits_used,
                source=kind,
                algorithm=BULK_ALGORITHM_ID,
            )


_DONE = object()  # the end of the batches dealt ahead


def _dealt_ahead(dealer: DealerLike, count: int) -> Iterator[DealArray]:
    """The next ``count`` deals of ``dealer`` in batches of :data:`BULK_BATCH`, in order.

    The batches are dealt in a second thread, a batch or two ahead of the one
    the caller writes (the dealing code releases the GIL for most of its
    work), so dealing and writing overlap.  Batches dealt ahead and never
    asked for are dropped; the deals and their order are those of
    ``dealer.batches``.  The thread is a daemon: a run stopped at once (a
    second Ctrl-C) does not wait for the batch it is dealing.
    """
    ready: queue.Queue[object] = queue.Queue(maxsize=1)
    stopped = threading.Event()

    def hand_over(item: object) -> bool:
        while not stopped.is_set():
            try:
                ready.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def deal() -> None:
        try:
            for batch in dealer.batches(count, BULK_BATCH):
                if not hand_over(batch):
                    return
        except BaseException as exc:  # handed to the caller, raised there
            hand_over(exc)
            return
        hand_over(_DONE)

    threading.Thread(target=deal, name="croupier-bulk-dealer", daemon=True).start()
    try:
        while True:
            item = ready.get()
            if item is _DONE:
                return
            if isinstance(item, BaseException):
                raise item
            yield cast(DealArray, item)
    finally:
        stopped.set()


def _bulk_batches(
    dealer: DealerLike, count: int, run: RunState, advance: Advance
) -> Iterator[DealArray]:
    """The next ``count`` deals of ``dealer`` in batches, until Ctrl-C asks the run to stop."""
    for batch in _dealt_ahead(dealer, count):
        yield batch
        run.written += len(batch)
        run.bits += 0 if batch.bits is None else int(batch.bits.sum(dtype=np.uint64))
        advance(len(batch))
        if run.stop:
            break


@dataclass(frozen=True)
class _Boards:
    """How the board formats number and tag boards: ``--first-board``, ``--event``, ``--lf``."""

    first: int = 1
    event: str = "?"
    newline: str = "\r\n"


def _write_bulk(
    fmt: DealFormat,
    batches: Iterable[DealArray],
    layout: Layout,
    label: str | None,
    out: Sink,
    boards: _Boards,
    dealer: DealerLike | None = None,
) -> None:
    """Write the batches in ``fmt`` through its bulk writer (:data:`BULK_WRITER_NAMES`).

    ``dealer`` is the bulk engine's (its source and algorithm go into
    ``jsonl`` and ``npz``); the deal engine writes only the formats without them.
    """
    stream = out.binary()
    name = BULK_WRITER_NAMES[fmt]
    kind = "" if dealer is None else _SOURCE_KINDS.get(dealer.stream.label, dealer.stream.label)
    writer = open_writer(
        name,
        stream,
        layout,
        first_board=boards.first,
        generator=f"croupier {croupier.__version__}",
        event=boards.event,
        comments=() if label is None else (label,),  # PBN: after the two header lines
        newline=boards.newline,
        bits_used=True,
        fields={"algorithm": BULK_ALGORITHM_ID, "source": kind},
        algorithm=None if dealer is None else dealer.describe(),
    )
    if label is not None and name in ("oneline", "pbn-deal"):
        comment = "" if name == "oneline" else "% "
        stream.write(f"{comment}{label}\n".encode())
    for batch in batches:
        writer.write(batch)
    writer.close()


def _bits_note(bits_used: int, deals: int, layout: Layout) -> str:
    """The ``--bits`` line of a bulk run (stderr): bits in all and per deal, against log2 M.

    >>> _bits_note(1280, 10, make_layout("bridge"))
    'bits used: 1,280 in all, 128.00 per deal (log2 M = 95.44)'
    """
    per = bits_used / deals if deals else 0.0
    log2m = math.log2(layout.count) if layout.count > 1 else 0.0
    return f"bits used: {bits_used:,} in all, {per:.2f} per deal (log2 M = {log2m:.2f})"


# -- one run ------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Job:
    """What one ``croupier deal`` run deals and how it writes it (options checked)."""

    layout: Layout
    count: int
    fmt: DealFormat
    scheme: str
    bits: bool
    method: str
    source: RandomSource
    dealer: DealerLike | None  # the bulk engine's dealer; None for the deal engine
    boards: _Boards  # numbers and tags of the board formats


def _deal_and_write(job: _Job, sink: Sink, run: RunState, advance: Advance) -> None:
    """Deal the job's deals with its engine and write them to ``sink`` as they come."""
    layout, dealer = job.layout, job.dealer
    per_deal = WRITERS.get(cast(PerDealFormat, job.fmt))
    if dealer is None:
        label = SEEDED_LABEL if job.source.kind == "seeded" else None
        made = _watched(
            deal_many(layout, job.count, method=job.method, source=job.source), run, advance
        )
        try:
            if per_deal is not None:
                per_deal(made, job.scheme, job.bits, layout, label, sink)
            else:  # pbn, pbn-deal, lin: through the bulk writers, as the bulk engine writes them
                arrays = _deal_arrays(made, layout)
                _write_bulk(job.fmt, arrays, layout, label, sink, job.boards)
        except EntropyExhaustedError as exc:
            raise EntropyExhaustedError(f"{exc} ({_dice_note(layout)})") from None
        return
    label = BULK_SEEDED_LABEL if dealer.stream.reproducible else None
    if label is not None and isinstance(dealer, ConditionedDealer):
        label = label.replace(BULK_ALGORITHM_ID, dealer.simulation.sampler.algorithm)
    if job.fmt in BULK_WRITER_NAMES:
        batches = _bulk_batches(dealer, job.count, run, advance)
        _write_bulk(job.fmt, batches, layout, label, sink, job.boards, dealer)
        return
    assert per_deal is not None  # every format has a bulk writer or a per-deal one
    kind = _SOURCE_KINDS.get(dealer.stream.label, dealer.stream.label)
    deals = _watched(_bulk_deals(dealer, job.count, kind), run, advance)
    per_deal(deals, job.scheme, job.bits, layout, label, sink)


def _board_options(
    fmt: DealFormat, count: int, first_board: int | None, event: str | None, lf: bool
) -> _Boards:
    """``--first-board``, ``--event`` and ``--lf``, checked against the format and ``--count``.

    Every board of the run must have a number up to :data:`MAX_BOARD`; a run
    that would pass it is refused before anything is dealt.

    >>> _board_options("lin", 16, 17, None, False)
    _Boards(first=17, event='?', newline='\\r\\n')
    >>> _board_options("pbn", 20, 990, None, False)
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: --count 20 from --first-board 990 would reach board 1,009; ...
    """
    pbn = fmt in ("pbn", "pbn-games")
    if first_board is not None and fmt not in BOARD_FORMATS:
        raise CroupierError(
            f"--first-board numbers the boards of --format pbn or lin; --format {fmt} has no "
            "board numbers"
        )
    if event is not None and not pbn:
        raise CroupierError(
            f"--event is the Event tag of PBN games: use it with --format pbn, not {fmt}"
        )
    if lf and not pbn:
        raise CroupierError(
            f"--lf gives --format pbn LF line ends (PBN export has CRLF); --format {fmt} "
            "has no CRLF to change"
        )
    first = 1 if first_board is None else first_board
    if not 1 <= first <= MAX_BOARD:
        raise CroupierError(
            f"--first-board must be a board number 1..{MAX_BOARD}, got {_short_int(first)}"
        )
    last = first + count - 1
    if fmt in BOARD_FORMATS and last > MAX_BOARD:
        raise CroupierError(
            f"--count {_short_int(count)} from --first-board {first} would reach board "
            f"{last:,}; board numbers go up to {MAX_BOARD}: deal at most "
            f"{MAX_BOARD - first + 1} boards, or use --format pbn-deal for more deals"
        )
    if event is not None:
        pbn_escape(event)  # one line, refused before dealing
    return _Boards(first, "?" if event is None else event, "\n" if lf else "\r\n")


# -- commands -----------------------------------------------------------------------------


def _check_cluster_run(
    cluster: ClusterRequest,
    out: Path | None,
    fmt: DealFormat,
    engine: DealEngine | None,
    conditioned: bool,
    entropy: str | None,
) -> None:
    """``--workers``/``--scheduler``'s options checked: the bulk engine, files in a folder."""
    where = "--workers" if cluster.workers is not None else "--scheduler"
    if out is None:
        raise CroupierError(f"{where} writes one file per chunk into a folder: give --out DIR")
    if fmt not in CHUNK_FORMATS:
        raise CroupierError(
            f"{where} writes --format {', '.join(CHUNK_FORMATS)} in chunk files, not {fmt}"
        )
    if engine == "deal" or (engine is None and default_engine(fmt) != "bulk"):
        raise CroupierError(
            f"{where} deals with the bulk engine ({BULK_ALGORITHM_ID}); --format {fmt} "
            "defaults to --engine deal: add --engine bulk"
        )
    if conditioned:
        raise CroupierError(
            f"{where} with --where/--predeal: run the condition as a script with "
            "croupier dealer --workers"
        )
    if entropy is not None:
        raise CroupierError(f"{where} deals from the OS CSPRNG or --seed, not --entropy")


def _deal_on_cluster(
    cluster: ClusterRequest,
    layout: Layout,
    count: int,
    fmt: DealFormat,
    seed: str | None,
    out: Path,
    overwrite: bool,
    quiet: bool,
    bits: bool,
) -> None:
    """``croupier deal --workers/--scheduler --out DIR``: chunk files and their manifest."""
    from croupier.bulk.chunk_files import DEFAULT_FILE_CHUNK, FileJob, deal_to_files
    from croupier.cluster import open_client

    size = DEFAULT_FILE_CHUNK if cluster.chunk is None else cluster.chunk
    job = FileJob(
        str(out.resolve()),
        layout,
        fmt,
        seed,
        count,
        size,
        label=BULK_SEEDED_LABEL if seed is not None else None,
        engine=_bulk_engine(layout, min(count, size)),
        fields={
            "algorithm": BULK_ALGORITHM_ID,
            "source": "seeded" if seed is not None else "os-csprng",
        },
    )
    show = progress_wanted(
        count,
        "bulk",
        quiet=quiet,
        stderr_is_terminal=is_terminal(sys.stderr),
        output_is_terminal=False,
    )
    run = RunState()
    with (
        open_client(workers=cluster.workers, scheduler=cluster.scheduler) as client,
        stop_on_ctrl_c(run),
        progress_bar(count, show) as advance,
    ):
        manifest = deal_to_files(
            job, client, overwrite=overwrite, progress=advance, stop=lambda: run.stop
        )
    if manifest is None:
        typer.echo(
            f"warning: interrupted by Ctrl-C; the chunks written so far are kept: run the "
            f"same command again to finish {str(out)!r}",
            err=True,
        )
        raise typer.Exit(INTERRUPTED)
    if not quiet:
        source = "the seed" if seed is not None else "the OS CSPRNG (not reproducible)"
        typer.echo(
            f"dealt {count:,} deals with {BULK_ALGORITHM_ID} from {source} into "
            f"{len(manifest['files']):,} chunk files of up to {size:,} in {str(out)!r} "
            f"(manifest.json lists them with their SHA-256)",
            err=True,
        )
    if bits:
        typer.echo(_bits_note(manifest["bits"], count, layout), err=True)


@app.command("deal", help=DEAL_HELP)
def deal_command(
    game: GameArg = None,
    players: PlayersOpt = None,
    hands: HandsOpt = None,
    deck: DeckOpt = None,
    count: Annotated[int, count_option("How many deals.")] = 1,
    method: Annotated[str, method_option(f"Deal method: {_METHODS}.")] = _DEFAULT_METHOD,
    seed: SeedOpt = None,
    entropy: EntropyOpt = None,
    fmt: Annotated[
        DealFormat | None,
        option("--format", f"Output format: {_FORMATS} (default text).", case_sensitive=False),
    ] = None,
    as_json: JsonOpt = False,
    bits: BitsOpt = False,
    scheme: SchemeOpt = DEFAULT_SCHEME,
    engine: Annotated[
        DealEngine | None,
        typer.Option(
            "--engine",
            help=f"deal ({ALGORITHM_ID}) or bulk ({BULK_ALGORITHM_ID}); default: bulk for "
            f"{_BULK_ONLY}, deal for the other formats.",
            case_sensitive=False,
        ),
    ] = None,
    out: Annotated[Path | None, out_option("Write to this file (atomically), not stdout.")] = None,
    overwrite: OverwriteOpt = False,
    quiet: Annotated[
        bool, typer.Option("--quiet", help="No note on stderr and no progress bar.")
    ] = False,
    where: Annotated[
        str | None,
        typer.Option(
            "--where", help="Only deals where this dealer expression holds: 'hcp(north) >= 20'."
        ),
    ] = None,
    predeal: Annotated[
        str | None,
        typer.Option("--predeal", help="Cards given first: 'N:AK.QJ.-.- S:...' or 'north SAK'."),
    ] = None,
    strategy: Annotated[
        Strategy,
        typer.Option(
            "--strategy",
            help="With --where: auto (default), rejection or stacking (exact smart stacking).",
            case_sensitive=False,
        ),
    ] = "auto",
    first_board: Annotated[
        int | None,
        typer.Option(
            "--first-board",
            help=f"Number of the first board of --format pbn or lin (default 1; 1..{MAX_BOARD}).",
            show_default=False,
        ),
    ] = None,
    event: Annotated[
        str | None, option("--event", "The Event tag of --format pbn (default ?).")
    ] = None,
    lf: Annotated[
        bool, typer.Option("--lf", help="LF line ends in --format pbn (PBN export has CRLF).")
    ] = False,
    workers: WorkersOpt = None,
    scheduler: SchedulerOpt = None,
    chunk: ChunkOpt = None,
) -> None:
    """Deal ``count`` deals of a game and print them in the chosen format."""
    cluster = cluster_request(workers, scheduler, chunk)
    out_format = _resolve_format(fmt, as_json)
    boards = _board_options(out_format, count, first_board, event, lf)
    chosen = engine is not None
    conditioned = where is not None or predeal is not None
    if conditioned and engine == "deal":
        raise CroupierError(
            "--where and --predeal deal with --engine bulk; leave out --engine deal"
        )
    if not conditioned and strategy != "auto":
        raise CroupierError("--strategy chooses how --where deals are found; give --where too")
    run_engine: DealEngine = (
        "bulk" if conditioned else default_engine(out_format) if engine is None else engine
    )
    _check_engine(
        run_engine,
        chosen,
        out_format,
        method=method,
        scheme=scheme,
        entropy=entropy,
        count=count,
    )
    layout = _layout(game, players, hands, deck)
    if conditioned and not layout.bridge_like:
        raise CroupierError(
            f"--where and --predeal deal bridge hands (N E S W of 13); {layout.describe()} "
            "is not a bridge layout"
        )
    scheme = _check_scheme(layout, scheme)
    method = get_deal_method(method).name
    if out_format in _BRIDGE_FORMATS and not layout.bridge_like:
        others = ", ".join(WRITERS)
        if run_engine == "bulk":
            others = ", ".join(f for f in get_args(DealFormat) if f not in _BRIDGE_FORMATS)
        raise CroupierError(
            f"{_BRIDGE_FORMATS[out_format]} need four hands of 13 (N E S W); "
            f"{layout.describe()} is not one; use another --format ({others})"
        )
    if out_format in BINARY_FORMATS and out is None:
        raise CroupierError(
            f"--format {out_format} is binary, so it is never written to standard output; "
            f"give a file: --out FILE.{out_format}"
        )
    if cluster is not None:
        _check_cluster_run(cluster, out, out_format, engine, conditioned, entropy)
        assert out is not None
        source = make_source(seed=seed, entropy=None, purpose="deal")
        _deal_on_cluster(cluster, layout, count, out_format, seed, out, overwrite, quiet, bits)
        for line in _source_notes(source, layout, count, f"{BULK_ALGORITHM_ID}"):
            if line.startswith("warning:"):
                typer.echo(line, err=True)
        return
    source = make_source(seed=seed, entropy=entropy, purpose="deal")
    need = count * math.log2(layout.count)
    what = f"a {layout.game} deal needs" if count == 1 else f"{count} deals need"
    if isinstance(source, EntropySource) and source.total_bits < need - 1e-9:
        # No uniform method can do with less than log2 M bits a deal: say so up front.
        raise EntropyExhaustedError(
            f"{source.shortfall(1, total_bits=need)} ({what} at least {need:.2f} bits; "
            f"{_dice_note(layout)})"
        )
    dealer: DealerLike | None = None
    if conditioned:
        dealer = ConditionedDealer.build(where, predeal, seed=seed, strategy=strategy)
    elif run_engine == "bulk":
        dealer = BulkDealer(layout, seed=seed, engine=_bulk_engine(layout, count))
    show = progress_wanted(
        count,
        run_engine,
        quiet=quiet,
        stderr_is_terminal=is_terminal(sys.stderr),
        output_is_terminal=out is None and is_terminal(sys.stdout),
    )
    run = RunState()
    file = None if out is None else AtomicFile(out, overwrite=overwrite)
    try:
        with stop_on_ctrl_c(run):  # Ctrl-C while the file is finished: it is still finished
            with progress_bar(count, show) as advance:
                job = _Job(layout, count, out_format, scheme, bits, method, source, dealer, boards)
                _deal_and_write(job, Sink(file), run, advance)
            if file is not None:
                file.commit()
    finally:
        if file is not None and not file.done:
            file.discard()
    interrupted = run.stop and run.written < count
    if interrupted:
        where = (
            "to standard output, which ends after the last whole deal"
            if out is None
            else f"to {str(out)!r}, a complete, valid {out_format} file"
        )
        typer.echo(
            f"warning: interrupted by Ctrl-C: wrote {run.written:,} of {count:,} deals {where}",
            err=True,
        )
    used = method if dealer is None else f"{BULK_ALGORITHM_ID} ({dealer.stream.label} stream)"
    for line in _source_notes(source, layout, run.written, used):
        if not quiet or line.startswith("warning:"):
            typer.echo(line, err=True)
    if isinstance(dealer, ConditionedDealer):
        if not quiet:
            typer.echo(dealer.note(), err=True)
        run.bits = dealer.bits  # every deal generated, the rejected ones too
    if bits and (dealer is not None or out_format not in WRITERS):
        typer.echo(_bits_note(run.bits, run.written, layout), err=True)
    if interrupted:
        raise typer.Exit(INTERRUPTED)


@app.command("rank", help=RANK_HELP)
def rank_command(
    game: NamedGameArg,
    deal_text: Annotated[str, typer.Argument(metavar="DEAL", help="The deal (see above).")],
    players: PlayersOpt = None,
    hands: HandsOpt = None,
    deck: DeckOpt = None,
    scheme: SchemeOpt = DEFAULT_SCHEME,
    as_json: JsonOpt = False,
) -> None:
    """Print the number of a deal."""
    layout = _layout(game, players, hands, deck)
    scheme = _check_scheme(layout, scheme)
    if layout.bridge_like and "/" not in deal_text:
        deal = deal_from_piles(layout, list(parse_pbn_deal(deal_text)))
    else:
        deal = parse_deal_piles(layout, deal_text)
    number = deal.number_in(scheme)
    if as_json:
        typer.echo(json.dumps(number_json(number, scheme, deal), ensure_ascii=False))
    else:
        typer.echo(decimal(number))


def _parse_number(number: str, layout: Layout, scheme: str) -> int:
    """A deal number typed on the command line, range-checked before it is converted."""
    text = number.strip().replace("_", "").replace(",", "")
    if not (text.isascii() and text.isdigit()):
        raise RankingError(f"bad deal number {number!r}; expected a non-negative decimal integer")
    top = get_scheme(scheme).base + layout.count - 1
    digits = text.lstrip("0") or "0"
    if len(digits) > len(decimal(top)):  # too long to be in range (or to convert quickly)
        shown = f"{digits[:20]}... ({len(digits)} digits)" if len(digits) > 40 else digits
        raise RankingError(
            f"deal number {shown} out of range for scheme {scheme!r}; expected "
            f"{get_scheme(scheme).base} <= number <= {decimal(top)}"
        )
    return parse_decimal(digits)


@app.command("unrank", help=UNRANK_HELP)
def unrank_command(
    game: NamedGameArg,
    number: Annotated[str, typer.Argument(help="The deal number (decimal).")],
    players: PlayersOpt = None,
    hands: HandsOpt = None,
    deck: DeckOpt = None,
    scheme: SchemeOpt = DEFAULT_SCHEME,
    as_json: JsonOpt = False,
) -> None:
    """Print the deal with a given number."""
    layout = _layout(game, players, hands, deck)
    scheme = _check_scheme(layout, scheme)
    value = _parse_number(number, layout, scheme)
    deal = deal_from_number(layout, value, scheme)
    if as_json:
        typer.echo(json.dumps(number_json(value, scheme, deal), ensure_ascii=False))
    elif layout.bridge_like:
        typer.echo(format_pbn_deal(deal.piles))
    else:
        typer.echo(format_deal_piles(deal))


@app.command("entropy", help=ENTROPY_HELP)
def entropy_command(
    game: GameArg = None,
    players: PlayersOpt = None,
    hands: HandsOpt = None,
    deck: DeckOpt = None,
    deals: Annotated[
        int, typer.Option("--deals", help="Deals per method for the measurement.")
    ] = 200,
    as_json: JsonOpt = False,
) -> None:
    """Print log2 of the number of deals, of a deck order, and the bits each method used."""
    if not 1 <= deals <= MAX_ENTROPY_DEALS:
        raise CroupierError(
            f"--deals must be at least 1 and at most {MAX_ENTROPY_DEALS:,}, got {_short_int(deals)}"
        )
    layout = _layout(game, players, hands, deck)
    n = len(layout.deck)
    most = max(1, MAX_ENTROPY_WORK // max(1, n * n))
    if deals > most:
        raise CroupierError(
            f"--deals {deals} is too many for a deck of {n} cards; the measurement takes "
            f"at most {most:,} deals of it (--deals x cards² <= {MAX_ENTROPY_WORK:,})"
        )
    log2m = math.log2(layout.count)
    log2full = math.lgamma(n + 1) / math.log(2)
    measured: dict[str, float] = {}
    for name in METHODS:
        src = OsRandomSource()
        sampler = UniformSampler(src, margin_bits=32)
        for _ in deal_many(layout, deals, method=name, sampler=sampler):
            pass
        measured[name] = (src.bits_used - sampler.leftover_bits) / deals
    if as_json:
        obj = {
            "game": layout.game,
            "layout": layout.describe(),
            "deals": decimal(layout.count),
            "log2_deals": round(log2m, 6),
            "log2_deck_orders": round(log2full, 6),
            "measured_bits": {k: round(v, 4) for k, v in measured.items()},
            "measured_over": deals,
        }
        typer.echo(json.dumps(obj, ensure_ascii=False, indent=2))
        return
    typer.echo(layout.describe())
    typer.echo(f"distinct deals M      {decimal(layout.count)}")
    typer.echo(f"log2 M                {log2m:9.3f} bits  ({_dice_note(layout)})")
    typer.echo(f"log2 {n}! (deck order) {log2full:9.3f} bits")
    typer.echo(f"measured bits per deal, mean of {deals} (OS CSPRNG, recycled):")
    for name, value in measured.items():
        typer.echo(f"  {name:<13} {value:9.3f}")
