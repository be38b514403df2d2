"""`croupier dealer SCRIPT` and `croupier deal --where/--predeal`: the command-line runs.

Deals are judged by the real C program `dealer` where it matters: a deal is
fed to dealer with all four hands predealt and the same condition, and dealer
produces it exactly when the condition holds.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from croupier.bulk import BulkDealer, DealArray
from croupier.bulk.writers import parse_oneline
from croupier.dealing import make_layout
from croupier.dealing.evaluation import hcp
from croupier.formats.pbn import parse_pbn_file
from tests.conftest import ROOT, CliRunner, run_dealer

BRIDGE = make_layout("bridge")
NOTRUMP = """\
# a strong notrump opener in East
nt = shape(east, any 4333 + any 4432 + any 5332) && hcp(east) >= 15 && hcp(east) <= 17
condition nt && hcp(west) >= 8
produce 12
action printoneline
"""


def hands_of(deals: DealArray) -> list[list[str]]:
    """Each deal as four dealer holdings (N E S W), e.g. ``['SAK2, HQ, D, CJT9', ...]``."""
    out = []
    for deal in deals:
        hands = []
        for pile in deal.piles:
            suits = {s: "" for s in "SHDC"}
            for card in pile:
                suits[card.code[-1]] += card.code[:-1]
            hands.append(", ".join(f"{s}{r}" for s, r in suits.items() if r))
        out.append(hands)
    return out


def dealer_accepts(deals: DealArray, condition: str) -> list[bool]:
    """Whether the real dealer produces each deal (all hands predealt) under ``condition``."""
    verdicts = []
    for hands in hands_of(deals):
        predeal = "\n".join(
            f"predeal {seat} {hand}"
            for seat, hand in zip(("north", "east", "south", "west"), hands, strict=True)
        )
        script = f"generate 1\nproduce 1\n{predeal}\ncondition {condition}\naction printoneline\n"
        verdicts.append(run_dealer(script, 1).startswith("n "))
    return verdicts


@pytest.fixture
def notrump(tmp_path: Path) -> Path:
    path = tmp_path / "notrump.dlr"
    path.write_text(NOTRUMP)
    return path


# -- croupier dealer ------------------------------------------------------------------------------


def test_dealer_produces_deals_the_real_dealer_accepts(cli: CliRunner, notrump: Path) -> None:
    result = cli(["dealer", str(notrump), "--seed", "judge", "-v"])
    assert result.code == 0, result.err
    deals = parse_oneline(result.out)
    assert len(deals) == 12
    condition = NOTRUMP.splitlines()[2].split("=", 1)[1]
    condition = f"({condition}) && hcp(west) >= 8"
    assert all(dealer_accepts(deals, condition))
    assert "Generated" not in result.out  # -v: no closing lines
    assert "strategy" in result.err and "seeded" in result.err


def test_dealer_output_ends_with_dealers_closing_lines(cli: CliRunner, notrump: Path) -> None:
    result = cli(["dealer", str(notrump), "--seed", "s", "-p", "3"])
    lines = result.out.splitlines()
    assert [line.split()[0] for line in lines[:3]] == ["n", "n", "n"]
    assert lines[3].startswith("Generated ") and lines[3].endswith(" hands")
    assert lines[4] == "Produced 3 hands"
    assert lines[5].startswith("Initial random seed withheld; seeded: reproducible from its seed")
    assert lines[6].startswith("Time needed ")


def test_dealer_runs_are_reproducible_and_prefix_stable(cli: CliRunner, notrump: Path) -> None:
    five = cli(["dealer", str(notrump), "-s", "7", "-p", "5", "-v"]).out
    again = cli(["dealer", str(notrump), "--seed", "7", "-p", "5", "-v"]).out
    ten = cli(["dealer", str(notrump), "-s", "7", "-p", "10", "-v"]).out
    assert five == again  # -s N is the seed text "N"
    assert ten.splitlines()[:5] == five.splitlines()
    other = cli(["dealer", str(notrump), "-s", "8", "-p", "5", "-v"]).out
    assert other != five


def test_rejection_and_stacking_both_satisfy_the_condition(cli: CliRunner, notrump: Path) -> None:
    for strategy in ("rejection", "stacking"):
        result = cli(["dealer", str(notrump), "--seed", "st", "--strategy", strategy, "-v"])
        assert result.code == 0, result.err
        assert f"strategy {strategy if strategy == 'rejection' else 'smart stacking'}" in (
            result.err
        )
        for deal in parse_oneline(result.out):
            east, west = deal.piles[1], deal.piles[3]
            assert 15 <= hcp(east) <= 17 and hcp(west) >= 8
            assert sorted(sum(c.code[-1] == s for c in east) for s in "SHDC")[0] >= 2


def test_json_has_the_deals_the_counts_and_the_statistics(cli: CliRunner, tmp_path: Path) -> None:
    script = tmp_path / "stats.dlr"
    script.write_text(
        'condition hcp(north) >= 20\naction average "south" hcp(south), '
        "frequency (spades(north), 0, 13)\n"
    )
    result = cli(["dealer", str(script), "-g", "3000", "--seed", "j", "--json", "--quiet"])
    assert result.code == 0, result.err
    assert result.err == ""
    envelope = json.loads(result.out)
    assert envelope["command"] == "dealer" and envelope["source"] == "seeded"
    assert envelope["algorithm"] == "croupier-stack/2"
    assert envelope["reproducible"] is True and envelope["bits"] > 0
    doc = envelope["result"]
    assert doc["generated"] == 3000 and doc["produced"] == len(doc["deals"]) > 0
    low, high = doc["acceptance_ci95"]
    assert low < doc["acceptance"] == doc["produced"] / 3000 < high
    assert "seed" not in doc and "seed" not in envelope  # never the seed itself
    stats = doc["statistics"]
    average = stats[0]
    # the average of South's points over the deals listed, computed here from the deals
    south = [
        sum({"A": 4, "K": 3, "Q": 2, "J": 1}.get(c, 0) for c in deal.split()[2])
        for deal in doc["deals"]
    ]
    assert average["count"] == len(south) and average["sum"] == sum(south)
    assert sum(row["count"] for row in stats[1]["rows"]) == len(south)


def test_pbn_format_writes_games_a_pbn_reader_reads(cli: CliRunner, notrump: Path) -> None:
    result = cli(["dealer", str(notrump), "--seed", "p", "-p", "4", "--format", "pbn"])
    assert result.code == 0, result.err
    boards = parse_pbn_file(result.out)
    assert [b.number for b in boards] == [1, 2, 3, 4]
    assert [b.dealer for b in boards] == ["N", "E", "S", "W"]
    oneline = cli(["dealer", str(notrump), "--seed", "p", "-p", "4", "-v"]).out
    assert [[set(h) for h in b.hands] for b in boards] == [
        [set(h) for h in d.piles] for d in parse_oneline(oneline)
    ]


def test_pbn_games_are_strict_export_with_the_dd_tags_after_the_mandatory_ones(
    cli: CliRunner, tmp_path: Path
) -> None:
    script = tmp_path / "lopsided.dlr"
    script.write_text("produce 5\ncondition hcp(north) + hcp(south) >= 30\n")
    mandatory = ["Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer"]
    mandatory += ["Vulnerable", "Deal", "Scoring", "Declarer", "Contract", "Result"]
    for extra in ([], ["--dd"]):
        r = cli(["dealer", str(script), "--seed", "x", "--format", "pbn", "--quiet", *extra])
        assert r.code == 0, r.err
        assert r.out.startswith("% PBN 2.1\r\n% EXPORT\r\n")
        assert "\n" not in r.out.replace("\r\n", "")  # CR LF line ends only
        games = r.out.split("\r\n\r\n")
        assert games[-1] == "" and len(games) == 6
        for board, game in enumerate(games[:5], start=1):
            names = [ln[1:].split(" ")[0] for ln in game.split("\r\n") if ln.startswith("[")]
            assert names[:16] == [*mandatory, "Generator"]
            if extra:  # the analysis follows the game's own tags
                assert names[16] == "DoubleDummyTricks" and names[-1] == "OptimumResultTable"
            else:
                assert names[16:] == []
            dealer = "NESW"[(board - 1) % 4]
            assert f'[Dealer "{dealer}"]' in game and f'[Deal "{dealer}:' in game


def test_script_from_stdin_and_to_a_file(tmp_path: Path) -> None:
    out = tmp_path / "deals.txt"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run(
        [sys.executable, "-m", "croupier", "dealer", "-", "-p", "3", "--seed", "i", "-o", str(out)],
        input="condition hcp(north) >= 12 action printoneline",
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""
    assert len(parse_oneline(out.read_text())) == 3
    again = subprocess.run(
        [sys.executable, "-m", "croupier", "dealer", "-", "-p", "3", "-o", str(out)],
        input="action printoneline",
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert again.returncode == 2 and "--overwrite" in again.stderr
    assert len(parse_oneline(out.read_text())) == 3  # the old file is untouched


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["/nonexistent.dlr"], "cannot read script '/nonexistent.dlr': no such file"),
        (["{script}", "-s", "1", "--seed", "x"], "either --seed TEXT or -s NUMBER"),
        (["{script}", "-p", "0"], "-p/--produce must be between 1"),
        (["{bad}"], "bad.dlr:3:1: found the end of the script, expected ')'"),
        (["{script}", "--format", "csv"], "csv"),
    ],
)
def test_bad_input_is_one_line_exit_2(
    cli: CliRunner, notrump: Path, args: list[str], expected: str
) -> None:
    bad = notrump.parent / "bad.dlr"
    bad.write_text("produce 3\ncondition hcp(north\n")
    args = [a.format(script=notrump, bad=bad) for a in args]
    result = cli(["dealer", *args])
    assert result.code == 2
    assert expected in result.err
    assert len(result.err.strip().splitlines()) == 1


def test_ctrl_c_stops_a_long_run_cleanly(tmp_path: Path) -> None:
    script = tmp_path / "long.dlr"
    script.write_text("generate 1000000000\ncondition hcp(north) >= 10\naction printoneline\n")
    out = tmp_path / "long.txt"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    args = [sys.executable, "-m", "croupier", "dealer", str(script), "-p", "1000000000"]
    proc = subprocess.Popen(
        [*args, "--seed", "c", "-o", str(out), "-v"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    deadline = time.monotonic() + 60
    while not (out.parent.glob(".long.txt*") or out.exists()) and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(1.5)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "interrupted by Ctrl-C" in err
    deals = parse_oneline(out.read_text())  # a complete file: every line a whole deal
    assert len(deals) > 0
    assert all(hcp(d.piles[0]) >= 10 for d in deals[:200])


# -- croupier deal --where / --predeal ---------------------------------------------------------


def test_where_keeps_in_order_the_plain_deals_that_pass(cli: CliRunner) -> None:
    where = "hcp(north) >= 14 and spades(south) >= 4"
    result = cli(
        [
            "deal",
            "--where",
            where,
            "--strategy",
            "rejection",
            "-n",
            "20",
            "--seed",
            "w",
            "--format",
            "oneline",
        ]
    )
    assert result.code == 0, result.err
    got = parse_oneline(result.out)
    plain = BulkDealer(BRIDGE, seed="w").deal(3000)
    north_hcp = [hcp(d.piles[0]) for d in plain]
    south_spades = [sum(c.code[-1] == "S" for c in d.piles[2]) for d in plain]
    keep = [i for i in range(len(plain)) if north_hcp[i] >= 14 and south_spades[i] >= 4]
    assert got == plain[keep[:20]]
    assert "condition: 20 deals of" in result.err and "strategy rejection" in result.err


def test_where_with_stacking_gives_deals_dealer_accepts(cli: CliRunner) -> None:
    where = "shape(north, any 4333 + any 4432 + any 5332) and hcp(north) >= 20 and hcp(north) <= 21"
    args = ["deal", "--where", where, "-n", "15", "--seed", "k", "-f", "oneline"]
    result = cli([*args, "--strategy", "stacking"])
    assert result.code == 0, result.err
    assert "smart stacking (north)" in result.err
    deals = parse_oneline(result.out)
    assert len(deals) == 15
    assert all(dealer_accepts(deals, where.replace(" and ", " && ")))


def test_predeal_cards_are_in_every_deal(cli: CliRunner) -> None:
    result = cli(
        [
            "deal",
            "--predeal",
            "S:AQ542.KJ87.32.AK",
            "--where",
            "hcp(west) >= 15",
            "-n",
            "10",
            "--seed",
            "pd",
            "-f",
            "oneline",
        ]
    )
    assert result.code == 0, result.err
    for deal in parse_oneline(result.out):
        assert sorted(c.code for c in deal.piles[2]) == sorted(
            ["AS", "QS", "5S", "4S", "2S", "KH", "JH", "8H", "7H", "3D", "2D", "AC", "KC"]
        )
        assert hcp(deal.piles[3]) >= 15


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--where", "hcp(north) > 40"], "no deal satisfies --where"),
        (["--where", "hcp(north) >= 10", "--engine", "deal"], "leave out --engine deal"),
        (["skat", "--where", "hcp(north) >= 1"], "not a bridge layout"),
        (["--strategy", "stacking"], "give --where too"),
        (["--where", "hcp(north) >"], "--where:1:13: found the end"),
        (["--predeal", "N:AKQ", "--where", "1"], "predeal"),
    ],
)
def test_where_errors_are_one_line_exit_2(cli: CliRunner, args: list[str], expected: str) -> None:
    result = cli(["deal", *args])
    assert result.code == 2
    assert expected in result.err
    assert len(result.err.strip().splitlines()) == 1


# -- double dummy -----------------------------------------------------------------------------


def test_dd_tables_in_pbn_match_endplays_solver(cli: CliRunner, tmp_path: Path) -> None:
    from endplay.dds import calc_dd_table
    from endplay.parsers import pbn
    from endplay.types import Denom, Player

    script = tmp_path / "big.dlr"
    # lopsided deals solve fast: North and South hold at least 30 points
    script.write_text("produce 2\ncondition hcp(north) + hcp(south) >= 30\n")
    out = tmp_path / "dd.pbn"
    result = cli(["dealer", str(script), "--seed", "dd", "--format", "pbn", "--dd", "-o", str(out)])
    assert result.code == 0, result.err
    boards = pbn.loads(out.read_text())
    assert len(boards) == 2
    players = (Player.north, Player.east, Player.south, Player.west)
    denoms = (Denom.spades, Denom.hearts, Denom.diamonds, Denom.clubs, Denom.nt)
    for board in boards:
        table = calc_dd_table(board.deal)  # endplay's own call, one deal at a time
        rows = board.info["OptimumResultTable"]["rows"]
        shown = {(r[0], r[1]): int(r[2]) for r in rows}
        for player, seat in zip(players, "NESW", strict=True):
            for denom, strain in zip(denoms, ("S", "H", "D", "C", "NT"), strict=True):
                assert shown[(seat, strain)] == table[denom, player]
        assert board.info["OptimumScore"].split()[0] in {"NS", "EW"}


def test_tricks_in_a_condition_gives_deals_that_make_it(cli: CliRunner, tmp_path: Path) -> None:
    from endplay.dds import calc_dd_table
    from endplay.parsers import pbn
    from endplay.types import Denom, Player

    script = tmp_path / "game.dlr"
    script.write_text(
        "produce 2\ncondition hcp(north) >= 25 && tricks(north, notrump) >= 12\n"
        "action average tricks(north, notrump)\n"
    )
    result = cli(["dealer", str(script), "--seed", "t", "--format", "pbn", "--quiet"])
    assert result.code == 0, result.err
    for board in pbn.loads(result.out):
        assert calc_dd_table(board.deal)[Denom.nt, Player.north] >= 12


def test_dd_needs_the_pbn_format(cli: CliRunner, notrump: Path) -> None:
    result = cli(["dealer", str(notrump), "--dd"])
    assert result.code == 2 and "--format pbn" in result.err


def test_plot_draws_every_frequency_table(cli: CliRunner, tmp_path: Path) -> None:
    script = tmp_path / "f.dlr"
    script.write_text(
        'generate 2000\naction frequency "N" (spades(north), 0, 13), '
        'frequency "S" (hcp(south), 0, 37), average hcp(east)\n'
    )
    plot = tmp_path / "f.svg"
    result = cli(["dealer", str(script), "--seed", "pl", "--plot", str(plot), "--format", "table"])
    assert result.code == 0, result.err
    svg = plot.read_text()
    assert svg.count("share of deals") == 2  # one panel per frequency table
    again = cli(["dealer", str(script), "--plot", str(plot)])
    assert again.code == 2 and "--overwrite" in again.err
    none = tmp_path / "n.dlr"
    none.write_text("generate 10\naction average hcp(east)\n")
    refused = cli(["dealer", str(none), "--plot", str(tmp_path / "g.svg")])
    assert refused.code == 2 and "no" in refused.err and not (tmp_path / "g.svg").exists()


def test_a_huge_script_file_is_refused_without_reading_it_all(
    cli: CliRunner, tmp_path: Path
) -> None:
    big = tmp_path / "big.dlr"
    with big.open("wb") as f:
        f.truncate(64 * 1024 * 1024)  # sparse: 64 MiB of zero bytes
    result = cli(["dealer", str(big)])
    assert result.code == 2 and "larger than 4,000,000 bytes" in result.err
