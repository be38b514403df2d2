"""Benchmark: the start-up time of ``import croupier``, ``croupier deal`` and a one-deal
``croupier dealer`` script, against the bare ``python -c "import numpy"``.

Short runs are dominated by start-up: a bridge deal or a one-deal script takes
a few milliseconds once the program has started.  The yardstick is the floor of
any numpy program, ``python -c "import numpy"``, measured in the same run:

* ``python -c "import croupier"``: at most :data:`TARGETS` ``["import"]`` times it;
* ``croupier deal`` (one bridge deal, default options, the README's main job);
* ``croupier dealer one.dlr`` (``produce 1``, ``action printall``; see
  ``docs/dealer-language.md``).

The quick paths of ``croupier deal`` and ``croupier dealer`` let numpy's idle OpenBLAS
threads sleep at once (``OPENBLAS_THREAD_TIMEOUT=4``, see :mod:`croupier.cli.entry`);
for comparison the bench also times ``python -c "import numpy"`` under that setting
(``numpy-4``) and prints the commands' ratios to it (no target).

Runs interleave (numpy, import, deal, dealer, numpy-4, numpy, ...) and the ratio of
each command is taken between the best of its runs and the best of numpy's
(best of :data:`RUNS`: the machine may be shared, and a slow run is noise).
The medians are printed too, and the median of the ratios round by round (each
command over the numpy run of its own round), which a busy machine moves less.
Python starts as for an installed package: byte code cached
(``PYTHONDONTWRITEBYTECODE`` removed, caches under ``PYTHONPYCACHEPREFIX``, kept
between runs of the bench), after one untimed warm-up run of each command that
fills those caches and croupier's cache of parsed scripts.  Only public tools are
used: each command is timed as a whole process (wall time, ``time.perf_counter``
around ``subprocess.run``).

Run: ``.venv/bin/python bench/bench_startup.py [--runs N]``
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

ONE_DEAL = "produce 1\naction printall\n"
"""The one-deal dealer script."""
RUNS = 15
"""Timed runs of each command (after one warm-up run)."""
TARGETS = {"import": 1.3, "deal": 1.5, "dealer": 1.5}
"""Target: each command's best time over the best time of ``python -c "import numpy"``."""


def _croupier_command() -> list[str]:
    """The installed ``croupier`` script next to this Python, else ``python -m croupier``."""
    script = Path(sys.executable).with_name("croupier")
    return [str(script)] if script.exists() else [sys.executable, "-m", "croupier"]


def _python_env(cache: Path) -> dict[str, str]:
    """The environment of an installed package: byte code cached (in ``cache``)."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(cache)
    return env


def _wall(command: Sequence[str], env: dict[str, str]) -> float:
    """Wall time of one run of ``command`` (output discarded; a failure ends the bench)."""
    start = time.perf_counter()
    done = subprocess.run(
        list(command), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, check=False
    )
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(
            f"{' '.join(command)} failed ({done.returncode}): {done.stderr.decode()[-300:]}"
        )
    return seconds


def commands(script: Path) -> dict[str, list[str]]:
    """The yardsticks and the three commands measured, by name."""
    croupier = _croupier_command()
    return {
        "numpy": [sys.executable, "-c", "import numpy"],
        "import": [sys.executable, "-c", "import croupier"],
        "deal": [*croupier, "deal"],
        "dealer": [*croupier, "dealer", str(script)],
        "numpy-4": [
            sys.executable,
            "-c",
            "import os; os.environ['OPENBLAS_THREAD_TIMEOUT'] = '4'; import numpy",
        ],
    }


def measure(script: Path, cache: Path, runs: int) -> dict[str, list[float]]:
    """Every command's wall times, ``runs`` each, interleaved, after one warm-up each."""
    env = _python_env(cache)
    named = commands(script)
    for command in named.values():
        _wall(command, env)  # warm-up: byte code, the parsed script, the page cache
    times: dict[str, list[float]] = {name: [] for name in named}
    for _ in range(runs):
        for name, command in named.items():
            times[name].append(_wall(command, env))
    return times


def report(times: dict[str, list[float]]) -> None:
    """One line per command: best and median seconds, and the ratio to the numpy import."""
    anchor = min(times["numpy"])
    runs = len(times["numpy"])
    print(f"start-up, best / median of {runs} interleaved runs (bytecode cached)")
    print(
        f"  {'numpy':<8} {anchor * 1000:7.1f} / {statistics.median(times['numpy']) * 1000:7.1f}"
        " ms  (python -c 'import numpy': the yardstick)"
    )
    for name, target in TARGETS.items():
        best = min(times[name])
        ratio = best / anchor
        verdict = "ok" if ratio <= target else "MISS"
        rounds = statistics.median(t / n for t, n in zip(times[name], times["numpy"], strict=True))
        print(
            f"  {name:<8} {best * 1000:7.1f} / {statistics.median(times[name]) * 1000:7.1f} ms"
            f"  {ratio:5.2f}x numpy (target <= {target:g}: {verdict}); round by round "
            f"{rounds:.2f}x"
        )
    quiet = min(times["numpy-4"])
    print(
        f"  {'numpy-4':<8} {quiet * 1000:7.1f} / {statistics.median(times['numpy-4']) * 1000:7.1f}"
        f" ms  (the same with OPENBLAS_THREAD_TIMEOUT=4): deal {min(times['deal']) / quiet:.2f}x,"
        f" dealer {min(times['dealer']) / quiet:.2f}x"
    )


def main() -> None:
    """Parse the arguments, time the commands, print the ratios."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=RUNS, help=f"runs of each (default {RUNS})")
    args = parser.parse_args()
    cache = Path(tempfile.gettempdir()) / "croupier-bench-pycache"  # kept between runs
    with tempfile.TemporaryDirectory(prefix="bench-startup-") as tmp:
        script = Path(tmp) / "one.dlr"
        script.write_text(ONE_DEAL)
        report(measure(script, cache, max(1, args.runs)))


if __name__ == "__main__":
    main()
