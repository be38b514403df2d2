"""numpy's own formats for deal arrays: ``.npy`` (the piles array) and ``.npz`` (with metadata).

A ``.npy`` file holds the ``uint8`` array of shape ``(deals, deck size)``
that :attr:`croupier.bulk.DealArray.piles` holds: ``a[i, c]`` is the index
of the pile (in ``layout.piles``) that holds card ``c`` of the layout's deck.
Its header records the row count; a streamed file gets it in one of three
ways (see :class:`NpyWriter`).

A ``.npz`` file (a zip archive, as :func:`numpy.savez` writes it) holds
``piles.npy`` (the same array) and ``meta.npy``: a 0-d string array holding
JSON that says what the columns and values mean (see :func:`npz_metadata`).
For a layout with stacks it also holds ``stacks.npy``: every stack's cards
(deck indices, ``uint8``, or ``uint16`` for decks of more than 256 cards) top
first, the stacks side by side in pile order (:meth:`DealArray.stack`).  A
``.npy`` file holds the piles array only, so it leaves the stacks' orders out.

>>> import io, json
>>> import numpy as np
>>> from croupier.dealing.layout import make_layout
>>> from croupier.bulk import DealArray
>>> from croupier.dealing.deal import deal_from_number
>>> deals = DealArray.from_deals([deal_from_number(make_layout("euchre"), k) for k in (0, 9)])
>>> out = io.BytesIO()
>>> with NpzWriter(out, deals.layout, algorithm="none", seed=None) as w:
...     w.write(deals)
>>> with np.load(io.BytesIO(out.getvalue())) as z:
...     (z["piles"] == deals.piles).all(), json.loads(str(z["meta"]))["layout"]["game"]
(np.True_, 'euchre')
"""

from __future__ import annotations

import io
import json
import shutil
import tempfile
import zipfile
from typing import IO, Any

import numpy as np

from croupier.bulk.array import DealArray
from croupier.bulk.writers.base import BaseWriter
from croupier.dealing.layout import Layout

__all__ = ["NPZ_META_VERSION", "NpyWriter", "NpzWriter", "npy_header", "npz_metadata"]

NPZ_META_VERSION = 1
"""Version of the ``meta`` JSON of a ``.npz`` file (its ``"version"`` key)."""

_COPY_BYTES = 1 << 22


def npy_header(rows: int, columns: int, descr: str = "|u1") -> bytes:
    """The ``.npy`` (version 1.0) header of a ``uint8`` (or ``descr``) array ``(rows, columns)``.

    numpy pads the header so that the row count can grow to 21 digits in
    place: headers of any two row counts have the same length.

    >>> len(npy_header(0, 52)) == len(npy_header(10**15, 52)), len(npy_header(0, 52)) % 64
    (True, 0)
    """
    buf = io.BytesIO()
    header = {"descr": descr, "fortran_order": False, "shape": (rows, columns)}
    np.lib.format.write_array_header_1_0(buf, header)
    return buf.getvalue()


def _seekable(stream: IO[bytes]) -> bool:
    try:
        return bool(stream.seekable())
    except (AttributeError, OSError, ValueError):
        return False


class NpyWriter(BaseWriter):
    """Streams deal arrays into one ``.npy`` file (``np.load`` gives the piles array).

    * a seekable ``stream`` (a file, ``BytesIO``): the header is written first
      and its row count updated after every batch, so the file is valid after
      every :meth:`write`, also when the run stops early;
    * a pipe with ``count`` given: the header says ``count`` rows up front and
      :meth:`write` and :meth:`close` refuse a different number of rows (the
      file would be invalid); ``count`` is not needed on a seekable stream;
    * a pipe without ``count``: rows are kept in a temporary file and written
      out, header first, by :meth:`close`.

    >>> import io
    >>> import numpy as np
    >>> from croupier.bulk import deal_array
    >>> out = io.BytesIO()
    >>> with NpyWriter(out, deal_array(0).layout) as w:
    ...     w.write(deal_array(3, seed="s")); w.write(deal_array(2, seed="t"))
    >>> np.load(io.BytesIO(out.getvalue())).shape
    (5, 52)
    """

    format_name = "npy"

    def __init__(self, stream: IO[bytes], layout: Layout, *, count: int | None = None) -> None:
        super().__init__(stream, layout)
        if count is not None and (
            isinstance(count, bool) or not isinstance(count, int) or count < 0
        ):
            raise self.error(f"count={count!r} must be a whole number >= 0 or None")
        self._columns = len(layout.deck)
        self._count = count
        self._spool: IO[bytes] | None = None
        self._start = 0
        self._seek = _seekable(stream)
        if self._seek:
            self._start = stream.tell()
            stream.write(npy_header(0, self._columns))
        elif count is not None:
            stream.write(npy_header(count, self._columns))
        else:
            self._spool = tempfile.TemporaryFile()  # noqa: SIM115 (open until close())

    def _write_rows(self, piles: np.ndarray[Any, np.dtype[np.uint8]]) -> None:
        if self._spool is not None:
            self._spool.write(piles.data)
            return
        announced = not self._seek and self._count is not None
        if announced and self.rows_written + len(piles) > (self._count or 0):
            raise self.error(
                f"count={self._count} rows were announced, but {self.rows_written + len(piles)} "
                "were written"
            )
        self.stream.write(piles.data)
        if self._seek:  # keep the header's row count up to date
            end = self.stream.tell()
            self.stream.seek(self._start)
            self.stream.write(npy_header(self.rows_written + len(piles), self._columns))
            self.stream.seek(end)

    def _finish(self) -> None:
        if self._spool is not None:
            self.stream.write(npy_header(self.rows_written, self._columns))
            self._spool.seek(0)
            shutil.copyfileobj(self._spool, self.stream, _COPY_BYTES)
            self._spool.close()
        elif not self._seek and self._count is not None and self.rows_written != self._count:
            raise self.error(
                f"count={self._count} rows were announced, but only {self.rows_written} were "
                "written: the .npy file is incomplete"
            )


def npz_metadata(
    layout: Layout, rows: int, *, algorithm: str | None = None, seed: str | None = None
) -> dict[str, Any]:
    """The ``meta`` JSON object of a ``.npz`` file of ``rows`` deals of ``layout``.

    Keys: ``version``; ``layout`` (``game``, ``deck`` name, ``cards``: the
    deck's card codes in column order, ``piles``: ``name``, ``size``,
    ``kind`` in value order, and ``stack: true`` for a stack); ``rows``;
    ``values`` (what a value means); for a layout with stacks ``stacks`` (the
    stacks' names, their columns of ``stacks.npy`` in order); ``algorithm``
    and ``seed`` (as given, or null).

    >>> from croupier.dealing.layout import make_layout
    >>> meta = npz_metadata(make_layout("skat"), 7, algorithm="croupier-bulk/1")
    >>> meta["layout"]["cards"][:3], meta["layout"]["piles"][-1], meta["rows"]
    (['AS', 'KS', 'QS'], {'name': 'skat', 'size': 2, 'kind': 'remainder'}, 7)
    >>> npz_metadata(make_layout("euchre"), 7)["stacks"]
    ['kitty']
    """
    piles = layout.pile_records()
    meta: dict[str, Any] = {
        "version": NPZ_META_VERSION,
        "layout": {
            "game": layout.game,
            "deck": layout.deck_name,
            "cards": [c.code for c in layout.deck],
            "piles": piles,
        },
        "rows": rows,
        "values": "piles[i, c] is the index in layout.piles of the pile holding card c of deal i",
    }
    if layout.ordered:
        meta["stacks"] = [layout.piles[i].name for i in layout.stack_piles]
        meta["stack_values"] = (
            "stacks[i] lists the deck index of every card of the stacks of deal i, "
            "top first, stack after stack in layout order"
        )
    meta["algorithm"] = algorithm
    meta["seed"] = seed
    return meta


class _WriteOnly:
    """A stream seen through ``write`` and ``flush`` only, so that ``zipfile`` streams the
    archive and counts offsets itself (right on pipes and on ``/dev/null`` alike)."""

    def __init__(self, stream: IO[bytes]) -> None:
        self._stream = stream

    def write(self, data: bytes) -> int:
        self._stream.write(data)
        return len(data)

    def flush(self) -> None:
        self._stream.flush()


class NpzWriter(BaseWriter):
    """Streams deal arrays into a ``.npz`` archive: ``piles`` and ``meta`` (see the module).

    Rows are kept in a temporary file until :meth:`close` writes the archive
    (``compress=True`` deflates it, as :func:`numpy.savez_compressed` does),
    so the archive holds every batch written before :meth:`close`.

    >>> import io
    >>> import numpy as np
    >>> from croupier.bulk import deal_array
    >>> out = io.BytesIO()
    >>> with NpzWriter(out, deal_array(0).layout, compress=True) as w:
    ...     w.write(deal_array(4, seed="s"))
    >>> np.load(io.BytesIO(out.getvalue()))["piles"].shape
    (4, 52)
    """

    format_name = "npz"

    def __init__(
        self,
        stream: IO[bytes],
        layout: Layout,
        *,
        algorithm: str | None = None,
        seed: str | None = None,
        compress: bool = False,
    ) -> None:
        super().__init__(stream, layout)
        self._algorithm = algorithm
        self._seed = seed
        self._compression = zipfile.ZIP_DEFLATED if compress else zipfile.ZIP_STORED
        self._spool: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115 (until close())
        self._stacks: IO[bytes] | None = None
        if layout.ordered:
            self._stacks = tempfile.TemporaryFile()  # noqa: SIM115 (until close())

    def _write_batch(self, batch: DealArray) -> None:
        self._write_rows(batch.piles)
        if self._stacks is not None and len(batch):
            orders = [batch.stack(p) for p in self.layout.stack_piles]
            dtype = "|u1" if len(self.layout.deck) <= 256 else "<u2"
            joined = np.concatenate(orders, axis=1).astype(dtype)
            self._stacks.write(np.ascontiguousarray(joined).data)

    def _write_rows(self, piles: np.ndarray[Any, np.dtype[np.uint8]]) -> None:
        self._spool.write(piles.data)

    def _finish(self) -> None:
        meta = npz_metadata(
            self.layout, self.rows_written, algorithm=self._algorithm, seed=self._seed
        )
        meta_array = np.array(json.dumps(meta, ensure_ascii=False))
        sink: Any = _WriteOnly(self.stream)
        with zipfile.ZipFile(sink, "w", self._compression, allowZip64=True) as archive:
            with archive.open("piles.npy", "w", force_zip64=True) as member:
                member.write(npy_header(self.rows_written, len(self.layout.deck)))
                self._spool.seek(0)
                shutil.copyfileobj(self._spool, member, _COPY_BYTES)
            if self._stacks is not None:
                with archive.open("stacks.npy", "w", force_zip64=True) as member:
                    width = sum(self.layout.piles[i].size for i in self.layout.stack_piles)
                    descr = "|u1" if len(self.layout.deck) <= 256 else "<u2"
                    member.write(npy_header(self.rows_written, width, descr))
                    self._stacks.seek(0)
                    shutil.copyfileobj(self._stacks, member, _COPY_BYTES)
                self._stacks.close()
            with archive.open("meta.npy", "w") as member:
                np.lib.format.write_array(member, meta_array, allow_pickle=False)
        self._spool.close()
