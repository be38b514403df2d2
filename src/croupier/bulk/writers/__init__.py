"""Fast writers of deal arrays: one-line, PBN, LIN, JSON lines, ``.npy`` and ``.npz``.

Every writer takes :class:`~croupier.bulk.DealArray` batches of one layout
and writes them to a binary stream with numpy (no Python work per card or
per deal): ``write(batch)`` as often as needed, then ``close()``.  Each batch
is written whole, so the output is a valid file after every batch.  Pick a
writer by name with :func:`open_writer`, or write one array with a
``write_*`` function.  See docs/file-formats.md ("Bulk output formats").

>>> import io
>>> from croupier.bulk import deal_array
>>> from croupier.bulk.writers import open_writer
>>> out = io.BytesIO()
>>> writer = open_writer("oneline", out, deal_array(0).layout)
>>> for batch in (deal_array(2, seed="a"), deal_array(3, seed="b")):
...     writer.write(batch)
>>> writer.close()
>>> writer.rows_written, len(out.getvalue().splitlines())
(5, 5)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from croupier.lazy_names import LazyNames

if TYPE_CHECKING:
    from croupier.bulk.writers.base import BaseWriter, BulkWriterError, DealWriter
    from croupier.bulk.writers.binary import NpyWriter, NpzWriter, npy_header, npz_metadata
    from croupier.bulk.writers.formats import (
        BULK_FORMATS,
        JsonlWriter,
        LinWriter,
        OnelineWriter,
        PbnDealWriter,
        PbnWriter,
        UnknownBulkFormatError,
        open_writer,
        write_jsonl,
        write_lin,
        write_npy,
        write_npz,
        write_oneline,
        write_pbn,
        write_pbn_deals,
    )
    from croupier.bulk.writers.text import (
        jsonl_bytes,
        lin_bytes,
        oneline_bytes,
        parse_oneline,
        pbn_deal_bytes,
        pbn_game_bytes,
        pbn_header_bytes,
    )

# Each name is imported from its module on first use: croupier dealer prints with
# :mod:`croupier.bulk.writers.rows` alone, without the file formats.
_HOMES = {
    "BaseWriter": "base",
    "BulkWriterError": "base",
    "DealWriter": "base",
    "NpyWriter": "binary",
    "NpzWriter": "binary",
    "npy_header": "binary",
    "npz_metadata": "binary",
    "BULK_FORMATS": "formats",
    "JsonlWriter": "formats",
    "LinWriter": "formats",
    "OnelineWriter": "formats",
    "PbnDealWriter": "formats",
    "PbnWriter": "formats",
    "UnknownBulkFormatError": "formats",
    "open_writer": "formats",
    "write_jsonl": "formats",
    "write_lin": "formats",
    "write_npy": "formats",
    "write_npz": "formats",
    "write_oneline": "formats",
    "write_pbn": "formats",
    "write_pbn_deals": "formats",
    "jsonl_bytes": "text",
    "lin_bytes": "text",
    "oneline_bytes": "text",
    "parse_oneline": "text",
    "pbn_deal_bytes": "text",
    "pbn_game_bytes": "text",
    "pbn_header_bytes": "text",
}


_LAZY = LazyNames(globals(), _HOMES)


def __getattr__(name: str) -> Any:
    return _LAZY.get(name)


def __dir__() -> list[str]:
    return _LAZY.listing()


__all__ = [
    "BULK_FORMATS",
    "BaseWriter",
    "BulkWriterError",
    "DealWriter",
    "JsonlWriter",
    "LinWriter",
    "NpyWriter",
    "NpzWriter",
    "OnelineWriter",
    "PbnDealWriter",
    "PbnWriter",
    "UnknownBulkFormatError",
    "jsonl_bytes",
    "lin_bytes",
    "npy_header",
    "npz_metadata",
    "oneline_bytes",
    "open_writer",
    "parse_oneline",
    "pbn_deal_bytes",
    "pbn_game_bytes",
    "pbn_header_bytes",
    "write_jsonl",
    "write_lin",
    "write_npy",
    "write_npz",
    "write_oneline",
    "write_pbn",
    "write_pbn_deals",
]
