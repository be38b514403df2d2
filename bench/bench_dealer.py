"""Benchmark: ``croupier dealer SCRIPT`` against the C program ``dealer``, start-up included.

Two measurements, in one run, against the real ``dealer`` on the same machine:

a. **Start-up.**  A one-deal script (``generate 1``, ``produce 1``, a
   condition, ``action printall``) run by ``croupier dealer``, against the
   bare ``python -c "import numpy"`` (the floor of any numpy program) and
   against ``dealer``.  Targets: at most :data:`STARTUP_SECONDS` seconds
   wall, and at most :data:`STARTUP_NUMPY_RATIO` times the numpy import.
   Runs interleave (numpy, croupier, dealer, numpy, ...); best and median
   of :data:`STARTUP_RUNS` each.
b. **Real scripts.**  Every script that ``dealer`` runs among the real
   scripts written by others (``tests/data/real_scripts``, those whose
   ``manifest.json`` entry says ``"dealer": "runs"``) and dealer's own
   examples (``tests/data/dealer_examples``, less
   ``Descr.test_operator_order``, which deals nothing), with ``-p N``
   deals produced as a user asks for them: N = 10^3 and 10^4 for every
   script, 10^5 where dealer is fast enough (see below).  Each tool
   generates what it needs (``-g 1000000000``, out of the way); ``dealer
   -s 1 -p N -g 1000000000 SCRIPT`` against ``croupier dealer SCRIPT -p N
   -g 1000000000 --seed 1`` (its default strategy, as a user runs it), each
   script's own condition and actions (printing, averages, frequencies),
   output to ``/dev/null``.  The ratio is croupier's time over dealer's
   (below 1: croupier is faster).  Targets: every run for which dealer needs
   at least 0.5 s has a ratio of at most 1, and their median is at most 0.5;
   every shorter run takes at most 0.3 s under croupier, or dealer's own
   time when that is longer.

Which sizes run: a short calibration run of dealer (``-p 10``) gives its
time per deal produced; a size runs when dealer's estimated time fits in
``--budget`` seconds (default 20; the acceptance of some scripts is so low
that dealer needs minutes for a thousand deals, and those run at 10^2
deals, marked so).  Runs of a second or more are timed once, shorter ones
best of three (``--quick``: once, N = 10^3 only, a 3-second budget).

Python start-up is measured as for an installed package: the croupier and
numpy processes run with byte-code caching on (``PYTHONDONTWRITEBYTECODE``
removed, caches under ``PYTHONPYCACHEPREFIX`` in the temporary directory,
kept between runs of the bench), after one untimed warm-up run per script
that fills those caches and croupier's cache of parsed scripts, and one long
run (:data:`LONG_RUN` deals).
Only public tools are used: each command is timed as a whole process
(wall time, ``time.perf_counter`` around ``subprocess.run``).  The machine
may be shared, so times are noisy; the ratios, measured in the same run,
are what the targets are about.

Run: ``.venv/bin/python bench/bench_dealer.py [--quick] [--budget S] [--sizes N ...] [SCRIPT ...]``
(SCRIPT: a name such as ``1N.dlr`` or ``Descr.stayman`` picks scripts).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

DEALER = "/usr/games/dealer"
DATA = Path(__file__).resolve().parent.parent / "tests" / "data"
REAL = DATA / "real_scripts"
EXAMPLES = DATA / "dealer_examples"
SKIPPED = {
    "Descr.test_operator_order": "deals nothing: produce 1 and printes of constants",
}
ONE_DEAL = "generate 1\nproduce 1\ncondition hcp(north) > 10\naction printall\n"
WARM_UP = 'condition hcp(north) >= 0\naction average "hcp" hcp(north)\n'
LONG_RUN = 1_100_000
"""Deals of the warm-up run: long enough that croupier loads its compiled kernels."""
STARTUP_SECONDS = 0.25
"""Target: the one-deal script's wall time, seconds."""
STARTUP_NUMPY_RATIO = 1.5
"""Target: the one-deal script's time over ``python -c "import numpy"``."""
STARTUP_RUNS = 15
SIZES = (1_000, 10_000, 100_000)
"""Deals produced; each runs where dealer's estimated time fits the budget."""
FALLBACK_SIZE = 100
"""Deals produced for a script whose dealer run of 10^3 would not fit the budget."""
NO_CAP = "1000000000"
"""``-g`` for both tools: out of the way, each generates what it needs."""
ONCE_ABOVE = 1.0
"""Seconds: runs this long are timed once, shorter ones best of three."""
RATIO_TARGET = 1.0
MEDIAN_TARGET = 0.5
LONG_RUN_SECONDS = 0.5
"""Runs for which dealer needs this long are held to the ratios: at most 1, median 0.5."""
SHORT_RUN_SECONDS = 0.3
"""A shorter run takes at most this long under croupier, or dealer's own time if longer."""


@dataclass
class Result:
    """One script's measurements: per size, dealer's and croupier's seconds."""

    name: str
    times: dict[int, tuple[float, float]] = field(default_factory=dict)
    note: str = ""

    def ratio(self, size: int) -> float | None:
        """croupier's time over dealer's at ``size`` deals produced (``None``: not run)."""
        if size not in self.times:
            return None
        theirs, ours = self.times[size]
        return ours / theirs


def _dealer_path() -> str | None:
    return DEALER if os.access(DEALER, os.X_OK) else shutil.which("dealer")


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


class RunFailed(Exception):
    """A command of the bench failed twice in a row (dealer 20211121 sometimes crashes)."""


def _wall(command: Sequence[str], env: dict[str, str] | None = None) -> float:
    """Wall time of one run of ``command`` (output discarded; a failure is tried once more)."""
    for attempt in (1, 2):
        start = time.perf_counter()
        done = subprocess.run(
            list(command), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, check=False
        )
        seconds = time.perf_counter() - start
        if done.returncode == 0:
            break
        print(
            f"{' '.join(command)} failed ({done.returncode}, attempt {attempt}): "
            f"{done.stderr.decode()[-300:]}",
            file=sys.stderr,
        )
    else:
        name = Path(command[0]).name
        raise RunFailed(f"{name} failed twice (exit {done.returncode})")
    return seconds


def _timed(command: Sequence[str], env: dict[str, str] | None, repeats: int) -> float:
    """Best of ``repeats`` runs; a single run when the first takes :data:`ONCE_ABOVE` or more."""
    best = _wall(command, env)
    for _ in range(repeats - 1):
        if best >= ONCE_ABOVE:
            break
        best = min(best, _wall(command, env))
    return best


def real_scripts(chosen: Sequence[str]) -> list[Path]:
    """The scripts that dealer runs: the real ones of the manifest, then dealer's examples."""
    manifest = json.loads((REAL / "manifest.json").read_text(encoding="utf-8"))
    paths = [REAL / name for name, e in manifest["scripts"].items() if e["dealer"] == "runs"]
    paths += sorted(
        p
        for p in EXAMPLES.iterdir()
        if p.name.startswith(("Descr.", "Test.")) and p.name not in SKIPPED
    )
    if chosen:
        paths = [p for p in paths if p.name in chosen or str(p.relative_to(DATA)) in chosen]
    return paths


def startup(dealer: str, folder: Path, cache: Path, runs: int) -> str:
    """Measurement (a): the one-deal script against the numpy import and dealer."""
    script = folder / "one.dlr"
    script.write_text(ONE_DEAL)
    env = _python_env(cache)
    commands = {
        "numpy": ([sys.executable, "-c", "import numpy"], env),
        "croupier": ([*_croupier_command(), "dealer", str(script), "--seed", "1"], env),
        "dealer": ([dealer, "-s", "1", str(script)], None),
    }
    for command, environment in commands.values():
        _wall(command, environment)  # warm-up: byte code, the parsed script, the page cache
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, (command, environment) in commands.items():
            times[name].append(_wall(command, environment))
    best = {name: min(t) for name, t in times.items()}
    median = {name: statistics.median(t) for name, t in times.items()}
    ratio = best["croupier"] / best["numpy"]
    ok_time = best["croupier"] <= STARTUP_SECONDS
    ok_ratio = ratio <= STARTUP_NUMPY_RATIO
    return (
        f"start-up, one-deal script (best / median of {runs}): croupier dealer "
        f"{best['croupier']:.3f} / {median['croupier']:.3f} s; python -c 'import numpy' "
        f"{best['numpy']:.3f} / {median['numpy']:.3f} s; dealer {best['dealer']:.3f} / "
        f"{median['dealer']:.3f} s\n"
        f"  croupier / numpy import: {ratio:.2f} (target <= {STARTUP_NUMPY_RATIO:g}: "
        f"{_verdict(ok_ratio)}); croupier <= {STARTUP_SECONDS} s: {_verdict(ok_time)}; "
        f"croupier / dealer: {best['croupier'] / best['dealer']:.0f}"
    )


def measure(
    script: Path, dealer: str, sizes: Sequence[int], budget: float, repeats: int, cache: Path
) -> Result:
    """Measurement (b) for one script: each size whose dealer run fits ``budget`` seconds."""
    result = Result(str(script.relative_to(DATA)).removeprefix("real_scripts/"))
    env = _python_env(cache)

    def theirs(n: int) -> list[str]:
        return [dealer, "-s", "1", "-p", str(n), "-g", NO_CAP, str(script)]

    def ours(n: int) -> list[str]:
        return [*_croupier_command(), "dealer", str(script), "-p", str(n), "-g", NO_CAP]

    pilot = 10
    per_deal = _wall(theirs(pilot)) / pilot  # start-up included: an overestimate, as wanted
    first = min(sizes)
    if per_deal * first > budget:
        result.note = f"dealer needs about {per_deal * first:.0f} s for {first:,}"
        if per_deal * FALLBACK_SIZE > budget:
            return result
        sizes = [FALLBACK_SIZE]
    warm = False
    for n in sorted(sizes):
        if per_deal * n > budget:
            break
        command = [*ours(n), "--seed", "1"]
        if not warm:
            _wall(command, env)  # warm-up: byte code, the parsed script
            warm = True
        try:
            result.times[n] = (_timed(theirs(n), None, repeats), _timed(command, env, repeats))
        except RunFailed as exc:
            result.note = f"-p {n:,}: {exc}"
            break
        per_deal = result.times[n][0] / n  # dealer's time per deal produced, measured
    return result


def _verdict(ok: bool) -> str:
    return "ok" if ok else "MISS"


def report(results: Sequence[Result], sizes: Sequence[int]) -> None:
    """The table: per script and size, dealer's and croupier's seconds and their ratio."""
    shown = [*([FALLBACK_SIZE] if any(FALLBACK_SIZE in r.times for r in results) else []), *sizes]
    head = f"{'script':<30}" + "".join(f" {f'-p {n:,}':>24}" for n in shown)
    print(head)
    print(f"{'':<30}" + "".join(f" {'dealer  croupier  ratio':>24}" for _ in shown))
    print("-" * len(head))
    ratios: dict[int, list[float]] = {n: [] for n in shown}
    for r in results:
        cells = []
        for n in shown:
            ratio = r.ratio(n)
            if ratio is None:
                cells.append(f" {'-':>24}")
                continue
            theirs, ours = r.times[n]
            ratios[n].append(ratio)
            mark = "" if ratio <= RATIO_TARGET else "*"
            cells.append(f" {theirs:>7.2f} {ours:>8.2f} {ratio:>6.2f}{mark:1}")
        print(f"{r.name:<30}" + "".join(cells) + (f"  ({r.note})" if r.note else ""))
    every = [x for n in shown for x in ratios[n]]
    print(
        "\nseconds, wall, start-up included; ratio = croupier / dealer (below 1: croupier "
        "is faster); * = croupier slower"
    )
    for n in shown:
        if ratios[n]:
            rs = ratios[n]
            print(
                f"-p {n:>7,}: {len(rs):>2} scripts, median ratio {statistics.median(rs):.2f}, "
                f"croupier at least as fast on {sum(x <= RATIO_TARGET for x in rs)}"
            )
    runs = [r.times[n] for r in results for n in shown if r.ratio(n) is not None]
    long = [ours / theirs for theirs, ours in runs if theirs >= LONG_RUN_SECONDS]
    short = [(theirs, ours) for theirs, ours in runs if theirs < LONG_RUN_SECONDS]
    if long:
        median = statistics.median(long)
        print(
            f"runs for which dealer needs {LONG_RUN_SECONDS} s or more: {len(long)}, median "
            f"ratio {median:.2f} (target <= {MEDIAN_TARGET}: "
            f"{_verdict(median <= MEDIAN_TARGET)}), croupier at least as fast on "
            f"{sum(x <= RATIO_TARGET for x in long)} (target: all: "
            f"{_verdict(all(x <= RATIO_TARGET for x in long))})"
        )
    if short:
        within = [ours <= max(SHORT_RUN_SECONDS, theirs) for theirs, ours in short]
        print(
            f"shorter runs: {len(short)}, croupier within {SHORT_RUN_SECONDS} s or dealer's "
            f"own time on {sum(within)} (target: all: {_verdict(all(within))}); the slowest "
            f"{max(ours for _, ours in short):.2f} s"
        )
    if every:
        print(f"all sizes: {len(every)} runs, median ratio {statistics.median(every):.2f}")


def main() -> None:
    """Parse the arguments, run both measurements, print the results."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a short run: 10^3 deals, once")
    parser.add_argument(
        "--budget", type=float, default=None, help="most seconds of one dealer run (default 20)"
    )
    parser.add_argument("--sizes", type=int, nargs="+", default=None, help="deals produced")
    parser.add_argument("scripts", nargs="*", help="script names (default: every one)")
    args = parser.parse_args()
    dealer = _dealer_path()
    if dealer is None:
        raise SystemExit("dealer is not installed (Debian package 'dealer'); nothing to compare")
    sizes = args.sizes or (SIZES[:1] if args.quick else SIZES)
    budget = args.budget or (3.0 if args.quick else 20.0)
    repeats = 1 if args.quick else 3
    for name, why in SKIPPED.items():
        print(f"skipped {name}: {why}")
    cache = Path(tempfile.gettempdir()) / "croupier-bench-pycache"  # kept between runs
    with tempfile.TemporaryDirectory(prefix="bench-dealer-") as tmp:
        print(startup(dealer, Path(tmp), cache, 5 if args.quick else STARTUP_RUNS), flush=True)
        if not args.quick:  # a long run first
            warm = Path(tmp) / "warm.dlr"
            warm.write_text(WARM_UP)
            count = ["-p", str(LONG_RUN), "-g", str(LONG_RUN), "--seed", "1"]
            _wall([*_croupier_command(), "dealer", str(warm), *count], _python_env(cache))
    results = []
    for script in real_scripts(args.scripts):
        try:
            results.append(measure(script, dealer, sizes, budget, repeats, cache))
        except RunFailed as exc:
            results.append(Result(script.name, note=str(exc)))
        print(f"measured {results[-1].name}", file=sys.stderr, flush=True)
    print()
    report(results, sizes)


if __name__ == "__main__":
    main()
