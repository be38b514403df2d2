"""Decks: presets, stripped decks, shoes, sub-decks with inclusive bounds."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.cards import CARD_STYLES, Card, Rank, Suit, format_cards, parse_cards
from croupier.decks import (
    DECK_PRESETS,
    MAX_SHOE_DECKS,
    deck_names,
    make_deck,
    shoe,
    standard_deck,
    stripped_deck,
    subdeck,
)
from croupier.errors import CroupierError, DeckError, RangeError
from croupier.orders import is_sorted

LONG_SUITS = ["Clubs", "Diamonds", "Hearts", "Spades"]
LONG_RANKS = ["", "Ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King"]


def test_standard_deck_is_suits_clubs_to_spades_ranks_ace_to_king() -> None:
    # for suit clubs..spades, for rank ace..king
    expected = [f"{LONG_RANKS[r]} of {LONG_SUITS[s]}" for s in range(4) for r in range(1, 14)]
    assert [c.long_name for c in standard_deck()] == expected
    assert standard_deck() is not standard_deck()


EXPECTED_PRESETS = {
    # name: (size, ranks present, copies of each standard card, jokers)
    "standard": (52, set(range(1, 14)), 1, 0),
    "jokers1": (53, set(range(1, 14)), 1, 1),
    "jokers2": (54, set(range(1, 14)), 1, 2),
    "piquet": (32, {1, 7, 8, 9, 10, 11, 12, 13}, 1, 0),
    "skat": (32, {1, 7, 8, 9, 10, 11, 12, 13}, 1, 0),
    "euchre": (24, {1, 9, 10, 11, 12, 13}, 1, 0),
    "pinochle": (48, {1, 9, 10, 11, 12, 13}, 2, 0),
    "bezique": (64, {1, 7, 8, 9, 10, 11, 12, 13}, 2, 0),
    "canasta": (108, set(range(1, 14)), 2, 4),
}


@pytest.mark.parametrize("name", list(EXPECTED_PRESETS))
def test_preset_composition(name: str) -> None:
    size, ranks, copies, jokers = EXPECTED_PRESETS[name]
    deck = make_deck(name)
    assert len(deck) == size == DECK_PRESETS[name].size
    assert len(set(deck)) == size  # copies are told apart
    standard = [c for c in deck if not c.is_joker]
    assert {int(c.rank) for c in standard} == ranks
    by_face = Counter((c.rank, c.suit) for c in standard)
    assert set(by_face.values()) == {copies}
    assert {s for _, s in by_face} == set(Suit)
    assert sum(c.is_joker for c in deck) == jokers
    assert is_sorted(deck, "suit-ace-low")


def test_deck_names_cover_the_required_presets() -> None:
    required = {"standard", "jokers1", "jokers2", "piquet", "skat", "euchre", "pinochle"}
    assert required <= set(deck_names())
    assert deck_names() == list(EXPECTED_PRESETS)


@pytest.mark.parametrize("style", CARD_STYLES)
@pytest.mark.parametrize("name", [*deck_names(), "shoe:3", "stripped:A2T"])
def test_every_deck_round_trips_in_every_style(name: str, style: str) -> None:
    deck = make_deck(name)
    assert parse_cards(format_cards(deck, style)) == deck  # type: ignore[arg-type]
    assert parse_cards(format_cards(deck, style, sep=",")) == deck  # type: ignore[arg-type]


@settings(max_examples=150, deadline=None)
@given(
    name=st.sampled_from([*deck_names(), "shoe:2"]),
    style=st.sampled_from(CARD_STYLES),
    sep=st.sampled_from([" ", ", ", ";", "\n", " | "]),
    data=st.data(),
)
def test_any_hand_from_any_deck_round_trips(
    name: str, style: str, sep: str, data: st.DataObject
) -> None:
    deck = make_deck(name)
    hand = data.draw(st.permutations(deck)).copy()[: data.draw(st.integers(0, len(deck)))]
    assert parse_cards(format_cards(hand, style, sep=sep)) == hand  # type: ignore[arg-type]


def test_make_deck_extras_and_errors() -> None:
    assert make_deck(" Standard ") == standard_deck()
    assert make_deck("shoe:3") == shoe(3)
    assert make_deck("stripped:9TJQKA") == make_deck("euchre")
    with pytest.raises(DeckError) as info:
        make_deck("tarot")
    for name in deck_names():
        assert name in str(info.value)
    with pytest.raises(DeckError, match="shoe:K"):
        make_deck("shoe:x")
    for bad in ["shoe:0", "shoe:²", "shoe:٣", "shoe:-1", "shoe:" + "9" * 5000, "shoe:10001"]:
        with pytest.raises(DeckError, match=r"1\.\.10000|shoe:K"):
            make_deck(bad)


def test_stripped_deck_forms() -> None:
    assert stripped_deck("789TJQKA") == make_deck("piquet")
    assert stripped_deck("A K Q J 10 9 8 7") == make_deck("piquet")
    assert stripped_deck([Rank.ACE, "K", 12, "J", "10", 9]) == make_deck("euchre")
    assert [c.code for c in stripped_deck("A")] == ["AC", "AD", "AH", "AS"]


@pytest.mark.parametrize("ranks", ["", "AXK", "AA", [14], [Rank.JOKER], ["joker"], [0]])
def test_stripped_deck_errors(ranks: object) -> None:
    with pytest.raises(DeckError):
        stripped_deck(ranks)  # type: ignore[arg-type]


def test_shoe_distinguishes_copies() -> None:
    s = shoe(6)
    assert len(s) == 312 and len(set(s)) == 312
    assert s[:52] == standard_deck()
    assert [c.copy for c in s[::52]] == [0, 1, 2, 3, 4, 5]
    flat = shoe(6, distinguish=False)
    assert flat == standard_deck() * 6
    assert len(set(flat)) == 52
    assert shoe(1) == standard_deck()


def test_shoe_of_a_deck_with_copies_keeps_cards_distinct() -> None:
    s = shoe(3, base="pinochle")
    assert len(s) == 144 and len(set(s)) == 144
    aces = sorted(c.copy for c in s if c.rank is Rank.ACE and c.suit is Suit.SPADES)
    assert aces == [0, 1, 2, 3, 4, 5]
    canasta_like = shoe(2, base="jokers2")
    assert sorted(c.copy for c in canasta_like if c.is_joker) == [0, 1, 2, 3]
    assert sorted(c.copy for c in canasta_like if c.code.startswith("AS")) == [0, 1]
    assert shoe(2, base=[Card.joker()]) == [Card.joker(0), Card.joker(1)]


@pytest.mark.parametrize("k", [0, -1, True, 2.0, MAX_SHOE_DECKS + 1])
def test_bad_shoes(k: object) -> None:
    with pytest.raises(DeckError):
        shoe(k)  # type: ignore[arg-type]
    with pytest.raises(DeckError):
        shoe(2, base=[1, 2])  # type: ignore[list-item]


# -- sub-decks ------------------------------------------------------------------------------


def test_subdeck_range_rules_exhaustively() -> None:
    """A sub-deck is refused unless 0 <= low <= n and low - 1 <= high <= n - 1."""
    for n in range(6):
        items = list(range(100, 100 + n))
        for low in range(-2, n + 3):
            for high in range(-3, n + 3):
                seed_ok = not (low < 0 or low > n or high < low - 1 or high >= n)
                if seed_ok:
                    got = subdeck(items, low, high)
                    assert got == [items[i] for i in range(low, high + 1)]
                    assert len(got) == high - low + 1
                else:
                    with pytest.raises(RangeError) as info:
                        subdeck(items, low, high)
                    msg = str(info.value)
                    bad = "low" if (low < 0 or low > n) else "high"
                    assert f"{bad}={low if bad == 'low' else high} is out of range" in msg
                    assert "\n" not in msg


def test_subdeck_error_messages_say_the_valid_range() -> None:
    with pytest.raises(
        RangeError, match=r"low=53 is out of range: with 52 cards, low must be in 0\.\.52"
    ):
        subdeck(standard_deck(), 53, 60)
    with pytest.raises(RangeError, match=r"high=52 .* high must be in 4\.\.51"):
        subdeck(standard_deck(), 5, 52)
    with pytest.raises(RangeError, match="integers"):
        subdeck(standard_deck(), 0, "3")  # type: ignore[arg-type]
    with pytest.raises(RangeError, match="integers"):
        subdeck(standard_deck(), True, 3)
    assert isinstance(RangeError("x"), CroupierError)


def test_subdeck_on_any_sequence_and_no_mutation() -> None:
    assert subdeck("abcdef", 1, 3) == ["b", "c", "d"]
    assert subdeck((1, 2, 3), 0, 2) == [1, 2, 3]
    assert subdeck(range(10), 9, 9) == [9]
    assert subdeck([], 0, -1) == []
    deck = standard_deck()
    part = subdeck(deck, 0, 4)
    part.append(Card.joker())
    assert deck == standard_deck()


def test_three_hands_of_seven_and_the_pack_partition_the_deck() -> None:
    deck = standard_deck()
    hands = [subdeck(deck, 0, 6), subdeck(deck, 7, 13), subdeck(deck, 14, 20)]
    pack = subdeck(deck, 21, 51)
    assert [len(h) for h in hands] == [7, 7, 7] and len(pack) == 31
    assert [c for h in [*hands, pack] for c in h] == deck
