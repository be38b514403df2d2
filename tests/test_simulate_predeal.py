"""Predeal: both notations, one-line errors, merging free deals back, exact counts."""

from __future__ import annotations

from itertools import permutations
from math import factorial

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.bulk import deal_array
from croupier.cards import Card, parse_cards
from croupier.dealing.layout import make_layout
from croupier.errors import CroupierError
from croupier.simulate import parse_script
from croupier.simulate.ast import PredealLength
from croupier.simulate.predeal import Predeal, PredealError


def codes(cards: tuple[Card, ...]) -> list[str]:
    return [c.code for c in cards]


# -- notations ------------------------------------------------------------------------


def test_dealer_and_pbn_notations_give_the_same_predeal() -> None:
    dealer = Predeal.parse("north SAQ542, HKJ87, D32, CAK south ST, C2")
    pbn = Predeal.parse("N:AQ542.KJ87.32.AK S:T...2")
    assert dealer == pbn
    assert codes(pbn.hands[0]) == [
        "AS",
        "QS",
        "5S",
        "4S",
        "2S",
        "KH",
        "JH",
        "8H",
        "7H",
        "3D",
        "2D",
        "AC",
        "KC",
    ]
    assert codes(pbn.hands[2]) == ["TS", "2C"]
    assert pbn.hands[1] == pbn.hands[3] == ()


def test_dashes_and_empty_parts_mean_no_card() -> None:
    a = Predeal.parse("N:AK.-.-.- E:- W:..Q2.")
    b = Predeal.parse("N:AK... W:-.-.Q2.-")
    assert a == b
    assert [len(h) for h in a.hands] == [2, 0, 0, 2]


def test_pbn_hands_without_a_seat_follow_clockwise_and_wrap() -> None:
    p = Predeal.parse("W:A... K... Q... J...")
    assert [codes(h) for h in p.hands] == [["KS"], ["QS"], ["JS"], ["AS"]]


def test_seat_names_are_case_insensitive_and_compass_words_work() -> None:
    assert Predeal.parse("south:A...") == Predeal.parse("s:A...") == Predeal.parse("S:A...")


def test_card_lists_for_other_layouts() -> None:
    lay = make_layout("holdem", players=2)
    p = Predeal.parse("P1:AS,AH flop:2C,3C,4C", lay)
    assert [codes(h) for h in p.hands] == [["AS", "AH"], [], ["4C", "3C", "2C"], [], [], []]
    assert p.free_sizes == (0, 2, 0, 1, 1, 43)


def test_dealer_notation_with_suit_lengths() -> None:
    p = Predeal.parse("predeal west SK spades(north)==1 hearts(south)==0")
    assert codes(p.hands[3]) == ["KS"]
    assert {(x.seat, x.suit, x.length) for x in p.lengths} == {("N", "S", 1), ("S", "H", 0)}
    assert str(p.length_condition()) == "spades(north) == 1 && hearts(south) == 0"


def test_from_script_takes_cards_and_lengths() -> None:
    script = parse_script("predeal north SAK\npredeal south HQ2, C3\npredeal clubs(east)==4\n")
    p = Predeal.from_script(script)
    assert [codes(h) for h in p.hands] == [["AS", "KS"], [], ["QH", "2H", "3C"], []]
    assert p.lengths == (PredealLength("E", "C", 4),)


def test_coerce_accepts_text_mappings_and_predeals() -> None:
    p = Predeal.parse("N:AK... S:..2.")
    assert Predeal.coerce("N:AK... S:..2.") == p
    assert Predeal.coerce({"north": "AS KS", "S": parse_cards("2D")}) == p
    assert Predeal.coerce(p) is p
    assert Predeal.coerce(None) == Predeal.none()
    with pytest.raises(PredealError, match="layout"):
        Predeal.coerce(p, make_layout("euchre"))
    with pytest.raises(PredealError, match="not int"):
        Predeal.coerce(5)  # type: ignore[arg-type]


# -- errors: one line, quoting the input --------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("N:AK... S:A...", "card AS is predealt to both N and S"),
        ("north SAK south SA", "AS is predealt twice"),
        ("N:AKQJT98765432.A..", "14 cards are predealt to N, which holds 13"),
        ("X:A...", "unknown seat 'X'"),
        ("N:AZ...", "bad hand 'AZ...'"),
        ("N:AK.Q", "bad hand 'AK.Q'"),
        ("AK... N:Q...", "starts without a seat"),
        ("northe SA", "bad predeal 'northe SA'"),
        ("spades(north)==0 hearts(north)==0 diamonds(north)==0 clubs(east)==1", "cannot be dealt"),
        ("north SK spades(north)==0", "more than the length 0"),
        ("north SAK spades(north)==1", "2 cards of that suit"),
    ],
)
def test_bad_predeals_are_one_line_errors(text: str, message: str) -> None:
    with pytest.raises(PredealError) as info:
        Predeal.parse(text)
    assert message in str(info.value)
    assert "\n" not in str(info.value)
    assert isinstance(info.value, CroupierError)


def test_a_card_twice_in_one_seat() -> None:
    with pytest.raises(PredealError, match="card AS is predealt to N twice"):
        Predeal((tuple(parse_cards("AS AS")), (), (), ()))


def test_cards_outside_the_deck_and_wrong_hand_counts() -> None:
    with pytest.raises(PredealError, match="card 2S is not in the euchre deck"):
        Predeal.parse("N:2S", make_layout("euchre"))
    with pytest.raises(PredealError, match="has 4 hands"):
        Predeal(((), ()))


def lengths(*items: tuple[str, str, int]) -> tuple[PredealLength, ...]:
    return tuple(PredealLength(seat, suit, n) for seat, suit, n in items)  # type: ignore[arg-type]


def test_suit_lengths_that_no_deal_satisfies_are_refused() -> None:
    nothing = ((), (), (), ())
    # North with no spade, heart or diamond holds 13 clubs, so East holds none.
    only_clubs = lengths(("N", "S", 0), ("N", "H", 0), ("N", "D", 0))
    Predeal(nothing, only_clubs)  # possible
    with pytest.raises(PredealError, match="N cannot be filled"):
        Predeal(nothing, (*only_clubs, PredealLength("E", "C", 1)))
    # A seat's fixed suits more than it holds, a suit shared out more than 13 times.
    with pytest.raises(PredealError, match="cannot be dealt"):
        Predeal(nothing, lengths(("N", "S", 7), ("N", "H", 7)))
    with pytest.raises(PredealError, match="cannot be dealt"):
        Predeal(nothing, lengths(("N", "S", 7), ("S", "S", 7)))
    # Predealt cards count: North's 4 hearts leave 9 places, not enough for 5 + 5.
    hearts = (tuple(parse_cards("AH KH QH JH")), (), (), ())
    with pytest.raises(PredealError, match="cannot be dealt"):
        Predeal(hearts, lengths(("N", "S", 5), ("N", "D", 5)))
    Predeal(hearts, lengths(("N", "S", 5), ("N", "D", 4)))
    # Fixed twice to different values; a seat the layout does not have.
    with pytest.raises(PredealError, match="fixed to both 1 and 2"):
        Predeal(nothing, lengths(("N", "S", 1), ("N", "S", 2)))
    with pytest.raises(PredealError, match="no seat N"):
        Predeal(((),) * 6, lengths(("N", "S", 1)), make_layout("holdem", players=2))


def test_feasible_lengths_match_brute_force_on_a_small_deck() -> None:
    # 8 cards (A K of each suit) into 2+2+2+2, with some cards predealt: a set of fixed
    # lengths is accepted exactly when some deal satisfies it (brute force over every deal).
    lay = make_layout(hands=[2, 2, 2, 2], deck="stripped:AK", names=["N", "E", "S", "W"])
    deals = np.array(_all_deals(lay.sizes))  # (2520, 8) owners
    suit_of = np.array(["SHDC".index(c.suit.letter) for c in lay.deck if c.suit is not None])
    table = np.zeros((len(deals), 4, 4), np.int64)  # deal, seat, suit
    for c in range(8):
        table[np.arange(len(deals)), deals[:, c], suit_of[c]] += 1
    rng = np.random.default_rng(13)
    outcomes = set()
    for _ in range(400):
        cells = rng.choice(16, size=int(rng.integers(1, 7)), replace=False)
        items = [("NESW"[k // 4], "SHDC"[k % 4], int(rng.integers(0, 3))) for k in cells]
        fixed_cards = rng.choice(8, size=int(rng.integers(0, 3)), replace=False)
        owners = {int(c): int(deals[int(rng.integers(len(deals)))][c]) for c in fixed_cards}
        hands = tuple(tuple(lay.deck[c] for c in owners if owners[c] == p) for p in range(4))
        ok = np.ones(len(deals), bool)
        for c, p in owners.items():
            ok &= deals[:, c] == p
        for seat, suit, n in items:
            ok &= table[:, "NESW".index(seat), "SHDC".index(suit)] == n
        try:
            Predeal(hands, lengths(*items), lay)
            accepted = True
        except PredealError:
            accepted = False
        assert accepted == bool(ok.any()), (items, owners)
        outcomes.add(accepted)
    assert outcomes == {True, False}


# -- free cards, merge, count ---------------------------------------------------------


def test_free_cards_sizes_and_layout() -> None:
    p = Predeal.parse("N:AK... E:.-.-.2")
    assert p.free_cards == tuple(i for i in range(52) if i not in (0, 1, 51))
    assert p.free_sizes == (11, 12, 13, 13)
    assert p.free_layout.deck == tuple(make_layout("bridge").deck[i] for i in p.free_cards)
    assert p.free_layout.sizes == p.free_sizes
    assert Predeal.none().free_layout == make_layout("bridge")


def test_merge_puts_every_card_where_it_belongs() -> None:
    p = Predeal.parse("N:AK.-.Q.- S:-.-.-.2345 W:.T..")
    free = deal_array(300, p.free_layout, seed="merge")
    merged = p.merge(free.piles, bits=free.bits)
    assert (merged.counts() == 13).all()
    assert merged.bits is not None and (merged.bits == free.bits).all()
    lay = p.layout
    # one deal at a time, by card objects (a second, plain implementation)
    for row in (0, 1, 150, 299):
        want: dict[Card, int] = {}
        for pile, hand in enumerate(p.hands):
            for card in hand:
                want[card] = pile
        for j, card in enumerate(free.layout.deck):
            want[card] = int(free.piles[row, j])
        deal = merged[row]
        for pile, hand in enumerate(deal.piles):
            assert all(want[c] == pile for c in hand)
        assert sum(len(h) for h in deal.piles) == len(lay.deck)


def test_merge_refuses_wrong_shapes_and_checks_sizes() -> None:
    p = Predeal.parse("N:A...")
    with pytest.raises(PredealError, match=r"expected \(n, 51\)"):
        p.merge(np.zeros((2, 52), np.uint8))
    with pytest.raises(CroupierError, match="pile sizes"):
        p.merge(np.zeros((1, 51), np.uint8))


def test_merge_of_nothing_predealt_is_the_same_deals() -> None:
    a = deal_array(10, seed="n")
    assert Predeal.none().merge(a.piles) == a


def _all_deals(sizes: tuple[int, ...]) -> list[tuple[int, ...]]:
    labels = [p for p, k in enumerate(sizes) for _ in range(k)]
    return sorted(set(permutations(labels)))


def test_count_is_the_number_of_consistent_deals() -> None:
    # brute force on 6 cards into 2+2+2 (90 deals)
    lay = make_layout(hands=[2, 2, 2], deck=parse_cards("AS KS QS AH KH QH"), names=["N", "E", "S"])
    deals = _all_deals(lay.sizes)
    assert len(deals) == 90
    for text in ("N:A...", "N:AK...", "N:A... E:.A..", "E:Q.Q..", "N:-"):
        p = Predeal.parse(text, lay)
        consistent = [d for d in deals if all(d[c] == o for c, o in enumerate(p.owners) if o >= 0)]
        assert p.count == len(consistent), text
    # bridge, by the formula: North's 4 cards fixed leave 48! / (9! 13! 13! 13!)
    p = Predeal.parse("N:AKQJ...")
    assert p.count == factorial(48) // (factorial(9) * factorial(13) ** 3)


def test_dealer_notation_holds_nothing_but_a_predeal() -> None:
    with pytest.raises(PredealError, match="only seats with holdings"):
        Predeal.parse("north SA\ncondition hcp(north) > 10")


PIECES = [
    "N:", "S:", "west:", "north ", "south ", "SAK", "HQ", ",", ".", "-", " ", "AKQ", "T9",
    "10", "X", ":", "spades(north)==1", "==", "(", "\n", "P1:", "AS,KS", "JK", "\x00", "9" * 60,
]  # fmt: skip


@settings(max_examples=300, derandomize=True)
@given(st.lists(st.sampled_from(PIECES), max_size=10), st.sampled_from(["bridge", "euchre"]))
def test_any_text_is_a_predeal_or_a_one_line_error(parts: list[str], game: str) -> None:
    try:
        Predeal.parse("".join(parts), game)
    except CroupierError as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 300
