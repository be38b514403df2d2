"""Every output format of a deal run, in one registry: the same deals in every format.

A writer is opened on a binary stream for one layout (:func:`open_deal_writer`),
takes batches of deals with :meth:`DealOutput.write` — :class:`DealArray`
batches for the array formats, :class:`Deal` lists for the formats written deal
by deal — and ends with :meth:`DealOutput.close`.  Which kind a format takes is
in :data:`FORMATS`; :func:`croupier.runs.run.run_deals` hands each the kind it
wants, so the deals never depend on the format.

===========  ======  ==============================================================
format       takes   what it is
===========  ======  ==============================================================
text         deals   a compass diagram (bridge) or a line per pile, per deal
json         deals   one JSON document: the envelope (docs/json.md), deals under ``result``
csv          deals   a header, then a row per deal
jsonl        arrays  one JSON object per line
pbn          arrays  PBN 2.1 export games, numbered boards (with double-dummy tags: ``dd``)
pbn-deal     arrays  one PBN deal string per line
lin          arrays  BBO LIN boards, one per line
oneline      arrays  dealer's one-line format
npy, npz     arrays  numpy arrays (binary: never to a terminal)
===========  ======  ==============================================================

>>> import io
>>> from croupier.dealing import deal_from_number, make_layout
>>> out = io.BytesIO()
>>> w = open_deal_writer("csv", out, make_layout("war"))
>>> w.write([deal_from_number(make_layout("war"), 0)]); w.close(bits=0.0)
>>> out.getvalue().decode().splitlines()[0]
'deal,number,scheme,P1,P2,method,bits_used,algorithm,source'
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import IO, TYPE_CHECKING, Any, Literal, Protocol

from croupier.errors import CroupierError
from croupier.formats.registry import FORMATS as REGISTRY
from croupier.frozen import frozen_dataclass

if TYPE_CHECKING:  # each format's writer is imported when a run opens it
    from croupier.bulk import DealArray
    from croupier.bulk.writers import DealWriter
    from croupier.dealing import Deal, Layout

__all__ = [
    "BINARY_FORMATS",
    "BRIDGE_FORMATS",
    "FORMATS",
    "NUMBERED_FORMATS",
    "DealOutput",
    "FormatInfo",
    "WriteOptions",
    "open_deal_writer",
]

Takes = Literal["deals", "arrays"]


@frozen_dataclass
class FormatInfo:
    """What a format takes, and what kind of output it is."""

    takes: Takes
    summary: str
    binary: bool = False
    boards: bool = False  # numbered boards: --first-board, boards up to 999
    bridge_only: str | None = None  # what it holds, when only bridge deals fit


FORMATS: dict[str, FormatInfo] = {
    name: FormatInfo(run.takes, row.summary, run.binary, run.boards, run.bridge_only)
    for name, row in REGISTRY.items()
    if (run := row.run) is not None
}
"""Every format of a deal run: the rows of :mod:`croupier.formats.registry` a run writes."""

BINARY_FORMATS = tuple(name for name, f in FORMATS.items() if f.binary)
"""Formats that are not text: written only to a file, never to standard output."""

NUMBERED_FORMATS = tuple(name for name, f in FORMATS.items() if f.boards)
"""Formats of numbered boards."""

BRIDGE_FORMATS = {name: f.bridge_only for name, f in FORMATS.items() if f.bridge_only}
"""Formats of bridge deals only, and what they hold."""


@frozen_dataclass
class WriteOptions:
    """How a run writes: labels, numbering, board tags, metadata.

    ``label`` is the line that says a run is seeded: a ``%`` comment of a PBN
    file, which PBN readers skip (the other formats hold only the deals; the
    command line says it on standard error); ``scheme`` numbers deals in text,
    JSON and CSV; ``bits`` adds the bits of each deal to text and a total line;
    ``first_board``,
    ``event`` and ``newline`` shape board formats; ``dd`` adds double-dummy
    tables and par to PBN games; ``algorithm``, ``source``, ``reproducible`` and
    ``describe`` are the metadata of JSON, JSON lines and ``npz``; ``show_stock``
    has the text format show the stock (a remainder stack of more than 13 cards),
    top first, where it otherwise says how many cards lie face down.
    """

    label: str | None = None
    scheme: str = "croupier"
    bits: bool = False
    first_board: int = 1
    event: str = "?"
    newline: str = "\r\n"
    dd: bool = False
    algorithm: str = ""
    source: str = ""
    reproducible: bool = False
    describe: str | None = None
    command: str = "deal"
    show_stock: bool = False


class DealOutput(Protocol):
    """An open writer of one format."""

    takes: Takes

    def write(self, batch: Sequence[Deal] | DealArray, tables: Any = None) -> None:
        """Write a batch (``tables``: its double-dummy tables, when already solved)."""
        ...

    def close(self, bits: float) -> None:
        """End the output; ``bits``: random bits the run used (for totals)."""
        ...


class _TextOutput:
    """The base of the formats written deal by deal, as UTF-8 text."""

    takes: Takes = "deals"

    def __init__(self, stream: IO[bytes], layout: Layout, options: WriteOptions) -> None:
        self.stream = stream
        self.layout = layout
        self.options = options
        self.count = 0

    def _put(self, text: str) -> None:
        self.stream.write(text.encode("utf-8"))


class _Text(_TextOutput):
    def __init__(self, stream: IO[bytes], layout: Layout, options: WriteOptions) -> None:
        from croupier.formats.deal_text import format_deal_text

        super().__init__(stream, layout, options)
        self.format = format_deal_text
        self.total = 0.0  # (the label is a note on standard error: stdout is the deals)

    def write(self, batch: Sequence[Deal] | DealArray, tables: Any = None) -> None:
        for deal in batch:
            if self.count:
                self._put("\n")
            options = self.options
            text = self.format(
                deal, scheme=options.scheme, bits=options.bits, stock=options.show_stock
            )
            self._put(text)
            self._put("\n")
            self.total += deal.bits_used
            self.count += 1

    def close(self, bits: float) -> None:
        if self.options.bits:
            log2m = math.log2(self.layout.count) if self.layout.count > 1 else 0.0
            self._put(f"total bits used: {self.total:.2f} (log2 M = {log2m:.2f})\n")


class _Json(_TextOutput):
    """One document: the envelope's head, the deals under ``result``, then ``bits``."""

    def __init__(self, stream: IO[bytes], layout: Layout, options: WriteOptions) -> None:
        import json

        from croupier.formats.deal_json import deal_to_dict
        from croupier.formats.envelope import envelope_prefix

        super().__init__(stream, layout, options)
        self.dumps = json.dumps
        self.to_dict = deal_to_dict
        head = envelope_prefix(
            options.command,
            algorithm=options.algorithm or None,
            source=options.source or None,
            reproducible=options.reproducible,
        )
        self._put(head + "[")

    def write(self, batch: Sequence[Deal] | DealArray, tables: Any = None) -> None:
        for deal in batch:
            obj = self.to_dict(deal, self.options.scheme)
            text = self.dumps(obj, indent=2, ensure_ascii=False).replace("\n", "\n    ")
            self._put((",\n    " if self.count else "\n    ") + text)
            self.count += 1

    def close(self, bits: float) -> None:
        from croupier.formats.envelope import envelope_suffix

        self._put(("\n  ]" if self.count else "]") + envelope_suffix(round(bits, 6)))


class _Csv(_TextOutput):
    def __init__(self, stream: IO[bytes], layout: Layout, options: WriteOptions) -> None:
        from croupier.formats.deal_csv import csv_rows

        super().__init__(stream, layout, options)
        self.rows = csv_rows

    def write(self, batch: Sequence[Deal] | DealArray, tables: Any = None) -> None:
        if not self.count and len(batch):
            import csv
            import io

            from croupier.formats.deal_csv import csv_header

            out = io.StringIO()
            csv.writer(out, lineterminator="\n").writerow(csv_header(self.layout))
            self._put(out.getvalue())
        for row in self.rows(batch, self.options.scheme, first=self.count + 1):
            self._put(row)
            self.count += 1

    def close(self, bits: float) -> None:
        pass


class _Arrays:
    """The array formats, through the fast writers of :mod:`croupier.bulk.writers`."""

    takes: Takes = "arrays"

    def __init__(self, name: str, stream: IO[bytes], layout: Layout, options: WriteOptions):
        from croupier.bulk.writers import open_writer
        from croupier.version import version

        self.stream = stream
        self.options = options
        self._tables: Any = None
        game_tags = self._dd_tags if options.dd and name == "pbn" else None
        self.writer: DealWriter = open_writer(
            name,
            stream,
            layout,
            first_board=options.first_board,
            generator=f"croupier {version()}",
            event=options.event,
            comments=() if options.label is None else (options.label,),
            newline=options.newline,
            game_tags=game_tags,
            bits_used=True,
            fields={"algorithm": options.algorithm, "source": options.source},
            algorithm=options.describe,
        )

    def _dd_tags(self, batch: DealArray, first: int) -> list[list[str]]:
        """Double-dummy tables and par of every game (board cycles go on past 999)."""
        from croupier import boards
        from croupier.simulate.double_dummy import par_results, pbn_dd_tags, tricks_table

        numbers = range(first, first + len(batch))
        tables = tricks_table(batch) if self._tables is None else self._tables
        pars = par_results(
            batch,
            [boards.dealer((n - 1) % 16 + 1) for n in numbers],
            [boards.vulnerability((n - 1) % 16 + 1) for n in numbers],
            tables=tables,
        )
        return [
            pbn_dd_tags(table, par).splitlines() for table, par in zip(tables, pars, strict=True)
        ]

    def write(self, batch: Sequence[Deal] | DealArray, tables: Any = None) -> None:
        from croupier.bulk import DealArray

        assert isinstance(batch, DealArray)
        self._tables = tables
        self.writer.write(batch)

    def close(self, bits: float) -> None:
        self.writer.close()


_OPENERS: dict[str, Callable[[IO[bytes], Layout, WriteOptions], DealOutput]] = {
    "text": _Text,
    "json": _Json,
    "csv": _Csv,
}


def open_deal_writer(
    fmt: str, stream: IO[bytes], layout: Layout, options: WriteOptions | None = None
) -> DealOutput:
    """The writer of ``fmt`` (a key of :data:`FORMATS`) on ``stream`` for ``layout``.

    >>> import io
    >>> from croupier.dealing import make_layout
    >>> open_deal_writer("xml", io.BytesIO(), make_layout("bridge"))
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: unknown deal format 'xml'; choose one of text, pbn, ...
    """
    chosen = WriteOptions() if options is None else options
    if fmt not in FORMATS:
        raise CroupierError(f"unknown deal format {fmt!r}; choose one of {', '.join(FORMATS)}")
    what = FORMATS[fmt].bridge_only
    if what is not None and not layout.bridge_like:
        others = ", ".join(name for name, f in FORMATS.items() if f.bridge_only is None)
        raise CroupierError(
            f"{what} need four hands of 13 (N E S W); {layout.describe()} is not one; "
            f"use another fmt= ({others})"
        )
    opener = _OPENERS.get(fmt)
    if opener is not None:
        return opener(stream, layout, chosen)
    return _Arrays(fmt, stream, layout, chosen)  # a format of croupier.bulk.writers
