"""`croupier deal`, `rank`, `unrank`, `entropy`, the deal formats and the golden vectors."""

from __future__ import annotations

import csv
import io
import json
import re
import shlex
from pathlib import Path

import pytest
from endplay.parsers import lin as endplay_lin
from endplay.parsers import pbn as endplay_pbn
from hypothesis import given, settings
from hypothesis import strategies as st

import croupier
from croupier.cards import Card, Rank, Suit
from croupier.dealing import deal_from_number, deal_many, make_layout
from croupier.errors import DealNotationError, LayoutError
from croupier.formats.deal_csv import format_deals_csv
from croupier.formats.deal_json import deal_to_dict
from croupier.formats.deal_text import format_deal_piles, format_deal_text, parse_deal_piles
from croupier.formats.pbn_deal import format_pbn_deal, parse_pbn_deal
from croupier.randomness import UniformSampler, make_source
from croupier.ranking.partitions import subsets_unrank
from tests.conftest import VECTORS, CliRunner

# The labels of seeded output, spelled out here (they never quote the seed).
SEEDED_LABEL = (
    "seeded: reproducible from its seed (croupier-seeded/1), so only as secret as the seed"
)
BULK_SEEDED_LABEL = (
    "seeded: reproducible from its seed (croupier-bulk/1), so only as secret as the seed"
)

BRIDGE_M = 53_644_737_765_488_792_839_237_440_000
DECK52 = make_layout("bridge").deck


# -- PBN ----------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.permutations(list(range(52))), st.sampled_from("NESW"))
def test_pbn_round_trip(order: list[int], first: str) -> None:
    hands = [[DECK52[i] for i in order[13 * h : 13 * h + 13]] for h in range(4)]
    text = format_pbn_deal(hands, first=first)
    assert text.startswith(first + ":")
    back = parse_pbn_deal(text)
    assert [set(h) for h in back] == [set(h) for h in hands]


def test_pbn_format_is_suits_s_h_d_c_high_to_low() -> None:
    n = [Card(Rank.TWO, Suit.CLUBS), Card(Rank.ACE, Suit.SPADES), Card(Rank.TEN, Suit.HEARTS)]
    assert format_pbn_deal([n, [], [], []]) == "N:A.T..2 ... ... ..."


@pytest.mark.parametrize(
    "text,message",
    [
        ("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432.", "has 3 hands"),
        ("N:AKQJT98765432... AKQJT98765432... ..AKQJT98765432. ...AKQJT98765432", "appears in"),
        ("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT9876543", "12 cards"),
        ("X:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432", "first seat"),
        ("N:AKQJT98765431... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432", "bad rank"),
        ("N:AKQ.JT9.876 - - -", "4 suits"),
        ("N:AKQJT98765432... - - ...AKQJT98765432", "unknown"),
    ],
)
def test_pbn_errors(text: str, message: str) -> None:
    with pytest.raises(DealNotationError, match=message):
        parse_pbn_deal(text)


def test_pbn_single_unknown_hand_is_completed() -> None:
    n, e, _s, w = parse_pbn_deal("E:- ..AKQJT98765432. ...AKQJT98765432 AKQJT98765432...")
    assert {c.suit for c in e} == {Suit.HEARTS}
    assert {c.suit for c in w} == {Suit.CLUBS} and {c.suit for c in n} == {Suit.SPADES}


# -- text, JSON, CSV ----------------------------------------------------------------------


def test_bridge_text_is_a_compass_diagram() -> None:
    text = format_deal_text(deal_from_number(make_layout("bridge"), 0), bits=True)
    lines = text.splitlines()
    assert lines[0].startswith("bridge deal 0 (scheme croupier")
    assert lines[1].strip() == "North" and lines[6].startswith("West") and "East" in lines[6]
    assert lines[11].strip() == "South"
    assert "♠ A K Q J 10 9 8 7 6 5 4 3 2" in lines[2]


def test_other_games_print_a_line_per_pile_in_game_order() -> None:
    lay = make_layout("pinochle")
    text = format_deal_text(deal_from_number(lay, 0), header=False)
    first = text.splitlines()[0]
    # pinochle order: A 10 K Q J 9, two copies each
    assert first.startswith("N  ♠ A A 10 10 K K Q Q J J 9 9")


def test_json_deal_object_has_every_field() -> None:
    lay = make_layout("holdem", players=3)
    d = next(deal_many(lay, 1, source=make_source(seed="json", purpose="deal")))
    obj = deal_to_dict(d)
    for key in ["game", "hands", "remainder", "number", "scheme", "method", "bits_used"]:
        assert key in obj
    assert obj["algorithm"] == "croupier-deal/3" and obj["source"] == "seeded"
    assert list(obj["hands"]) == ["P1", "P2", "P3"]
    assert [(name, len(cards)) for name, cards in obj["piles"].items()] == [
        ("flop", 3),
        ("turn", 1),
        ("river", 1),
    ]
    assert obj["remainder"] == [c.code for c in d.remainder]  # the stock, top first
    assert obj["layout"]["piles"][-1] == {
        "name": "stock",
        "size": 41,
        "kind": "remainder",
        "stack": True,
    }
    assert "deal" not in obj
    cards = [c for hand in obj["hands"].values() for c in hand]
    cards += [c for pile in obj["piles"].values() for c in pile]
    assert len(set(cards + obj["remainder"])) == 52


def test_csv_has_a_column_per_pile() -> None:
    lay = make_layout("gin")
    text = format_deals_csv([deal_from_number(lay, 7), deal_from_number(lay, 8)])
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][:7] == ["deal", "number", "scheme", "P1", "P2", "upcard", "stock"]
    assert [r[1] for r in rows[1:]] == ["7", "8"]
    assert len(rows[1][3].split()) == 10 and len(rows[1][5].split()) == 1


def test_slash_notation_round_trip() -> None:
    lay = make_layout("cribbage", players=3)
    number = 123456789 * lay.arrangements + 987654321  # the stock's order: code 987654321
    d = deal_from_number(lay, number)
    assert parse_deal_piles(lay, format_deal_piles(d)).number == number
    # a stock left out takes the cards left in deck order (code 0)
    short = parse_deal_piles(lay, format_deal_piles(d, remainder=False))
    assert short.number == 123456789 * lay.arrangements
    with pytest.raises(DealNotationError, match="got 2"):
        parse_deal_piles(lay, "AS KS QS JS / 2C")
    with pytest.raises(DealNotationError, match="P1 has 4 cards"):
        parse_deal_piles(lay, "AS KS QS JS / 2C 3C 4C 5C 6C / 7C 8C 9C TC JC / QC / KC")


# -- layouts ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "game,players,sizes",
    [
        ("bridge", None, (13, 13, 13, 13)),
        ("go-fish", 2, (7, 7, 38)),
        ("go-fish", 3, (7, 7, 7, 31)),
        ("go-fish", 6, (5, 5, 5, 5, 5, 5, 22)),
        ("war", None, (26, 26)),
        ("ratscrew", 3, (18, 17, 17)),
        ("draw", 4, (5, 5, 5, 5, 32)),
        ("holdem", 2, (2, 2, 3, 1, 1, 43)),
        ("holdem-burn", 2, (2, 2, 1, 3, 1, 1, 1, 1, 40)),
        ("omaha", 2, (4, 4, 3, 1, 1, 39)),
        ("gin", None, (10, 10, 1, 31)),
        ("cribbage", None, (6, 6, 1, 39)),
        ("euchre", None, (5, 5, 5, 5, 4)),
        ("skat", None, (10, 10, 10, 2)),
        ("pinochle", None, (12, 12, 12, 12)),
        ("hearts", 3, (17, 17, 17)),
        ("hearts", 4, (13, 13, 13, 13)),
        ("hearts", 5, (10, 10, 10, 10, 10)),
        ("cribbage", 3, (5, 5, 5, 1, 1, 35)),
        ("cribbage", 4, (5, 5, 5, 5, 1, 31)),
        ("pinochle", 3, (15, 15, 15, 3)),
        ("pinochle", 2, (12, 12, 1, 23)),
        ("ratscrew", 5, (11, 11, 10, 10, 10)),
        ("holdem", 10, (2,) * 10 + (3, 1, 1, 27)),
    ],
)
def test_presets_follow_the_real_rules(
    game: str, players: int | None, sizes: tuple[int, ...]
) -> None:
    assert make_layout(game, players=players).sizes == sizes


@pytest.mark.parametrize(
    "game,players,ranks,copies,missing",
    [
        ("euchre", None, "9TJQKA", 1, ""),
        ("skat", None, "789TJQKA", 1, ""),
        ("pinochle", None, "9TJQKA", 2, ""),
        ("hearts", 3, "23456789TJQKA", 1, "2D"),
        ("hearts", 5, "23456789TJQKA", 1, "2D 2C"),
        ("go-fish", 5, "23456789TJQKA", 1, ""),
    ],
)
def test_preset_decks_follow_the_real_rules(
    game: str, players: int | None, ranks: str, copies: int, missing: str
) -> None:
    deck = make_layout(game, players=players).deck
    full = [(r, s) for r in ranks for s in "SHDC" for _ in range(copies)]
    gone = {(c[0], c[1]) for c in missing.split()}
    want = sorted(rs for rs in full if rs not in gone)
    assert sorted((c.rank.letter, c.suit.letter) for c in deck if c.suit is not None) == want
    assert len(deck) == len(want)


def test_impossible_layouts() -> None:
    with pytest.raises(LayoutError, match="need 60 cards"):
        make_layout(hands="20,20,20")
    with pytest.raises(LayoutError, match="at least 1"):
        make_layout("go-fish", players=0)
    with pytest.raises(LayoutError, match="2-6 players, not 9"):
        make_layout("go-fish", players=9)
    with pytest.raises(LayoutError, match="unknown game"):
        make_layout("canasta-royale")
    with pytest.raises(LayoutError, match="7,7,7"):
        make_layout(hands="7,x")


# -- CLI ----------------------------------------------------------------------------------


def test_cli_default_is_a_bridge_deal(cli: CliRunner) -> None:
    r = cli(["deal"])
    assert r.code == 0, r.err
    assert "North" in r.out and "South" in r.out and "bridge deal" in r.out


def test_cli_json_single_and_many(cli: CliRunner) -> None:
    r = cli(["deal", "--seed", "s", "--json"])
    one = json.loads(r.out)  # the same envelope for one deal as for many
    obj = one["result"][0]
    assert obj["game"] == "bridge" and obj["deal"].startswith("N:") and obj["scheme"] == "croupier"
    assert 0 <= int(obj["number"]) < BRIDGE_M
    r = cli(["deal", "euchre", "--seed", "s", "--count", "3", "--format", "json"])
    doc = json.loads(r.out)
    assert list(doc) == list(one) and len(doc["result"]) == 3
    assert doc["bits"] == pytest.approx(sum(d["bits_used"] for d in doc["result"]))
    r = cli(["deal", "--seed", "s", "--count", "4", "--format", "jsonl"])
    assert len([json.loads(line) for line in r.out.splitlines()]) == 4


def test_cli_same_seed_same_output(cli: CliRunner) -> None:
    a = cli(["deal", "--seed", "repeat me", "--count", "2", "--format", "pbn-deal"])
    b = cli(["deal", "--seed", "repeat me", "--count", "2", "--format", "pbn-deal"])
    c = cli(["deal", "--seed", "repeat me!", "--count", "2", "--format", "pbn-deal"])
    assert a.out == b.out != c.out
    # Standard output is the deals, one PBN deal string a line; the note says it is seeded.
    assert [line[:2] for line in a.out.splitlines()] == ["N:", "N:"]
    assert "from the seed: reproducible" in a.err


def test_stdout_is_the_deals_and_only_a_pbn_file_carries_the_label(cli: CliRunner) -> None:
    seed = "club night secret 12"
    text = cli(["deal", "--seed", seed])
    pbn = cli(["deal", "--seed", seed, "--format", "pbn", "--count", "2"])
    assert text.out.splitlines()[0].startswith("bridge deal ")  # the deal, nothing before it
    assert "from the seed: reproducible" in text.err  # where the deals came from: a note
    # a PBN file says it is seeded in a comment line after the two lines that start every
    # PBN export file (PBN readers skip comments); the label never quotes the seed itself
    assert pbn.out.split("\r\n")[:3] == ["% PBN 2.1", "% EXPORT", f"% {BULK_SEEDED_LABEL}"]
    assert seed not in text.out + text.err + pbn.out + pbn.err
    for fmt, first in [("oneline", "n "), ("pbn-deal", "N:"), ("text", "bridge deal "),
                       ("csv", "deal,"), ("lin", "pn|")]:  # fmt: skip
        for quiet in ([], ["--quiet"]):
            run = cli(["deal", "--seed", seed, "-n", "2", "--format", fmt, *quiet])
            assert run.code == 0 and run.out.startswith(first), (fmt, run.out[:40])
            assert "seeded: reproducible" not in run.out  # (csv has a source column)
            assert ("from the seed" in run.err) == (not quiet)
    oneline = cli(["deal", "--seed", seed, "-n", "2", "--format", "oneline", "--quiet"])
    assert len(oneline.out.splitlines()) == 2 and oneline.err == ""  # dealer's format, exactly
    # Not seeded: no label either; JSON says where the deal came from in its "source" field.
    assert "seeded" not in cli(["deal", "--format", "pbn"]).out
    assert json.loads(cli(["deal", "--seed", seed, "--json"]).out)["source"] == "seeded"
    jsonl = cli(["deal", "--seed", seed, "-n", "2", "-f", "jsonl"]).out.splitlines()
    assert [json.loads(line)["source"] for line in jsonl] == ["seeded", "seeded"]


def test_cli_custom_hands_and_methods(cli: CliRunner) -> None:
    for method in ["optimal", "block", "round-robin", "proportional", "interval", "fraction"]:
        r = cli(["deal", "--hands", "7,7,7", "--method", method, "--json", "--seed", "m"])
        obj = json.loads(r.out)["result"][0]
        assert [len(hand) for hand in obj["hands"].values()] == [7, 7, 7]
        assert len(obj["remainder"]) == 31 and obj["method"] == method


def test_cli_rank_unrank_round_trip(cli: CliRunner) -> None:
    for scheme, number in [
        ("croupier", "0"),
        ("bigdeal", "1"),
        ("pavlicek-1", "10"),
        ("andrews", "77"),
    ]:
        r = cli(["unrank", "bridge", number, "--scheme", scheme])
        assert r.code == 0, r.err
        back = cli(["rank", "bridge", r.out.strip(), "--scheme", scheme, "--json"])
        assert json.loads(back.out)["result"]["number"] == number
    r = cli(["unrank", "skat", "98765", "--json"])
    obj = json.loads(r.out)["result"]
    assert obj["number"] == "98765" and len(obj["hands"]) == 4
    piles = " / ".join(" ".join(cards) for cards in obj["hands"].values())
    assert cli(["rank", "skat", piles]).out.strip() == "98765"


@pytest.mark.parametrize(
    "args,message",
    [
        (["deal", "--hands", "30,30"], "need 60 cards"),
        (["deal", "--players", "0"], "at least 1"),
        (["deal", "war", "--players", "3"], "war is played by 2"),
        (["deal", "euchre", "--format", "pbn"], "PBN games need"),
        (["deal", "euchre", "--format", "pbn-deal"], "PBN deals need"),
        (["deal", "skat", "--format", "lin"], "LIN boards need"),
        (["deal", "--method", "nope"], "unknown deal method"),
        (["deal", "--count", "0"], "--count"),
        (["deal", "--entropy", "dice:" + ",".join("4" * 30)], "need at least 7 more d6"),
        (["unrank", "bridge", str(BRIDGE_M)], "out of range"),
        (["unrank", "bridge", "3x"], "bad deal number"),
        (["unrank", "bridge", "9" * 5000], "(5000 digits) out of range"),
        (["unrank", "bridge", "\uff11\uff12"], "bad deal number"),
        (["entropy", "--deals", "-5"], "--deals must be at least 1"),
        (["unrank", "euchre", "5", "--scheme", "bigdeal"], "bridge deals only"),
        (["rank", "bridge", "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432."], "3 hands"),
        (["rank", "war", "AS KS / AS"], "twice"),
        (["unrank", "bridge", "5", "--scheme", "nope"], "unknown deal-number scheme"),
        (["deal", "custom"], "needs hand sizes, e.g. --hands 7,7,7"),
        (["deal", "--json", "--format", "csv"], "--json is --format json"),
        (["unrank", "euchre", "1", "--scheme", "pavlicek"], "needs one of croupier, sequence"),
    ],
)
def test_cli_bad_input_is_one_line_exit_2(cli: CliRunner, args: list[str], message: str) -> None:
    r = cli(args)
    assert r.code == 2
    assert r.err.startswith("error: ") and message in r.err
    assert len(r.err.strip().splitlines()) == 1


def test_cli_entropy_dice_are_enough(cli: CliRunner) -> None:
    # 37 rolls reach 6**37 > M; this sequence happens to be accepted at once.
    rolls = "dice:" + ",".join(str(1 + i % 6) for i in range(40))
    r = cli(["deal", "--entropy", rolls, "--json"])
    assert r.code == 0, r.err
    obj = json.loads(r.out)["result"][0]
    assert obj["source"] == "entropy" and obj["bits_used"] == pytest.approx(37 * 2.584962500721156)


def test_cli_entropy_report(cli: CliRunner) -> None:
    r = cli(["entropy", "bridge", "--deals", "20", "--json"])
    obj = json.loads(r.out)["result"]
    assert obj["deals"] == str(BRIDGE_M)
    assert obj["log2_deals"] == pytest.approx(95.4374, abs=1e-4)
    assert obj["log2_deck_orders"] == pytest.approx(225.5810, abs=1e-4)
    assert set(obj["measured_bits"]) >= {"optimal", "block", "interval", "fraction"}
    text = cli(["entropy", "go-fish", "--players", "4", "--deals", "5"]).out
    assert "log2 M" in text and "d6 rolls" in text


# -- golden vectors -------------------------------------------------------------------------


def test_golden_seeded_deals() -> None:
    doc = json.loads((VECTORS / "deal_golden.json").read_text(encoding="utf-8"))
    assert doc["algorithm"] == "croupier-deal/2"
    for case in doc["cases"]:
        lay = make_layout(case["game"], players=case["players"], hands=case.get("hands"))
        if case.get("sets"):  # a game whose preset gained stacks, dealt as croupier-deal/2 did
            lay = lay.without_stacks()
        src = make_source(seed=case["seed"], purpose=case["purpose"])
        deals = list(deal_many(lay, case["count"], method=case["method"], source=src))
        for got, want in zip(deals, case["deals"], strict=True):
            assert got.algorithm == doc["algorithm"]
            assert [" ".join(c.code for c in p) for p in got.piles] == want["piles"]
            assert str(got.number) == want["number"]
            assert got.bits_used == want["bits_used"]
            # Independent cross-check of number <-> piles with the reference unranker.
            owners = subsets_unrank(int(want["number"]), lay.sizes)
            piles = [
                [c.code for c, o in zip(lay.deck, owners, strict=True) if o == i]
                for i in range(len(lay.sizes))
            ]
            assert [" ".join(p) for p in piles] == want["piles"]
        if case["method"] == "optimal":
            # The first optimal deal is the first uniform draw below M of the stream (no
            # margin); the second is the next draw with a 32-bit margin, from what is left.
            fresh = UniformSampler(make_source(seed=case["seed"], purpose=case["purpose"]))
            assert str(fresh.below(lay.count)) == case["deals"][0]["number"]
            if case["count"] > 1:
                fresh.margin_bits = 32
                assert str(fresh.below(lay.count)) == case["deals"][1]["number"]


def test_golden_vectors_match_the_cli(cli: CliRunner) -> None:
    doc = json.loads((VECTORS / "deal_golden.json").read_text(encoding="utf-8"))
    case = doc["cases"][0]
    r = cli(
        [
            "deal",
            case["game"],
            "--seed",
            case["seed"],
            "--count",
            str(case["count"]),
            "--method",
            case["method"],
            "--format",
            "json",
        ]
    )
    numbers = [d["number"] for d in json.loads(r.out)["result"]]
    assert numbers == [d["number"] for d in case["deals"]]


# -- where the randomness came from, and dice -----------------------------------------------


@pytest.mark.parametrize("fmt", ["text", "pbn", "pbn-deal", "lin", "csv", "json", "jsonl"])
@pytest.mark.parametrize(
    "source_args,note",
    [
        ([], "croupier-bulk/1 (os-csprng stream) from the OS CSPRNG (not reproducible)"),
        (
            ["--seed", "a seed phrase long enough to cover"],
            "croupier-bulk/1 (seeded stream) from the seed: reproducible, and only as secret "
            "as the seed",
        ),
        (
            ["--entropy", "hex:" + "5a" * 24],
            "optimal from your entropy: only as secret as your bits",
        ),
    ],
)
def test_cli_says_where_the_randomness_came_from_on_stderr(
    cli: CliRunner, fmt: str, source_args: list[str], note: str
) -> None:
    r = cli(["deal", "--format", fmt, *source_args])
    assert r.code == 0, r.err
    assert r.err.splitlines()[-1] == f"dealt with {note}"
    label = SEEDED_LABEL if "--entropy" in source_args else BULK_SEEDED_LABEL
    assert note not in r.out  # stdout stays clean for machine formats
    if fmt == "json":
        assert json.loads(r.out)["source"] in {"os-csprng", "seeded", "entropy"}
    elif fmt == "pbn-deal":
        lines = r.out.splitlines()  # the deal strings only (the label is the note above)
        assert not any(line.startswith("%") for line in lines)
        parse_pbn_deal(lines[0])
    elif fmt == "pbn":
        comments = [line for line in r.out.split("\r\n") if line.startswith("%")]
        seeded = ["% " + label] if "--seed" in source_args else []
        assert comments == ["% PBN 2.1", "% EXPORT", *seeded]
    elif fmt == "lin":
        assert r.out.startswith("pn|") and r.out.count("\n") == 1  # no label line in LIN


def test_cli_short_seed_is_loudly_labelled(cli: CliRunner) -> None:
    r = cli(["deal", "--seed", "42", "--count", "2", "--format", "pbn"])
    assert r.code == 0
    warning, note = r.err.splitlines()
    assert warning.startswith("warning: the seed has at most 16 bits") and "2^95.4" in warning
    assert note == (
        "dealt 2 deals with croupier-bulk/1 (seeded stream) from the seed: reproducible, "
        "and only as secret as the seed"
    )
    assert r.out.split("\r\n")[2] == f"% {BULK_SEEDED_LABEL}"


def test_cli_dice_shortfall_is_exact_when_37_rolls_are_rejected(cli: CliRunner) -> None:
    # 37 sixes read as the largest value below 6**37; 6**37 // M == 1, so it is rejected and
    # r = 6**37 - M values are left: the next draw needs a range M/r times larger.
    r6 = 6**37 - BRIDGE_M
    factor = -(-BRIDGE_M // r6)
    more = next(k for k in range(1, 10) if 6**k >= factor)
    assert more == 2
    r = cli(["deal", "--entropy", "dice:" + ",".join("6" * 37)])
    assert r.code == 2 and r.out == ""
    assert f"need at least {more} more d6 roll(s)" in r.err and "about 37 d6 rolls" in r.err


def test_cli_dice_shortfall_for_several_deals_is_checked_before_dealing(cli: CliRunner) -> None:
    # 3 deals need 3 x 95.44 = 286.31 bits = 110.8 rolls, so 111 rolls; 50 given: 61 more.
    r = cli(["deal", "--count", "3", "--entropy", "dice:" + ",".join("2" * 50)])
    assert r.code == 2 and r.out == ""
    assert "need at least 61 more d6 roll(s)" in r.err and "3 deals need at least 286.31" in r.err


def test_cli_entropy_needs_at_least_one_deal(cli: CliRunner) -> None:
    r = cli(["entropy", "--deals", "0"])
    assert r.code == 2 and r.err.startswith("error: --deals must be at least 1")


def test_replace_on_a_layout_gives_an_independent_correct_index() -> None:
    import dataclasses

    from croupier.dealing.layout import canonical_deck

    euchre = make_layout("euchre")
    nine = Card(Rank.NINE, Suit.SPADES)
    where = euchre.index(nine)
    # a layout over the same number of other cards: the 24 cards from 2 to 7
    small = canonical_deck([Card(Rank(r), s) for s in Suit for r in range(2, 8)])
    other = dataclasses.replace(euchre, deck=small, deck_name="low")
    assert euchre.index(nine) == where and other.index(Card(Rank.TWO, Suit.CLUBS)) == 23
    with pytest.raises(LayoutError, match="not in the low deck"):
        other.index(nine)
    with pytest.raises(LayoutError, match="not in the euchre deck"):
        euchre.index(Card(Rank.TWO, Suit.CLUBS))
    assert nine in euchre and nine not in other


def test_game_presets_build_named_setups_with_none_for_no_remainder() -> None:
    from croupier.dealing.layout import GAMES, GameSetup

    for name, players, remainder in [
        ("bridge", 4, None),
        ("hearts", 3, None),
        ("pinochle", 4, None),
        ("pinochle", 3, "widow"),
        ("go-fish", 4, "pond"),
        ("euchre", 4, "kitty"),
    ]:
        setup = GAMES[name].build(players)
        assert isinstance(setup, GameSetup) and setup.remainder == remainder
        layout = make_layout(name, players=players)
        assert layout.remainder_name == remainder


def test_layout_errors_name_parameters_not_flags() -> None:
    with pytest.raises(LayoutError, match=r"^players= must be at least 1, got 0$"):
        make_layout("go-fish", players=0)
    with pytest.raises(LayoutError, match='hands="7,7,7"'):
        make_layout("custom")
    with pytest.raises(LayoutError, match=r"^players=3 but 2 hand sizes were given$"):
        make_layout(hands=[5, 5], players=3)
    with pytest.raises(LayoutError, match="give hands= for a layout with a stock") as info:
        make_layout("bridge", deck="jokers2")
    assert "--" not in str(info.value)


# -- the command-line shape: short flags, --json, choices from the registries ---------------


def test_cli_short_flags_mean_the_long_ones(cli: CliRunner) -> None:
    long = cli(
        [
            "deal",
            "holdem",
            "--players",
            "3",
            "--count",
            "2",
            "--method",
            "block",
            "--format",
            "json",
            "--seed",
            "flags",
        ]
    )
    short = cli(
        ["deal", "holdem", "-p", "3", "-n", "2", "-m", "block", "-f", "json", "--seed", "flags"]
    )
    assert long.code == short.code == 0 and long.out == short.out
    assert [d["method"] for d in json.loads(short.out)["result"]] == ["block", "block"]


def test_cli_json_is_format_json(cli: CliRunner) -> None:
    a = cli(["deal", "euchre", "--seed", "same", "--json"])
    b = cli(["deal", "euchre", "--seed", "same", "--format", "json"])
    c = cli(["deal", "euchre", "--seed", "same", "--format", "json", "--json"])
    assert a.code == b.code == c.code == 0 and a.out == b.out == c.out
    assert json.loads(a.out)["result"][0]["game"] == "euchre"
    r = cli(["deal", "--json", "--format", "pbn"])
    assert r.code == 2 and r.out == ""
    assert r.err == "error: --json is --format json; it cannot be combined with --format pbn\n"


def _help(cli: CliRunner, command: str) -> str:
    """``croupier COMMAND --help`` on one line (words wrapped at a hyphen joined again)."""
    return re.sub(r"-\s+", "-", " ".join(cli([command, "--help"]).out.split()))


def test_cli_help_lists_every_registered_choice(cli: CliRunner) -> None:
    from croupier.dealing import GAMES, METHODS
    from croupier.decks import DECK_PRESETS
    from croupier.formats.registry import run_formats
    from croupier.ranking.schemes import scheme_names

    deal_help = _help(cli, "deal")
    for name in [*GAMES, *METHODS, *scheme_names(), *DECK_PRESETS]:
        assert name in deal_help
    assert ", ".join(run_formats()) in deal_help  # (every run format of the registry, in order)
    assert len(run_formats()) == 10
    for command in ["rank", "unrank"]:
        assert all(s in _help(cli, command) for s in scheme_names())
    assert all(m in _help(cli, "entropy") for m in METHODS)


def test_cli_rank_and_unrank_json_shapes(cli: CliRunner) -> None:
    bridge = json.loads(cli(["unrank", "bridge", "5", "--scheme", "andrews", "--json"]).out)
    assert bridge["result"] == {
        "number": "5",
        "scheme": "andrews",
        "deal": format_pbn_deal(deal_from_number(make_layout("bridge"), 5, "andrews").piles),
    }
    euchre = json.loads(cli(["unrank", "euchre", "7", "--json"]).out)["result"]
    assert set(euchre) == {"number", "scheme", "hands"}
    assert list(euchre["hands"]) == ["N", "E", "S", "W", "kitty"]
    assert [len(cards) for cards in euchre["hands"].values()] == [5, 5, 5, 5, 4]
    piles = " / ".join(" ".join(cards) for cards in euchre["hands"].values())  # kitty top first
    assert json.loads(cli(["rank", "euchre", piles, "--json"]).out)["result"] == euchre


def test_cli_entropy_json_shape(cli: CliRunner) -> None:
    from croupier.dealing import METHODS

    obj = json.loads(cli(["entropy", "skat", "--deals", "3", "--json"]).out)["result"]
    assert set(obj) == {
        "game",
        "layout",
        "deals",
        "log2_deals",
        "log2_deck_orders",
        "measured_bits",
        "measured_over",
    }
    assert obj["deals"] == str(make_layout("skat").count) and obj["measured_over"] == 3
    assert list(obj["measured_bits"]) == list(METHODS)


@pytest.mark.parametrize("command", ["deal", "rank", "unrank", "entropy"])
def test_cli_help_examples_run(
    cli: CliRunner, command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # examples that write files write them here
    help_text = cli([command, "--help"]).out
    examples = help_text.split("Examples:")[1].strip().split("\n\n")[0].splitlines()
    assert len(examples) >= 2
    for line in examples:
        words = shlex.split(line)
        assert words[:2] == ["croupier", command]
        r = cli(words[1:])
        assert r.code == 0, (line, r.err)


def test_cli_default_method_is_the_library_default() -> None:
    import inspect

    from croupier.runs.request import DEFAULT_METHOD

    library = inspect.signature(deal_many).parameters["method"].default
    assert DEFAULT_METHOD == library == "optimal"


# -- board formats: PBN games and LIN -------------------------------------------------------

# The standard cycles, written out by hand: the dealer of board b is N E S W for
# (b - 1) % 4 = 0 1 2 3; the vulnerability of boards 1..16 repeats every 16 boards.
_VUL_CYCLE = ["None", "NS", "EW", "All", "NS", "EW", "All", "None"]
_VUL_CYCLE += ["EW", "All", "None", "NS", "All", "None", "NS", "EW"]
_ENDPLAY_SEATS = {"north": "N", "east": "E", "south": "S", "west": "W"}
_ENDPLAY_VUL = {"none": "None", "ns": "NS", "ew": "EW", "both": "All"}


def _standard(board: int) -> tuple[int, str, str]:
    return board, "NESW"[(board - 1) % 4], _VUL_CYCLE[(board - 1) % 16]


def _hand_sets(pbn: str) -> list[set[str]]:
    return [{c.code for c in hand} for hand in parse_pbn_deal(pbn)]


def _read_with_endplay(fmt: str, text: str) -> list[tuple[tuple[int, str, str], list[set[str]]]]:
    """Board number, dealer, vulnerability and hands of every board, as endplay reads them."""
    boards = endplay_pbn.loads(text) if fmt == "pbn" else endplay_lin.loads(text)
    return [
        (
            (b.board_num, _ENDPLAY_SEATS[b.dealer.name], _ENDPLAY_VUL[b.vul.name]),
            _hand_sets(b.deal.to_pbn()),
        )
        for b in boards
    ]


def _json_deals(cli: CliRunner, args: list[str]) -> list[list[set[str]]]:
    doc = json.loads(cli(["deal", *args, "--format", "json"]).out)
    return [_hand_sets(d["deal"]) for d in doc["result"]]


@pytest.mark.parametrize("fmt", ["pbn", "lin"])
@pytest.mark.parametrize("engine", ["deal", "bulk"])
def test_board_formats_read_back_in_endplay_as_the_json_deals(
    cli: CliRunner, fmt: str, engine: str
) -> None:
    args = ["--seed", f"boards {fmt} {engine}", "-n", "21", "--engine", engine]
    r = cli(["deal", *args, "--format", fmt, "--first-board", "14"])
    assert r.code == 0, r.err
    boards = _read_with_endplay(fmt, r.out)
    assert [facts for facts, _ in boards] == [_standard(b) for b in range(14, 35)]
    assert [hands for _, hands in boards] == _json_deals(cli, args)
    default = _read_with_endplay(fmt, cli(["deal", *args, "--format", fmt]).out)
    assert [facts for facts, _ in default] == [_standard(b) for b in range(1, 22)]
    assert [hands for _, hands in default] == [hands for _, hands in boards]


def test_pbn_is_a_strict_export_file(cli: CliRunner) -> None:
    args = ["--seed", "export", "-n", "3"]
    r = cli(["deal", *args, "-f", "pbn", "--first-board", "7", "-e", 'Club "night"'])
    assert r.code == 0, r.err
    first_deal = json.loads(cli(["deal", *args, "--json"]).out)["result"][0]["deal"]
    north, east, south, west = first_deal[2:].split(" ")
    # board 7: South deals, both sides vulnerable; the deal starts with South's hand
    game = ['[Event "Club \\"night\\""]', '[Site "?"]', '[Date "?"]', '[Board "7"]']
    game += ['[West "?"]', '[North "?"]', '[East "?"]', '[South "?"]', '[Dealer "S"]']
    game += ['[Vulnerable "All"]', f'[Deal "S:{south} {west} {north} {east}"]']
    game += ['[Scoring "?"]', '[Declarer "?"]', '[Contract "?"]', '[Result "?"]']
    game += [f'[Generator "croupier {croupier.__version__}"]', ""]
    head = ["% PBN 2.1", "% EXPORT", f"% {BULK_SEEDED_LABEL}"]
    lines = r.out.split("\r\n")
    assert lines[:20] == head + game
    assert "\n" not in r.out.replace("\r\n", "")  # every line ends with CR LF
    assert lines[-3:] == ['[Generator "croupier ' + croupier.__version__ + '"]', "", ""]
    assert len(lines) == 3 + 3 * 17 + 1
    lf = cli(["deal", *args, "-f", "pbn", "--first-board", "7", "-e", 'Club "night"', "--lf"])
    assert lf.out == r.out.replace("\r\n", "\n")


def test_lin_is_one_board_a_line_as_bbo_writes_it(cli: CliRunner) -> None:
    args = ["--seed", "lin", "-n", "2"]
    r = cli(["deal", *args, "-f", "lin", "--first-board", "16"])
    assert r.code == 0, r.err
    deals = [
        d["deal"][2:].split(" ") for d in json.loads(cli(["deal", *args, "--json"]).out)["result"]
    ]

    def lin_hand(pbn_hand: str) -> str:
        return "".join(s + h for s, h in zip("SHDC", pbn_hand.split("."), strict=True))

    expected = []
    for (n, e, s, w), board, dealer, vul in zip(deals, (16, 17), "23", "eo", strict=True):
        hands = ",".join(lin_hand(h) for h in (s, w, n, e))  # LIN: South, West, North, East
        expected.append(f"pn|,,,|st||md|{dealer}{hands}|rh||ah|Board {board}|sv|{vul}|pg||")
    assert r.out == "\n".join(expected) + "\n"


@pytest.mark.parametrize("fmt", ["pbn", "lin", "pbn-deal"])
@pytest.mark.parametrize("engine", ["deal", "bulk"])
def test_the_first_boards_do_not_depend_on_count(cli: CliRunner, fmt: str, engine: str) -> None:
    counts = (1, 2, 40)
    runs = [
        cli(["deal", "--seed", "prefix", "-f", fmt, "--engine", engine, "-n", str(n)]).out
        for n in counts
    ]
    assert runs[2].startswith(runs[1]) and runs[1].startswith(runs[0])
    assert len(runs[0]) < len(runs[1]) < len(runs[2])


def test_published_seeds_keep_their_deals_in_the_board_formats(cli: CliRunner) -> None:
    # the deal engine's golden vectors: PBN and LIN hold the pinned deals of that seed
    case = json.loads((VECTORS / "deal_golden.json").read_text(encoding="utf-8"))["cases"][0]
    assert (case["game"], case["method"]) == ("bridge", "optimal")
    pinned = [[set(p.split()) for p in d["piles"]] for d in case["deals"]]
    args = ["--seed", case["seed"], "-n", str(case["count"]), "--engine", "deal"]
    for fmt in ("pbn", "lin"):
        boards = _read_with_endplay(fmt, cli(["deal", *args, "-f", fmt]).out)
        assert [hands for _, hands in boards] == pinned
    # the bulk engine's: pbn with --engine bulk and the old name pbn-games
    rows = json.loads((VECTORS / "bulk.json").read_text())["bridge|croupier-bulk golden|0"][:6]
    deck = [c.code for c in make_layout("bridge").deck]
    expected = [
        [{deck[c] for c, o in enumerate(row) if int(o) == p} for p in range(4)] for row in rows
    ]
    bulk_args = ["--seed", "croupier-bulk golden", "-n", "6"]
    new = cli(["deal", *bulk_args, "-f", "pbn", "--engine", "bulk"]).out
    assert [hands for _, hands in _read_with_endplay("pbn", new)] == expected
    old = cli(["deal", *bulk_args, "-f", "pbn-games"])
    assert old.out == new == cli(["deal", *bulk_args, "-f", "pbn"]).out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-f", "pbn", "--first-board", "0"], "--first-board must be a board number 1..999, got 0"),
        (["-f", "lin", "--first-board", "1000"], "1..999, got 1000"),
        (["-f", "pbn", "--first-board", "990", "-n", "11"], "would reach board 1,000"),
        (["-f", "lin", "-n", "1000"], "deal at most 999 boards, or use --format pbn-deal"),
        (["-f", "pbn", "-n", "5000"], "would reach board 5,000"),
        (["-f", "text", "--first-board", "3"], "--format text has no board numbers"),
        (["-f", "pbn-deal", "--first-board", "3"], "--first-board numbers the boards"),
        (["-f", "lin", "-e", "Cup"], "--event is the Event tag of PBN games"),
        (["-f", "json", "--lf"], "--lf gives --format pbn LF line ends"),
        (["-f", "pbn", "-e", "two\nlines"], "must be one line"),
        (["euchre", "-f", "pbn"], "use another --format (text, csv, json, jsonl, oneline, npy"),
        (["holdem", "-f", "lin", "--engine", "deal"], "LIN boards need four hands of 13"),
    ],
)
def test_board_options_are_checked_before_dealing(
    cli: CliRunner, args: list[str], message: str
) -> None:
    r = cli(["deal", *args])
    assert r.code == 2 and r.out == ""
    assert len(r.err.splitlines()) == 1 and r.err.startswith("error: ")
    assert message in r.err
