"""Standard output that cannot be written is an error, never a truncated success.

Every command of ``croupier --help`` is run through the real entry point
(:func:`croupier.cli.entry.main`) with the one function through which standard
output reaches the operating system (:func:`croupier.cli.output.write_fd`)
replaced: by one that fails with ``ENOSPC`` (a full disk, on any machine and
any user), by one that takes a few bytes and then fails (a nearly full disk),
and by one that takes a few bytes at a time without failing (partial writes,
which Python's unbuffered standard output used to drop).  A real full file
system (a small tmpfs) is used too where the tests may mount one.
"""

from __future__ import annotations

import contextlib
import errno
import io
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from croupier.cli import output
from croupier.cli.app import leaf_commands, run
from croupier.cli.entry import main
from tests.conftest import CliRunner, small_tmpfs

SCRIPT = "generate 2000\nproduce 40\ncondition hcp(north) >= 12\naction printall\n"
NAMES = "".join(f"name {i}\n" for i in range(20000))
ALL_SEATS = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
EVENT = ["--event", "Club Cup", "--key-file", "cup.key"]
SESSION = ["--dv", "1", "--session", "1"]
COMMITTED = ["--commitment", "@commitment"]  # the sample key's commitment, read at run time

# One command line (or several) for every leaf command: each prints to standard output.
CASES: dict[str, list[list[str]]] = {
    "deal": [["deal", "-n", "300", "--format", "pbn", "--seed", "x"], ["deal", "-n", "2"]],
    "rank": [["rank", "bridge", ALL_SEATS]],
    "unrank": [["unrank", "bridge", "0"]],
    "entropy": [["entropy", "bridge"]],
    "dealer": [["dealer", "s.dlr", "--seed", "x"]],
    "shuffle": [
        ["shuffle", "--cards", "100000"],
        ["shuffle", "--file", "names.txt"],
        ["shuffle", "--file", "names.txt", "--memory", "1M", "--seed", "x"],
    ],
    "cards": [["cards", "AS KH"]],
    "deck": [["deck", "--json"], ["deck", "shoe:1000", "--json"]],
    "apply": [["apply", "faro-out", "--cards", "52"]],
    "order": [["order", "faro-out", "--cards", "52", "--trace"]],
    "elmsley": [["elmsley", "--cards", "52", "--to", "5"]],
    "group": [["group", "faro-in", "faro-out", "--cards", "52"]],
    "bigdeal": [["bigdeal", "--owner", "t", "--entropy", "hello", "--boards", "1-99"]],
    "squaredeal new": [
        [
            "squaredeal",
            "new",
            "NEW.sqd",
            "--name",
            "N",
            "--delayed-info",
            "x",
            "--phase",
            "1:1-4:A#:A",
            "--json",  # without it the command writes only a note on stderr
        ]
    ],
    "squaredeal publish": [["squaredeal", "publish", "UNPUB.sqd"]],
    "squaredeal set-dv": [["squaredeal", "set-dv", "NODV.sqd", "7"]],
    "squaredeal make": [
        ["squaredeal", "make", "EV.sqd", "--keys", "EV.sqk", "--out", "made/", "--json"]
    ],
    "squaredeal verify": [["squaredeal", "verify", "EV.sqd", "EV.sqk", "sets/CUP1.pbn"]],
    "boards new-key": [["boards", "new-key", "--event", "Other", "--key-file", "other.key"]],
    "boards commitment": [["boards", "commitment", *EVENT, "--json"]],
    "boards make": [["boards", "make", *EVENT, "--dv", "1", "--session", "1", "--boards", "1-32"]],
    "boards verify": [
        ["boards", "verify", *EVENT, *SESSION, "--boards", "1-4", *COMMITTED, "cup1.pbn"]
    ],
    "convert": [
        ["convert", "session.pbn", "-", "--to", "lin"],
        ["convert", "-", "-", "--from", "pbn", "--to", "pbn"],
    ],
    "handrecord": [["handrecord", "cup1.pbn"], ["handrecord", "session.pbn", "-f", "pdf"]],
    "analyze": [["analyze", "swap-any", "--cards", "3", "--json"]],
    "mixing riffle": [["mixing", "riffle", "--cards", "52", "--json"]],
    "poker eval": [["poker", "eval", "As", "Ks", "Qs", "Js", "Ts", "9h", "2c"]],
    "poker equity": [["poker", "equity", "AsKs", "QhQd", "--board", "2s7sQc", "--json"]],
    "page verify": [["page", "verify", "--out", "verify.html", "--json"]],
}

DETERMINISTIC = [
    ["deal", "-n", "300", "--format", "pbn", "--seed", "x"],
    ["dealer", "s.dlr", "--seed", "x"],
    ["shuffle", "--file", "names.txt", "--memory", "1M", "--seed", "x"],
    ["bigdeal", "--owner", "t", "--entropy", "hello", "--boards", "1-99"],
    ["convert", "session.pbn", "-", "--to", "lin"],
    ["deck", "shoe:1000", "--json"],
]


STDIN_FILE = "session.pbn"  # what a command line reading "-" gets on standard input


def _quiet_run(args: list[str]) -> None:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert run(args) == 0, args


@pytest.fixture(scope="module")
def sample_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with every file the cases read: a script, lines, events, keys, boards."""
    folder = tmp_path_factory.mktemp("samples")
    here = Path.cwd()
    os.chdir(folder)
    try:
        Path("s.dlr").write_text(SCRIPT)
        Path("names.txt").write_text(NAMES)
        phase = ["--delayed-info", "x", "--phase", "1:1-4:CUP#:Cup session #"]
        for name in ("EV", "UNPUB", "NODV"):
            _quiet_run(["squaredeal", "new", f"{name}.sqd", "--name", "Club Cup", *phase])
        for name in ("EV", "NODV"):
            _quiet_run(["squaredeal", "publish", f"{name}.sqd"])
        _quiet_run(["squaredeal", "set-dv", "EV.sqd", "1"])
        _quiet_run(["squaredeal", "make", "EV.sqd", "--keys", "EV.sqk", "--out", "sets/"])
        _quiet_run(["boards", "new-key", *EVENT])
        commitment = io.StringIO()
        with contextlib.redirect_stdout(commitment):
            assert run(["boards", "commitment", *EVENT, "--json"]) == 0
        published = json.loads(commitment.getvalue())["result"]["commitment"]
        Path("commitment.txt").write_text(published)
        _quiet_run(["boards", "make", *EVENT, *SESSION, "--boards", "1-4", "--out", "cup1.pbn"])
        _quiet_run(["deal", "-n", "300", "--format", "pbn", "--seed", "s", "--out", "session.pbn"])
    finally:
        os.chdir(here)
    return folder


Writer = Callable[[int, memoryview], int]


def _run_main(
    args: list[str], folder: Path, writer: Writer, monkeypatch: pytest.MonkeyPatch
) -> tuple[int, str]:
    """Run the console script's ``main`` with ``args`` in a copy of ``folder``; (code, stderr)."""
    work = folder.parent / f"{folder.name}-run"
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(folder, work)
    args = [(work / "commitment.txt").read_text() if a == "@commitment" else a for a in args]
    err = io.StringIO()
    with monkeypatch.context() as patch:
        patch.chdir(work)
        patch.setattr(output, "write_fd", writer)
        patch.setattr(sys, "argv", ["croupier", *args])
        patch.setattr(sys, "stdout", io.StringIO())  # main replaces it; this puts it back
        patch.setattr(sys, "stderr", err)
        stdin = io.TextIOWrapper(io.BytesIO((work / STDIN_FILE).read_bytes()), encoding="utf-8")
        patch.setattr(sys, "stdin", stdin)
        with pytest.raises(SystemExit) as ended:
            main()
    code = ended.value.code
    return (code if isinstance(code, int) else 1), err.getvalue()


def _recorder(sink: bytearray, *, step: int | None = None, fail_after: int | None = None) -> Writer:
    """A system write that keeps what it takes: ``step`` bytes at most per call; after
    ``fail_after`` bytes in all, it fails as a full disk does."""

    def write(fd: int, data: memoryview) -> int:
        assert fd == 1
        room = len(data) if step is None else min(step, len(data))
        if fail_after is not None:
            room = min(room, fail_after - len(sink))
            if room <= 0:
                raise OSError(errno.ENOSPC, "No space left on device")
        sink.extend(data[:room])
        return room

    return write


def _cases() -> Iterator[tuple[str, list[str]]]:
    for name, lines in CASES.items():
        for args in lines:
            yield name, args


def test_every_command_has_a_case() -> None:
    assert set(CASES) == {" ".join(path) for path, _ in leaf_commands()}


def _one_error(err: str) -> str:
    errors = [line for line in err.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, err
    assert "Traceback" not in err and "Exception ignored" not in err, err
    return errors[0]


@pytest.mark.parametrize(("name", "args"), list(_cases()), ids=lambda v: str(v))
def test_a_failed_write_is_one_error_and_a_non_zero_exit(
    name: str, args: list[str], sample_folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    whole = bytearray()
    code, err = _run_main(args, sample_folder, _recorder(whole), monkeypatch)
    assert code == 0 and len(whole) > 0, (name, err)

    exact = args in DETERMINISTIC  # an unseeded output may be longer or shorter next time
    for fail_after in (0, len(whole) // 2, len(whole) - 1)[: 3 if exact else 2]:
        kept = bytearray()
        writer = _recorder(kept, fail_after=fail_after)
        code, err = _run_main(args, sample_folder, writer, monkeypatch)
        assert code != 0, (name, fail_after, err)
        assert "cannot write the output: no space left on device" in _one_error(err)
        if exact:
            assert _starts(whole, kept), (name, fail_after)


@pytest.mark.parametrize("args", DETERMINISTIC, ids=" ".join)
def test_partial_writes_lose_nothing(
    args: list[str], sample_folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    whole, trickle = bytearray(), bytearray()
    assert _run_main(args, sample_folder, _recorder(whole), monkeypatch)[0] == 0
    code, err = _run_main(args, sample_folder, _recorder(trickle, step=1000), monkeypatch)
    assert code == 0, err
    assert len(whole) > 5_000 and _timeless(trickle) == _timeless(whole)


def _starts(whole: bytes | bytearray, kept: bytes | bytearray) -> bool:
    """Whether ``kept`` is the start of ``whole``, but for dealer's "Time needed" line."""
    ours, theirs = _timeless(kept), _timeless(whole)
    if not ours:
        return True
    *full, last = ours
    return theirs[: len(full)] == full and theirs[len(full)].startswith(last)


def _timeless(data: bytes | bytearray) -> list[bytes]:
    """The output's lines but dealer's "Time needed" line (the one line that varies)."""
    return [line for line in bytes(data).splitlines() if not line.startswith(b"Time needed")]


def test_a_closed_pipe_ends_quietly(sample_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def closed(fd: int, data: memoryview) -> int:
        raise BrokenPipeError(errno.EPIPE, "Broken pipe")

    code, err = _run_main(
        ["deal", "-n", "1000", "--format", "oneline"], sample_folder, closed, monkeypatch
    )
    assert code in (0, 1) and err == "", err  # click's habit: exit 1 after a closed pipe


def test_partial_writes_are_retried_to_the_end() -> None:
    sink = bytearray()
    raw = output.StandardOutput(1, write=_recorder(sink, step=3))
    assert raw.write(b"0123456789") == 10 and bytes(sink) == b"0123456789"


def test_a_write_that_takes_nothing_is_an_error_not_a_loop() -> None:
    raw = output.StandardOutput(1, write=lambda fd, data: 0)
    with pytest.raises(output.OutputError):
        raw.write(b"x")


# -- a real full file system ---------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["bigdeal", "--owner", "t", "--entropy", "hello", "--boards", "1-999"],
        ["shuffle", "--cards", "100000"],
        ["deal", "--format", "pbn", "-n", "500"],
        ["convert", "-", "-", "--from", "pbn", "--to", "pbn"],
    ],
)
def test_a_real_full_disk(args: list[str], tmp_path: Path, sample_folder: Path) -> None:
    big = sample_folder / "session.pbn"
    with small_tmpfs(tmp_path) as mount, big.open("rb") as stdin:
        target = mount / "out"
        with target.open("wb") as out:
            done = subprocess.run(
                [sys.executable, "-m", "croupier", *args],
                stdin=stdin,
                stdout=out,
                stderr=subprocess.PIPE,
                text=True,
                timeout=120,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
                check=False,
            )
        assert done.returncode != 0, done.stderr
        assert "no space left on device" in _one_error(done.stderr)


def test_a_real_full_disk_for_a_small_output(tmp_path: Path, sample_folder: Path) -> None:
    with small_tmpfs(tmp_path) as mount:
        (mount / "filler").write_bytes(b"\0" * 65536)  # the disk is full before croupier writes
        with (mount / "out").open("wb") as out:
            done = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "croupier",
                    "convert",
                    str(sample_folder / "session.pbn"),
                    "-",
                    "--to",
                    "json",
                ],
                stdout=out,
                stderr=subprocess.PIPE,
                text=True,
                timeout=120,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
                check=False,
            )
        assert done.returncode != 0
        assert "no space left on device" in _one_error(done.stderr)


# -- errors of the operating system, in words ----------------------------------------------


def test_a_folder_that_cannot_be_made_is_named_as_typed(
    cli: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)

    def read_only(self: Path, *args: object, **kwargs: object) -> None:
        raise OSError(errno.EROFS, "Read-only file system", str(self.resolve()))

    monkeypatch.setattr(Path, "mkdir", read_only)
    r = cli(["deal", "-n", "10", "-f", "oneline", "--workers", "1", "--out", "ro/d/"])
    assert r.code == 2, r.err
    line = _one_error(r.err)
    assert "'ro/d'" in line and "read-only" in line, line
    assert str(tmp_path) not in line and "Errno" not in line


def test_any_other_system_error_is_words_and_a_relative_path(
    cli: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    from croupier.cli import cards_cmd

    def failing(name: str) -> list[object]:
        raise OSError(errno.EIO, "Input/output error", str(tmp_path / "decks" / "x"))

    monkeypatch.setattr(cards_cmd, "make_deck", failing)
    r = cli(["deck", "standard"])
    assert r.code == 2
    assert _one_error(r.err) == "error: 'decks/x': an input/output error on the device"
