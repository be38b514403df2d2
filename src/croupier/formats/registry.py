"""Every format croupier reads or writes: one row each.

A row says what the format is called, its file extensions, the codec that
reads and writes it as a board file (:class:`~croupier.formats.codec.BoardFileCodec`,
in the format's own module), what a deal run writes in it (:class:`RunFormat`:
deals or deal arrays, binary or text, numbered boards, bridge only), and whether
the bulk engine has an array writer for it and writes it in chunk files.
``croupier deal``, ``croupier convert``, ``croupier handrecord``, the bulk
writers, the tournament workflow and the docs' tables (tests/test_format_registry.py)
all read this table.

=============  ==========  ==========  =====  ======  ======
format         extensions  board file  run    arrays  chunks
=============  ==========  ==========  =====  ======  ======
``text``       ``.txt``                deals
``pbn``        ``.pbn``    read/write  array  yes
``pbn-deal``   ``.txt``                array  yes     yes
``lin``        ``.lin``    read/write  array  yes
``dup``        ``.dup``    read/write
``dlm``        ``.dlm``    read/write
``csv``        ``.csv``    read/write  deals
``json``       ``.json``   read/write  deals
``jsonl``      ``.jsonl``              array  yes     yes
``lines``      ``.txt``    read/write
``oneline``    ``.txt``                array  yes     yes
``html``       ``.html``   write
``npy``        ``.npy``                array  yes     yes
``npz``        ``.npz``                array  yes
=============  ==========  ==========  =====  ======  ======

>>> board_file_formats(readable=True)
('pbn', 'lin', 'dup', 'dlm', 'csv', 'json', 'lines')
>>> FORMATS["pbn"].extensions, FORMATS["pbn"].run.boards
(('.pbn',), True)
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Literal

from croupier.errors import FileFormatError
from croupier.frozen import frozen_dataclass

if TYPE_CHECKING:
    from croupier.formats.codec import BoardFileCodec

__all__ = [
    "FORMATS",
    "Format",
    "RunFormat",
    "array_formats",
    "board_codec",
    "board_file_formats",
    "chunk_formats",
    "run_formats",
]

Takes = Literal["deals", "arrays"]


@frozen_dataclass
class RunFormat:
    """What a deal run writes in a format: ``deals`` one by one or deal ``arrays``; ``binary``
    output (to a file only), numbered ``boards`` (``--first-board``, up to 999), and what it
    holds when only bridge deals fit (``bridge_only``)."""

    takes: Takes
    binary: bool = False
    boards: bool = False
    bridge_only: str | None = None


@frozen_dataclass
class Format:
    """One format: its name, what it is, its extensions (the first is the one written) and
    what reads and writes it."""

    name: str
    summary: str
    extensions: tuple[str, ...]
    codec: str | None = None  # the module whose BOARD_FILE reads and writes it as board files
    run: RunFormat | None = None
    arrays: bool = False  # the bulk engine has an array writer (croupier.bulk.writers)
    chunks: bool = False  # written in chunk files (croupier.bulk.chunk_files)


def _row(name: str, summary: str, *extensions: str, **what: object) -> tuple[str, Format]:
    return name, Format(name, summary, extensions, **what)  # type: ignore[arg-type]


FORMATS: dict[str, Format] = dict(
    [
        _row("text", "compass diagrams or a line per pile", ".txt", run=RunFormat("deals")),
        _row("pbn", "PBN 2.1 export games", ".pbn", codec="croupier.formats.pbn",
             run=RunFormat("arrays", boards=True, bridge_only="PBN games"), arrays=True),
        _row("pbn-deal", "one PBN deal string a line", ".txt",
             run=RunFormat("arrays", bridge_only="PBN deals"), arrays=True, chunks=True),
        _row("lin", "BBO LIN boards", ".lin", codec="croupier.formats.lin",
             run=RunFormat("arrays", boards=True, bridge_only="LIN boards"), arrays=True),
        _row("dup", "Duplimate boards (binary)", ".dup", codec="croupier.formats.dup"),
        _row("dlm", "Duplimate for Windows boards", ".dlm", codec="croupier.formats.dlm"),
        _row("csv", "a row per deal or board", ".csv", codec="croupier.formats.board_csv:CSV",
             run=RunFormat("deals")),
        _row("json", "one JSON document (docs/json.md)", ".json",
             codec="croupier.formats.board_json", run=RunFormat("deals")),
        _row("jsonl", "one JSON object per line", ".jsonl", run=RunFormat("arrays"),
             arrays=True, chunks=True),
        _row("lines", "one deal per line (Big Deal's allpbn)", ".txt",
             codec="croupier.formats.board_csv:LINES"),
        _row("oneline", "dealer's one-line format", ".txt", run=RunFormat("arrays"),
             arrays=True, chunks=True),
        _row("html", "a hand record to print (write only)", ".html", ".htm",
             codec="croupier.formats.hand_record_html"),
        _row("npy", "a numpy array", ".npy", run=RunFormat("arrays", binary=True), arrays=True,
             chunks=True),
        _row("npz", "numpy arrays with metadata", ".npz", run=RunFormat("arrays", binary=True),
             arrays=True),
    ]
)  # fmt: skip
"""Every format, by name, in the order lists of them are shown."""


def board_file_formats(*, readable: bool = False) -> tuple[str, ...]:
    """The board-file formats (with a codec), or only those that can be read."""
    return tuple(
        name
        for name, f in FORMATS.items()
        if f.codec is not None and (not readable or board_codec(name).reads)
    )


def run_formats() -> tuple[str, ...]:
    """The formats a deal run writes (``croupier deal --format``)."""
    return tuple(name for name, f in FORMATS.items() if f.run is not None)


def array_formats() -> tuple[str, ...]:
    """The formats the bulk engine writes from deal arrays (``croupier.bulk.writers``)."""
    return tuple(name for name, f in FORMATS.items() if f.arrays)


def chunk_formats() -> tuple[str, ...]:
    """The formats written in chunk files (``croupier deal --out-dir``)."""
    return tuple(name for name, f in FORMATS.items() if f.chunks)


def board_codec(name: str) -> BoardFileCodec:
    """The codec of board-file format ``name`` (its module imported on first use).

    >>> board_codec("dup").binary
    True
    >>> board_codec("npy")
    Traceback (most recent call last):
    ...
    croupier.errors.FileFormatError: npy is not a board-file format; expected one of pbn, \
lin, dup, dlm, csv, json, lines, html
    """
    row = FORMATS.get(name)
    if row is None or row.codec is None:
        raise FileFormatError(
            f"{name} is not a board-file format; expected one of {', '.join(board_file_formats())}"
        )
    module, _, attribute = row.codec.partition(":")
    codec: BoardFileCodec = getattr(importlib.import_module(module), attribute or "BOARD_FILE")
    return codec
