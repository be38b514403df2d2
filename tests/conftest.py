"""Shared test helpers."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import settings

from croupier.cli.app import run

# No per-example deadline: timings on a busy 2-core machine are no test of
# correctness.  In CI the examples are derandomized, so a run is repeatable.
settings.register_profile("croupier", deadline=None, print_blob=True)
settings.register_profile("croupier-ci", deadline=None, print_blob=True, derandomize=True)
settings.load_profile("croupier-ci" if os.environ.get("CI") else "croupier")

# Several tests send Ctrl-C (SIGINT) to a croupier they started.  A suite started in the
# background by a non-interactive shell ignores SIGINT, and children inherit an ignored
# signal: give the children the default, as a terminal would.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

ROOT = Path(__file__).resolve().parent.parent
VECTORS = Path(__file__).resolve().parent / "vectors"


@dataclass(frozen=True)
class CliResult:
    """What one ``croupier`` invocation printed and returned."""

    code: int
    out: str
    err: str


CliRunner = Callable[[Sequence[str]], CliResult]


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> CliRunner:
    """Run ``croupier ARGS...`` in-process and capture its output."""

    def invoke(args: Sequence[str]) -> CliResult:
        capsys.readouterr()
        code = run(list(args))
        captured = capsys.readouterr()
        return CliResult(code, captured.out, captured.err)

    return invoke


#: Python source that caps the address space at 1 GiB; child processes start with it.
MEMORY_GUARD = "import resource; resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))\n"

_GUARDED_CLI = MEMORY_GUARD + textwrap.dedent(
    """
    import contextlib, io, json, sys
    from croupier.cli.app import run
    results = []
    for args in json.loads(sys.argv[1]):
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            code = run(args)
        results.append([code, err.getvalue()])
    print(json.dumps(results))
    """
)


def guarded_cli(
    runs: Sequence[Sequence[str]], *, cwd: Path | None = None, timeout: float = 120
) -> list[tuple[int, str]]:
    """Run each ``croupier ARGS`` in one child process with 1 GiB of memory, within ``timeout``.

    For denial-of-service regressions: a limit that stops working makes the
    child fail (MemoryError) or time out, instead of eating the machine.
    Returns ``(exit code, stderr)`` for each run.
    """
    done = subprocess.run(
        [sys.executable, "-c", _GUARDED_CLI, json.dumps([list(r) for r in runs])],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return [(code, err) for code, err in json.loads(done.stdout)]


def dealer_program() -> str:
    """The path of the C program ``dealer`` (Debian package ``dealer``), the peer of the
    differential tests: a test without it skips, except under CI, where it fails."""
    found = shutil.which("dealer") or (
        "/usr/games/dealer" if Path("/usr/games/dealer").exists() else None
    )
    if found is None:
        message = (
            "the C program dealer is missing: install the Debian package (apt-get install dealer)"
        )
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return found


def run_dealer(script: str, seed: int, *, timeout: float = 120) -> str:
    """Standard output of the real ``dealer`` run on ``script`` with ``-s seed`` (must exit 0)."""
    done = subprocess.run(
        [dealer_program(), "-s", str(seed)],
        input=script,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@contextlib.contextmanager
def small_tmpfs(tmp_path: Path, size: str = "64k") -> Iterator[Path]:
    """A tmpfs of ``size`` mounted in ``tmp_path`` (a real disk that fills up), unmounted after.

    Skips the test where mounting is not permitted (not root, no ``mount``), the only
    reason such a test may skip; the injected write failures cover the same paths.
    """
    mount = tmp_path / "small"
    mount.mkdir()
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a small tmpfs needs root; the injected failures cover this")
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(mount)],
        capture_output=True,
        check=False,
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode(errors='replace').strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", str(mount)], check=False)


#: Linux's character devices by (major, minor): tests make their own nodes of these in a
#: temporary folder and never open the system's /dev files.
DEVICES = {"null": (1, 3), "zero": (1, 5), "full": (1, 7)}


def own_device(folder: Path, kind: str) -> Path:
    """A character device node ``kind`` (``null``, ``zero``, ``full``) made in ``folder``.

    Skips the test where ``mknod`` is not permitted (not root, or a file system mounted
    ``nodev``), which is the only reason such a test may skip.
    """
    import stat

    path = folder / f"own-{kind}"
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(*DEVICES[kind]))
        os.close(os.open(path, os.O_RDONLY))
    except (PermissionError, OSError) as exc:
        pytest.skip(f"mknod of a {kind} device is not permitted here: {exc}")
    return path
