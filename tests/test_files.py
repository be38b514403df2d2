"""File safety: modes without the umask, private temporaries, stale cleanup, all or nothing."""

from __future__ import annotations

import errno
import os
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from croupier import files
from croupier.errors import FileFormatError
from croupier.files import (
    STALE_TEMPORARY_SECONDS,
    ExistingFileError,
    FileWriteError,
    remove_stale_temporaries,
    write_file,
    write_files_atomically,
)

ROOT = Path(__file__).resolve().parents[1]


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def umask() -> Iterator[int]:
    """Run with umask 022 (restored afterwards)."""
    old = os.umask(0o022)
    try:
        yield 0o022
    finally:
        os.umask(old)


def temporary_name(target: str, *, host: str | None = None, pid: int = 999_999_999) -> str:
    """A name of croupier's temporary pattern (pid 999999999 exists on no system)."""
    return f".{target}.croupier-{host or files.HOST_TAG}-{pid}-0123456789abcdef.tmp"


# --- modes, computed without touching the umask ---------------------------------------------


@pytest.mark.parametrize("mask", [0o022, 0o077, 0o002, 0o027])
def test_modes_respect_the_umask_and_the_umask_is_never_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mask: int
) -> None:
    old = os.umask(mask)
    try:

        def no_umask(_: int) -> int:
            raise AssertionError("os.umask changes the mask of every thread of the process")

        monkeypatch.setattr(os, "umask", no_umask)
        write_file(tmp_path / "set.pbn", b"x")
        write_file(tmp_path / "keys.sqk", b"k", private=True)
        write_files_atomically({tmp_path / "a.txt": b"a", tmp_path / "b.txt": b"b"})
        write_file(tmp_path / "set.pbn", b"y", overwrite=True)
    finally:
        monkeypatch.undo()
        os.umask(old)
    assert mode(tmp_path / "set.pbn") == 0o666 & ~mask
    assert mode(tmp_path / "a.txt") == mode(tmp_path / "b.txt") == 0o666 & ~mask
    assert mode(tmp_path / "keys.sqk") == 0o600 & ~mask


def test_other_threads_never_see_a_zero_umask_while_files_are_written(
    tmp_path: Path, umask: int
) -> None:
    stop = threading.Event()
    wrong: list[int] = []

    def create_files() -> None:  # what any other thread of a server does
        i = 0
        while not stop.is_set():
            name = tmp_path / f"other-{i}"
            os.close(os.open(name, os.O_CREAT | os.O_WRONLY, 0o666))
            if mode(name) != 0o666 & ~umask:
                wrong.append(mode(name))
            os.unlink(name)
            i += 1

    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    other = threading.Thread(target=create_files)
    other.start()
    try:
        for i in range(300):
            write_file(tmp_path / f"ours-{i}.txt", b"x")
    finally:
        stop.set()
        other.join(timeout=30)
        sys.setswitchinterval(before)
    assert not wrong
    assert all(mode(tmp_path / f"ours-{i}.txt") == 0o644 for i in range(300))


# --- private files: 0600 from the first byte, temporaries of our own naming ------------------


@pytest.mark.parametrize(("private", "expected"), [(True, 0o600), (False, 0o644)])
def test_the_temporary_has_its_final_mode_from_the_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, umask: int, private: bool, expected: int
) -> None:
    seen: list[tuple[str, int]] = []
    real_fsync = os.fsync

    def spy(fd: int) -> None:  # called while the temporary holds all the data
        seen.extend((p.name, mode(p)) for p in tmp_path.iterdir())
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", spy)
    write_file(tmp_path / "k.sqk", b"secret", private=private)
    [(name, first_mode)] = seen
    assert first_mode == expected
    assert name.startswith(".k.sqk.croupier-") and name.endswith(".tmp")
    assert files._TEMPORARY.fullmatch(name)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["k.sqk"]


def test_a_killed_write_leaves_only_a_private_temporary_which_the_next_run_removes(
    tmp_path: Path,
) -> None:
    # A writer killed with SIGKILL after writing the temporary and before the rename.
    script = (
        "import os, sys, time\n"
        "from pathlib import Path\n"
        "from croupier import files\n"
        "def stuck(fd):\n"
        "    print('written', flush=True)\n"
        "    time.sleep(60)\n"
        "os.fsync = stuck\n"
        "files.write_file(Path(sys.argv[1]) / 'event.sqk', b'KEY MATERIAL', private=True)\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", script, str(tmp_path)],
        stdout=subprocess.PIPE,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
    )
    try:
        assert proc.stdout is not None and proc.stdout.readline() == b"written\n"
    finally:
        proc.kill()
        proc.wait(timeout=30)
    [left] = list(tmp_path.iterdir())
    assert files._TEMPORARY.fullmatch(left.name) and f"-{proc.pid}-" in left.name
    assert mode(left) == 0o600  # the secret is never readable by others, even left behind
    assert left.read_bytes() == b"KEY MATERIAL"
    write_file(tmp_path / "next.txt", b"the next run")  # any write into the folder cleans up
    assert sorted(p.name for p in tmp_path.iterdir()) == ["next.txt"]


def test_stale_rules(tmp_path: Path) -> None:
    now = time.time()
    old = now - STALE_TEMPORARY_SECONDS - 60
    names = {
        "dead writer": temporary_name("a.txt"),
        "live writer, old": temporary_name("b.txt", pid=os.getppid()),
        "live writer, fresh": temporary_name("c.txt", pid=os.getppid()),
        "this process, old": temporary_name("d.txt", pid=os.getpid()),
        "other host, fresh": temporary_name("e.txt", host="0" * 8),
        "other host, old": temporary_name("f.txt", host="1" * 8),
        "not ours": ".g.txt.tmp",
        "not ours either": ".h.txt.croupier-xyz.tmp",
    }
    for what, name in names.items():
        (tmp_path / name).write_bytes(b"x")
        if "old" in what or "not ours" in what:
            os.utime(tmp_path / name, (old, old))
    removed = {p.name for p in remove_stale_temporaries(tmp_path, now=now)}
    assert removed == {
        names["dead writer"],
        names["live writer, old"],
        names["other host, old"],
    }
    assert {p.name for p in tmp_path.iterdir()} == set(names.values()) - removed


def test_cleaning_never_fails_a_write(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / temporary_name("a.txt")).write_bytes(b"x")

    def refuse(path: str) -> None:
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(os, "unlink", refuse)
    assert remove_stale_temporaries(tmp_path) == []
    assert remove_stale_temporaries(tmp_path / "missing") == []


@pytest.mark.parametrize("name", ["n" * 240 + ".pbn", "ü" * 120 + ".pbn", "月" * 80 + ".pbn"])
def test_a_long_target_name_still_gets_a_temporary(tmp_path: Path, name: str) -> None:
    write_file(tmp_path / name, b"x")
    assert [p.name for p in tmp_path.iterdir()] == [name]


# --- errors: one line, nothing left behind ----------------------------------------------------


def test_a_full_disk_is_a_one_line_error_and_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(FileWriteError) as caught:
        write_file(tmp_path / "deals.pbn", b"x" * 1000)
    message = str(caught.value)
    assert "\n" not in message and "deals.pbn" in message and "no space left" in message
    assert isinstance(caught.value, FileFormatError) and isinstance(caught.value, ValueError)
    assert list(tmp_path.iterdir()) == []


def test_an_unwritable_folder_is_a_one_line_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(path: str, flags: int, mode: int = 0o777) -> int:
        raise PermissionError(errno.EACCES, "Permission denied", path)

    monkeypatch.setattr(os, "open", refuse)
    with pytest.raises(FileWriteError) as caught:
        write_file(tmp_path / "a.txt", b"x")
    assert str(caught.value) == f"cannot write {str(tmp_path / 'a.txt')!r}: permission denied " + (
        "(nothing was written)"
    )
    assert list(tmp_path.iterdir()) == []


# --- several files, all or nothing ------------------------------------------------------------


def test_several_files_are_refused_together_when_one_exists(tmp_path: Path) -> None:
    (tmp_path / "b.txt").write_bytes(b"theirs")
    with pytest.raises(ExistingFileError, match=r"b\.txt"):
        write_files_atomically({tmp_path / "a.txt": b"A", tmp_path / "b.txt": b"B"})
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.txt"]
    assert (tmp_path / "b.txt").read_bytes() == b"theirs"


def test_the_same_file_twice_is_refused(tmp_path: Path) -> None:
    with pytest.raises(FileFormatError, match="given twice"):
        write_files_atomically([(tmp_path / "a.txt", b"1"), (tmp_path / "." / "a.txt", b"2")])
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("failure", [OSError(errno.ENOSPC, "No space left"), KeyboardInterrupt()])
def test_a_failure_while_moving_into_place_undoes_the_new_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failure: BaseException
) -> None:
    real_link = os.link
    calls = []

    def link_then_fail(src: str, dst: Path) -> None:
        calls.append(dst)
        if len(calls) == 3:
            raise failure
        real_link(src, dst)

    monkeypatch.setattr(os, "link", link_then_fail)
    targets = {tmp_path / f"CUP{i}.pbn": f"session {i}".encode() for i in range(1, 5)}
    with (
        pytest.raises(type(failure))
        if isinstance(failure, KeyboardInterrupt)
        else pytest.raises(FileWriteError, match=r"CUP3\.pbn.*nothing was changed")
    ):
        write_files_atomically(targets)
    assert list(tmp_path.iterdir()) == []  # CUP1 and CUP2 removed again, no temporaries
    monkeypatch.undo()
    write_files_atomically(targets)  # and the operation can simply be run again
    assert {p: p.read_bytes() for p in tmp_path.iterdir()} == targets


def test_a_failed_overwrite_puts_the_previous_versions_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    old = {tmp_path / "set.sqd": b"old sqd", tmp_path / "set.sqk": b"old keys"}
    write_files_atomically(old, private=[tmp_path / "set.sqk"])
    assert mode(tmp_path / "set.sqk") == 0o600
    real_replace = os.replace

    def replace_then_fail(src: str, dst: str | Path) -> None:
        if Path(dst).name == "set.sqk":
            raise OSError(errno.EIO, "Input/output error")
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", replace_then_fail)
    with pytest.raises(FileWriteError, match=r"set\.sqk"):
        write_files_atomically(
            {tmp_path / "set.sqd": b"new sqd", tmp_path / "set.sqk": b"new keys"}, overwrite=True
        )
    monkeypatch.undo()
    assert {p: p.read_bytes() for p in tmp_path.iterdir()} == old


def test_overwriting_several_files_replaces_them_all(tmp_path: Path) -> None:
    write_files_atomically({tmp_path / "a": b"1", tmp_path / "b": b"2"})
    write_files_atomically({tmp_path / "a": b"3", tmp_path / "b": b"4"}, overwrite=True)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == {"a": b"3", "b": b"4"}


def test_overwrite_can_name_the_files_it_applies_to(tmp_path: Path) -> None:
    (tmp_path / "event.sqd").write_bytes(b"old sqd")
    (tmp_path / "event.sqk").write_bytes(b"someone's keys")
    both = {tmp_path / "event.sqd": b"new sqd", tmp_path / "event.sqk": b"new keys"}
    with pytest.raises(ExistingFileError, match=r"event\.sqk"):
        write_files_atomically(both, overwrite=[tmp_path / "event.sqd"])
    assert (tmp_path / "event.sqd").read_bytes() == b"old sqd"  # nothing changed
    (tmp_path / "event.sqk").unlink()
    write_files_atomically(
        both, overwrite=[tmp_path / "event.sqd"], private=[tmp_path / "event.sqk"]
    )
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == {
        "event.sqd": b"new sqd",
        "event.sqk": b"new keys",
    }
    assert mode(tmp_path / "event.sqk") == 0o600
