"""Hand evaluation of one hand (croupier.dealing.evaluation): hand-computed values.

Expected values come from the definitions worked by hand (the arithmetic is
in the comments), from the reference output that ships with the ``dealer``
package (``examples/Refer.evaluation``), and from endplay where it defines a
function the same way.
"""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.cards import BRIDGE_DECK, Card, parse_cards
from croupier.dealing import evaluation as ev
from croupier.dealing.evaluation import EvaluationError, parse_shape
from croupier.errors import CroupierError

SUITS = ("S", "H", "D", "C")


def hand(pbn: str) -> list[Card]:
    """A hand from PBN notation: ``AK742.KQJ9.T5.83`` (spades first)."""
    cards = []
    for suit, ranks in zip(SUITS, pbn.split("."), strict=True):
        cards += [Card.parse(r + suit) for r in ranks]
    return cards


# dealer's own reference output for this hand (examples/Descr.evaluation and
# Refer.evaluation in the Debian package): north holds - / A854 / JT832 / AK32.
REFER = hand(".A854.JT832.AK32")


@pytest.mark.parametrize(
    ("name", "whole", "per_suit"),
    [
        ("losers", 6, [0, 2, 3, 1]),
        ("hcp", 12, [0, 4, 1, 7]),
        ("controls", 5, [0, 2, 0, 3]),
        ("tens", 1, [0, 0, 1, 0]),
        ("jacks", 1, [0, 0, 1, 0]),
        ("queens", 0, [0, 0, 0, 0]),
        ("kings", 1, [0, 0, 0, 1]),
        ("aces", 2, [0, 1, 0, 1]),
        ("top2", 3, [0, 1, 0, 2]),
        ("top3", 3, [0, 1, 0, 2]),
        ("top4", 4, [0, 1, 1, 2]),
        ("top5", 5, [0, 1, 2, 2]),
        ("c13", 17, [0, 6, 1, 10]),
    ],
)
def test_dealer_reference_output(name: str, whole: int, per_suit: list[int]) -> None:
    function = getattr(ev, name)
    assert function(REFER) == whole
    assert [function(REFER, s) for s in SUITS] == per_suit


def test_dealer_reference_cccc_and_quality() -> None:
    assert ev.cccc(REFER) == 1540
    assert [ev.quality(REFER, s) for s in SUITS] == [0, 160, 100, 280]


def test_pt_numbers_are_the_named_counts() -> None:
    names = ["tens", "jacks", "queens", "kings", "aces", "top2", "top3", "top4", "top5", "c13"]
    assert list(ev.ALT_COUNT_NAMES) == names
    h = hand("AKQJT98.65.432.")
    # tens 1, jacks 1, queens 1, kings 1, aces 1, top2 2, top3 3, top4 4, top5 5,
    # c13 = 6 + 4 + 2 + 1 = 13
    assert [ev.pt(h, n) for n in range(10)] == [1, 1, 1, 1, 1, 2, 3, 4, 5, 13]
    assert [getattr(ev, name)(h) for name in names] == [ev.pt(h, n) for n in range(10)]


def test_worked_hand() -> None:
    h = hand("AK742.KQJ9.T5.83")
    # hcp: A4 K3 | K3 Q2 J1 = 13; controls: A2 K1 | K1 = 4
    assert (ev.hcp(h), ev.controls(h)) == (13, 4)
    # losers: AK742 3-2=1, KQJ9 3-2=1, T5 doubleton 2, 83 doubleton 2
    assert [ev.losers(h, s) for s in SUITS] == [1, 1, 2, 2]
    assert ev.losers(h) == 6
    # quality, F = 10 * length:
    #   S AK742: F=50, A 4F + K 3F = 350; h=2, no T, no 9 -> 350
    #   H KQJ9: F=40, K 120 + Q 80 + J 40 = 240; h=3, the 9 needs h==2, T or 8 -> 240
    #   D T5: F=20, T without J and h<=1 -> F/2 = 10
    #   C 83: 0
    assert [ev.quality(h, s) for s in SUITS] == [350, 240, 10, 0]
    # cccc per suit: S A300 + K200 + 350 = 850; H K200 + Q100 (h=1, no penalty)
    # + J50 (two of AKQ above) + 240 = 590; D 10 (ten with no honour above: 0);
    # C 0; shape: two doubletons 100 + 100, less 100 -> +100.  850+590+10+100 = 1550
    assert ev.cccc(h) == 1550


def test_cccc_of_a_flat_hand() -> None:
    h = hand("AKQ2.J32.T98.765")
    # S: A300 K200 Q100 (no penalty: length 4, higher honours held), quality
    #    F=40: 160+120+80 = 360 -> 960
    # H: J with no honour above: 0; quality F=30: J 30 -> 30
    # D: T with no honour above: 0; quality F=30: T alone F/2 = 15, 9 with T 15 -> 30
    # C: 0.  4333 has no short suit: -50.  960 + 30 + 30 - 50 = 970
    assert ev.cccc(h) == 970


def test_cccc_short_honours() -> None:
    h = hand("K.Q2.AJT9876.J32")
    # S K singleton: 200 - 150 = 50; quality F=10: K 30 -> 80
    # H Q2: Q 100 - 25 (doubleton) - 25 (no A or K) = 50; quality F=20: Q 40 -> 90
    # D AJT9876 (7): A 300; J with one of AKQ above 25; T with two of AKQJ above 25;
    #    quality F=70: A 280 + J 70 = 350, seven cards: replace 3 - 0 - 1 = 2,
    #    at most 7-6 = 1 -> +70 -> 420.  Total 300+25+25+420 = 770
    # C J32: J with nothing above: 0; quality F=30: J 30 -> 30
    # shape: singleton 200 + doubleton 100 - 100 = 200.  80+90+770+30+200 = 1170
    assert ev.cccc(h) == 1170


@pytest.mark.parametrize(
    ("holding", "expected"),
    [
        ("", 0),  # void
        ("A", 0),
        ("K", 1),  # any singleton but the ace
        ("AK", 0),
        ("AQ", 1),  # Ax
        ("KQ", 1),  # Kx
        ("QJ", 2),
        ("AKQ", 0),
        ("AQJ", 1),  # 3 - A - Q
        ("Q32", 2),
        ("T98765", 3),
        ("AKQJT98", 0),
    ],
)
def test_losers_per_holding(holding: str, expected: int) -> None:
    assert ev.losers(hand(f"{holding}..."), "S") == expected


@pytest.mark.parametrize(
    ("holding", "expected"),
    [
        ("AK65432", 560),  # F=70: 280 + 210 = 490; replace min(3, 1) = 1 -> +70
        ("KQJT9876", 480),  # F=80: 240 + 160 + 80; replace 3 - 2 - 1 = 0
        ("AJ9832", 330),  # F=60: 240 + 60; 9 with h == 2 (A, J) -> +30
        ("T9", 20),  # F=20: T alone 10; 9 with the T 10
        ("AKQ", 270),  # F=30: 120 + 90 + 60
        ("KT2", 105),  # F=30: K 90; the ten with one honour (h=1) and no jack: F/2 = 15
    ],
)
def test_quality_per_holding(holding: str, expected: int) -> None:
    assert ev.quality(hand(f"{holding}..."), "S") == expected


def test_scales() -> None:
    h = hand("AKQJ.T987.65.432")
    # a scale lists A K Q J T 9 8 ...; missing values are 0
    assert ev.hcp(h, scale=[1]) == 1
    assert ev.hcp(h, scale=[0] * 12 + [5]) == 5  # one two: C2
    assert ev.points(h, [4, 3, 2, 1, 1]) == 11  # AKQJ 10 + T 1
    assert ev.hcp(h, "S", scale=[-1, 2]) == 1
    assert ev.point_scale((4, 3)) == (4, 3, *[0] * 11)
    for bad in ([1] * 14, [1.5], [True], "4321", [2**40]):
        with pytest.raises(EvaluationError):
            ev.point_scale(bad)  # type: ignore[arg-type]
    with pytest.raises(EvaluationError, match="number=10"):
        ev.pt(h, 10)


def test_lengths_shapes_and_cards() -> None:
    h = hand("AKQJ2.T98.765.43")
    assert ev.suit_lengths(h) == (5, 3, 3, 2)
    assert ev.suit_length(h, "hearts") == 3
    assert ev.sorted_shape(hand("2.T98.76543.AKQJ")) == (5, 4, 3, 1)
    assert ev.hascard(h, "TH") and ev.hascard(h, Card.parse("AS")) and not ev.hascard(h, "AH")
    assert ev.is_balanced(h) and ev.is_semi_balanced(h)
    assert not ev.is_balanced(hand("AKQJ2.T987.65.43")) and ev.is_semi_balanced(
        hand("AKQJ2.T987.65.43")
    )
    assert ev.is_semi_balanced(hand("AKQJ32.T98.65.43"))  # 6322
    assert not ev.is_semi_balanced(hand("AKQJ432.98.65.43"))  # 7222
    assert not ev.is_semi_balanced(hand("AKQJ2.T9876.5.43"))  # 5512... singleton


def test_jokers_are_ignored() -> None:
    h = hand("AK742.KQJ9.T5.83")
    joker = [*h, Card.joker(), Card.joker(1)]
    for name in ("hcp", "controls", "losers", "cccc", "tens", "c13", "suit_lengths"):
        assert getattr(ev, name)(joker) == getattr(ev, name)(h)
    assert ev.shape(joker, "5422")


@pytest.mark.parametrize(
    ("pattern", "lengths", "expected"),
    [
        ("4333", (4, 3, 3, 3), True),
        ("4333", (3, 4, 3, 3), False),
        ("any 4333", (3, 3, 4, 3), True),
        ("5xxx", (5, 0, 0, 8), True),
        ("55xx", (5, 5, 1, 2), True),
        ("any 0xxx", (4, 4, 5, 0), True),
        ("any 4333 + 54xx - any 0xxx", (5, 4, 4, 0), False),
        ("any 4333 + 54xx - any 0xxx", (5, 4, 2, 2), True),
        # terms apply left to right (dealer prints 1 for 3334 - any 4333 + 3334)
        ("3334 - any 4333 + 3334", (3, 3, 3, 4), True),
        ("any 4333 - 3334", (3, 3, 3, 4), False),
        ("- 3334", (3, 3, 3, 4), False),
        ("+ 3334", (3, 3, 3, 4), True),
        ("x333", (4, 3, 3, 3), True),
        ("x333", (3, 3, 3, 4), False),
        ("any 3x3x - 3334", (3, 3, 4, 3), True),
        ("xxxx", (13, 0, 0, 0), True),
        ("ANY 44XX", (4, 1, 4, 4), True),
    ],
)
def test_shape_patterns(pattern: str, lengths: tuple[int, ...], expected: bool) -> None:
    assert parse_shape(pattern).matches(lengths) is expected
    h = [c for suit, n in zip(SUITS, lengths, strict=True) for c in _suit_cards(suit)[:n]]
    assert ev.shape(h, pattern) is expected


def _suit_cards(suit: str) -> list[Card]:
    return [c for c in BRIDGE_DECK if c.code.endswith(suit)]


@pytest.mark.parametrize(
    ("pattern", "position", "message"),
    [
        ("", 0, "expected 4 characters"),
        ("any 433", 7, "expected 4 characters"),
        ("43331", 4, "'+', '-' or the end"),
        ("4333 4333", 5, "'+', '-' or the end"),
        ("4333 + - 4333", 7, "expected 4 characters"),
        ("4y33", 1, "expected 4 characters"),
        ("5555", 0, "has 20 cards, not 13"),
        ("any 4332", 4, "has 12 cards, not 13"),
        ("9xx5", 0, "more than 13 cards"),
        ("4333 any", 5, "'+', '-' or the end"),
    ],
)
def test_shape_errors_name_the_position(pattern: str, position: int, message: str) -> None:
    with pytest.raises(CroupierError, match=f"position {position}: .*{re.escape(message)}"):
        parse_shape(pattern)


def test_shape_checks_the_hand_size() -> None:
    assert parse_shape("2111", cards=5).matches((2, 1, 1, 1))
    assert parse_shape("5555", cards=None).matches((5, 5, 5, 5))
    assert ev.shape(hand("AK.Q.J.T"), "2111")
    with pytest.raises(EvaluationError):
        ev.shape(hand("AK.Q.J.T"), "4333")
    assert str(parse_shape("- any 4333 +  5xxx")) == "- any 4333 + 5xxx"


def test_same_as_endplay_where_endplay_agrees() -> None:
    """endplay defines hcp, controls, losers, exact shape and balanced as dealer does."""
    from endplay import evaluate as ee
    from endplay.types import Hand

    rng = random.Random(12)
    for _ in range(800):
        held = set(rng.sample(range(52), 13))
        cards = [BRIDGE_DECK[i] for i in sorted(held)]
        suits = [
            "".join(BRIDGE_DECK[i].rank.letter for i in range(13 * k, 13 * k + 13) if i in held)
            for k in range(4)
        ]
        theirs = Hand(".".join(suits))
        assert ev.hcp(cards) == ee.hcp(theirs)
        assert ev.controls(cards) == ee.controls(theirs)
        assert ev.losers(cards) == ee.losers(theirs)
        assert list(ev.suit_lengths(cards)) == ee.exact_shape(theirs)
        assert list(ev.sorted_shape(cards)) == ee.shape(theirs)
        assert ev.is_balanced(cards) == ee.is_balanced(theirs)
        # endplay's semi-balanced leaves out 6322
        assert ev.is_semi_balanced(cards) == (
            ee.is_semibalanced(theirs) or ev.sorted_shape(cards) == (6, 3, 2, 2)
        )
        assert ev.top5(cards) == ee.top_honours(theirs, 5)


def test_bad_suit() -> None:
    with pytest.raises(CroupierError):
        ev.hcp(parse_cards("AS"), "X")


@settings(max_examples=300, derandomize=True, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            ["any", "ANY", " ", "+", "-", "x", "X", "4", "3", "13", "5", "0", "²", "\n", "a"]
        ),
        max_size=20,
    ).map("".join)
)
def test_shape_parser_accepts_or_says_why(text: str) -> None:
    try:
        pattern = parse_shape(text)
    except EvaluationError as exc:
        message = str(exc)
        assert "\n" not in message and len(message) < 200 and "position" in message
    else:
        # what parses, prints back to a pattern with the same meaning
        again = parse_shape(str(pattern))
        assert again == pattern
