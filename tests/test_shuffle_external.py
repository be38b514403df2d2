"""The exact out-of-core shuffle (croupier-extshuffle/1): uniformity, independence of the
memory limit, byte-for-byte records, and nothing lost or left behind."""

from __future__ import annotations

import errno
import hashlib
import io
import itertools
import math
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given
from hypothesis import strategies as st

from croupier.errors import CroupierError, FileFormatError
from croupier.files import FileWriteError
from croupier.legacy.extshuffle import shuffle_file, shuffle_records
from croupier.legacy.extshuffle_keys import KeyStream
from croupier.randomness import Chooser, SeededSource, UniformSampler, exact_distribution
from croupier.scale import buckets as bucket_files
from croupier.scale.workspace import WORKSPACE_PREFIX, make_workspace
from tests.conftest import CliRunner, own_device


class FixedKeys:
    """A key source that hands out given keys (tests only)."""

    def __init__(self, keys: list[int]) -> None:
        self.keys = np.array(keys, np.uint64)
        self.pos = 0

    def take(self, n: int) -> npt.NDArray[np.uint64]:
        out = self.keys[self.pos : self.pos + n].copy()
        self.pos += n
        return out


def _folders(root: Path) -> Callable[[], Path]:
    return lambda: Path(tempfile.mkdtemp(dir=root))


def _run(data: bytes, keys: object, ties: Chooser, root: Path, **kw: object) -> bytes:
    out = io.BytesIO()
    shuffle_records(
        io.BytesIO(data), len(data), out.write, keys=keys, ties=ties,  # type: ignore[arg-type]
        workspace=_folders(root), **kw,  # type: ignore[arg-type]
    )  # fmt: skip
    return out.getvalue()


def _seeded_run(data: bytes, seed: str, root: Path, **kw: object) -> bytes:
    source = SeededSource(seed, "shuffle-file")
    return _run(data, KeyStream.from_source(source), UniformSampler(source), root, **kw)


# -- exact uniformity, by enumeration of every key assignment and every tie outcome ----------


@pytest.mark.parametrize(
    ("n", "width", "buckets"),
    [(3, 2, None), (3, 2, 2), (3, 2, 4), (3, 2, 8), (4, 2, None), (4, 2, 2), (4, 2, 4)],
)
def test_every_order_has_probability_one_over_n_factorial(
    tmp_path: Path, n: int, width: int, buckets: int | None
) -> None:
    records = [b"r%d\n" % i for i in range(n)]
    data = b"".join(records)
    total: dict[bytes, Fraction] = {}
    space = 1 << width
    for values in itertools.product(range(space), repeat=n):
        keys = [v << (64 - width) for v in values]

        def algorithm(chooser: Chooser, keys: list[int] = keys) -> bytes:
            return _run(data, FixedKeys(keys), chooser, tmp_path, memory=2**20, buckets=buckets)

        for outcome, p in exact_distribution(algorithm).items():
            total[outcome] = total.get(outcome, Fraction(0)) + p / space**n
    expected = {b"".join(p) for p in itertools.permutations(records)}
    assert set(total) == expected
    assert set(total.values()) == {Fraction(1, math.factorial(n))}


# -- the memory limit and the bucket count never change the output ---------------------------


def test_output_does_not_depend_on_memory_or_buckets(tmp_path: Path) -> None:
    data = b"".join(b"line %d %s\n" % (i, b"x" * (i % 37)) for i in range(600)) + b"last"
    reference = _seeded_run(data, "same", tmp_path, memory=2**22)  # in memory
    assert reference != data and sorted(reference.split(b"\n")) == sorted(data.split(b"\n"))
    for memory, buckets in [(2**22, 1), (2**22, 2), (2**22, 256), (5000, None), (800, 4),
                            (200, 2), (10**9, 16)]:  # fmt: skip
        got = _seeded_run(data, "same", tmp_path, memory=memory, buckets=buckets)
        assert got == reference, (memory, buckets)
    assert not list(tmp_path.rglob("*.data")), "buckets left behind"


def test_ties_are_broken_the_same_way_for_every_bucket_count(tmp_path: Path) -> None:
    data = b"".join(b"%d\n" % i for i in range(300))
    keys = [(i * 7 % 5) << 61 for i in range(300)]  # five keys only: groups of 60 ties
    outs = set()
    for memory, buckets in [(2**20, None), (2**20, 1), (2**20, 2), (2**20, 8), (3000, 4)]:
        ties = UniformSampler(SeededSource("ties", "shuffle-file"))
        got = _run(data, FixedKeys(keys), ties, tmp_path, memory=memory, buckets=buckets)
        assert sorted(got.split()) == sorted(data.split())
        outs.add(got)
    assert len(outs) == 1


def test_a_bucket_too_large_is_split_again_with_very_long_records(tmp_path: Path) -> None:
    long_lines = [b"%d" % i + b"y" * (100_000 * (i % 3)) for i in range(12)]
    data = b"\n".join(long_lines) + b"\n"
    reference = _seeded_run(data, "long", tmp_path, memory=2**24)
    for memory in (150_000, 10_000):
        assert _seeded_run(data, "long", tmp_path, memory=memory, buckets=2) == reference


def test_seed_gives_the_same_file_and_other_seeds_differ(tmp_path: Path) -> None:
    src = tmp_path / "in.txt"
    src.write_bytes(b"".join(b"%d\n" % i for i in range(2000)))
    outs = []
    for i, (seed, memory) in enumerate([("a", 2**20), ("a", 3 * 2**10), ("b", 2**20)]):
        out = tmp_path / f"out{i}.txt"
        shuffle_file(src, out, source=SeededSource(seed, "shuffle-file"), memory=memory)
        outs.append(out.read_bytes())
    assert outs[0] == outs[1] != outs[2]


# -- records kept byte for byte: the output is a permutation of the input ---------------------

_BYTES = st.lists(st.sampled_from([b"a", b"b", b"\n", b"\r", b"\r\n", b"\0", b"\xff", b"\xef"]))


def _lines(data: bytes, terminated: bool) -> list[bytes]:
    """The lines (the pieces between newlines; a final newline ends the last one)."""
    parts = data.split(b"\n")
    return sorted(parts[:-1] if terminated else parts) if data else []


@given(
    pieces=_BYTES,
    memory=st.sampled_from([2**20, 300, 64]),
    buckets=st.sampled_from([None, 1, 2, 8]),
)
def test_lines_are_a_permutation_of_the_input(
    pieces: list[bytes], memory: int, buckets: int | None
) -> None:
    data = b"".join(pieces)
    with tempfile.TemporaryDirectory() as root:
        got = _seeded_run(data, "hyp", Path(root), memory=memory, buckets=buckets)
    assert len(got) == len(data)
    terminated = data.endswith(b"\n")
    assert _lines(got, terminated) == _lines(data, terminated)
    if terminated:  # (without a final newline, an empty line placed last looks like one)
        assert got.endswith(b"\n")


@given(
    size=st.integers(1, 7),
    blob=st.binary(max_size=60),
    buckets=st.sampled_from([None, 2, 4]),
)
def test_fixed_records_are_a_permutation_of_the_input(
    size: int, blob: bytes, buckets: int | None
) -> None:
    data = blob[: len(blob) - len(blob) % size]
    with tempfile.TemporaryDirectory() as root:
        got = _seeded_run(
            data, "fixed", Path(root), memory=2**20, record_size=size, buckets=buckets
        )

    def cut(b: bytes) -> list[bytes]:
        return sorted(b[i : i + size] for i in range(0, len(b), size))

    assert cut(got) == cut(data)


# -- statistics on a bigger file ---------------------------------------------------------------


def test_positions_are_uniform_on_a_bigger_file(tmp_path: Path) -> None:
    n = 100_000
    data = b"".join(b"%d\n" % i for i in range(n))
    got = _seeded_run(data, "chi-square", tmp_path, memory=2**20, buckets=16)
    order = np.array([int(x) for x in got.split()], np.int64)
    assert sorted(order.tolist()) == list(range(n))
    # Decile of each record's input position against the decile of its output position:
    # independent (100 cells of 1,000 expected) for a uniform shuffle.  The threshold is the
    # 99.9% quantile of chi-square with 81 degrees of freedom (126.1): a 0.1% false alarm rate.
    table = np.zeros((10, 10), np.int64)
    np.add.at(table, (order * 10 // n, np.arange(n) * 10 // n), 1)
    chi2 = float(((table - 1000) ** 2 / 1000).sum())
    assert chi2 < 126.1


# -- nothing lost, nothing half-written --------------------------------------------------------


def _big_file(path: Path, megabytes: int) -> str:
    rng = np.random.default_rng(7)
    line = np.frombuffer(b"abcdefghijklmnopqrstuvwxyz0123456789", np.uint8)
    data = line[rng.integers(0, line.size, megabytes * 2**20)]
    data[rng.integers(0, data.size, megabytes * 2**20 // 40)] = 10
    path.write_bytes(data.tobytes())
    return hashlib.sha256(data.tobytes()).hexdigest()


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


def _start(args: list[str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "croupier", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )


def _wait_for_workspace(folder: Path, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 20
    while not any(
        p.name.startswith(WORKSPACE_PREFIX) and any(p.iterdir()) for p in folder.iterdir()
    ):
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.005)
    time.sleep(0.02)


@pytest.mark.parametrize("method", ["keys", "auto"])
@pytest.mark.parametrize("how", ["kill", "interrupt"])
def test_killed_or_interrupted_runs_leave_the_input_and_no_output(
    tmp_path: Path, how: str, method: str
) -> None:
    # Both file shuffles: croupier-extshuffle/1 (--method keys) and croupier-keyed-split/1.
    src = tmp_path / "in" / "big.txt"
    src.parent.mkdir()
    digest = _big_file(src, 32)
    outdir = tmp_path / "out"
    outdir.mkdir()
    out = outdir / "shuffled.txt"
    proc = _start(
        ["shuffle", "--file", str(src), "--out", str(out), "--memory", "1M", "--method", method]
    )
    _wait_for_workspace(outdir, proc)
    assert proc.poll() is None, "the run ended before it could be stopped"
    proc.send_signal(signal.SIGKILL if how == "kill" else signal.SIGINT)
    proc.communicate(timeout=30)
    assert hashlib.sha256(src.read_bytes()).hexdigest() == digest
    assert not out.exists()
    if how == "interrupt":
        assert proc.returncode == 130
        assert _leftovers(outdir) == []
        return
    assert proc.returncode == -signal.SIGKILL
    assert _leftovers(outdir)  # the killed run's folder (and maybe its output temporary)
    small = tmp_path / "in" / "small.txt"
    small.write_bytes(b"1\n2\n3\n")
    done = subprocess.run(
        [sys.executable, "-m", "croupier", "shuffle", "--file", str(small), "--out", str(out)],
        capture_output=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert b"removed the temporaries of a killed run" in done.stderr
    assert _leftovers(outdir) == []
    assert sorted(out.read_bytes().split()) == [b"1", b"2", b"3"]


def test_a_full_disk_predicted_is_refused_before_any_work(
    tmp_path: Path, cli: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    src = tmp_path / "in.txt"
    src.write_bytes(b"x\n" * 600_000)
    usage = shutil.disk_usage(tmp_path)
    monkeypatch.setattr(
        "croupier.scale.workspace.shutil.disk_usage",
        lambda _: type(usage)(usage.total, usage.used, 15_000),
    )
    result = cli(["shuffle", "--file", str(src), "--out", str(tmp_path / "o"), "--memory", "1M",
                  "--records", "2", "--method", "keys"])  # fmt: skip
    assert result.code == 2
    assert "not enough disk space" in result.err and "15,000 bytes" in result.err
    assert "2,400,000 bytes" in result.err  # buckets and output: twice the input
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.txt"]


def test_a_full_disk_during_the_run_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    src = tmp_path / "in.txt"
    src.write_bytes(b"".join(b"%d\n" % i for i in range(50_000)))
    calls = []
    write_data = bucket_files.TempBucket.write_data

    def full(self: bucket_files.TempBucket, data: npt.NDArray[np.uint8] | bytes) -> None:
        calls.append(1)
        if len(calls) <= 5:
            write_data(self, data)
        else:
            raise bucket_files.bucket_error(
                self.data_path, OSError(errno.ENOSPC, "No space left on device")
            )

    monkeypatch.setattr(bucket_files.TempBucket, "write_data", full)
    with pytest.raises(FileWriteError, match="no space left on device"):
        shuffle_file(src, tmp_path / "out.txt", memory=2**20, buckets=4)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.txt"]


def test_command_line_refusals(tmp_path: Path, cli: CliRunner) -> None:
    src = tmp_path / "in.txt"
    src.write_bytes(b"abc\ndef\n")
    existing = tmp_path / "taken.txt"
    existing.write_bytes(b"keep")
    cases = [
        (["--out", str(existing)], "already exists"),
        (["--out", str(src)], "is the input file"),
        (["--out", str(src), "--overwrite"], "is the input file"),
        (["--memory", "lots"], "bad --memory 'lots'"),
        (["--memory", "10K"], "too small"),
        (["--records", "0"], "bad --records '0'"),
        (["--records", "many"], "bad --records 'many'"),
        (["--records", "3", "--out", str(tmp_path / "o")], "not a multiple of the record size 3"),
        (["--memory", "1M", "--json"], "do not apply"),
        (["--memory", "1M", "--deck", "standard"], "give exactly one of"),
    ]
    for extra, message in cases:
        result = cli(["shuffle", "--file", str(src), *extra])
        assert result.code == 2 and message in result.err and "\n" not in result.err.strip(), extra
    null = str(own_device(tmp_path, "null"))  # made here, never the system's /dev/null
    device = cli(["shuffle", "--file", null, "--out", str(tmp_path / "o"), "-m", "keys"])
    assert device.code == 2 and "not a regular file" in device.err
    streamed = cli(["shuffle", "--file", null, "--out", str(tmp_path / "o")])
    assert streamed.code == 0 and (tmp_path / "o").read_bytes() == b""  # read as a stream
    (tmp_path / "o").unlink()
    assert existing.read_bytes() == b"keep" and src.read_bytes() == b"abc\ndef\n"
    args = ["shuffle", "--file", str(src), "--out", str(existing), "--overwrite", "--seed", "s"]
    done = cli([*args, "--method", "keys"])
    assert done.code == 0 and sorted(existing.read_bytes().split()) == [b"abc", b"def"]
    assert "croupier-extshuffle/1" in done.err and "log2(2!) = 1.0" in done.err
    done = cli(args)
    assert done.code == 0 and sorted(existing.read_bytes().split()) == [b"abc", b"def"]
    assert "croupier-keyed-split/1" in done.err


def test_empty_input_gives_empty_output_and_stdout_streams(tmp_path: Path, cli: CliRunner) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    assert cli(["shuffle", "--file", str(empty), "--out", str(tmp_path / "o")]).code == 0
    assert (tmp_path / "o").read_bytes() == b""
    src = tmp_path / "in.txt"
    src.write_bytes(b"a\nb\nc")
    result = cli(["shuffle", "--file", str(src), "--memory", "1M", "--seed", "s", "--quiet"])
    assert result.code == 0 and result.err == ""
    assert sorted(result.out.split("\n")) == ["a", "b", "c"] and not result.out.endswith("\n")
    cli(["shuffle", "--file", str(src), "--out", str(tmp_path / "p"), "--seed", "s"])
    assert (tmp_path / "p").read_text() == result.out


def test_library_errors_name_parameters(tmp_path: Path) -> None:
    with pytest.raises(CroupierError, match="buckets=3"):
        shuffle_records(io.BytesIO(b""), 0, print, keys=FixedKeys([]),
                        ties=UniformSampler(SeededSource("x")), memory=10, buckets=3)  # fmt: skip
    with pytest.raises(FileFormatError, match="record_size=4"):
        shuffle_records(io.BytesIO(b"abcde"), 5, print, keys=FixedKeys([]),
                        ties=UniformSampler(SeededSource("x")), memory=10,
                        record_size=4)  # fmt: skip
    assert make_workspace(tmp_path).name.startswith(WORKSPACE_PREFIX)
