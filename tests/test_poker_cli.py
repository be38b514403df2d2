"""``croupier poker eval`` and ``croupier poker equity``, run in-process."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from croupier.cli import poker_cmd
from tests.conftest import CliRunner


def test_eval_prints_the_hand(cli: CliRunner) -> None:
    r = cli(["poker", "eval", "Kh", "Kd", "--board", "7s 7c Ah Kc 2d"])
    assert r.code == 0 and r.err == ""
    assert r.out.splitlines() == [
        "Full House, Kings full of Sevens",
        "  best five  KH KD KC 7S 7C",
        "  value      7278 of 7462 (full-house)",
    ]
    glued = cli(["poker", "eval", "KhKd7s7cAhKc2d"])
    assert glued.out == r.out


def test_eval_json_and_omaha(cli: CliRunner) -> None:
    r = cli(["poker", "eval", "As Ah Kd Qc", "--omaha", "--board", "Ks Ts 9s 2s 7h", "--json"])
    doc = json.loads(r.out)
    assert doc["command"] == "poker eval" and doc["reproducible"] is True
    data = doc["result"]
    assert data["rule"] == "omaha" and data["category"] == "one-pair"
    assert data["ranks"] == ["A", "A", "K", "T", "9"] and len(data["best"]) == 5
    args = ["poker", "eval", "As Ah", "--board", "Ks Ts 9s 2s 7h", "--json"]
    holdem = json.loads(cli(args).out)["result"]
    assert holdem["category"] == "flush" and holdem["value"] > data["value"]


def test_equity_exact_text(cli: CliRunner) -> None:
    r = cli(["poker", "equity", "AsKs", "QhQd", "--board", "2s7sQc"])
    assert r.code == 0 and r.err == ""
    assert r.out.splitlines() == [
        "board 2S 7S QC: exact, 990 boards",
        "hand        equity       win       tie  exact equity",
        "AsKs       25.556%   25.556%    0.000%  23/90",
        "QhQd       74.444%   74.444%    0.000%  67/90",
    ]


def test_equity_ranges_and_json(cli: CliRunner) -> None:
    r = cli(["poker", "equity", "QQ+, AKs", "JJ-99, AQs", "--board", "Ks7d2c", "--json"])
    doc = json.loads(r.out)
    assert (doc["algorithm"], doc["source"], doc["reproducible"], doc["bits"]) == (
        None,
        None,
        True,
        None,
    )
    data = doc["result"]
    assert data["method"] == "exact" and data["deals"] == data["matchups"] * data["boards"]
    shares = [Fraction(h["equity"]) for h in data["hands"]]
    assert sum(shares) == 1 and [h["hand"] for h in data["hands"]] == ["QQ+, AKs", "JJ-99, AQs"]
    assert data["hands"][0]["combos"] == 15 + 3  # QQ, AA 6 each, KK 3; AKs 3 (no Ks)
    out = cli(["poker", "equity", "QQ+, AKs", "JJ-99, AQs", "--board", "Ks7d2c"]).out
    assert "exact, 365,310 deals (369 matchups x 990 boards)" in out


def test_equity_monte_carlo_is_reproducible_and_says_so(cli: CliRunner) -> None:
    args = ["poker", "equity", "AhKh", "random", "--trials", "20000", "--seed", "cli study"]
    first, again = cli(args), cli(args)
    assert first.code == 0 and first.out == again.out
    assert "Monte Carlo, 20,000 trials (croupier-equity-mc/1, seeded)" in first.out
    assert "95% interval" in first.out
    assert first.err.startswith("sampled 20,000 trials with croupier-equity-mc/1 from the seed")
    doc = json.loads(cli([*args, "--json", "--quiet"]).out)
    assert doc["algorithm"] == "croupier-equity-mc/1" and doc["source"] == "seeded"
    assert doc["reproducible"] is True and doc["bits"] > 0
    data = doc["result"]
    assert data["method"] == "monte-carlo" and data["trials"] == 20000
    assert "algorithm" not in data and "source" not in data
    low, high = data["hands"][0]["interval_percent"]
    assert low < data["hands"][0]["equity_percent"] < high
    from croupier.poker import equity

    library = equity(["AhKh", "random"], trials=20000, seed="cli study")
    assert data["hands"][0]["equity"] == str(library.hands[0].equity)


def test_equity_notes(cli: CliRunner) -> None:
    r = cli(["poker", "equity", "AsKs", "QhQd", "--board", "2s7sQc", "--seed", "x"])
    assert r.code == 0 and r.err == "note: the result is exact, so --seed was not used\n"
    quiet = cli(["poker", "equity", "AsKs", "QhQd", "--trials", "100", "--quiet"])
    assert quiet.code == 0 and quiet.err == ""


def test_omaha_equity(cli: CliRunner) -> None:
    r = cli(["poker", "equity", "As Ah Kd Qc", "Ks Kh 7c 8d", "--board", "2c3d9h"])
    assert r.code == 0 and r.out.startswith("Omaha, board 2C 3D 9H: exact, 820 boards")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["poker", "equity", "AsKs"], "equity needs 2 to 10 hands, not 1"),
        (["poker", "equity", "AsKs", "QQ+x"], "bad range token 'QQ+x'"),
        (["poker", "equity", "AsKs", "AsQd"], "card 'AS' is dealt twice"),
        (["poker", "equity", "AsKs", "QhQd", "--trials", "5", "--exact"], "not both"),
        (["poker", "equity", "AsKs", "QhQd", "--trials", "99999999999"], "--trials is at most"),
        (["poker", "equity", "AsKs", "QhQd", "--game", "stud"], "'stud' is not one of"),
        (["poker", "equity", "random", "QQ+", "--exact"], "would take too long"),
        (["poker", "equity", "random", "random", "random", "--exact"], "10,000,000 matchups"),
        (["poker", "eval", "As", "Ks"], "best five of 5, 6 or 7 cards, not 2"),
        (["poker", "eval", "As Ks Qs Js", "--omaha", "--board", "2c"], "3, 4 or 5 cards, not 1"),
        (["poker", "eval", "As", "Zz", "Qs", "Js", "Ts"], "bad card 'Zz'"),
    ],
)
def test_bad_input_is_one_line_exit_2(cli: CliRunner, args: list[str], message: str) -> None:
    r = cli(args)
    assert r.code == 2 and r.out == ""
    assert r.err.startswith("error: ") and message in r.err and r.err.count("\n") == 1


def test_progress_bar_on_a_terminal_lines_elsewhere(
    cli: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    shown: list[tuple[str, int, bool]] = []
    real_bar, real_lines = poker_cmd.progress_bar, poker_cmd.progress_lines

    def bar(total: int, show: bool, description: str = "") -> object:
        shown.append(("bar", total, show))
        return real_bar(total, False, description)

    def lines(total: int, description: str, unit: str) -> object:
        shown.append(("lines", total, True))
        return real_lines(total, description, unit)

    monkeypatch.setattr(poker_cmd, "progress_bar", bar)
    monkeypatch.setattr(poker_cmd, "progress_lines", lines)
    monkeypatch.setattr(poker_cmd, "PROGRESS_FROM", 5000)  # long runs, made short
    assert cli(["poker", "equity", "AA", "KK", "--trials", "2000"]).code == 0
    assert shown[-1] == ("lines", 2000, True)  # stderr is captured, not a terminal
    monkeypatch.setattr(poker_cmd, "is_terminal", lambda stream: True)
    assert cli(["poker", "equity", "AA", "KK", "--trials", "2000"]).code == 0
    assert shown[-1] == ("bar", 2000, True)
    assert cli(["poker", "equity", "AA", "KK", "--trials", "999"]).code == 0
    assert shown[-1] == ("lines", 999, True)  # a short run: lines, which wait 30 s
    assert cli(["poker", "equity", "AA", "KK", "--trials", "2000", "--quiet"]).code == 0
    assert shown[-1] == ("bar", 2000, False)  # --quiet: nothing at all
    assert cli(["poker", "equity", "AsKs", "QhQd", "--board", "2c3c4c"]).code == 0
    assert shown[-1] == ("lines", 990, True)  # exact: a bar from 5,000 deals
    assert cli(["poker", "equity", "AsKs", "QhQd", "--board", "2c3c"]).code == 0
    assert shown[-1] == ("bar", 15180, True)
