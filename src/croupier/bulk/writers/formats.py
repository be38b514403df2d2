"""The writer of every bulk format, by class and by name, and one-call ``write_*`` helpers.

========== ======================= =============================================
name       class                   output
========== ======================= =============================================
oneline    :class:`OnelineWriter`  dealer's ``printoneline`` lines (bridge)
pbn-deal   :class:`PbnDealWriter`  one PBN deal string per line
pbn        :class:`PbnWriter`      PBN 2.1 export file of full games (bridge)
lin        :class:`LinWriter`      BBO LIN, one board per line (bridge)
jsonl      :class:`JsonlWriter`    one JSON object per deal and line
npy        :class:`~croupier.bulk.writers.binary.NpyWriter`  the piles array
npz        :class:`~croupier.bulk.writers.binary.NpzWriter`  piles and metadata
========== ======================= =============================================

>>> import io
>>> from croupier.bulk import deal_array
>>> out = io.BytesIO()
>>> writer = open_writer("pbn", out, deal_array(0).layout, first_board=3)
>>> writer.write(deal_array(2, seed="a")); writer.write(deal_array(1, seed="b")); writer.close()
>>> [ln for ln in out.getvalue().decode().splitlines() if ln.startswith("[Board")]
['[Board "3"]', '[Board "4"]', '[Board "5"]']
>>> out.getvalue()[:21]
b'% PBN 2.1\\r\\n% EXPORT\\r\\n'

"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import IO

import numpy as np
import numpy.typing as npt

from croupier.bulk.array import DealArray
from croupier.bulk.writers.base import BaseWriter, DealWriter
from croupier.bulk.writers.binary import NpyWriter, NpzWriter
from croupier.bulk.writers.text import (
    check_first_board,
    jsonl_bytes,
    lin_bytes,
    oneline_buffer,
    pbn_deal_buffer,
    pbn_game_bytes,
    pbn_header_bytes,
    require_bridge,
)
from croupier.dealing.layout import Layout
from croupier.errors import CroupierError
from croupier.formats.pbn import pbn_escape
from croupier.formats.registry import array_formats

__all__ = [
    "BULK_FORMATS",
    "GameTags",
    "JsonlWriter",
    "LinWriter",
    "OnelineWriter",
    "PbnDealWriter",
    "PbnWriter",
    "UnknownBulkFormatError",
    "open_writer",
    "write_jsonl",
    "write_lin",
    "write_npy",
    "write_npz",
    "write_oneline",
    "write_pbn",
    "write_pbn_deals",
]

BULK_FORMATS = array_formats()
"""The names :func:`open_writer` takes: the rows of :mod:`croupier.formats.registry` with
an array writer."""


class UnknownBulkFormatError(CroupierError):
    """A bulk format name that :func:`open_writer` does not know."""


class _TextWriter(BaseWriter):
    def _render(self, batch: DealArray) -> bytes | npt.NDArray[np.uint8]:
        raise NotImplementedError

    def _write_batch(self, batch: DealArray) -> None:
        data = self._render(batch)  # the whole batch first: an interrupted one writes nothing
        self.stream.write(data if isinstance(data, bytes) else data.data)


class OnelineWriter(_TextWriter):
    """One line per deal: dealer's ``printoneline`` for bridge, ``<pile> <cards> | ...`` otherwise.

    >>> import io
    >>> from croupier.bulk import deal_array
    >>> out = io.BytesIO()
    >>> with OnelineWriter(out, deal_array(0, "holdem").layout) as w:
    ...     w.write(deal_array(1, "holdem", seed="a"))
    >>> out.getvalue().decode().split(" | ")[6][:5]
    'flop '
    """

    format_name = "oneline"

    def _render(self, batch: DealArray) -> bytes | npt.NDArray[np.uint8]:
        return oneline_buffer(batch)


class PbnDealWriter(_TextWriter):
    """One PBN deal string (``N:<N> <E> <S> <W>``) per line; bridge layouts only.

    >>> import io
    >>> from croupier.bulk import deal_array
    >>> PbnDealWriter(io.BytesIO(), deal_array(0, "euchre").layout)
    Traceback (most recent call last):
    ...
    croupier.bulk.writers.base.BulkWriterError: format 'pbn-deal' needs a bridge layout ...
    """

    format_name = "pbn-deal"

    def __init__(self, stream: IO[bytes], layout: Layout) -> None:
        require_bridge(layout, self.format_name)
        super().__init__(stream, layout)

    def _render(self, batch: DealArray) -> bytes | npt.NDArray[np.uint8]:
        return pbn_deal_buffer(batch)


GameTags = Callable[[DealArray, int], Sequence[Sequence[str]]]
"""Tags to add to each game of a batch, after the export tags: ``(batch, first board)`` ->
one list of tag lines per deal (without line ends), such as double-dummy results."""


class PbnWriter(_TextWriter):
    """A PBN 2.1 export file: the two header lines at once, then one game per deal.

    Boards are numbered from ``first_board`` on, across batches; ``Dealer``
    and ``Vulnerable`` follow the standard cycles and the ``Deal`` tag starts
    with the dealer's hand (see :func:`~croupier.bulk.writers.text.pbn_game_bytes`).
    ``comments`` are ``%`` lines after the header (a seeded run's label);
    ``newline`` is CRLF, as the export format has it, or ``"\\n"``; ``game_tags``
    adds lines of tags to every game (see :data:`GameTags`).  For
    board numbers up to 999 the file is byte for byte what
    :func:`croupier.formats.pbn.format_pbn_records` writes for the same
    boards (PBN itself has no upper limit).

    >>> import io
    >>> from croupier.bulk import deal_array
    >>> out = io.BytesIO()
    >>> with PbnWriter(out, deal_array(0).layout, comments=["made for the docs"]) as w:
    ...     pass
    >>> out.getvalue()
    b'% PBN 2.1\\r\\n% EXPORT\\r\\n% made for the docs\\r\\n'
    """

    format_name = "pbn"

    def __init__(
        self,
        stream: IO[bytes],
        layout: Layout,
        *,
        first_board: int = 1,
        generator: str = "croupier",
        event: str = "?",
        site: str = "?",
        date: str = "?",
        comments: Sequence[str] = (),
        newline: str = "\r\n",
        game_tags: GameTags | None = None,
    ) -> None:
        require_bridge(layout, self.format_name)
        self.next_board = check_first_board(first_board)
        self._game_tags = game_tags
        self._tags = {"generator": generator, "event": event, "site": site, "date": date}
        header = pbn_header_bytes(newline=newline)
        for value in (*self._tags.values(), *comments):
            pbn_escape(value)  # refuse a bad tag value or comment before anything is written
        header += b"".join(f"% {c}{newline}".encode() for c in comments)
        self._newline = newline
        super().__init__(stream, layout)
        stream.write(header)

    def _render(self, batch: DealArray) -> bytes:
        if self._game_tags is None:
            return pbn_game_bytes(batch, self.next_board, newline=self._newline, **self._tags)
        nl = self._newline.encode()
        extra = self._game_tags(batch, self.next_board)
        games = []
        for i, tags in enumerate(extra):  # game by game: each ends with an empty line
            game = pbn_game_bytes(
                batch[i : i + 1], self.next_board + i, newline=self._newline, **self._tags
            )
            lines = b"".join(line.encode() + nl for line in tags)
            games.append(game[: -len(nl)] + lines + nl)
        return b"".join(games)

    def _write_batch(self, batch: DealArray) -> None:
        super()._write_batch(batch)
        self.next_board += len(batch)


class LinWriter(_TextWriter):
    """BBO LIN, one board per line (see :func:`~croupier.bulk.writers.text.lin_bytes`).

    Boards are numbered from ``first_board`` on, across batches; LIN has no
    header and no comment lines.

    >>> import io
    >>> from croupier.bulk import deal_array
    >>> out = io.BytesIO()
    >>> with LinWriter(out, deal_array(0).layout, first_board=16) as w:
    ...     w.write(deal_array(1, seed="a")); w.write(deal_array(1, seed="b"))
    >>> [line[-18:] for line in out.getvalue().decode().splitlines()]
    ['Board 16|sv|e|pg||', 'Board 17|sv|o|pg||']
    """

    format_name = "lin"

    def __init__(self, stream: IO[bytes], layout: Layout, *, first_board: int = 1) -> None:
        require_bridge(layout, self.format_name)
        self.next_board = check_first_board(first_board)
        super().__init__(stream, layout)

    def _render(self, batch: DealArray) -> bytes:
        return lin_bytes(batch, self.next_board)

    def _write_batch(self, batch: DealArray) -> None:
        super()._write_batch(batch)
        self.next_board += len(batch)


class JsonlWriter(_TextWriter):
    """One JSON object per deal and line (see :func:`~croupier.bulk.writers.text.jsonl_bytes`).

    ``bits_used=True`` adds each row's random bits (when the batches carry
    them); ``fields`` adds constant keys, such as ``{"algorithm": ..., "source": ...}``.

    >>> import io, json
    >>> from croupier.bulk import deal_array
    >>> out = io.BytesIO()
    >>> with JsonlWriter(out, deal_array(0).layout, bits_used=True) as w:
    ...     w.write(deal_array(2, seed="a"))
    >>> [sorted(json.loads(line))[:3] for line in out.getvalue().splitlines()][0]
    ['bits_used', 'deal', 'game']
    """

    format_name = "jsonl"

    def __init__(
        self,
        stream: IO[bytes],
        layout: Layout,
        *,
        bits_used: bool = False,
        fields: Mapping[str, str | int] | None = None,
    ) -> None:
        super().__init__(stream, layout)
        self._bits_used = bits_used
        self._fields = dict(fields or {})

    def _render(self, batch: DealArray) -> bytes:
        return jsonl_bytes(batch, bits_used=self._bits_used, fields=self._fields)


def open_writer(
    fmt: str,
    stream: IO[bytes],
    layout: Layout,
    *,
    first_board: int = 1,
    generator: str = "croupier",
    event: str = "?",
    comments: Sequence[str] = (),
    newline: str = "\r\n",
    game_tags: GameTags | None = None,
    bits_used: bool = False,
    fields: Mapping[str, str | int] | None = None,
    count: int | None = None,
    algorithm: str | None = None,
    seed: str | None = None,
    compress: bool = False,
) -> DealWriter:
    """The writer of format ``fmt`` (one of :data:`BULK_FORMATS`) on ``stream`` for ``layout``.

    Options go to the formats that use them: ``first_board`` to ``pbn`` and
    ``lin``; ``generator``, ``event``, ``comments``, ``newline`` and ``game_tags``
    to ``pbn``;
    ``bits_used`` and ``fields`` to ``jsonl``; ``count`` to ``npy``;
    ``algorithm``, ``seed`` and ``compress`` to ``npz``.

    >>> import io
    >>> from croupier.bulk import deal_array
    >>> open_writer("csv", io.BytesIO(), deal_array(0).layout)
    Traceback (most recent call last):
    ...
    croupier.bulk.writers.formats.UnknownBulkFormatError: unknown bulk format 'csv'; ...
    """
    if fmt == "oneline":
        return OnelineWriter(stream, layout)
    if fmt == "pbn-deal":
        return PbnDealWriter(stream, layout)
    if fmt == "pbn":
        return PbnWriter(
            stream,
            layout,
            first_board=first_board,
            generator=generator,
            event=event,
            comments=comments,
            newline=newline,
            game_tags=game_tags,
        )
    if fmt == "lin":
        return LinWriter(stream, layout, first_board=first_board)
    if fmt == "jsonl":
        return JsonlWriter(stream, layout, bits_used=bits_used, fields=fields)
    if fmt == "npy":
        return NpyWriter(stream, layout, count=count)
    if fmt == "npz":
        return NpzWriter(stream, layout, algorithm=algorithm, seed=seed, compress=compress)
    raise UnknownBulkFormatError(
        f"unknown bulk format {fmt!r}; expected one of {', '.join(BULK_FORMATS)}"
    )


def write_oneline(deals: DealArray, stream: IO[bytes]) -> None:
    """Write ``deals`` to ``stream`` in the ``oneline`` format (see :class:`OnelineWriter`).

    >>> import io
    >>> from croupier.bulk import deal_array
    >>> out = io.BytesIO(); write_oneline(deal_array(2, seed="a"), out)
    >>> len(out.getvalue())
    154
    """
    with OnelineWriter(stream, deals.layout) as w:
        w.write(deals)


def write_pbn_deals(deals: DealArray, stream: IO[bytes]) -> None:
    """Write ``deals`` as PBN deal strings, one per line (see :class:`PbnDealWriter`).

    >>> import io
    >>> from croupier.bulk import deal_array
    >>> out = io.BytesIO(); write_pbn_deals(deal_array(2, seed="a"), out)
    >>> len(out.getvalue())
    140
    """
    with PbnDealWriter(stream, deals.layout) as w:
        w.write(deals)


def write_pbn(
    deals: DealArray, stream: IO[bytes], *, first_board: int = 1, generator: str = "croupier"
) -> None:
    """Write ``deals`` as a PBN 2.1 file of games from board ``first_board`` (:class:`PbnWriter`).

    >>> import io
    >>> from croupier.bulk import deal_array
    >>> out = io.BytesIO(); write_pbn(deal_array(16, seed="a"), out)
    >>> out.getvalue().count(b'[Vulnerable "All"]')
    4
    """
    with PbnWriter(stream, deals.layout, first_board=first_board, generator=generator) as w:
        w.write(deals)


def write_lin(deals: DealArray, stream: IO[bytes], *, first_board: int = 1) -> None:
    """Write ``deals`` as BBO LIN boards from board ``first_board`` (:class:`LinWriter`).

    >>> import io
    >>> from croupier.bulk import deal_array
    >>> out = io.BytesIO(); write_lin(deal_array(16, seed="a"), out)
    >>> out.getvalue().count(b"|sv|b|")
    4
    """
    with LinWriter(stream, deals.layout, first_board=first_board) as w:
        w.write(deals)


def write_jsonl(
    deals: DealArray,
    stream: IO[bytes],
    *,
    bits_used: bool = False,
    fields: Mapping[str, str | int] | None = None,
) -> None:
    """Write ``deals`` as JSON lines (see :class:`JsonlWriter`).

    >>> import io
    >>> from croupier.bulk import deal_array
    >>> out = io.BytesIO(); write_jsonl(deal_array(3, "euchre", seed="a"), out)
    >>> out.getvalue().count(b'{"game": "euchre"')
    3
    """
    with JsonlWriter(stream, deals.layout, bits_used=bits_used, fields=fields) as w:
        w.write(deals)


def write_npy(deals: DealArray, stream: IO[bytes]) -> None:
    """Write the piles array of ``deals`` as one ``.npy`` file (see :class:`NpyWriter`).

    >>> import io
    >>> import numpy as np
    >>> from croupier.bulk import deal_array
    >>> deals = deal_array(3, seed="a")
    >>> out = io.BytesIO(); write_npy(deals, out)
    >>> np.array_equal(np.load(io.BytesIO(out.getvalue())), deals.piles)
    True
    """
    with NpyWriter(stream, deals.layout, count=len(deals)) as w:
        w.write(deals)


def write_npz(
    deals: DealArray,
    stream: IO[bytes],
    *,
    algorithm: str | None = None,
    seed: str | None = None,
    compress: bool = False,
) -> None:
    """Write ``deals`` as a ``.npz`` archive of ``piles`` and ``meta`` (see :class:`NpzWriter`).

    >>> import io
    >>> import numpy as np
    >>> from croupier.bulk import deal_array
    >>> out = io.BytesIO(); write_npz(deal_array(3, seed="a"), out, seed="a")
    >>> sorted(np.load(io.BytesIO(out.getvalue())).files)
    ['meta', 'piles']
    """
    with NpzWriter(stream, deals.layout, algorithm=algorithm, seed=seed, compress=compress) as w:
        w.write(deals)
