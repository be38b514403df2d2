"""Every read of a file named by the user is bounded before it costs, and so is every table.

* Key files, ``.sqd``/``.sqk`` files and board files are read at most one
  byte past their limit: an endless input (``/dev/zero``, a FIFO fed without
  end) or a huge one is refused with one line, having cost about the limit.
  The inputs here are FIFOs created in ``tmp_path`` and fed by a thread that
  counts the bytes the reader took, ``/dev/zero`` (read only) in a child
  process under an address-space limit, and sparse files.
* ``croupier shuffle --file`` stops an endless input at the record length,
  the record count and the size of its temporary copy (limits lowered by
  ``monkeypatch`` for the library, real ones for ``/dev/zero`` in a child).
* Board files of more than 100,000 games are refused before any game is
  parsed (the per-game parsers are replaced by ones that fail).
* The fast paths of the readers give exactly what the general ones give.

No test here looks at a clock: work is bounded by bytes and calls counted,
memory by ``tracemalloc`` or an address-space limit, and a generous timeout
only catches a hang.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import threading
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from croupier.boards import Board
from croupier.bulk.writers import parse_oneline
from croupier.errors import CroupierError, FileFormatError
from croupier.formats import board_csv, board_json, dlm, dup, lin, pbn
from croupier.formats.board_files import (
    MAX_BOARD_FILE_BYTES,
    games_at_least,
    load_boards,
    read_board_file,
    read_boards,
    render_boards,
)
from croupier.formats.dlm import DLM_FILLER, dlm_board_value, parse_dlm_file, read_dlm_records
from croupier.formats.pbn_deal import format_pbn_hand, parse_pbn_deal_partial, sorted_pbn_deal
from croupier.formats.records import MAX_FILE_GAMES, BoardRecord, deal_goedel, sorted_hands
from croupier.randomness.seeded import SeededSource
from croupier.ranking.bigdeal import GOEDEL_MAX, goedel_rank, goedel_unrank
from croupier.scale import file_shuffle
from croupier.scale.file_shuffle import shuffle_file_records, shuffle_stream
from croupier.scale.records import RecordFormat
from croupier.tournament.board_plan import BoardPlan
from croupier.tournament.squaredeal import MAX_EVENT_FILE_BYTES, SquareDealEvent, key_hash
from croupier.tournament.squaredeal_workflow import (
    load_event,
    load_keys,
    new_event,
    publish_keys,
    set_delayed_value,
)
from croupier.tournament.verifiable import make_boards, plan_commitment
from croupier.tournament.verifiable_workflow import MAX_KEY_FILE_BYTES, read_key_file
from tests.conftest import ROOT, CliRunner, guarded_cli, own_device

MIB = 1 << 20
SLACK = 2 * MIB
"""What a FIFO's writer may get in beyond what the reader took: the pipe's buffer (64 KiB by
default, 1 MiB at most unless the system allows more) and the block being written."""
HANG = 300
"""Seconds after which a child or a feeding thread has hung (never reached when it works)."""


# -- endless inputs ------------------------------------------------------------------------------
class _Feeder:
    """A FIFO at ``path`` fed ``total`` bytes of ``block`` by a thread; ``written`` counts the
    bytes the reader took (a write the reader's close breaks counts nothing)."""

    def __init__(self, path: Path, total: int, block: bytes = b"0" * 65536) -> None:
        self.path = path
        self.total = total
        self.block = block
        self.written = 0
        os.mkfifo(path)
        self.thread = threading.Thread(target=self._feed, daemon=True)
        self.thread.start()

    def _feed(self) -> None:
        with contextlib.suppress(BrokenPipeError), open(self.path, "wb", buffering=0) as out:
            while self.written < self.total:
                self.written += out.write(self.block[: self.total - self.written]) or 0

    def finish(self) -> int:
        """Wait for the writer (releasing it if nobody ever opened the FIFO); bytes taken."""
        if self.thread.is_alive():
            with contextlib.suppress(OSError):  # a reader that never came: let the writer go
                os.close(os.open(self.path, os.O_RDONLY | os.O_NONBLOCK))
        self.thread.join(HANG)
        assert not self.thread.is_alive(), "the FIFO's writer hung"
        return self.written


@contextlib.contextmanager
def _fed(path: Path, total: int) -> Iterator[_Feeder]:
    feeder = _Feeder(path, total)
    try:
        yield feeder
    finally:
        feeder.finish()


class _Endless:
    """A binary stream of ``fill`` bytes without end; a read past ``cap`` bytes in all fails
    the test (the reader went on where it should have stopped)."""

    def __init__(self, fill: bytes = b"0", cap: int = 256 * MIB) -> None:
        self.fill = fill
        self.cap = cap
        self.taken = 0

    def read(self, size: int = -1) -> bytes:
        size = 1 << 20 if size is None or size < 0 else size
        if self.taken + size > self.cap:
            raise AssertionError(f"read on past {self.cap:,} bytes: the input was not stopped")
        self.taken += size
        return self.fill * size


def _one_line_error(code: int, err: str, needle: str) -> None:
    assert code == 2, err
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err and needle in err, err


# -- key files, .sqd and .sqk --------------------------------------------------------------------
def test_a_key_file_is_read_up_to_its_limit_only(tmp_path: Path) -> None:
    with (
        _fed(tmp_path / "cup.key", 16 * MIB) as feeder,
        pytest.raises(FileFormatError, match=r"^key file 'cup.key' has more than 4,096"),
    ):
        read_key_file(tmp_path / "cup.key")
    assert feeder.written <= MAX_KEY_FILE_BYTES + 1 + SLACK, feeder.written


def test_a_huge_key_file_costs_no_memory(tmp_path: Path) -> None:
    big = tmp_path / "big.key"
    with open(big, "wb") as out:
        out.truncate(64 * MIB)  # sparse: nothing is written to the disk
    tracemalloc.start()
    try:
        with pytest.raises(FileFormatError, match="the most a key file holds"):
            read_key_file(big)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 256 * 1024, peak  # the file's 64 MiB were never held
    good = tmp_path / "good.key"
    good.write_text(" " * 2000 + "ab" * 32 + "\n" + " " * 2000)  # white space around it: read
    assert read_key_file(good) == bytes([0xAB]) * 32


def test_the_key_is_never_quoted(tmp_path: Path) -> None:
    secret = tmp_path / "cup.key"
    secret.write_text("c0ffee" * 1000)  # too large: refused without a word of it
    with pytest.raises(FileFormatError) as info:
        read_key_file(secret)
    assert "c0ffee" not in str(info.value) and "\n" not in str(info.value)


def test_event_and_key_files_are_read_up_to_their_limit_only(tmp_path: Path) -> None:
    with (
        _fed(tmp_path / "EV.sqd", 64 * MIB) as feeder,
        pytest.raises(FileFormatError, match=r"^EV.sqd has more than 4,194,304 bytes"),
    ):
        load_event(tmp_path / "EV.sqd")
    assert feeder.written <= MAX_EVENT_FILE_BYTES + 1 + SLACK, feeder.written
    event = SquareDealEvent("T", key_hash=key_hash(b"1,1:abc\r\n"))
    with (
        _fed(tmp_path / "EV.sqk", 64 * MIB) as feeder,
        pytest.raises(FileFormatError, match=r"^EV.sqk has more than 4,194,304 bytes"),
    ):
        load_keys(event, tmp_path / "EV.sqk", "EV.sqd")
    assert feeder.written <= MAX_EVENT_FILE_BYTES + 1 + SLACK, feeder.written


def test_a_board_file_is_read_up_to_its_limit_only(tmp_path: Path) -> None:
    with (
        _fed(tmp_path / "s1.pbn", 64 * MIB) as feeder,
        pytest.raises(FileFormatError, match=r"^s1.pbn has more than 16,777,216 bytes"),
    ):
        load_boards(tmp_path / "s1.pbn")
    assert feeder.written <= MAX_BOARD_FILE_BYTES + 1 + SLACK, feeder.written


@pytest.fixture
def events(tmp_path: Path) -> Path:
    """A SquareDeal event with keys and a delayed value, and a croupier-boards key."""
    sqd = tmp_path / "EV.sqd"
    new_event(sqd, "Cup", ["1:1-4:CUP#:Cup #"])
    publish_keys(sqd, source=SeededSource("bounded", "keys"))
    set_delayed_value(sqd, "7")
    (tmp_path / "cup.key").write_text("00" * 32 + "\n")
    (tmp_path / "CUP1.pbn").write_bytes(b"")
    zero = own_device(tmp_path, "zero")  # made here: the system's /dev is never touched
    (tmp_path / "s1.pbn").symlink_to(zero)  # a board file without end
    return tmp_path


def test_every_command_refuses_an_endless_file_in_one_line(events: Path) -> None:
    zero = str(events / "own-zero")
    key = ["--key-file", zero]
    plan = ["--event", "Cup", "--plan", "1:1-4"]
    commitment = plan_commitment(bytes(32), "Cup", BoardPlan.parse("1:1-4"))
    verify = ["boards", "verify", *plan, "--commitment", commitment, "--dv", "7", "--session"]
    runs = [
        (["boards", "commitment", *plan, *key], "more than 4,096 bytes"),
        (["boards", "make", *plan, *key, "--dv", "7", "--session", "1"], "more than 4,096 bytes"),
        ([*verify, "1", *key, str(events / "CUP1.pbn")], "more than 4,096 bytes"),
        (["squaredeal", "publish", zero], "more than 4,194,304 bytes"),
        (["squaredeal", "set-dv", zero, "7"], "more than 4,194,304 bytes"),
        (["squaredeal", "make", zero, "--keys", str(events / "EV.sqk")], "more than 4,194,304"),
        (["squaredeal", "make", str(events / "EV.sqd"), "--keys", zero], "more than 4,194,304"),
        (["squaredeal", "verify", zero, str(events / "EV.sqk"), "CUP1.pbn"], "more than 4,194,3"),
        (["squaredeal", "verify", str(events / "EV.sqd"), zero, "CUP1.pbn"], "more than 4,194,3"),
        (
            [*verify, "1", "--key-file", str(events / "cup.key"), str(events / "s1.pbn")],
            "more than 16,777,216 bytes",
        ),
    ]
    results = guarded_cli([args for args, _ in runs], cwd=events, timeout=HANG)
    for (args, needle), (code, err) in zip(runs, results, strict=True):
        assert code == 2, (args, err)
        assert err.startswith("error: ") and err.count("\n") == 1, (args, err)
        assert needle in err and "Traceback" not in err, (args, err)


# -- one-line errors of the smaller readers -------------------------------------------------------
@pytest.mark.parametrize("text", ["\ud800", "n \ud800", "n AKQ\udcff... e x", "\udfff\n"])
def test_parse_oneline_refuses_a_lone_surrogate_in_one_line(text: str) -> None:
    with pytest.raises(CroupierError) as info:
        parse_oneline(text)
    assert isinstance(info.value, ValueError)
    message = str(info.value)
    assert "\n" not in message and "surrogate" in message and "\\ud" not in message


KEY = bytes(range(3, 35))
EVENT, DV, PLAN = "Slot Cup", "15234.56", "1:1-16"


def _dlm_of(boards: list[Board], extra: str = "") -> str:
    """A DLM file of ``boards`` as an older croupier wrote it (no filler), and ``extra``."""
    numbers = [b.number for b in boards]
    lines = ["[Document]", f"From Board={min(numbers)}", f"To Board={max(numbers)}"]
    lines += [f"Board {b.number:02d}={dlm_board_value(b.hands, b.number)}" for b in boards]
    return "\r\n".join(lines) + "\r\n" + extra


def test_a_dlm_board_past_its_to_board_fails_verification(cli: CliRunner, tmp_path: Path) -> None:
    genuine = make_boards(KEY, EVENT, DV.encode(), 1, range(1, 18))  # one board more than 16
    added = f"Board 17={dlm_board_value(genuine[16].hands, 17)}\r\n"
    path = tmp_path / "s1.dlm"
    key_file = tmp_path / "slot.key"
    key_file.write_text(KEY.hex() + "\n")
    commitment = plan_commitment(KEY, EVENT, BoardPlan.parse(PLAN))
    verify = ["boards", "verify", "--event", EVENT, "--plan", PLAN, "--commitment", commitment]
    verify += ["--key-file", str(key_file), "--dv", DV, "--session", "1", str(path)]
    path.write_text(_dlm_of(genuine[:16]))
    r = cli(verify)
    assert r.code == 0, r.out + r.err
    path.write_text(_dlm_of(genuine[:16], added))
    r = cli(verify)
    _one_line_error(r.code, r.err, "s1.dlm line 20: board 17 is past From Board=1..To Board=16")
    # the lenient reader (croupier convert) still reads the set, and the filler is no board
    assert [r.number for r in read_dlm_records(_dlm_of(genuine[:16], added)).records] == [
        *range(1, 17)
    ]
    filler = f"Board 17={DLM_FILLER}{17 ^ 14:03d}\r\n"
    assert len(parse_dlm_file(_dlm_of(genuine[:16], filler))) == 16
    croupier_file = render_boards(genuine[:16], "dlm")  # 99 slots, 83 of them filler
    assert len(read_boards(croupier_file, "dlm")) == 16


# -- the file shuffle ------------------------------------------------------------------------------
def _sink() -> tuple[list[int], Any]:
    written = [0]

    def write(data: Any) -> None:
        written[0] += memoryview(data).nbytes

    return written, write


@pytest.mark.parametrize("memory", [MIB, 64 * MIB], ids=["saved-to-disk", "in-memory"])
def test_an_endless_record_stops_at_the_record_limit(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, memory: int
) -> None:
    monkeypatch.setattr(file_shuffle, "MAX_RECORD_BYTES", 4 * MIB, raising=False)
    stream = _Endless(b"x")
    written, write = _sink()
    with pytest.raises(CroupierError, match=r"has a record of more than 4,194,304 bytes"):
        shuffle_stream(stream, write, source=SeededSource("t", "s"), memory=memory,  # type: ignore[arg-type]
                       workspace=lambda: tempfile.mkdtemp(dir=tmp_path))  # fmt: skip
    assert stream.taken <= 4 * MIB + 8 * MIB, stream.taken
    assert written[0] == 0


def test_records_past_the_record_count_are_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(file_shuffle, "MAX_RECORDS", 1000, raising=False)
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    lines = tmp_path / "in.txt"
    lines.write_bytes(b"x\n" * 1001)
    _, write = _sink()
    for memory in (MIB, 10_000):  # in memory, and through buckets
        with pytest.raises(CroupierError, match=r"more than 1,000 records"):
            shuffle_file_records(lines, None, stdout=write, memory=memory)
    stream = _Endless(b"\n")
    with pytest.raises(CroupierError, match=r"standard input has more than 1,000 records"):
        shuffle_file_records(None, None, stdout=write, stdin=stream, memory=MIB)  # type: ignore[arg-type]
    assert stream.taken <= 8 * MIB
    lines.write_bytes(b"x\n" * 1000)
    assert shuffle_file_records(lines, None, stdout=write, memory=MIB).records == 1000


def test_the_temporary_copy_stops_at_its_limit(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(file_shuffle, "MAX_SPOOL_BYTES", 16 * MIB, raising=False)
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    stream = _Endless(b"\0")  # NUL-terminated records of one byte each, without end
    _, write = _sink()
    with pytest.raises(CroupierError, match=r"larger than 16,777,216 bytes \(16 MiB\), the most"):
        shuffle_file_records(None, None, stdout=write, stdin=stream, memory=MIB,  # type: ignore[arg-type]
                             fmt=RecordFormat(0))  # fmt: skip
    assert stream.taken <= 16 * MIB + 8 * MIB, stream.taken
    assert not list(tmp_path.iterdir())  # the temporaries are gone


def test_the_temporary_copy_stops_before_the_disk_is_full(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import shutil

    free = 48 * MIB
    usage = shutil.disk_usage(tmp_path)
    monkeypatch.setattr("croupier.scale.workspace.shutil.disk_usage",
                        lambda _: usage._replace(free=free))  # fmt: skip
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    stream = _Endless(b"line\n")
    _, write = _sink()
    with pytest.raises(FileFormatError, match=r"^not enough disk space in .*temporary copy"):
        shuffle_file_records(None, None, stdout=write, stdin=stream, memory=MIB)  # type: ignore[arg-type]
    # the copy stopped while what the rest of the run needs (the buckets: as much again and 12
    # bytes a record) still fitted in the space that was free
    assert stream.taken <= free, stream.taken
    assert not list(tmp_path.iterdir())


def test_records_longer_than_the_limit_are_refused_up_front() -> None:
    with pytest.raises(CroupierError, match="longer than 1,073,741,824 bytes"):
        shuffle_stream(_Endless(), print, fmt=RecordFormat(None, 2**30 + 1))  # type: ignore[arg-type]
    from croupier.cli.shuffle_file_run import parse_records

    with pytest.raises(CroupierError, match="a record is at most 1 GiB"):
        parse_records("2G")
    assert parse_records("1G") == 2**30


def _limited_cli(args: list[str], tmp_path: Path, memory: int, disk: int) -> tuple[int, str]:
    """``croupier ARGS`` in a child with ``memory`` bytes of address space and files of at most
    ``disk`` bytes, its temporary folder in ``tmp_path``: exit code, standard error."""

    def limits() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
        resource.setrlimit(resource.RLIMIT_FSIZE, (disk, disk))

    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "TMPDIR": str(tmp_path)}
    env["OPENBLAS_NUM_THREADS"] = env["OMP_NUM_THREADS"] = "1"
    code = "import sys; from croupier.cli.app import run; sys.exit(run(sys.argv[1:]))"
    done = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, env=env,
        cwd=tmp_path, preexec_fn=limits, timeout=HANG, check=False,
    )  # fmt: skip
    return done.returncode, done.stderr


@pytest.mark.parametrize(
    ("extra", "needle"),
    [
        (["--memory", "64M", "-o", "out.txt"], "a record of more than 1,073,741,824 bytes (1 GiB)"),
        (["-n", "3"], "a record of more than 1,073,741,824 bytes (1 GiB)"),
        (["--method", "fisher-yates"], "larger than 256 MiB"),
    ],
    ids=["saved-to-disk", "sample", "named-method"],
)
def test_shuffling_dev_zero_stops_at_a_limit(tmp_path: Path, extra: list[str], needle: str) -> None:
    # /dev/zero read as lines is one endless record: refused at 1 GiB, never spooled on (it
    # took 8 GB of the temporary folder in 20 s), in a child that may use 2.5 GiB of memory
    # and write files of 1.5 GiB at most
    zero = str(own_device(tmp_path, "zero"))
    code, err = _limited_cli(["shuffle", "--file", zero, *extra], tmp_path,
                             memory=5 << 29, disk=3 << 29)  # fmt: skip
    _one_line_error(code, err, needle)
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".croupier")]


# -- board files of too many games are refused before any game is parsed --------------------------
def _too_many(fmt: str) -> bytes:
    n = MAX_FILE_GAMES + 1
    if fmt == "lines":
        return b"- - - -\n" * n
    if fmt == "csv":
        return b"north,east,south,west\n" + b"x\n" * n
    if fmt == "pbn":
        return b'[Deal "?"]\n\n' * n
    if fmt == "lin":
        return b"md||" * n
    if fmt == "dlm":
        return b"[Document]\n" + b"Board 01=%s015\n" % DLM_FILLER.encode() * n
    if fmt == "json":
        return b'{"boards": [' + b"{}," * (n - 1) + b"{}]}"
    assert fmt == "dup"
    record = render_boards([Board.standard(1, goedel_unrank(5))], "dup")
    return record * n


PARSERS = [
    (pbn, "_record"),
    (lin, "_record"),
    (board_csv, "_csv_record"),
    (board_csv, "parse_record_deal"),
    (board_json, "_json_record"),
    (dlm, "_board"),
    (dup, "_bri_hands"),
]


@pytest.mark.parametrize("fmt", ["pbn", "lin", "dup", "dlm", "csv", "lines", "json"])
@pytest.mark.parametrize("entry", ["records", "boards"])
def test_too_many_games_are_refused_before_any_is_parsed(
    monkeypatch: pytest.MonkeyPatch, fmt: str, entry: str
) -> None:
    data = _too_many(fmt)
    assert len(data) <= MAX_BOARD_FILE_BYTES
    calls = [0]

    def never(*args: object, **kwargs: object) -> Any:
        calls[0] += 1
        raise AssertionError("a game was parsed")

    for module, name in PARSERS:
        monkeypatch.setattr(module, name, never)
    with pytest.raises(FileFormatError, match="holds more than 100,000 games"):
        if entry == "records":
            read_board_file(data, fmt, source="big", partial=True)
        else:
            read_boards(data, fmt, source="big")
    assert calls[0] == 0


def test_the_quick_count_never_exceeds_the_games_read() -> None:
    deal = render_boards([Board.standard(1, goedel_unrank(9))], "lines")
    lines = deal + b"\n \n\t\n" + deal.replace(b" ", b"  ") + b"  " + deal + b"\r\n\x0cx - - -\n"
    contents = read_board_file(lines, "lines", partial=True)
    assert games_at_least(lines, "lines") <= len(contents.records) + len(contents.skipped)
    csv = b"north,east,south,west\n,,,\n,x,,\n  ,,,\nA...,-,-,-\r\n-,-,-,-\n"
    contents = read_board_file(csv, "csv", partial=True)
    assert 0 < games_at_least(csv, "csv") <= len(contents.records) + len(contents.skipped)
    assert games_at_least(b'north,east,south,west\n"a\nb\nc",,,\n', "csv") == 0  # (quotes)
    assert games_at_least(b"- - - -\n" * 10, "lines", most=3) == 3


# -- the fast paths give what the general ones give ------------------------------------------------
def _deal_strings(count: int) -> Iterator[str]:
    rng = random.Random(20240601)
    for _ in range(count):
        parts = [format_pbn_hand(h) for h in goedel_unrank(rng.randrange(GOEDEL_MAX))]
        change = rng.randrange(8)
        if change == 0:
            parts[rng.randrange(4)] = "-"
        elif change == 1:
            parts[rng.randrange(4)] = parts[rng.randrange(4)] = "-"
        elif change == 2:  # a card twice, or a hand of 14
            i = rng.randrange(4)
            parts[i] = parts[i].replace(".", "A.", 1)
        elif change == 3:
            parts[rng.randrange(4)] = parts[rng.randrange(4)].lower()
        elif change == 4:
            parts[rng.randrange(4)] = rng.choice(["", "...", "AK..", "KA...", "A.A.A.A"])
        elif change == 5:
            parts = parts[: rng.randrange(5)]
        first = rng.choice(["", "N:", "E:", "s:", "w:", "X:"])
        yield first + rng.choice([" ", "  ", "\t"]).join(parts)


def test_the_fast_deal_reader_agrees_with_the_general_one() -> None:
    fast_ones = 0
    for text in _deal_strings(4000):
        fast = sorted_pbn_deal(text)
        try:
            general: object = sorted_hands(parse_pbn_deal_partial(text))
        except CroupierError as exc:
            general = exc
        if fast is not None:
            fast_ones += 1
            assert fast == general, text
    assert fast_ones > 1000


def test_deal_goedel_is_goedel_rank() -> None:
    rng = random.Random(7)
    for number in [0, 1, GOEDEL_MAX - 1, *(rng.randrange(GOEDEL_MAX) for _ in range(500))]:
        hands = BoardRecord(goedel_unrank(number)).hands
        assert deal_goedel(hands) == goedel_rank(hands) == number
    assert deal_goedel(((), (), (), ())) is None


def _pbn_texts() -> Iterator[tuple[str, str]]:
    boards = [Board.standard(1 + i % 999, goedel_unrank(7919 * i * i + 3)) for i in range(40)]
    for style in ("export", "bigdeal"):
        yield style, render_boards(boards, "pbn", pbn_style=style).decode()
    yield "one game", '[Board "1"]\n[Deal "N:- - - -"]\n'
    yield "tags repeated", '[Board "1"]\n[Board "2"]\n\n[Deal "N:- - - -"]\n[Deal "N:- - - -"]\n'
    yield "inherited", '[Event "x"]\n[Board "1"]\n\n[Event "#"]\n[Board "2"]\n'
    for path in sorted((ROOT / "tests" / "data" / "real").rglob("*.pbn")):
        yield path.name, path.read_bytes().decode("utf-8", "replace")


@pytest.mark.parametrize(("name", "text"), list(_pbn_texts()), ids=lambda x: str(x)[:30])
def test_plain_pbn_files_split_into_the_scanners_games(name: str, text: str) -> None:
    lf = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    plain = pbn._plain_games(lf)
    if plain is None:
        return  # not plain: the scanner alone reads it
    assert plain == list(pbn._scanned_games(lf, name)), name


def test_plain_lin_deals_read_as_the_general_reader_reads_them() -> None:
    rng = random.Random(11)
    for _ in range(1000):
        hands = goedel_unrank(rng.randrange(GOEDEL_MAX))
        parts = []
        for seat in (2, 3, 0, 1):  # LIN: South, West, North, East
            suits = format_pbn_hand(hands[seat]).split(".")
            parts.append("".join(s + r for s, r in zip("SHDC", suits, strict=True)))
        for md in ("3" + ",".join(parts), "1" + ",".join(parts[:3]) + ",", ",".join(parts[:2])):
            plain = lin._plain_deal(md)
            general = lin._deal(md)
            assert not isinstance(general, str), md
            assert plain == (general[0], sorted_hands(general[1])), md


def test_boards_made_from_records_are_the_boards_of_the_constructor() -> None:
    rng = random.Random(3)
    for number in range(1, 40):
        hands = goedel_unrank(rng.randrange(GOEDEL_MAX))
        made = BoardRecord(hands, number).to_board()
        assert made == Board.standard(number, hands)
        assert json.dumps(repr(made)) == json.dumps(repr(Board.standard(number, hands)))


# -- a chunked run's journal and manifest ----------------------------------------------------------
def _chunk_job(folder: Path) -> Any:
    from croupier.bulk.chunk_files import FileJob
    from croupier.dealing.layout import make_layout

    return FileJob(str(folder), make_layout("bridge"), "oneline", "bounded", count=10, chunk=4)


@pytest.mark.parametrize("name", [".croupier-chunks.jsonl", "manifest.json"])
def test_an_endless_journal_or_manifest_is_read_to_its_limit_only(
    tmp_path: Path, name: str
) -> None:
    from croupier.bulk.chunk_files import ChunkFileError, deal_to_files
    from croupier.cluster import InlineClient

    folder = tmp_path / "run"
    folder.mkdir()
    limit = (1 << 20) + 1024 * 3  # 3 chunks
    with (
        _fed(folder / name, 64 * MIB) as feeder,
        pytest.raises(ChunkFileError, match="holds the chunk files of another run"),
    ):
        deal_to_files(_chunk_job(folder), InlineClient())
    assert feeder.written <= limit + 1 + SLACK, feeder.written


@pytest.mark.parametrize(
    "text",
    [
        "{not json",
        "[]",
        '{"files": "none"}',
        '{"files": [{"index": 0}]}',
        '{"files": [{"index": "0", "name": 1, "first": 0, "stop": 4, "bytes": 1, '
        '"sha256": "", "bits": 0}]}',
        "[" * 100_000,
        "\xff\xfe",
    ],
)
def test_a_damaged_manifest_is_another_runs_never_a_traceback(tmp_path: Path, text: str) -> None:
    from croupier.bulk.chunk_files import ChunkFileError, deal_to_files
    from croupier.cluster import InlineClient

    folder = tmp_path / "run"
    folder.mkdir()
    (folder / "manifest.json").write_bytes(text.encode("latin-1"))
    with pytest.raises(ChunkFileError, match="holds the chunk files of another run"):
        deal_to_files(_chunk_job(folder), InlineClient())
    manifest = deal_to_files(_chunk_job(folder), InlineClient(), overwrite=True)
    assert manifest is not None and len(manifest["files"]) == 3


def test_a_journal_with_foreign_lines_keeps_the_good_ones(tmp_path: Path) -> None:
    from croupier.bulk.chunk_files import JOURNAL_NAME, deal_to_files
    from croupier.cluster import InlineClient

    folder = tmp_path / "run"
    assert deal_to_files(_chunk_job(folder), InlineClient(), stop=lambda: True) is None
    journal = folder / JOURNAL_NAME
    lines = journal.read_text().splitlines()
    assert len(lines) == 2  # the head and the one chunk done
    journal.write_text("\n".join([lines[0], "[1, 2]", '{"index": "x"}', "[" * 5000, *lines[1:]]))
    kept = folder / json.loads(lines[1])["name"]
    stamp = kept.stat().st_mtime_ns
    again = deal_to_files(_chunk_job(folder), InlineClient())
    fresh = deal_to_files(_chunk_job(tmp_path / "fresh"), InlineClient())
    assert again is not None and fresh is not None
    assert [f["sha256"] for f in again["files"]] == [f["sha256"] for f in fresh["files"]]
    assert kept.stat().st_mtime_ns == stamp  # the chunk the journal vouched for was kept


# -- standard input as text only ------------------------------------------------------------------
def test_text_only_standard_input_is_read_a_block_at_a_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from croupier.scale.records import stdin_bytes

    class EndlessText:
        taken = 0

        def read(self, size: int = -1) -> str:
            if size is None or size < 0 or size > 1 << 20:
                raise AssertionError(f"read({size}) of an endless text stream")
            EndlessText.taken += size
            return "é\n" * (size // 2)

    monkeypatch.setattr(sys, "stdin", EndlessText())
    stream = stdin_bytes()
    assert stream.read(6) == "é\né\n".encode()
    assert EndlessText.taken <= 1 << 17
