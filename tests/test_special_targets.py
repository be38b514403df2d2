"""Writing never replaces what is not a regular file: devices, FIFOs and links stay what they are.

Every special file here is made by the test in its own temporary folder (``mknod``,
``mkfifo``, ``symlink``); no test opens the system's ``/dev`` files.  Device nodes need
the right to ``mknod`` (root, on a file system that allows devices): where that is
missing, only the device cases are skipped.
"""

from __future__ import annotations

import os
import socket
import stat
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from croupier import files
from croupier.errors import FileFormatError
from croupier.files import AtomicFile, ExistingFileError, FileWriteError, write_file
from tests.conftest import CliRunner

NULL_DEVICE = (1, 3)  # Linux's character devices "null" and "full" (writes fail: ENOSPC)
FULL_DEVICE = (1, 7)


def make_device(path: Path, major_minor: tuple[int, int]) -> Path:
    """A character device node at ``path`` (skips the test where mknod is not permitted)."""
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(*major_minor))
    except (PermissionError, AttributeError, OSError) as exc:
        pytest.skip(f"mknod is not permitted here: {exc}")
    try:  # a file system mounted nodev refuses to open device nodes
        os.close(os.open(path, os.O_WRONLY))
    except PermissionError as exc:
        pytest.skip(f"device nodes cannot be opened in this folder: {exc}")
    return path


def is_char_device(path: Path) -> bool:
    return stat.S_ISCHR(os.lstat(path).st_mode)


class FifoReader:
    """Reads everything written into a FIFO, in a thread (so a writer's open does not block)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.data = b""
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        with open(self.path, "rb") as handle:
            self.data = handle.read()

    def finish(self) -> bytes:
        self.thread.join(5)
        if self.thread.is_alive():  # nobody opened it for writing: release the reader
            os.close(os.open(self.path, os.O_WRONLY | os.O_NONBLOCK))
            self.thread.join(5)
        return self.data


@pytest.fixture
def fifo(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "pipe.txt"
    os.mkfifo(path)
    yield path


# --- the library: write_file, write_files_atomically, AtomicFile -----------------------------


def test_a_device_node_is_written_into_and_stays_a_device(tmp_path: Path) -> None:
    node = make_device(tmp_path / "mynull", NULL_DEVICE)
    write_file(node, b"deals\n", overwrite=True)
    write_file(node, b"deals\n")  # nothing stored is replaced: no overwrite needed
    with AtomicFile(node, overwrite=True) as out:
        out.write(b"more\n")
    assert is_char_device(node)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mynull"]  # no temporary left


def test_a_full_device_is_a_one_line_error_and_stays_a_device(tmp_path: Path) -> None:
    node = make_device(tmp_path / "myfull", FULL_DEVICE)
    with pytest.raises(FileWriteError, match="no space left on device"):
        write_file(node, b"x" * 100_000, overwrite=True)
    with (
        pytest.raises(FileWriteError, match="no space left on device"),
        AtomicFile(node, overwrite=True) as out,
    ):
        out.write(b"x" * 100_000)
    assert is_char_device(node)


def test_a_fifo_gets_the_bytes_and_stays_a_fifo(fifo: Path) -> None:
    reader = FifoReader(fifo)
    write_file(fifo, b"one\ntwo\n", overwrite=True)
    assert reader.finish() == b"one\ntwo\n"
    reader = FifoReader(fifo)
    with AtomicFile(fifo) as out:
        out.write(b"streamed ")
        out.write(b"in pieces")
    assert reader.finish() == b"streamed in pieces"
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_a_symlink_is_followed_and_stays_a_link(tmp_path: Path) -> None:
    real = tmp_path / "real.pbn"
    real.write_bytes(b"old")
    link = tmp_path / "link.pbn"
    link.symlink_to(real)
    with pytest.raises(ExistingFileError):
        write_file(link, b"new")
    assert real.read_bytes() == b"old"
    write_file(link, b"new", overwrite=True)
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_bytes() == b"new"
    with AtomicFile(link, overwrite=True) as out:
        out.write(b"newer")
    assert link.is_symlink() and real.read_bytes() == b"newer"


def test_a_link_into_another_folder_is_replaced_there(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    real = tmp_path / "b" / "set.pbn"
    real.write_bytes(b"old")
    link = tmp_path / "a" / "set.pbn"
    link.symlink_to(Path("..") / "b" / "set.pbn")
    write_files_atomically_both = {link: b"new", tmp_path / "a" / "other.pbn": b"o"}
    files.write_files_atomically(write_files_atomically_both, overwrite=True)
    assert link.is_symlink() and real.read_bytes() == b"new"
    assert sorted(p.name for p in (tmp_path / "b").iterdir()) == ["set.pbn"]


def test_a_dangling_link_needs_overwrite_and_then_creates_its_target(tmp_path: Path) -> None:
    link = tmp_path / "out.txt"
    link.symlink_to(tmp_path / "target.txt")
    with pytest.raises(ExistingFileError, match="symbolic link"):
        write_file(link, b"x")
    assert not (tmp_path / "target.txt").exists()
    write_file(link, b"x", overwrite=True)
    assert link.is_symlink() and (tmp_path / "target.txt").read_bytes() == b"x"


def test_a_link_to_a_fifo_is_written_through(tmp_path: Path, fifo: Path) -> None:
    link = tmp_path / "out"
    link.symlink_to(fifo)
    reader = FifoReader(fifo)
    write_file(link, b"through the link", overwrite=True)
    assert reader.finish() == b"through the link"
    assert link.is_symlink() and stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_a_socket_and_a_folder_are_refused(tmp_path: Path) -> None:
    name = tmp_path / "s.sock"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        server.bind(str(name))
        with pytest.raises(FileFormatError, match="socket"):
            write_file(name, b"x", overwrite=True)
        assert stat.S_ISSOCK(os.lstat(name).st_mode)
    finally:
        server.close()
    with pytest.raises(FileFormatError, match="folder"):
        write_file(tmp_path, b"x", overwrite=True)


def test_a_block_device_is_never_written_without_overwrite(tmp_path: Path) -> None:
    node = tmp_path / "disk"
    try:
        os.mknod(node, stat.S_IFBLK | 0o600, os.makedev(7, 200))  # a loop device number
    except (PermissionError, OSError) as exc:
        pytest.skip(f"mknod is not permitted here: {exc}")
    with pytest.raises(ExistingFileError, match="block device"):
        write_file(node, b"x")
    assert stat.S_ISBLK(os.lstat(node).st_mode)


@pytest.mark.parametrize("private", [False, True])
def test_a_replaced_file_keeps_its_mode(tmp_path: Path, private: bool) -> None:
    old_mask = os.umask(0o022)
    try:
        target = tmp_path / "keys.txt"
        target.write_bytes(b"old")
        os.chmod(target, 0o640)  # group-readable, more private than the umask's 0644
        write_file(target, b"new", overwrite=True, private=private)
        assert stat.S_IMODE(target.stat().st_mode) == (0o600 if private else 0o640)
        os.chmod(target, 0o604)
        with AtomicFile(target, overwrite=True) as out:
            out.write(b"newer")
        assert stat.S_IMODE(target.stat().st_mode) == 0o604
        assert target.read_bytes() == b"newer"
    finally:
        os.umask(old_mask)


def test_a_replaced_file_keeps_its_owner_where_the_process_may(tmp_path: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("only root may give a file to another user")
    target = tmp_path / "theirs.txt"
    target.write_bytes(b"old")
    os.chown(target, 12345, 23456)
    os.chmod(target, 0o600)
    write_file(target, b"new", overwrite=True)
    found = target.stat()
    assert (found.st_uid, found.st_gid, stat.S_IMODE(found.st_mode)) == (12345, 23456, 0o600)


def test_a_new_file_through_a_race_never_replaces_a_device(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The target was a regular file when checked and a FIFO when the move came: refused.
    target = tmp_path / "out.txt"
    target.write_bytes(b"old")
    real_inspect = files.inspect_target

    def inspect_then_swap(path: Path, *, overwrite: bool = False) -> files.Target:
        found = real_inspect(path, overwrite=overwrite)
        target.unlink()
        os.mkfifo(target)
        return found

    monkeypatch.setattr(files, "inspect_target", inspect_then_swap)
    with pytest.raises(FileFormatError, match="no longer a regular file"):
        write_file(target, b"new", overwrite=True)
    assert stat.S_ISFIFO(os.lstat(target).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]


# --- every command that writes a file ---------------------------------------------------------


def _inputs(folder: Path, cli: CliRunner) -> None:
    assert (
        cli(
            [
                "deal",
                "--count",
                "4",
                "--format",
                "pbn",
                "--seed",
                "in",
                "--out",
                str(folder / "in.pbn"),
            ]
        ).code
        == 0
    )
    (folder / "in.txt").write_text("a\nb\nc\nd\n")
    (folder / "s.dl").write_text("produce 2\naction printoneline\n")
    assert cli(["boards", "new-key", "--event", "E", "--key-file", str(folder / "k.key")]).code == 0


#: Each command that writes to a file it is given, with ``{out}`` for that file.
WRITERS: dict[str, Callable[[Path, str], list[str]]] = {
    "page verify": lambda d, out: ["page", "verify", "-o", out, "--overwrite"],
    "shuffle --file": lambda d, out: [
        "shuffle",
        "--file",
        str(d / "in.txt"),
        "-o",
        out,
        "--overwrite",
        "--seed",
        "s",
    ],
    "shuffle -n": lambda d, out: [
        "shuffle",
        "--file",
        str(d / "in.txt"),
        "-n",
        "2",
        "-o",
        out,
        "--overwrite",
        "--seed",
        "s",
    ],
    "deal": lambda d, out: ["deal", "--seed", "s", "--out", out, "--overwrite"],
    "deal pbn": lambda d, out: [
        "deal",
        "--seed",
        "s",
        "--count",
        "3",
        "--format",
        "pbn",
        "--out",
        out,
        "--overwrite",
    ],
    "convert": lambda d, out: ["convert", str(d / "in.pbn"), out, "--to", "lin", "--overwrite"],
    "handrecord": lambda d, out: [
        "handrecord",
        str(d / "in.pbn"),
        "--format",
        "html",
        "--out",
        out,
        "--overwrite",
    ],
    "dealer": lambda d, out: ["dealer", str(d / "s.dl"), "-s", "1", "-o", out, "--overwrite"],
    "boards make": lambda d, out: [
        "boards",
        "make",
        "--event",
        "E",
        "--key-file",
        str(d / "k.key"),
        "--dv",
        "1",
        "--session",
        "1",
        "--boards",
        "1-2",
        "--out",
        out,
        "--overwrite",
    ],
    "bigdeal": lambda d, out: [
        "bigdeal",
        "--owner",
        "t",
        "--entropy",
        "a long entropy string nobody knows 91",
        "-b",
        "1-2",
        "-o",
        out,
        "--overwrite",
    ],
    "analyze --plot": lambda d, out: [
        "analyze",
        "swap-any",
        "--cards",
        "3",
        "--plot",
        out,
        "--overwrite",
    ],
}


def _out_name(command: str) -> str:
    return "out.svg" if command == "analyze --plot" else "out.html"


@pytest.mark.parametrize("command", sorted(WRITERS))
def test_every_command_writes_into_a_device_node_and_leaves_it_a_device(
    tmp_path: Path, cli: CliRunner, command: str
) -> None:
    _inputs(tmp_path, cli)
    node = make_device(tmp_path / _out_name(command), NULL_DEVICE)
    result = cli(WRITERS[command](tmp_path, str(node)))
    assert result.code == 0, result.err
    assert is_char_device(node)


@pytest.mark.parametrize("command", sorted(WRITERS))
def test_every_command_writes_through_a_link_into_a_fifo(
    tmp_path: Path, cli: CliRunner, command: str
) -> None:
    _inputs(tmp_path, cli)
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    link = tmp_path / _out_name(command)
    link.symlink_to(pipe)
    reader = FifoReader(pipe)
    result = cli(WRITERS[command](tmp_path, str(link)))
    data = reader.finish()
    assert result.code == 0, result.err
    assert data, "nothing reached the FIFO"
    assert link.is_symlink() and stat.S_ISFIFO(os.lstat(pipe).st_mode)


@pytest.mark.parametrize("command", sorted(WRITERS))
def test_every_command_replaces_a_linked_file_keeping_link_and_mode(
    tmp_path: Path, cli: CliRunner, command: str
) -> None:
    _inputs(tmp_path, cli)
    (tmp_path / "store").mkdir()
    real = tmp_path / "store" / _out_name(command)
    real.write_bytes(b"old contents")
    os.chmod(real, 0o640)
    link = tmp_path / _out_name(command)
    link.symlink_to(real)
    result = cli(WRITERS[command](tmp_path, str(link)))
    assert result.code == 0, result.err
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_bytes() not in (b"", b"old contents")
    assert stat.S_IMODE(real.stat().st_mode) == 0o640
    assert sorted(p.name for p in (tmp_path / "store").iterdir()) == [real.name]


def test_squaredeal_new_writes_through_a_link_and_keeps_it(tmp_path: Path, cli: CliRunner) -> None:
    real = tmp_path / "real.sqd"
    real.write_bytes(b"old")
    link = tmp_path / "EV.sqd"
    link.symlink_to(real)
    args = ["squaredeal", "new", str(link), "--name", "Cup", "--phase", "1:1-4:CUP#:Cup #"]
    refused = cli(args)
    assert refused.code == 2 and "already exists" in refused.err
    assert real.read_bytes() == b"old"
    result = cli([*args, "--overwrite"])
    assert result.code == 0, result.err
    assert link.is_symlink() and b"Cup" in real.read_bytes()


# --- "-" is standard output wherever --out/-o is taken -----------------------------------------

DASH_WRITERS = sorted(set(WRITERS) - {"analyze --plot", "convert"})


@pytest.mark.parametrize("command", DASH_WRITERS)
def test_dash_is_standard_output_and_never_a_file_named_dash(
    tmp_path: Path, cli: CliRunner, command: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _inputs(tmp_path, cli)
    monkeypatch.chdir(tmp_path)
    to_file = cli(WRITERS[command](tmp_path, str(tmp_path / "reference.out")))
    assert to_file.code == 0, to_file.err
    result = cli(WRITERS[command](tmp_path, "-"))
    assert result.code == 0, result.err
    assert not os.path.lexists(tmp_path / "-")
    written = (tmp_path / "reference.out").read_bytes()
    if "--seed" in WRITERS[command](tmp_path, "-") or command in {"boards make", "page verify"}:
        assert result.out.encode() == written  # reproducible: the same bytes as the file
    else:
        assert len(result.out.encode()) == len(written)
