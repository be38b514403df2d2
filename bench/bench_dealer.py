"""Benchmark: ``croupier dealer SCRIPT`` against the C program ``dealer`` on dealer's own examples.

Target: each example script of dealer that croupier accepts runs at least
as fast as ``dealer`` on the same number of generated deals; the common
1NT-opener condition (North balanced, 15-17 HCP, ``printoneline``) at least
twice as fast.

Both tools run as command-line programs, as users run them, one process per
run, wall time including start-up, output to ``/dev/null``, best of three
(one with ``--quick``).  The rule that makes the work the same: every script
keeps its own condition and actions (printing, averages, frequencies) and
both tools get ``-g G -p G``, which override the script's ``generate`` and
``produce``; a tool cannot produce more deals than it generates, so each
run generates exactly ``G`` deals (the same ``G`` for both) and prints or
counts every deal that passes.  ``G`` is chosen per script from a short
calibration run of dealer, so that dealer takes about
:data:`DEALER_SECONDS` seconds: long enough that start-up does not decide
the result, as short as the issue's "1-3 s of dealer time" asks.

* dealer: ``dealer -s 1 -g G -p G SCRIPT``;
* croupier, rejection: ``croupier dealer SCRIPT -g G -p G --seed 1 --quiet
  --strategy rejection`` -- the same work as dealer: every card of every
  deal dealt, the whole condition evaluated on each;
* croupier, auto (the default; smart stacking when it pays): the same with
  ``--strategy auto``.  When it stacks, ``G`` counts rows of the stacked
  sampler, each of which stands for many uniform deals and passes far more
  often, so this run produces (and prints) more deals than the others; it is
  shown separately, and the target is judged on the rejection column.

A second measurement asks what a user asks: the 1NT opener with a number of
deals *produced* (100,000 and 1,000,000), each tool generating what it needs:
dealer and croupier's rejection generate about 21 deals per deal produced,
smart stacking (``auto``) about one.

``Descr.test_operator_order`` is left out: it has no hands to deal
(``produce 1`` and ``printes`` of constant expressions; the test of
operator precedence), so it measures nothing but start-up -- which is
reported on its own line: ``croupier dealer Descr.evaluation`` as written
(``produce 1``) against dealer.

Python start-up is measured as for an installed package: the croupier
processes run with byte-code caching on (``PYTHONDONTWRITEBYTECODE``
removed, caches under ``PYTHONPYCACHEPREFIX`` in the temporary directory, kept
between runs of the bench), after one untimed warm-up run per script that
fills those caches and numba's.

Ratios are dealer's time over croupier's (above 1: croupier is faster),
measured in the same run.  The "net" ratio leaves out each tool's fixed
start-up, the time of the same command with ``-g 1 -p 1`` (Python, imports,
reading the script; dealer's is about a millisecond): it shows the speed per
deal once running, which is what a longer run (``--seconds``) approaches.
The machine may be shared, so times are noisy.

Run: ``.venv/bin/python bench/bench_dealer.py [--quick] [--seconds S] [SCRIPT ...]``
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

DEALER = "/usr/games/dealer"
EXAMPLES = Path(__file__).resolve().parent.parent / "tests" / "data" / "dealer_examples"
SKIPPED = {
    "Descr.test_operator_order": "no hands: produce 1 and printes of constants (start-up only)",
}
STARTUP_SCRIPT = "Descr.evaluation"
DEALER_SECONDS = 2.5
"""dealer's time, in seconds, that ``G`` is chosen for."""
QUICK_SECONDS = 0.3
"""The same with ``--quick`` (a smoke run: start-up dominates, the ratios mean little)."""
CALIBRATION_DEALS = 200_000
ONE_NT_NAME = "1NT opener"
ONE_NT = """\
# North opens 1NT: balanced, 15-17 HCP
condition shape(north, any 4333 + any 4432 + any 5332) && hcp(north) >= 15 && hcp(north) <= 17
action printoneline
"""
TARGET = 1.0
ONE_NT_TARGET = 2.0


@dataclass
class Row:
    """One script's measurements: deals generated, seconds per tool, ratios."""

    name: str
    deals: int
    dealer: float
    rejection: float
    auto: float
    target: float
    dealer_start: float
    croupier_start: float

    @property
    def rejection_ratio(self) -> float:
        """dealer's time over croupier's (rejection)."""
        return self.dealer / self.rejection

    @property
    def net_ratio(self) -> float:
        """dealer's time over croupier's (rejection), each without its start-up."""
        return (self.dealer - self.dealer_start) / max(self.rejection - self.croupier_start, 1e-3)

    @property
    def auto_ratio(self) -> float:
        """dealer's time over croupier's (auto)."""
        return self.dealer / self.auto


def _dealer_path() -> str | None:
    return DEALER if os.access(DEALER, os.X_OK) else shutil.which("dealer")


def _croupier_command() -> list[str]:
    """The installed ``croupier`` script next to this Python, else ``python -m croupier``."""
    script = Path(sys.executable).with_name("croupier")
    return [str(script)] if script.exists() else [sys.executable, "-m", "croupier"]


def _croupier_env(cache: Path) -> dict[str, str]:
    """The environment of an installed package: byte-code cached (in ``cache``)."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(cache)
    return env


def _wall(command: Sequence[str], env: dict[str, str] | None = None) -> float:
    """Wall time of one run of ``command`` (output discarded; a failure stops the bench)."""
    start = time.perf_counter()
    done = subprocess.run(
        list(command), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, check=False
    )
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(
            f"{' '.join(command)} failed ({done.returncode}): {done.stderr.decode()[-500:]}"
        )
    return seconds


def _best(command: Sequence[str], repeats: int, env: dict[str, str] | None = None) -> float:
    return min(_wall(command, env) for _ in range(repeats))


def _deals_for(dealer: str, script: Path, seconds: float) -> int:
    """``G`` such that dealer takes about ``seconds`` (two significant digits)."""
    pilot = CALIBRATION_DEALS
    took = _wall([dealer, "-s", "1", "-g", str(pilot), "-p", str(pilot), str(script)])
    wanted = max(10_000, int(pilot * seconds / max(took, 1e-3)))
    scale: int = 10 ** max(0, len(str(wanted)) - 2)
    return wanted // scale * scale


def measure(
    name: str, script: Path, dealer: str, seconds: float, repeats: int, cache: Path, target: float
) -> Row:
    """Time dealer and croupier (rejection, auto) on ``script`` with the same ``G``."""
    deals = _deals_for(dealer, script, seconds)
    theirs = [dealer, "-s", "1", "-g", str(deals), "-p", str(deals), str(script)]
    ours = [*_croupier_command(), "dealer", str(script), "--seed", "1", "--quiet"]
    counts = ["-g", str(deals), "-p", str(deals)]
    env = _croupier_env(cache)
    rejection = [*ours, *counts, "--strategy", "rejection"]
    auto = [*ours, *counts, "--strategy", "auto"]
    _wall(rejection, env)  # warm-up: byte code, numba's cache, the page cache
    return Row(
        name,
        deals,
        dealer=_best(theirs, repeats),
        rejection=_best(rejection, repeats, env),
        auto=_best(auto, repeats, env),
        target=target,
        dealer_start=_best([dealer, "-s", "1", "-g", "1", "-p", "1", str(script)], repeats),
        croupier_start=_best([*ours, "-g", "1", "-p", "1"], repeats, env),
    )


def startup(dealer: str, repeats: int, cache: Path) -> tuple[float, float]:
    """Seconds of ``dealer`` and ``croupier dealer`` on a ``produce 1`` script as written."""
    script = str(EXAMPLES / STARTUP_SCRIPT)
    env = _croupier_env(cache)
    ours = [*_croupier_command(), "dealer", script, "--seed", "1", "--quiet"]
    _wall(ours, env)
    return _best([dealer, "-s", "1", script], repeats), _best(ours, repeats, env)


PRODUCED = (100_000, 1_000_000)
"""Deals produced in the second measurement of the 1NT opener (``--quick``: the first)."""


def produced(dealer: str, script: Path, count: int, repeats: int, cache: Path) -> str:
    """One line: ``count`` deals produced (what a user asks for), each tool as it chooses.

    dealer generates what it needs (``-g`` set out of the way); croupier with
    rejection does the same work, and with ``auto`` (smart stacking) draws far
    fewer deals.
    """
    env = _croupier_env(cache)
    theirs = [dealer, "-s", "1", "-p", str(count), "-g", "1000000000", str(script)]
    ours = [*_croupier_command(), "dealer", str(script), "-p", str(count), "--seed", "1"]
    ours.append("--quiet")
    _wall([*ours, "--strategy", "rejection"], env)
    d = _best(theirs, repeats)
    rejection = _best([*ours, "--strategy", "rejection"], repeats, env)
    auto = _best([*ours, "--strategy", "auto"], repeats, env)
    verdict = _verdict(d / rejection, ONE_NT_TARGET)
    return (
        f"{ONE_NT_NAME}, {count:,} deals produced: dealer {d:.2f} s, croupier rejection "
        f"{rejection:.2f} s ({d / rejection:.2f}x, {verdict}), auto {auto:.2f} s "
        f"({d / auto:.2f}x, {_verdict(d / auto, ONE_NT_TARGET)})"
    )


def _verdict(ratio: float, target: float) -> str:
    return "ok" if ratio >= target else "MISS"


def report(rows: Sequence[Row]) -> None:
    """The table: one line per script, the ratios and whether each meets its target."""
    head = (
        f"{'script':<18} {'G':>10} {'dealer':>7} {'rej.':>6} {'ratio':>5} {'net':>5} "
        f"{'auto':>6} {'ratio':>5}  target  rej.  auto"
    )
    print(head)
    print("-" * len(head))
    for r in rows:
        print(
            f"{r.name:<18} {r.deals:>10,} {r.dealer:>7.2f} {r.rejection:>6.2f} "
            f"{r.rejection_ratio:>5.2f} {r.net_ratio:>5.2f} {r.auto:>6.2f} {r.auto_ratio:>5.2f}  "
            f"{r.target:>5.1f}x  {_verdict(r.rejection_ratio, r.target):>4}  "
            f"{_verdict(r.auto_ratio, r.target):>4}"
        )
    met = sum(r.rejection_ratio >= r.target for r in rows)
    net = sum(r.net_ratio >= r.target for r in rows)
    start = min(r.croupier_start for r in rows)
    print(
        f"\nseconds, best of the runs; ratio = dealer / croupier; net = the same without each "
        f"tool's start-up (croupier's: {start:.2f} s and up, -g 1 -p 1)\n"
        f"rejection meets its target on {met} of {len(rows)} scripts ({net} net of start-up)"
    )


def main() -> None:
    """Parse the arguments, run every measurement, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a small smoke run")
    parser.add_argument(
        "--seconds", type=float, default=None, help="dealer's time to choose G for (default 2.5)"
    )
    parser.add_argument("scripts", nargs="*", help="example names (default: all)")
    args = parser.parse_args()
    dealer = _dealer_path()
    if dealer is None:
        raise SystemExit("dealer is not installed (Debian package 'dealer'); nothing to compare")
    seconds = args.seconds or (QUICK_SECONDS if args.quick else DEALER_SECONDS)
    repeats = 1 if args.quick else 3
    names = [*sorted(p.name for p in EXAMPLES.glob("Descr.*")), "Test.distribution"]
    for name, why in SKIPPED.items():
        print(f"skipped {name}: {why}")
    chosen = [n for n in names if n not in SKIPPED and (not args.scripts or n in args.scripts)]
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="bench-dealer-") as tmp:
        cache = Path(tempfile.gettempdir()) / "croupier-bench-pycache"  # kept between runs
        one_nt = Path(tmp) / "one_nt.dlr"
        one_nt.write_text(ONE_NT)
        if not args.scripts or ONE_NT_NAME in args.scripts:
            rows.append(
                measure(ONE_NT_NAME, one_nt, dealer, seconds, repeats, cache, ONE_NT_TARGET)
            )
            print(f"measured {ONE_NT_NAME}", flush=True)
        for name in chosen:
            rows.append(measure(name, EXAMPLES / name, dealer, seconds, repeats, cache, TARGET))
            print(f"measured {name}", flush=True)
        lines = []
        if not args.scripts or ONE_NT_NAME in args.scripts:
            for count in PRODUCED[:1] if args.quick else PRODUCED:
                lines.append(produced(dealer, one_nt, count, repeats, cache))
        theirs, ours = startup(dealer, repeats, cache)
    print()
    report(rows)
    for line in lines:
        print(line)
    print(
        f"start-up ({STARTUP_SCRIPT} as written, produce 1): dealer {theirs:.3f} s, "
        f"croupier {ours:.3f} s"
    )


if __name__ == "__main__":
    main()
