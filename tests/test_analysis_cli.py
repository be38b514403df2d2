"""``croupier analyze`` and ``croupier mixing`` end to end."""

from __future__ import annotations

import itertools
import json
import math
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import CliRunner


def _result(out: str, mode: str | None = None) -> Any:
    """The result of a JSON envelope; for ``analyze`` of one method (``mode``), its report."""
    doc = json.loads(out)
    if mode is None:
        return doc["result"]
    assert doc["command"] == "analyze" and doc["result"]["mode"] == mode
    (report,) = doc["result"]["reports"]
    return report


def test_list_names_every_method_with_a_line_each(cli: CliRunner) -> None:
    r = cli(["analyze", "--list"])
    assert r.code == 0
    for name in ("fisher-yates", "swap-any", "poker-1999", "randomize-list", "deal:open-players"):
        line = next(x for x in r.out.splitlines() if x.strip().startswith(name + " "))
        assert len(line.split(None, 1)[1]) > 10
    listed = _result(cli(["analyze", "--list", "--json"]).out)
    assert listed["mode"] == "list"
    assert {"name", "kind", "description"} <= set(listed["methods"][0])


def test_exact_json_for_swap_with_any(cli: CliRunner) -> None:
    r = cli(["analyze", "swap-any", "--cards", "3", "--json"])
    assert r.code == 0, r.err
    data = _result(r.out, "exact")
    assert data["reachable"] == 6
    assert data["tv"] == "1/18" and abs(data["tv_float"] - 1 / 18) < 1e-15
    probs = [Fraction(o["probability"]) for o in data["outcomes"]]
    assert sum(probs) == 1 and max(probs) == Fraction(5, 27)


def test_exact_text_for_a_fair_and_a_biased_deal(cli: CliRunner) -> None:
    fair = cli(["analyze", "deal:optimal", "--cards", "6", "--hands", "2,2,2"])
    assert fair.code == 0 and "exactly uniform" in fair.out
    biased = cli(["analyze", "deal:open-players", "--cards", "6", "--hands", "3"])
    assert biased.code == 0 and "verdict: biased" in biased.out


def test_mixing_riffle_json(cli: CliRunner) -> None:
    r = cli(["mixing", "riffle", "--cards", "52", "--max", "10", "--json"])
    assert r.code == 0, r.err
    result = _result(r.out)
    assert (result["cards"], result["packets"], result["riffles_needed"]) == (52, 2, 7)
    points = result["points"]
    assert [p["shuffles"] for p in points] == list(range(1, 11))
    assert round(points[6]["tv"], 3) == 0.334
    assert Fraction(points[6]["tv_fraction"]) < Fraction(1, 2) < Fraction(points[5]["tv_fraction"])
    text = cli(["mixing", "riffle", "--cards", "52", "--max", "8"]).out
    assert "riffles needed for TV < 1/2: 7" in text


def test_repeat_json_finds_the_parity_plateau(cli: CliRunner) -> None:
    r = cli(["analyze", "sattolo-mistake", "--cards", "4", "--repeat", "6", "--json"])
    data = _result(r.out, "repeat")
    assert data["period"] == 2 and data["limit_tv"] == "1/2"
    assert data["stops_falling_at"] is not None and len(data["curve"]) == 6


def test_monte_carlo_is_reproducible_with_a_seed(cli: CliRunner) -> None:
    args = ["analyze", "fisher-yates", "--cards", "12", "--trials", "300", "--seed", "t", "--json"]
    first, second = cli(args), cli(args)
    assert first.code == 0 and first.out == second.out
    doc = json.loads(first.out)
    assert (doc["algorithm"], doc["source"], doc["reproducible"]) == (
        "croupier-analyze-mc/1",
        "seeded",
        True,
    )
    data = _result(first.out, "monte-carlo")
    assert data["tests"][0]["df"] == 121 and len(data["counts"]) == 12


def test_plots_are_written(cli: CliRunner, tmp_path: Path) -> None:
    heat = tmp_path / "heat.png"
    assert cli(["analyze", "riffle", "--cards", "5", "--plot", str(heat)]).code == 0
    assert heat.read_bytes()[:4] == b"\x89PNG"
    curve = tmp_path / "tv.svg"
    r = cli(["analyze", "riffle,overhand", "--cards", "4", "--repeat", "5", "--plot", str(curve)])
    assert r.code == 0 and "<svg" in curve.read_text()
    bits = tmp_path / "bits.svg"
    r = cli(["analyze", "lehmer", "--bits", "--cards", "6", "--trials", "5", "--plot", str(bits)])
    assert r.code == 0 and bits.exists()
    mix = tmp_path / "mix.svg"
    assert cli(["mixing", "riffle", "--cards", "20", "--plot", str(mix)]).code == 0
    assert mix.exists()


def test_bad_input_is_one_line_and_exit_2(cli: CliRunner, tmp_path: Path) -> None:
    cases = [
        ["analyze", "bogo", "--cards", "3"],
        ["analyze", "swap-any", "--exact", "--trials", "5"],
        ["analyze", "swap-any", "--cards", "12", "--exact"],
        ["analyze", "deal:optimal", "--cards", "6", "--hands", "4"],
        ["analyze", "riffle", "--cards", "3", "--plot", str(tmp_path / "x.gif")],
        ["mixing", "riffle", "--cards", "0"],
        ["analyze"],
    ]
    for args in cases:
        r = cli(args)
        assert r.code == 2, (args, r.out, r.err)
        assert r.err.startswith("error: ") and r.err.count("\n") == 1, (args, r.err)


@pytest.mark.parametrize(
    ("args", "ending"),
    [
        ("swap-any --cards 12 --exact", "use 1..10 (Monte Carlo with --trials N for bigger decks)"),
        ("swap-any --cards 9 --engine walk", "use fewer cards or Monte Carlo (--trials N)"),
        ("lehmer --cards 10 --exact", "out of reach (use Monte Carlo: --trials N)"),
    ],
)
def test_too_big_for_exact_names_the_trials_flag_plainly(
    cli: CliRunner, args: str, ending: str
) -> None:
    r = cli(["analyze", *args.split()])
    assert r.code == 2 and r.err.startswith("error: ") and r.err.endswith(f"{ending}\n")
    assert "..." not in r.err and "=" not in r.err and "monte_carlo" not in r.err


def test_exact_deal_heatmap_and_engine_choice(cli: CliRunner, tmp_path: Path) -> None:
    heat = tmp_path / "deal.svg"
    r = cli(["analyze", "deal:open-players", "--cards", "8", "--plot", str(heat)])
    assert r.code == 0 and heat.exists() and "2677/10080" in r.out
    fast = cli(["analyze", "swap-any", "--cards", "8", "--engine", "fast", "--json"])
    assert _result(fast.out, "exact")["engine"] == "swap-step DP"
    walk = cli(["analyze", "swap-any", "--cards", "9", "--engine", "walk"])
    assert walk.code == 2 and "random paths" in walk.err


def test_seeded_monte_carlo_matches_its_golden_vector(cli: CliRunner) -> None:
    from croupier.randomness import SeededSource, UniformSampler
    from croupier.shuffling import fisher_yates
    from tests.conftest import VECTORS

    vec = json.loads((VECTORS / "analysis_monte_carlo.json").read_text(encoding="utf-8"))
    r = cli(["analyze", vec["method"], "--cards", str(vec["cards"]), "--trials",
             str(vec["trials"]), "--seed", vec["seed"], "--json"])  # fmt: skip
    assert json.loads(r.out)["algorithm"] == vec["algorithm"]
    data = _result(r.out, "monte-carlo")
    assert data["counts"] == vec["counts"]
    # Independent recount: the same seeded stream driving fisher_yates directly.
    chooser = UniformSampler(SeededSource(vec["seed"], vec["purpose"], 0))
    counts = [[0] * vec["cards"] for _ in range(vec["cards"])]
    for _ in range(vec["trials"]):
        for position, card in enumerate(fisher_yates(range(vec["cards"]), chooser)):
            counts[card][position] += 1
    assert counts == vec["counts"]
    n, expected = vec["cards"], vec["trials"] / vec["cards"]
    chi = sum((c - expected) ** 2 / expected for row in counts for c in row) * (n - 1) / n
    assert abs(chi - vec["chi_square"]) < 1e-9 and abs(data["tests"][0]["statistic"] - chi) < 1e-9


def test_plots_never_overwrite_unless_asked(cli: CliRunner, tmp_path: Path) -> None:
    target = tmp_path / "tv.svg"
    target.write_text("keep me")
    for args in (
        ["analyze", "riffle", "--cards", "4", "--plot", str(target)],
        ["analyze", "cut", "--cards", "4", "--repeat", "3", "--plot", str(target)],
        ["mixing", "riffle", "--cards", "10", "--plot", str(target)],
    ):
        r = cli(args)
        assert r.code == 2 and "already exists" in r.err and r.err.count("\n") == 1, args
        assert target.read_text() == "keep me"
    r = cli(["mixing", "riffle", "--cards", "10", "--plot", str(target), "--overwrite"])
    assert r.code == 0 and "<svg" in target.read_text()
    assert [p.name for p in tmp_path.iterdir()] == ["tv.svg"]  # no temporary files left
    missing = cli(["analyze", "riffle", "--cards", "4", "--plot", str(tmp_path / "no" / "x.png")])
    assert missing.code == 2 and "does not exist" in missing.err


def test_options_that_do_not_apply_are_refused(cli: CliRunner) -> None:
    for args, words in (
        (["analyze", "fisher-yates", "--cards", "4", "--hands", "2"], "deal methods"),
        (["analyze", "fisher-yates", "--cards", "20", "--trials", "0"], "--trials 0"),
        (["analyze", "lehmer", "--bits", "--cards", "6", "--trials", "0"], "--trials 0"),
    ):
        r = cli(args)
        assert r.code == 2 and words in r.err and r.err.count("\n") == 1, (args, r.err)


def test_deal_json_names_its_hands_and_verdict(cli: CliRunner) -> None:
    data = _result(cli(["analyze", "deal:open-players", "--cards", "6", "--json"]).out, "exact")
    assert data["hands"] == [3, 3] and data["verdict"] == "biased"
    # independent: each of the 20 deals into two hands of 3 has probability 2**-k, where
    # k counts the cards dealt while both hands were still open (each a fair coin)
    expected = {}
    for owners in itertools.product((0, 1), repeat=6):
        if owners.count(0) != 3:
            continue
        counts, prob = [0, 0], Fraction(1)
        for pile in owners:
            if max(counts) < 3:
                prob /= 2
            counts[pile] += 1
        expected[owners] = prob
    got = {tuple(o["outcome"]): Fraction(o["probability"]) for o in data["outcomes"]}
    assert got == expected
    fair = _result(cli(["analyze", "deal:fraction", "--cards", "6", "--json"]).out, "exact")
    assert fair["verdict"] == "uniform" and fair["tv"] == "0" and fair["tv_float"] == 0.0


def test_cut_off_walk_of_a_fair_method_is_not_called_biased(cli: CliRunner) -> None:
    r = cli(["analyze", "deal:arithmetic", "--cards", "6", "--hands", "2,2,2"])
    assert r.code == 0, r.err
    assert "verdict: biased" not in r.out and "between 0 and" in r.out


def test_mixing_json_has_exactly_the_issue_fields(cli: CliRunner) -> None:
    args = ["mixing", "riffle", "--cards", "3", "--max", "2", "--json"]
    points = _result(cli(args).out)["points"]
    assert all({"shuffles", "tv", "separation"} <= set(p) for p in points)
    # one riffle of 3 cards (2**3 equally likely cut-and-drop labellings): the identity
    # comes from 4 of them, each of the 4 two-packet interleavings from 1, the reversal
    # never.  TV = 1/2 * (|1/2 - 1/6| + 4 * |1/8 - 1/6| + 1/6) = 1/3; separation 1.
    assert points[0]["tv_fraction"] == "1/3" and points[0]["separation"] == 1.0
    assert isinstance(points[1]["tv"], float) and isinstance(points[1]["separation"], float)


def test_cards_is_c_and_n_is_not_cards(cli: CliRunner) -> None:
    short = cli(["analyze", "swap-any", "-c", "3", "--json"])
    assert short.code == 0 and _result(short.out, "exact")["cards"] == 3
    assert (
        cli(["mixing", "riffle", "-c", "52", "--max", "8"]).out
        == cli(["mixing", "riffle", "--cards", "52", "--max", "8"]).out
    )
    for args in (["analyze", "swap-any", "-n", "3"], ["mixing", "riffle", "-n", "52"]):
        r = cli(args)  # -n means --count in every croupier command
        assert r.code == 2 and r.out == "" and len(r.err.splitlines()) == 1, args
        assert "No such option: -n" in r.err


def test_engine_choices_come_from_the_library(cli: CliRunner) -> None:
    from typing import get_args

    from croupier.analysis.run import EngineChoice

    help_text = cli(["analyze", "--help"]).out
    for choice in get_args(EngineChoice):
        assert choice in help_text
    r = cli(["analyze", "swap-any", "--cards", "4", "--engine", "quick"])
    assert r.code == 2 and len(r.err.splitlines()) == 1 and "'quick'" in r.err
    walk = _result(
        cli(["analyze", "swap-any", "--cards", "4", "--engine", "walk", "--json"]).out, "exact"
    )
    # independent: the 4**4 equally likely swap sequences, counted by brute force
    paths: dict[tuple[int, ...], int] = {}
    for js in itertools.product(range(4), repeat=4):
        deck = [0, 1, 2, 3]
        for i, j in enumerate(js):
            deck[i], deck[j] = deck[j], deck[i]
        paths[tuple(deck)] = paths.get(tuple(deck), 0) + 1
    tv = sum(abs(Fraction(paths.get(p, 0), 4**4) - Fraction(1, 24))
             for p in itertools.permutations(range(4))) / 2  # fmt: skip
    assert walk["engine"] == "walk" and Fraction(walk["tv"]) == tv


def test_engine_is_refused_where_nothing_is_exact(cli: CliRunner) -> None:
    for args in (
        ["analyze", "fisher-yates", "--cards", "20", "--engine", "walk"],
        ["analyze", "fisher-yates", "--cards", "5", "--trials", "9", "--engine", "fast"],
        ["analyze", "cut", "--cards", "4", "--repeat", "3", "--engine", "walk"],
    ):
        r = cli(args)
        assert r.code == 2 and "--engine" in r.err and "exact" in r.err, (args, r.err)
        assert r.err.count("\n") == 1


def test_list_shows_every_registered_method_under_a_heading(cli: CliRunner) -> None:
    from croupier.analysis.methods import analysis_methods

    lines = cli(["analyze", "--list"]).out.splitlines()
    listed = [line.split()[0] for line in lines if line.startswith("  ")]
    assert sorted(listed) == sorted(analysis_methods())
    headings = [line for line in lines if not line.startswith(" ")]
    assert all(h.endswith(":") for h in headings) and len(headings) >= 4


def test_mixing_group_without_a_subcommand_shows_its_help(cli: CliRunner) -> None:
    r = cli(["mixing"])
    assert r.code == 0 and "riffle" in r.out and "croupier mixing riffle" in r.out


def test_mixing_json_fractions_longer_than_4300_digits(cli: CliRunner) -> None:
    r = cli(["mixing", "riffle", "--cards", "300", "--max", "50", "--json"])
    assert r.code == 0, r.err
    last = _result(r.out)["points"][-1]
    assert last["shuffles"] == 50
    # Separation after k riffles (a = 2**k packets): 1 - n! C(a, n) / a**n.
    n, a = 300, 2**50
    expected = 1 - Fraction(math.factorial(n) * math.comb(a, n), a**n)
    numerator, denominator = last["separation_fraction"].split("/")
    assert len(denominator) > 4300
    assert Fraction(_big_int(numerator), _big_int(denominator)) == expected


def _big_int(digits: str) -> int:
    """A decimal of any length, read 1000 digits at a time (under Python's 4300-digit limit)."""
    value = 0
    for start in range(0, len(digits), 1000):
        chunk = digits[start : start + 1000]
        value = value * 10 ** len(chunk) + int(chunk)
    return value


def test_unknown_method_points_at_the_list_option(cli: CliRunner) -> None:
    r = cli(["analyze", "fisher-yates,bogo", "--cards", "3"])
    assert r.code == 2 and r.err.count("\n") == 1
    assert "'bogo'" in r.err and "croupier analyze --list" in r.err
    assert "swap-any" in r.err and "()" not in r.err  # the choices, and no Python call
