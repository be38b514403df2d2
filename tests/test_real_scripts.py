"""Real dealer scripts written by others, run by croupier and by the C program ``dealer``.

``tests/data/real_scripts`` keeps scripts from other projects byte for byte, with
their licences (README.md there names each source): the fixtures of dealer3 (scripts
of a practice-bidding collection, with ``#`` comments, leveling and ``top4``),
DealerV2's examples that the classic dealer runs (``rnd``, ``pointcount`` then
``altcount 0``, predeals of three hands, 40 ``shape`` calls) and endplay's example
scripts (one with a shape of 15 cards, which both programs refuse, and three that
call ``tricks``, which only croupier runs here: dealer needs GIB's solver).

For each script dealer runs, both programs look at the same number of deals with
the script's condition, predeal and point scales and only its statistics, and
every figure is compared as ``tests/test_simulate_vs_dealer.py`` compares dealer's
own examples (false-alarm rate 1e-6 per comparison): the share of deals that
pass, each average, each frequency table; under rejection and under ``auto``
(smart stacking where it pays).  Then the script as written runs under
``croupier dealer`` with its own actions.
"""

from __future__ import annotations

import io
import json
from dataclasses import replace
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest

from croupier.simulate import Simulation, format_script, parse_script
from croupier.simulate.actions import ActionRunner
from croupier.simulate.ast import Script
from croupier.simulate.parse import ScriptError
from tests.conftest import ROOT, CliRunner, dealer_program, run_dealer
from tests.test_simulate_vs_dealer import (
    SEEN,
    CroupierRun,
    _statistics,
    comparisons,
    parse_dealer_output,
)

FOLDER = ROOT / "tests" / "data" / "real_scripts"
MANIFEST = json.loads((FOLDER / "manifest.json").read_text(encoding="utf-8"))
SCRIPTS: dict[str, dict[str, object]] = MANIFEST["scripts"]
COMPARED = sorted(n for n, s in SCRIPTS.items() if s["dealer"] == "runs")


def _text(name: str) -> str:
    raw = (FOLDER / name).read_bytes()
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


@cache
def parsed(name: str) -> Script:
    return parse_script(_text(name), filename=Path(name).name)


@cache
def derived(name: str) -> Script:
    """The script with only its statistics, looking at and producing ``generate`` deals."""
    count = int(str(SCRIPTS[name]["generate"]))
    script = parsed(name)
    return replace(script, actions=_statistics(script), generate=count, produce=count)


def test_the_folder_holds_the_manifests_files_and_their_licences() -> None:
    files = {str(p.relative_to(FOLDER)) for p in FOLDER.rglob("*") if p.is_file()} - {
        "README.md",
        "manifest.json",
    }
    licences = {f for f in files if Path(f).name.upper().startswith("LICEN")}
    assert files - licences == set(SCRIPTS)
    for name, entry in SCRIPTS.items():
        assert (FOLDER / Path(name).parent / str(entry["licence_file"])).is_file(), name
    readme = (FOLDER / "README.md").read_text(encoding="utf-8")
    assert all(f"`{name}`" in readme for name in SCRIPTS)
    assert len(SCRIPTS) >= 20


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_every_script_parses_or_is_refused_as_dealer_refuses_it(name: str) -> None:
    entry = SCRIPTS[name]
    if entry["dealer"] == "refuses":
        with pytest.raises(ScriptError, match=str(entry["refusal"])):
            parsed(name)
        return
    script = parsed(name)
    assert parse_script(format_script(script), script.filename) == script  # written back


def _croupier(name: str, simulation: Simulation) -> CroupierRun:
    count = int(str(SCRIPTS[name]["generate"]))
    runner = ActionRunner(derived(name), io.StringIO(), draws=simulation.draws)
    generated = produced = 0
    stacked = False
    for batch in simulation.batches(produce=count, generate=count):
        runner.feed(batch.deals, produced + 1, numbers=batch.numbers)
        generated, produced = batch.generated, batch.produced
        stacked = stacked or batch.stacked
    strategy = simulation.strategy if stacked else "rejection"
    return CroupierRun(strategy, generated, produced, Fraction(1), runner.finish())


@pytest.mark.parametrize("name", COMPARED)
def test_croupier_agrees_with_dealer_on_real_scripts(name: str) -> None:
    dealer_program()
    script = derived(name)
    seed = 2600 + sorted(SCRIPTS).index(name)
    dealer = parse_dealer_output(script, run_dealer(format_script(script), seed))
    count = int(str(SCRIPTS[name]["generate"]))
    assert dealer.generated == count or dealer.produced == count
    failures = []
    for strategy in ("rejection", "auto"):
        simulation = Simulation(script, seed=f"real {name} {strategy}", strategy=strategy)  # type: ignore[arg-type]
        mine = _croupier(name, simulation)
        assert mine.generated == dealer.generated or mine.produced == count
        for comparison in comparisons(mine, dealer):
            SEEN.append((name, mine.strategy, comparison))
            if not comparison.agrees:
                failures.append(f"{mine.strategy}: {comparison.what}: {comparison.detail}")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("name", sorted(n for n, s in SCRIPTS.items() if s["dealer"] != "refuses"))
def test_croupier_dealer_runs_each_script_as_written(
    name: str, cli: CliRunner, tmp_path: Path
) -> None:
    entry = SCRIPTS[name]
    generate = entry["run"]
    if parsed(name).uses_double_dummy():
        generate = 4  # each deal looked at may be solved double dummy (up to a second each)
    args = ["dealer", str(FOLDER / name), "--seed", "as written", "-g", str(generate)]
    result = cli([*args, "-o", str(tmp_path / "out.txt")])
    assert result.code == 0, result.err
    out = (tmp_path / "out.txt").read_text(encoding="utf-8")
    assert "\nGenerated " in "\n" + out and "Produced " in out
