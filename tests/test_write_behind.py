"""Writes made behind the out-of-core shuffle: order, bounded memory, failures, and the
compiled bucket writes (croupier.scale.write_behind, croupier.scale.buckets.BucketWriter)."""

from __future__ import annotations

import errno
import io
import threading
from pathlib import Path

import numpy as np
import pytest

from croupier._core import record_kernels
from croupier.files import FileWriteError
from croupier.scale.buckets import BucketWriter, TempBucket
from croupier.scale.file_shuffle import shuffle_stream
from croupier.scale.write_behind import WriteBehind
from tests.conftest import small_tmpfs


def test_writes_are_made_in_order_and_all_before_close_returns() -> None:
    parts: list[bytes] = []
    pieces = [bytes([i % 256]) * (i % 7 + 1) for i in range(500)]
    behind = WriteBehind(limit=16)
    for piece in pieces:
        behind.put(parts.append, piece)
    behind.close()
    assert parts == pieces


def test_at_most_the_limit_waits() -> None:
    """A slow writer: the bytes put and not yet written never pass the limit (plus the one
    piece being written)."""
    limit = 100
    written = 0
    put = 0
    most = 0
    lock = threading.Lock()
    gate = threading.Event()

    def slow(data: bytes) -> None:
        nonlocal written, most
        gate.wait(0.001)
        with lock:
            most = max(most, put - written)
            written += len(data)

    with WriteBehind(limit=limit) as behind:
        for i in range(300):
            piece = b"x" * (i % 40 + 1)
            behind.put(slow, piece)
            with lock:
                put += len(piece)
    assert written == put
    assert most <= limit + 40


def test_a_failed_write_is_raised_in_the_caller_and_nothing_after_it_is_written() -> None:
    parts: list[bytes] = []

    def write(data: bytes) -> None:
        if data == b"bad":
            raise OSError(errno.ENOSPC, "No space left on device")
        parts.append(data)

    behind = WriteBehind(limit=1 << 20)
    behind.put(write, b"one")
    behind.put(write, b"bad")
    with pytest.raises(OSError, match="No space left"):
        for _ in range(10_000):  # raised at a put once the helper has failed ...
            behind.put(write, b"later")
        behind.close()  # ... or at the latest here
    assert parts == [b"one"]
    behind.abandon()
    assert parts == [b"one"]


def test_an_error_in_the_caller_drops_what_waits() -> None:
    parts: list[bytes] = []
    gate = threading.Event()

    def write(data: bytes) -> None:
        gate.wait(5)
        parts.append(data)

    with pytest.raises(KeyError), WriteBehind(limit=1 << 20) as behind:
        for i in range(5):
            behind.put(write, b"%d" % i)
        gate.set()
        raise KeyError("stop")
    assert len(parts) <= 5 and parts == [b"%d" % i for i in range(len(parts))]
    assert not behind._thread.is_alive()  # the helper is gone: nothing more is written
    with pytest.raises(ValueError, match="closed"):
        behind.put(write, b"late")


def test_write_pieces_writes_each_piece_to_its_descriptor(tmp_path: Path) -> None:
    rng = np.random.default_rng(5)
    data = rng.integers(0, 256, 10_000, dtype=np.uint8)
    paths = [tmp_path / f"f{i}" for i in range(3)]
    handles = [p.open("wb", buffering=0) for p in paths]
    cuts = np.sort(rng.integers(0, data.size, 7))
    bounds = np.concatenate([[0], cuts, [data.size]]).astype(np.int64)
    fds = np.array([handles[i % 3].fileno() for i in range(bounds.size - 1)], np.int32)
    assert record_kernels.write_pieces(fds, data, bounds) == (-1, 0)
    for h in handles:
        h.close()
    for i, path in enumerate(paths):
        expected = b"".join(
            data[bounds[j] : bounds[j + 1]].tobytes() for j in range(bounds.size - 1) if j % 3 == i
        )
        assert path.read_bytes() == expected


def test_write_pieces_reports_the_failing_piece(tmp_path: Path) -> None:
    data = np.arange(30, dtype=np.uint8)
    good = (tmp_path / "good").open("wb", buffering=0)
    (tmp_path / "ro").write_bytes(b"")
    read_only = (tmp_path / "ro").open("rb")
    fds = np.array([good.fileno(), read_only.fileno(), good.fileno()], np.int32)
    bounds = np.array([0, 10, 20, 30], np.int64)
    assert record_kernels.write_pieces(fds, data, bounds) == (1, errno.EBADF)
    good.close()
    read_only.close()
    assert (tmp_path / "good").read_bytes() == bytes(range(10))  # the third never written
    with pytest.raises(ValueError, match="one more bound"):
        record_kernels.write_pieces(fds, data, bounds[:3])
    with pytest.raises(ValueError, match="within the data"):
        record_kernels.write_pieces(fds, data, np.array([0, 10, 20, 31], np.int64))


def test_bucket_writer_writes_what_write_scattered_writes(tmp_path: Path) -> None:
    from croupier.scale.buckets import write_scattered
    from croupier.scale.file_shuffle import META

    rng = np.random.default_rng(9)
    counts = np.array([3, 0, 5, 2], np.intp)
    lengths = rng.integers(1, 9, int(counts.sum())).astype(np.int64)
    gathered = rng.integers(0, 256, int(lengths.sum()), dtype=np.uint8)
    meta = np.zeros(lengths.size, META)
    meta["key"] = rng.integers(0, 2**20, lengths.size)
    meta["len"] = lengths
    made = {}
    for way in ("plain", "compiled"):
        folder = tmp_path / way
        folder.mkdir()
        buckets = [TempBucket(folder, f"{b}") for b in range(4)]
        for bucket in buckets:
            bucket.open()
        if way == "plain":
            write_scattered(buckets, gathered, meta, counts, lengths)
        else:
            writer = BucketWriter(buckets)
            writer.write_runs(gathered, meta, counts, lengths)
            writer.write_data(1, np.frombuffer(b"tail", np.uint8))
            writer.write_meta(1, meta[:1])
        for bucket in buckets:
            bucket.close()
        made[way] = [(b.data_path.read_bytes(), b.meta_path.read_bytes()) for b in buckets]
    plain, compiled = made["plain"], made["compiled"]
    assert compiled[0] == plain[0] and compiled[2:] == plain[2:]
    assert compiled[1] == (plain[1][0] + b"tail", plain[1][1] + meta[:1].tobytes())
    assert sum(len(d) for d, _ in plain) == gathered.size


def test_buckets_on_a_real_full_disk_give_one_error_and_leave_nothing(tmp_path: Path) -> None:
    """Temporary buckets on a 256 KiB file system: the bucket writes (made by the helper
    thread, without the interpreter lock) fail with ENOSPC; the caller gets one
    :class:`FileWriteError`, nothing is written out and the workspace is removed."""
    lines = b"".join(b"record number %07d\n" % i for i in range(40_000))  # 800 KB
    out: list[bytes] = []
    with small_tmpfs(tmp_path, "256k") as mount:
        work = mount / "work"
        with pytest.raises(FileWriteError, match="no space left on device"):
            shuffle_stream(
                io.BytesIO(lines),
                out.append,
                size=len(lines),
                memory=64 * 1024,
                workspace=lambda: (work.mkdir(), work)[1],
            )
        assert list(mount.iterdir()) == []
    assert out == []


def test_buckets_on_a_roomy_disk_give_the_same_bytes_as_in_memory(tmp_path: Path) -> None:
    """The written-behind out-of-core run gives the in-memory run's bytes (the output
    never depends on the memory allowed)."""
    from croupier.scale.keyed_split import KeyedParams, KeyedStreams

    lines = b"".join(b"%d\n" % i for i in range(60_000))
    outputs = []
    for memory in (1 << 30, 64 * 1024):
        draws = KeyedStreams(b"k" * 32, params=KeyedParams())
        out: list[bytes] = []
        work = tmp_path / f"w{memory}"
        report = shuffle_stream(
            io.BytesIO(lines),
            lambda part, out=out: out.append(bytes(part)),
            size=len(lines),
            memory=memory,
            draws=draws,
            workspace=lambda work=work: (work.mkdir(), work)[1],
        )
        outputs.append((b"".join(out), report.buckets))
    (in_memory, _), (out_of_core, buckets) = outputs
    assert buckets > 1
    assert out_of_core == in_memory
    assert sorted(out_of_core.split(b"\n")) == sorted(lines.split(b"\n"))
