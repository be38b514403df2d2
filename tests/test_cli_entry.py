"""The program as a process: Ctrl-C at any moment, full disks, ``--debug`` as a value."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import CliRunner, own_device

CROUPIER = [sys.executable, "-m", "croupier"]


def _interrupt_while_importing(module: str, args: list[str]) -> subprocess.CompletedProcess[str]:
    """Run ``croupier ARGS`` and deliver SIGINT exactly while ``module`` is being imported."""
    code = (
        "import builtins, os, signal, sys\n"
        "real = builtins.__import__\n"
        "def spy(name, *args, **kwargs):\n"
        f"    if name == {module!r}:\n"
        "        os.kill(os.getpid(), signal.SIGINT)\n"
        "    return real(name, *args, **kwargs)\n"
        "builtins.__import__ = spy\n"
        f"sys.argv = ['croupier', *{args!r}]\n"
        "from croupier.cli.entry import main\n"
        "main()\n"
    )
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize(
    ("args", "module"),
    [
        (["deal"], "croupier.cli.deal_run"),  # croupier deal's quick path: no Typer
        (["deal"], "numpy"),
        (["deal"], "croupier.dealing.deal"),
        (["deal", "--help"], "croupier.cli.app"),  # the whole command line, with Typer
        (["deal", "--help"], "typer"),
        (["cards", "AS"], "typer"),
    ],
)
def test_ctrl_c_during_start_up_exits_130_quietly(args: list[str], module: str) -> None:
    proc = _interrupt_while_importing(module, args)
    assert proc.returncode == 130, proc.stderr
    assert "Traceback" not in proc.stderr
    assert proc.stdout == ""


def test_ctrl_c_during_a_long_run_exits_130_quietly(tmp_path: Path) -> None:
    with (tmp_path / "out.json").open("w") as out:
        proc = subprocess.Popen(
            [*CROUPIER, "deal", "--count", "1000000", "--format", "json"],
            stdout=out,
            stderr=subprocess.PIPE,
            text=True,
        )
        time.sleep(1.0)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    "args",
    [
        ["deal"],
        ["deal", "--count", "2000", "--format", "json"],
        ["deal", "--count", "3", "--format", "pbn"],
        ["shuffle", "--cards", "5000"],
        ["cards", "AS KH"],
    ],
)
def test_a_full_disk_is_an_error_not_a_truncated_success(args: list[str], tmp_path: Path) -> None:
    with open(own_device(tmp_path, "full"), "w") as full:  # never the system's /dev/full
        proc = subprocess.run(
            [*CROUPIER, *args], stdout=full, stderr=subprocess.PIPE, text=True, timeout=60
        )
    assert proc.returncode != 0
    errors = [line for line in proc.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "no space left on device" in errors[0].lower(), proc.stderr
    assert "Traceback" not in proc.stderr and "Exception ignored" not in proc.stderr


def test_debug_as_an_option_value_is_just_a_value(cli: CliRunner) -> None:
    seeded = cli(["deal", "--seed", "--debug", "--format", "pbn"])
    assert seeded.code == 0
    assert seeded.out == cli(["deal", "--seed=--debug", "--format", "pbn"]).out
    bad = cli(["cards", "AS", "--sort", "--debug"])
    assert bad.code == 2 and bad.err.startswith("error: ") and len(bad.err.splitlines()) == 1


END_NOW = """
import atexit, sys, threading
atexit.register(lambda: print("finalized", flush=True))
from croupier.cli.entry import _end_now
other = threading.Event()
if sys.argv[1] != "alone":
    name = "croupier-pool" if sys.argv[1] == "worker" else "someone else's"
    threading.Thread(target=other.wait, name=name, daemon=sys.argv[1] == "worker").start()
print("written", flush=True)
sys.stderr.write("said")  # (not flushed: _end_now flushes it)
_end_now(3)
print("returned", flush=True)
other.set()
sys.exit(4)
"""


@pytest.mark.parametrize(
    ("threads", "code", "out"),
    [
        ("alone", 3, "written\n"),  # ended at once: no finalization, nothing after
        ("worker", 3, "written\n"),  # an idle croupier worker does not hold the exit
        ("other", 4, "written\nreturned\nfinalized\n"),  # someone else's thread: as usual
    ],
)
def test_a_quick_path_ends_once_its_output_is_out_unless_another_thread_runs(
    threads: str, code: int, out: str
) -> None:
    run = subprocess.run(
        [sys.executable, "-c", END_NOW, threads], capture_output=True, text=True, timeout=60
    )
    assert (run.returncode, run.stdout, run.stderr) == (code, out, "said")


def test_a_quick_paths_long_output_reaches_a_pipe_whole(tmp_path: Path) -> None:
    lines = [b"line %d" % i for i in range(200_000)]  # 2 MB: many times a pipe's buffer
    (tmp_path / "in.txt").write_bytes(b"\n".join(lines) + b"\n")
    args = [*CROUPIER, "shuffle", "--file", "in.txt", "--seed", "s", "--quiet"]
    run = subprocess.run(args, cwd=tmp_path, capture_output=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert sorted(run.stdout.splitlines()) == sorted(lines)
    again = subprocess.run([*args, "-o", "out.txt"], cwd=tmp_path, capture_output=True, timeout=120)
    assert again.returncode == 0 and (tmp_path / "out.txt").read_bytes() == run.stdout
