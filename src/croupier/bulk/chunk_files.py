"""Bulk dealing into a folder of chunk files on a Dask cluster, with a manifest.

Chunk ``c`` of a run of ``count`` deals is deals ``c * C`` to
``(c + 1) * C - 1`` of ``croupier-bulk/1`` (``/2`` with stacks; ``C`` the chunk size), written by
one worker to its own file ``chunk-00000c.EXT``, atomically (a temporary file,
synced, then renamed).  The files in order hold exactly what one process
writes for the same seed and format: for the text formats (``oneline``,
``pbn-deal``, ``jsonl``) their concatenation is that output byte for byte
(chunk 0 starts with the seeded label line); for ``npy`` each file is an
array and their concatenation is that array.

``manifest.json`` is written last, when every chunk is in place: the
algorithm, the source and a fingerprint of the seeded stream (never the
seed), the layout, the format, the count and chunk size, and every file in
order with its rows, size and SHA-256.  While a run goes on, a journal
(``.croupier-chunks.jsonl``) records each finished chunk.  A run stopped
part way (Ctrl-C, a crash) is **resumed** by running the same command into
the same folder: chunks in the journal whose size and SHA-256 check out are
kept, the others dealt again.  A folder holding another run's files is
refused unless ``overwrite=True``, which removes them (and only them) first.

>>> file_name(3, "oneline"), file_name(12, "npy")
('chunk-000003.txt', 'chunk-000012.npy')
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Final

import numpy as np

from croupier._core.engines import Engine
from croupier.algorithm_ids import CHUNKS
from croupier.bounded_read import read_limited
from croupier.bulk.array import bulk_algorithm
from croupier.bulk.generate import DEFAULT_BATCH, BulkDealer
from croupier.bulk.writers import open_writer
from croupier.cluster import chunk_count, in_order, task_slots
from croupier.dealing.layout import Layout
from croupier.errors import CroupierError
from croupier.files import AtomicFile, os_error_words, shown_path
from croupier.formats.registry import FORMATS, chunk_formats
from croupier.randomness.bulk_stream import BulkStream
from croupier.randomness.source import SourceKind

__all__ = [
    "CHUNK_FORMATS",
    "DEFAULT_FILE_CHUNK",
    "JOURNAL_NAME",
    "MANIFEST_NAME",
    "MANIFEST_VERSION",
    "ChunkFileError",
    "ChunkRecord",
    "FileJob",
    "deal_to_files",
    "file_name",
    "write_chunk",
]

CHUNK_FORMATS: Final = chunk_formats()
"""The formats written one file per chunk."""

DEFAULT_FILE_CHUNK: Final = 1 << 20
"""Deals per chunk file by default (about 70 MB of ``oneline``, a second or two of work)."""

MANIFEST_NAME: Final = "manifest.json"
JOURNAL_NAME: Final = ".croupier-chunks.jsonl"
MANIFEST_VERSION: Final = CHUNKS
"""The version of the manifest's layout (its ``"manifest"`` key)."""

_EXTENSIONS = {name: FORMATS[name].extensions[0].lstrip(".") for name in CHUNK_FORMATS}
_HASH_BLOCK = 1 << 20


class ChunkFileError(CroupierError):
    """A chunked run that cannot go on (a folder of another run, a bad format or size)."""


def file_name(index: int, fmt: str) -> str:
    """The name of chunk ``index``'s file in format ``fmt``."""
    return f"chunk-{index:06d}.{_EXTENSIONS[fmt]}"


@dataclass(frozen=True)
class FileJob:
    """One run: where, what layout and format, the seed (``None``: OS CSPRNG), sizes.

    ``label`` is the line the text formats start with (a seeded run's label;
    ``pbn-deal`` writes it as a ``%`` comment), in chunk 0 only.

    >>> from croupier.dealing.layout import make_layout
    >>> job = FileJob("out", make_layout("bridge"), "oneline", "s", count=10, chunk=4)
    >>> job.chunks, job.identity()["stream"] == job.identity()["stream"]
    (3, True)
    """

    directory: str
    layout: Layout
    fmt: str
    seed: str | bytes | None
    count: int
    chunk: int = DEFAULT_FILE_CHUNK
    label: str | None = None
    engine: Engine = "auto"
    fields: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.fmt not in CHUNK_FORMATS:
            raise ChunkFileError(
                f"fmt={self.fmt!r} cannot be written in chunk files; use one of "
                f"{', '.join(CHUNK_FORMATS)}"
            )
        for name in ("count", "chunk"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ChunkFileError(f"{name}={value!r} must be a whole number of at least 1")

    @property
    def chunks(self) -> int:
        """The number of chunk files."""
        return chunk_count(self.count, self.chunk)

    def rows(self, index: int) -> tuple[int, int]:
        """Chunk ``index``'s deals: ``(first, stop)``."""
        return index * self.chunk, min(self.count, (index + 1) * self.chunk)

    def identity(self) -> dict[str, Any]:
        """What two runs must share for one to resume the other (the manifest's head)."""
        stream = None
        if self.seed is not None:  # names the stream without giving the seed or its deals
            stream = BulkStream.seeded(self.seed).derive("manifest").main(0, 16).hex()
        return {
            "manifest": MANIFEST_VERSION,
            "algorithm": bulk_algorithm(self.layout),
            "source": SourceKind.SEEDED if self.seed is not None else SourceKind.OS_CSPRNG,
            "stream": stream,
            "game": self.layout.game,
            "piles": self.layout.pile_records(),
            "format": self.fmt,
            "count": self.count,
            "chunk": self.chunk,
            "label": self.label,
        }


@dataclass(frozen=True)
class ChunkRecord:
    """One written chunk: its index, file name, rows ``[first, stop)``, bytes, SHA-256 and
    the random bits its deals used.

    >>> ChunkRecord(0, "chunk-000000.txt", 0, 10, 770, "ab" * 32, 1202).stop
    10
    """

    index: int
    name: str
    first: int
    stop: int
    bytes: int
    sha256: str
    bits: int


def _digest(stream: Any) -> tuple[int, str]:
    stream.seek(0)
    digest = hashlib.sha256()
    size = 0
    while block := stream.read(_HASH_BLOCK):
        digest.update(block)
        size += len(block)
    return size, digest.hexdigest()


def write_chunk(job: FileJob, index: int) -> ChunkRecord:
    """The task of one chunk: deal its rows and write its file atomically (replacing one).

    >>> import tempfile
    >>> from croupier.dealing.layout import make_layout
    >>> job = FileJob(tempfile.mkdtemp(), make_layout("bridge"), "oneline", "d", count=5, chunk=3)
    >>> record = write_chunk(job, 1)
    >>> (record.first, record.stop), (Path(job.directory) / record.name).read_bytes().count(b"\\n")
    ((3, 5), 2)
    """
    first, stop = job.rows(index)
    dealer = BulkDealer(job.layout, seed=job.seed, engine=job.engine)
    name = file_name(index, job.fmt)
    out = AtomicFile(Path(job.directory) / name, overwrite=True)
    try:
        stream = out.file
        writer = open_writer(job.fmt, stream, job.layout, bits_used=True, fields=job.fields)
        if index == 0 and job.label is not None and job.fmt in ("oneline", "pbn-deal"):
            comment = "% " if job.fmt == "pbn-deal" else ""
            stream.write(f"{comment}{job.label}\n".encode())
        bits = 0
        for lo in range(first, stop, DEFAULT_BATCH):
            deals = dealer.rows(lo, min(stop, lo + DEFAULT_BATCH))
            writer.write(deals)
            bits += 0 if deals.bits is None else int(deals.bits.sum(dtype=np.uint64))
        writer.close()
        stream.flush()
        size, sha = _digest(stream)
        out.commit()
    finally:
        if not out.done:
            out.discard()
    return ChunkRecord(index, name, first, stop, size, sha, bits)


def _file_ok(folder: Path, record: ChunkRecord) -> bool:
    path = folder / record.name
    try:
        if path.stat().st_size != record.bytes:
            return False
        with path.open("rb") as stream:
            return _digest(stream) == (record.bytes, record.sha256)
    except OSError:
        return False


def _index_limit(job: FileJob) -> int:
    """The most bytes the journal or manifest of ``job`` can hold (a line of about 150
    bytes a chunk): anything larger was not written for this run."""
    return (1 << 20) + 1024 * job.chunks


def _index_text(path: Path, limit: int) -> str | None:
    """The text of a journal or manifest, or ``None`` when it is larger than ``limit``
    bytes or not text (not one this run wrote); read up to one byte past the limit."""
    data = read_limited(path, limit)
    if len(data) > limit:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _chunk_record(item: object) -> ChunkRecord | None:
    """A journal or manifest entry as a record, or ``None`` when it is not one."""
    if not isinstance(item, dict):
        return None
    try:
        record = ChunkRecord(**item)
    except TypeError:
        return None
    numbers = (record.index, record.first, record.stop, record.bytes, record.bits)
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in numbers):
        return None
    if not isinstance(record.name, str) or not isinstance(record.sha256, str):
        return None
    return record


def _read_journal(path: Path, limit: int) -> tuple[dict[str, Any] | None, list[ChunkRecord]]:
    """The journal's head and records (a torn or foreign line is ignored); a head of
    ``{}`` (another run's) when the journal is no journal of this run."""
    text = _index_text(path, limit)
    if text is None:
        return {}, []
    head: dict[str, Any] | None = None
    records = []
    for number, line in enumerate(text.splitlines()):
        try:
            item = json.loads(line)
        except (json.JSONDecodeError, RecursionError):
            continue
        if number == 0:
            head = item if isinstance(item, dict) else {}
        elif (record := _chunk_record(item)) is not None:
            records.append(record)
    return head, records


def _read_manifest(path: Path, limit: int) -> tuple[dict[str, Any], list[ChunkRecord]]:
    """The manifest's head and records; a head of ``{}`` (another run's) when the file is
    no manifest of this run (too large, not JSON, damaged)."""
    text = _index_text(path, limit)
    try:
        document = json.loads(text) if text is not None else None
    except (json.JSONDecodeError, RecursionError):
        document = None
    if not isinstance(document, dict) or not isinstance(document.get("files"), list):
        return {}, []
    records = [_chunk_record(r) for r in document["files"]]
    if any(r is None for r in records):
        return {}, []
    return document, [r for r in records if r is not None]


def _ours(folder: Path) -> list[Path]:
    return [
        p
        for p in folder.iterdir()
        if p.name in (MANIFEST_NAME, JOURNAL_NAME)
        or (p.name.startswith("chunk-") and p.suffix[1:] in _EXTENSIONS.values())
    ]


def _prepare(job: FileJob, overwrite: bool) -> dict[int, ChunkRecord]:
    """Make the folder ready; return the chunks already written and verified."""
    folder = Path(job.directory)
    if folder.exists() and not folder.is_dir():
        raise ChunkFileError(
            f"{shown_path(job.directory)} is a file; chunked output goes into a folder"
        )
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ChunkFileError(
            f"cannot create the folder {shown_path(job.directory)}: {os_error_words(exc)}"
        ) from None
    identity = job.identity()
    journal, manifest = folder / JOURNAL_NAME, folder / MANIFEST_NAME
    records: list[ChunkRecord] = []
    head: dict[str, Any] | None = None
    limit = _index_limit(job)
    if manifest.exists():
        document, records = _read_manifest(manifest, limit)
        head = {k: document.get(k) for k in identity} if document else {}
    elif journal.exists():
        head, records = _read_journal(journal, limit)
    elif _ours(folder):
        head = {}
    if head is not None and head != identity:
        if not overwrite:
            raise ChunkFileError(
                f"{shown_path(job.directory)} holds the chunk files of another run (other seed, "
                "count, chunk size, layout or format); give overwrite=True to replace them, or "
                "another folder"
            )
        for path in _ours(folder):
            path.unlink()
        records = []
    kept = {r.index: r for r in records if _file_ok(folder, r)}
    if not journal.exists() or head != identity:
        _append(journal, identity, fresh=True)
        for record in kept.values():
            _append(journal, asdict(record))
    return kept


def _append(path: Path, item: dict[str, Any], *, fresh: bool = False) -> None:
    with path.open("w" if fresh else "a", encoding="utf-8") as stream:
        stream.write(json.dumps(item) + "\n")
        stream.flush()
        os.fsync(stream.fileno())


def deal_to_files(
    job: FileJob,
    client: Any,
    *,
    overwrite: bool = False,
    progress: Callable[[int], object] | None = None,
    stop: Callable[[], bool] | None = None,
) -> dict[str, Any] | None:
    """Write ``job``'s chunk files on the cluster of ``client``, then its manifest.

    Chunks already in place (a resumed run) are kept; ``progress(deals)`` is
    called as chunks finish; ``stop()`` returning true ends the run after the
    chunk being read (the journal keeps what was done).  Returns the manifest
    (``None`` when stopped early).

    >>> import tempfile
    >>> from croupier.cluster import InlineClient
    >>> from croupier.dealing.layout import make_layout
    >>> folder = tempfile.mkdtemp()
    >>> job = FileJob(folder, make_layout("bridge"), "pbn-deal", "m", count=10, chunk=4)
    >>> manifest = deal_to_files(job, InlineClient())
    >>> [(f["name"], f["first"], f["stop"]) for f in manifest["files"]]
    [('chunk-000000.txt', 0, 4), ('chunk-000001.txt', 4, 8), ('chunk-000002.txt', 8, 10)]
    """
    done = _prepare(job, overwrite)
    folder = Path(job.directory)
    journal = folder / JOURNAL_NAME
    if progress is not None and done:
        progress(sum(r.stop - r.first for r in done.values()))
    todo = [c for c in range(job.chunks) if c not in done]
    token = os.urandom(8).hex()  # this run's tasks: never those of a run stopped before
    window = max(4, 2 * task_slots(client))
    tasks: Iterator[tuple[Any, ...]] = ((job, c) for c in todo)
    for record in in_order(
        client,
        write_chunk,
        tasks,
        key=lambda i: f"croupier-file-{token}-{todo[i]}",
        window=window,
    ):
        done[record.index] = record
        _append(journal, asdict(record))
        if progress is not None:
            progress(record.stop - record.first)
        if stop is not None and stop():
            return None
    files = [asdict(done[c]) for c in range(job.chunks)]
    manifest = {
        **job.identity(),
        "bytes": sum(f["bytes"] for f in files),
        "bits": sum(f["bits"] for f in files),
        "files": files,
    }
    out = AtomicFile(folder / MANIFEST_NAME, overwrite=True)
    with out:
        out.write((json.dumps(manifest, indent=2) + "\n").encode())
    journal.unlink(missing_ok=True)
    return manifest
