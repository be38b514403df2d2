"""Safe file reading and writing: atomic writes, never over an existing file by accident.

A file is written to a temporary file in the target's folder and then moved
into place in one step, so a reader never sees half a file.  Unless
``overwrite`` is asked for, the move is a hard link that fails when the name
is taken, so even a file that appears while croupier is writing is never
replaced.  :func:`write_files_atomically` writes several files all or
nothing.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> write_file(folder / "a.txt", b"one")
>>> write_file(folder / "a.txt", b"two")
Traceback (most recent call last):
...
croupier.files.ExistingFileError: ... already exists; ...
>>> write_file(folder / "a.txt", b"two", overwrite=True); (folder / "a.txt").read_bytes()
b'two'

Temporary files are named ``.<name>.croupier-<host>-<pid>-<random>.tmp``
and created with their final permissions (the kernel applies the umask; a
``private`` file is ``0600`` from its first byte, never readable by others).
The process umask is never changed, so other threads are not affected.  A
temporary left behind by a killed run is removed by the next write into that
folder (:func:`remove_stale_temporaries`).

Errors name the Python parameter (``overwrite=``); the command line shows the
matching flag instead.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import hashlib
import os
import re
import stat
import sys
import threading
import time
from collections.abc import Collection, Iterable, Mapping
from pathlib import Path
from typing import IO

from croupier.errors import FileFormatError
from croupier.frozen import frozen_dataclass

__all__ = [
    "HOST_TAG",
    "STALE_TEMPORARY_SECONDS",
    "AtomicFile",
    "ExistingFileError",
    "FileWriteError",
    "Target",
    "check_new_files",
    "describe_os_error",
    "inspect_target",
    "os_error_words",
    "pid_is_gone",
    "read_bounded",
    "read_failure",
    "remove_stale_temporaries",
    "shown_path",
    "write_file",
    "write_files_atomically",
]

STALE_TEMPORARY_SECONDS = 3600
"""A croupier temporary untouched for this long is stale even if its writer may live."""

HOST_TAG: str  # set on first use, by the module's __getattr__ below
"""This machine in the names of croupier's temporaries (8 hex digits of its host name's hash):
with the writer's process id it tells a stale temporary from one still being written."""


@functools.cache
def _host_tag() -> str:
    """:data:`HOST_TAG`, computed on first use: the host name is ``os.uname()``'s (what
    ``socket.gethostname`` returns, without importing ``socket``), or ``socket``'s where
    there is no ``uname``."""
    if hasattr(os, "uname"):
        name = os.uname().nodename
    else:  # pragma: no cover - Windows
        import socket

        name = socket.gethostname()
    return hashlib.sha256(name.encode("utf-8", "surrogateescape")).hexdigest()[:8]


def __getattr__(name: str) -> str:
    """:data:`HOST_TAG`, the first time it is asked for."""
    if name == "HOST_TAG":
        return _host_tag()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), "HOST_TAG"])


_PUBLIC_MODE = 0o666  # less the umask, applied by the kernel
_PRIVATE_MODE = 0o600
_NAME_KEPT = 80  # characters of the target's name kept in a temporary's name
_TEMPORARY = re.compile(r"\..*\.croupier-([0-9a-f]{8})-([0-9]{1,10})-[0-9a-f]{16}\.tmp", re.DOTALL)
_NO_HARD_LINKS = {
    errno.EPERM,
    errno.EOPNOTSUPP,
    getattr(errno, "ENOTSUP", errno.EOPNOTSUPP),
    errno.ENOSYS,
    errno.EMLINK,
}
_cleaned_folders: set[str] = set()
_cleaned_lock = threading.Lock()


class ExistingFileError(FileFormatError):
    """A file croupier was asked to write exists already (and overwriting was not asked for)."""


class FileWriteError(FileFormatError):
    """Writing a file failed (full disk, no permission, ...); nothing was left half-written.

    >>> isinstance(FileWriteError("x"), ValueError)
    True
    """


def _exists_error(path: Path, what: str = "a file") -> ExistingFileError:
    return ExistingFileError(
        f"{str(path)!r} already exists; croupier never overwrites {what} silently "
        "(choose another name, or overwrite= to replace it)"
    )


def _write_error(path: Path, exc: OSError, what: str = "nothing was written") -> FileWriteError:
    return FileWriteError(f"cannot write {str(path)!r}: {os_error_words(exc)} ({what})")


def _folder(path: Path) -> Path:
    return path.parent if str(path.parent) else Path(".")


_NEW, _REGULAR, _SPECIAL = "new", "regular", "special"


@frozen_dataclass
class Target:
    """What writing to a path will do, found before anything is written (:func:`inspect_target`).

    ``kind`` is ``"new"`` (no file there: one is created at ``real``), ``"regular"``
    (a regular file at ``real`` is replaced atomically, keeping its mode and, where the
    process may, its owner) or ``"special"`` (a character device, a FIFO or a block
    device: written into directly through ``path``, never renamed over).  ``real`` is
    ``path`` with its symbolic links followed, so a link keeps pointing where it did.
    """

    path: Path
    real: Path
    kind: str
    old: os.stat_result | None = None


def _describe_special(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISBLK(mode):
        return "a block device"
    return "a device"


def inspect_target(path: Path, *, overwrite: bool = False) -> Target:
    """How ``path`` would be written, or a one-line error when it cannot be (nothing is changed).

    * nothing there: a new file (its folder must exist);
    * a regular file: replaced atomically, only with ``overwrite``;
    * a symbolic link: followed, so its target is written and the link stays (a link to
      nothing is written only with ``overwrite``: it names a file already);
    * a character device or a FIFO (``/dev/null``, ``/dev/stdout`` on a pipe): written into
      directly, since nothing stored is replaced; a block device (a disk) only with
      ``overwrite``; never renamed over;
    * a folder or a socket: refused.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> inspect_target(folder / "a.txt").kind
    'new'
    >>> _ = (folder / "a.txt").write_bytes(b"x")
    >>> inspect_target(folder / "a.txt", overwrite=True).kind
    'regular'
    >>> (folder / "link").symlink_to(folder / "a.txt")
    >>> inspect_target(folder / "link", overwrite=True).real == folder / "a.txt"
    True
    >>> os.mkfifo(folder / "fifo"); inspect_target(folder / "fifo").kind
    'special'
    >>> inspect_target(folder)
    Traceback (most recent call last):
    ...
    croupier.errors.FileFormatError: cannot write '...': it is a folder; give a file name
    """
    path = Path(path)
    try:
        found = os.lstat(path)
    except FileNotFoundError:
        found = None
    except OSError as exc:
        raise _write_error(path, exc) from None
    if found is None:
        _check_folder(path, path)
        return Target(path, path, _NEW)
    if stat.S_ISLNK(found.st_mode):
        try:
            found = os.stat(path)
        except FileNotFoundError:
            if not overwrite:
                raise _exists_error(path, "a symbolic link") from None
            real = Path(os.path.realpath(path))
            _check_folder(path, real)
            return Target(path, real, _NEW)
        except OSError as exc:
            raise _write_error(path, exc) from None
        real = Path(os.path.realpath(path))
    else:
        real = path
    mode = found.st_mode
    if stat.S_ISDIR(mode):
        raise FileFormatError(f"cannot write {str(path)!r}: it is a folder; give a file name")
    if stat.S_ISSOCK(mode):
        raise FileFormatError(
            f"cannot write {str(path)!r}: it is a socket, which croupier does not write to"
        )
    if stat.S_ISREG(mode):
        if not overwrite:
            raise _exists_error(path)
        return Target(path, real, _REGULAR, found)
    if stat.S_ISBLK(mode) and not overwrite:
        raise _exists_error(path, _describe_special(mode))
    return Target(path, path, _SPECIAL, found)


def _check_folder(path: Path, real: Path) -> None:
    folder = _folder(real)
    if not folder.is_dir():
        raise FileFormatError(f"cannot write {str(path)!r}: folder {str(folder)!r} does not exist")


def check_new_files(paths: Iterable[Path], *, overwrite: bool = False) -> None:
    """Raise before writing anything when one of ``paths`` cannot be written.

    A path naming a folder or a socket, or in a folder that does not exist, is
    refused even with ``overwrite``; an existing file is refused unless
    ``overwrite`` (see :func:`inspect_target` for links, devices and FIFOs).

    >>> check_new_files([Path("/nonexistent/croupier/a.pbn")])
    Traceback (most recent call last):
    ...
    croupier.errors.FileFormatError: cannot write '/nonexistent/croupier/a.pbn': ...
    """
    for path in paths:
        inspect_target(Path(path), overwrite=overwrite)


def _temporary_name(name: str) -> str:
    import secrets  # here: a run that writes no file does without

    kept = name[:_NAME_KEPT]
    while len(os.fsencode(kept)) > _NAME_KEPT:  # file names are limited in bytes (often 255)
        kept = kept[:-1]
    token = secrets.token_hex(8)
    return f".{kept}.croupier-{_host_tag()}-{os.getpid()}-{token}.tmp"


def pid_is_gone(pid: int) -> bool:
    """True only when no process ``pid`` exists on this machine (POSIX); unsure is False.

    A temporary whose writer (named in its name with :data:`HOST_TAG`) is gone can be
    removed at once.

    >>> pid_is_gone(os.getpid())
    False
    """
    if os.name != "posix" or pid <= 0:
        return False
    try:
        os.kill(pid, 0)  # signal 0: only asks whether the process exists
    except ProcessLookupError:
        return True
    except (OverflowError, ValueError):
        return True  # no process can have such a number
    except OSError:  # PermissionError: it exists, owned by someone else
        return False
    return False


def remove_stale_temporaries(folder: Path, *, now: float | None = None) -> list[Path]:
    """Remove croupier's own stale temporary files in ``folder``; return what was removed.

    Only names of croupier's pattern (``.<name>.croupier-<host>-<pid>-<random>.tmp``)
    are considered.  One is stale when its writing process (same host) no
    longer exists, or when it has not changed for :data:`STALE_TEMPORARY_SECONDS`.
    Errors (a folder that cannot be read, a file that cannot be removed) are
    ignored: cleaning is a courtesy, never a reason to fail.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> leftover = folder / f".keys.txt.croupier-{_host_tag()}-999999999-0123456789abcdef.tmp"
    >>> _ = leftover.write_bytes(b"secret")  # as if a run with pid 999999999 was killed
    >>> remove_stale_temporaries(folder) == [leftover], leftover.exists()
    (True, False)
    """
    removed: list[Path] = []
    current = time.time() if now is None else now
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        match = _TEMPORARY.fullmatch(entry.name)
        if match is None:
            continue
        try:
            if not entry.is_file(follow_symlinks=False):
                continue
            age = current - entry.stat(follow_symlinks=False).st_mtime
            host, pid = match.group(1), int(match.group(2))
            mine = host == _host_tag() and pid == os.getpid()
            gone = host == _host_tag() and not mine and pid_is_gone(pid)
            if gone or (not mine and age > STALE_TEMPORARY_SECONDS):
                os.unlink(entry.path)
                removed.append(Path(entry.path))
        except OSError:
            continue
    return removed


def _clean_once(folder: Path) -> None:
    """Remove stale temporaries in ``folder`` the first time this process writes there."""
    key = os.path.abspath(folder)
    with _cleaned_lock:
        if key in _cleaned_folders:
            return
        _cleaned_folders.add(key)
    remove_stale_temporaries(folder)


def _create_temporary(target: Target, *, private: bool, readable: bool = False) -> tuple[int, str]:
    """Create a new, empty temporary next to ``target.real``; return its descriptor and name.

    A new file's temporary is created with its final mode in one system call
    (``0600`` when ``private``, else ``0666`` less the umask), so it is never more
    readable than it will be.  One that replaces a file is created ``0600``, given the
    old file's owner and group where the process may, and then the old file's mode
    (without ``0077`` when ``private``).  ``readable`` opens it for reading too.
    """
    folder = _folder(target.real)
    flags = (os.O_RDWR if readable else os.O_WRONLY) | os.O_CREAT | os.O_EXCL
    flags |= getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    old = target.old if target.kind == _REGULAR else None
    mode = _PRIVATE_MODE if private or old is not None else _PUBLIC_MODE
    while True:
        tmp = os.path.join(folder, _temporary_name(target.real.name))
        try:
            fd = os.open(tmp, flags, mode)
        except FileExistsError:  # pragma: no cover - 64 random bits collided
            continue
        except OSError as exc:
            raise _write_error(target.path, exc) from None
        break
    if old is not None:
        try:
            _take_owner_and_mode(fd, old, private=private)
        except OSError as exc:
            os.close(fd)
            _remove_quietly(tmp)
            raise _write_error(target.path, exc) from None
    return fd, tmp


def _take_owner_and_mode(fd: int, old: os.stat_result, *, private: bool) -> None:
    """Give the file ``fd`` the owner, group and permissions of the file it replaces."""
    if hasattr(os, "fchown") and (old.st_uid, old.st_gid) != (os.geteuid(), os.getegid()):
        try:
            os.fchown(fd, old.st_uid, old.st_gid)
        except PermissionError:  # not root: try the group alone (a member may set it)
            with contextlib.suppress(OSError):
                os.fchown(fd, -1, old.st_gid)
    mode = stat.S_IMODE(old.st_mode) & 0o777  # never set-id bits on a file croupier wrote
    if private:
        mode &= _PRIVATE_MODE
    os.fchmod(fd, mode)


def _write_temporary(target: Target, data: bytes, *, private: bool) -> str:
    """Write ``data`` to a new temporary next to ``target`` (see :func:`_create_temporary`)."""
    fd, tmp = _create_temporary(target, private=private)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
    except OSError as exc:
        _remove_quietly(tmp)
        raise _write_error(target.path, exc) from None
    except BaseException:
        _remove_quietly(tmp)
        raise
    return tmp


def _open_special(target: Target) -> int:
    """Open a device or FIFO for writing, without creating, truncating or renaming anything."""
    flags = os.O_WRONLY | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(target.path, flags)
    except OSError as exc:
        raise _write_error(target.path, exc) from None
    mode = os.fstat(fd).st_mode
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):  # it was swapped for a file a moment ago
        os.close(fd)
        raise FileFormatError(
            f"cannot write {str(target.path)!r}: it changed from a device to a file while "
            "croupier was writing; nothing was written"
        )
    return fd


def _write_special(target: Target, data: bytes) -> None:
    """Write ``data`` into a device or FIFO, every byte or a one-line error."""
    fd = _open_special(target)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    except OSError as exc:
        raise _write_error(target.path, exc, "the device may have taken part of it") from None
    finally:
        os.close(fd)


def _remove_quietly(name: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(name)


def _move_without_overwrite(tmp: str, path: Path) -> None:
    """Give ``tmp`` the name ``path`` unless that name is taken (atomically where possible)."""
    try:
        os.link(tmp, path)  # fails if path exists, even if it appeared a moment ago
    except FileExistsError:
        raise _exists_error(path) from None
    except OSError as exc:
        if exc.errno not in _NO_HARD_LINKS:
            raise
        if os.path.lexists(path):  # pragma: no cover - file systems without hard links
            raise _exists_error(path) from None
        os.replace(tmp, path)  # pragma: no cover
    else:
        _remove_quietly(tmp)


def _replace(tmp: str, target: Target) -> None:
    """Rename ``tmp`` over ``target.real``, unless that is no longer a regular file (or nothing)."""
    try:
        now = os.lstat(target.real)
    except FileNotFoundError:
        now = None
    if now is not None and not stat.S_ISREG(now.st_mode):
        raise FileFormatError(
            f"cannot write {str(target.path)!r}: it is no longer a regular file "
            "(replaced a moment ago); nothing was written"
        )
    os.replace(tmp, target.real)


def _keep_old_version(path: Path) -> str | None:
    """A second name for the file at ``path`` (to put it back on failure), or ``None`` if none."""
    backup = os.path.join(_folder(path), _temporary_name(path.name))
    try:
        os.link(path, backup, follow_symlinks=False)
    except FileNotFoundError:
        return None
    except OSError as exc:  # pragma: no cover - file systems without hard links
        if exc.errno not in _NO_HARD_LINKS:
            raise
        if not path.exists():
            return None
        import shutil

        shutil.copy2(path, backup)
    return backup


def _applies_to(path: Path, choice: bool | Collection[Path]) -> bool:
    """Whether a per-file option (``True``, ``False`` or the paths it names) covers ``path``."""
    if isinstance(choice, bool):
        return choice
    return any(os.path.abspath(path) == os.path.abspath(p) for p in choice)


def write_files_atomically(
    files: Mapping[Path, bytes] | Iterable[tuple[Path, bytes]],
    *,
    overwrite: bool | Collection[Path] = False,
    private: bool | Collection[Path] = False,
) -> None:
    """Write several files all or nothing: every file is written, or none is changed.

    ``files`` maps each path to its bytes.  Every target is checked first
    (as :func:`check_new_files`), every file is written to a temporary, and
    only then are they moved into place; if a move fails (a name taken a
    moment ago, a full disk), the files already moved are removed again (or,
    with ``overwrite``, their previous versions put back) and the error is
    raised.  ``private`` is ``True`` (every file ``0600``) or the paths that
    are; ``overwrite`` likewise is ``True`` or the paths that may replace an
    existing file (the others never do).  A replaced file keeps its mode (and owner,
    where the process may); a symbolic link is followed, so its target is replaced
    and the link stays; a device or FIFO is written into directly, after every
    regular file is in place.  A run killed while moving the files
    into place can leave part of the set; running it again with
    ``overwrite=`` completes it.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> write_file(folder / "b.txt", b"old")
    >>> write_files_atomically({folder / "a.txt": b"A", folder / "b.txt": b"B"})
    Traceback (most recent call last):
    ...
    croupier.files.ExistingFileError: ...b.txt' already exists; ...
    >>> sorted(p.name for p in folder.iterdir())  # a.txt was not written either
    ['b.txt']
    """
    items = [(Path(p), d) for p, d in (files.items() if isinstance(files, Mapping) else files)]
    targets = [(inspect_target(p, overwrite=_applies_to(p, overwrite)), d) for p, d in items]
    seen: set[str] = set()
    for target, _ in targets:
        key = os.path.abspath(target.real)
        if key in seen:
            raise FileFormatError(f"{str(target.path)!r} is given twice; give each file once")
        seen.add(key)
    stored = [(t, d) for t, d in targets if t.kind != _SPECIAL]
    for folder in {os.path.abspath(_folder(t.real)) for t, _ in stored}:
        _clean_once(Path(folder))
    staged: list[tuple[Target, str]] = []
    try:
        for target, data in stored:
            tmp = _write_temporary(target, data, private=_applies_to(target.path, private))
            staged.append((target, tmp))
        _move_all(staged, keep_old=len(staged) > 1)
    finally:
        for _, tmp in staged:
            if os.path.lexists(tmp):
                _remove_quietly(tmp)
    for target, data in targets:
        if target.kind == _SPECIAL:
            _write_special(target, data)


def _move_all(staged: list[tuple[Target, str]], *, keep_old: bool) -> None:
    """Move every temporary into place (replacing the regular files); undo them on failure."""
    moved: list[tuple[Path, str | None]] = []  # (target, its previous version or None)
    backups: list[str] = []
    try:
        for target, tmp in staged:
            replacing = target.kind == _REGULAR
            old = _keep_old_version(target.real) if replacing and keep_old else None
            if old is not None:
                backups.append(old)
            if replacing or target.real != target.path:  # a file, or a dangling link's target
                _replace(tmp, target)
            else:
                _move_without_overwrite(tmp, target.real)
            moved.append((target.real, old))
    except BaseException as exc:
        for path, old in reversed(moved):
            try:
                if old is None:
                    os.unlink(path)
                else:
                    os.replace(old, path)
            except OSError:  # pragma: no cover - undoing failed too
                pass
        if isinstance(exc, OSError):
            what = "nothing was changed" if moved else "nothing was written"
            raise _write_error(staged[len(moved)][0].path, exc, what) from None
        raise
    finally:
        for backup in backups:
            if os.path.lexists(backup):
                _remove_quietly(backup)


def write_file(path: Path, data: bytes, *, overwrite: bool = False, private: bool = False) -> None:
    """Write ``data`` to ``path`` atomically (temporary file in the same folder, then rename).

    The file gets the usual permissions (``0666`` less the umask), or ``0600``
    with ``private=True`` (for secret keys: the temporary is ``0600`` from the
    start); a file it replaces keeps its mode and owner.  A failed write (full
    disk, ...) raises :class:`FileWriteError` and leaves nothing behind.  A
    device or FIFO is written into, never replaced (:func:`inspect_target`).
    See the module docstring for an example.
    """
    write_files_atomically([(Path(path), data)], overwrite=overwrite, private=private)


class AtomicFile:
    """A file written piece by piece that appears under its name only when complete.

    The pieces go to a new temporary in the target's folder (checked first,
    as :func:`check_new_files` does); :meth:`commit` flushes and syncs it and
    moves it into place (never over an existing file unless ``overwrite``),
    :meth:`discard` removes it.  As a context manager it commits on a normal
    exit and discards on an exception.  :attr:`file` is the open temporary
    (readable and seekable, for writers that fill in a header at the end).
    A failed write or move (full disk, ...) raises :class:`FileWriteError`
    and leaves nothing behind.  A device or FIFO (``/dev/null``, a named pipe) is
    written into directly as the pieces come, and :attr:`file` is then neither
    readable nor seekable (:func:`inspect_target`); a symbolic link is followed.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> with AtomicFile(folder / "deals.txt") as out:
    ...     _ = out.write(b"deal 1\\n")
    ...     _ = out.write(b"deal 2\\n")
    ...     (folder / "deals.txt").exists()
    False
    >>> (folder / "deals.txt").read_bytes()
    b'deal 1\\ndeal 2\\n'
    >>> AtomicFile(folder / "deals.txt")
    Traceback (most recent call last):
    ...
    croupier.files.ExistingFileError: ...deals.txt' already exists; ...
    """

    def __init__(self, path: Path, *, overwrite: bool = False, private: bool = False) -> None:
        self.path = Path(path)
        self.overwrite = overwrite
        self.target = inspect_target(self.path, overwrite=overwrite)
        self.file: IO[bytes]
        if self.target.kind == _SPECIAL:
            self.temporary: str | None = None
            self.file = os.fdopen(_open_special(self.target), "wb")
        else:
            _clean_once(_folder(self.target.real))
            fd, self.temporary = _create_temporary(self.target, private=private, readable=True)
            self.file = os.fdopen(fd, "w+b")
        self.done = False

    def write(self, data: bytes) -> int:
        """Append ``data`` to the file; return the number of bytes written."""
        try:
            return self.file.write(data)
        except OSError as exc:
            self.discard()
            raise _write_error(self.path, exc) from None

    def commit(self) -> None:
        """Finish the file and give it its name (nothing happens after the first commit)."""
        if self.done:
            return
        try:
            self.file.flush()
            if self.temporary is None:
                self.file.close()
            else:
                os.fsync(self.file.fileno())
                self.file.close()
                if self.target.kind == _REGULAR or self.target.real != self.path:
                    _replace(self.temporary, self.target)
                else:
                    _move_without_overwrite(self.temporary, self.path)
        except OSError as exc:
            self.discard()
            raise _write_error(self.path, exc) from None
        except BaseException:
            self.discard()
            raise
        self.done = True

    def discard(self) -> None:
        """Close and remove the temporary; the target is left as it was (a device keeps what
        it was given)."""
        self.done = True
        with contextlib.suppress(OSError):
            self.file.close()
        if self.temporary is not None:
            _remove_quietly(self.temporary)

    def __enter__(self) -> AtomicFile:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: object
    ) -> None:
        if kind is None:
            self.commit()
            return
        self.discard()
        if isinstance(exc, OSError) and not isinstance(exc, FileFormatError):
            raise _write_error(self.path, exc) from None


def read_bounded(path: str, limit: int, *, what: str) -> bytes:
    """At most ``limit + 1`` bytes of ``path`` (``-``: standard input), so a caller can refuse more.

    Reading stops one byte past ``limit``: a file too large is never read whole.
    A missing, unreadable or folder path is a one-line error naming ``what``.

    >>> read_bounded("/nonexistent/x.pbn", 10, what="'x.pbn'")
    Traceback (most recent call last):
    ...
    croupier.errors.FileFormatError: cannot read 'x.pbn': no such file
    """
    if path == "-":
        stdin = getattr(sys.stdin, "buffer", None)
        return stdin.read(limit + 1) if stdin is not None else sys.stdin.read(limit + 1).encode()
    try:
        with open(path, "rb") as handle:
            return handle.read(limit + 1)
    except OSError as exc:
        raise FileFormatError(f"cannot read {what}: {read_failure(exc)}") from None


def read_failure(exc: OSError) -> str:
    """Why a file could not be opened for reading, in a few words for a one-line error.

    >>> read_failure(FileNotFoundError(2, "No such file or directory"))
    'no such file'
    """
    if isinstance(exc, IsADirectoryError):
        return "it is a folder, not a file"
    if isinstance(exc, FileNotFoundError):
        return "no such file"
    if isinstance(exc, PermissionError):
        return "permission denied"
    return os_error_words(exc)


_ERRNO_WORDS = {
    errno.ENOSPC: "no space left on device",
    errno.EROFS: "the file system is read-only",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.ENOENT: "no such file or folder",
    errno.EISDIR: "it is a folder, not a file",
    errno.ENOTDIR: "part of the path is a file, not a folder",
    errno.EEXIST: "it already exists",
    errno.EDQUOT: "the disk quota is used up",
    errno.EFBIG: "the file is too large for the file system",
    errno.ENAMETOOLONG: "the name is too long",
    errno.EIO: "an input/output error on the device",
}


def os_error_words(exc: OSError) -> str:
    """What an operating-system error means, in a few lower-case words (no errno number).

    >>> os_error_words(OSError(errno.EROFS, "Read-only file system"))
    'the file system is read-only'
    >>> os_error_words(OSError(errno.EXDEV, "Invalid cross-device link"))
    'invalid cross-device link'
    """
    words = _ERRNO_WORDS.get(exc.errno) if exc.errno is not None else None
    return words or (exc.strerror or type(exc).__name__).lower()


def shown_path(name: str | bytes | os.PathLike[str] | os.PathLike[bytes]) -> str:
    """A path as a user would have typed it: relative to the working folder when inside it.

    >>> shown_path(os.path.join(os.getcwd(), "ro", "d"))
    "'ro/d'"
    >>> shown_path("/etc/x")
    "'/etc/x'"
    """
    text = os.fsdecode(name)
    if os.path.isabs(text):
        here = os.getcwd()
        try:
            inside = os.path.commonpath([here, text]) == here
        except ValueError:  # other drives (Windows)
            inside = False
        if inside and text != here:
            text = os.path.relpath(text, here)
    return repr(text)


def describe_os_error(exc: OSError | UnicodeError) -> str:
    """An error of the operating system as one line in words, naming the file it concerns.

    >>> describe_os_error(OSError(errno.EROFS, "Read-only file system", "/nowhere/ro/d"))
    "'/nowhere/ro/d': the file system is read-only"
    >>> describe_os_error(OSError(errno.ENOSPC, "No space left on device"))
    'no space left on device'
    """
    if isinstance(exc, UnicodeError):
        reason = getattr(exc, "reason", None)
        return "text that cannot be encoded or decoded" + (f" ({reason})" if reason else "")
    words = os_error_words(exc)
    if exc.filename is None:
        return words
    where = shown_path(exc.filename)
    if exc.filename2 is not None:
        where = f"{where} -> {shown_path(exc.filename2)}"
    return f"{where}: {words}"
