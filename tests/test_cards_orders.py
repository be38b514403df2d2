"""Card orders, sorting and binary search."""

from __future__ import annotations

import itertools
import math
import warnings
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import overload

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.cards import Card, Rank, Suit, parse_card, parse_cards
from croupier.decks import make_deck, shoe, standard_deck
from croupier.errors import CroupierError
from croupier.orders import (
    DEPRECATED_ORDER_NAMES,
    ORDERS,
    CardNotFoundError,
    CardOrder,
    CardOrderError,
    find_bisect,
    find_bisect_or_minus_one,
    find_lowest,
    get_order,
    is_sorted,
    order_names,
    selection_sort,
    sort_cards,
)

STANDARD = [Card(r, s) for s in Suit for r in Rank.standard()]
WITH_JOKERS = [*STANDARD, Card.joker(0), Card.joker(1)]
TOTAL_ORDERS = [n for n, o in ORDERS.items() if o.suits_ranked]
orders = st.sampled_from(list(ORDERS))
cards_from_shoe = st.lists(st.sampled_from([*shoe(2), Card.joker(0), Card.joker(1)]), max_size=40)


def _suit_then_rank_ace_low_is_greater(a: Card, b: Card) -> bool:
    """Suit first (clubs < diamonds < hearts < spades), then rank with ace = 1."""
    assert a.suit is not None and b.suit is not None
    if a.suit > b.suit:
        return True
    if a.suit < b.suit:
        return False
    return a.rank > b.rank


# -- named orders against independent definitions ---------------------------------------


def test_suit_ace_low_order_is_suit_then_rank_ace_low() -> None:
    low = ORDERS["suit-ace-low"]
    for a in STANDARD:
        for b in STANDARD:
            assert low.is_greater(a, b) == _suit_then_rank_ace_low_is_greater(a, b)


def test_seed_is_a_deprecated_alias_of_suit_ace_low() -> None:
    new = ORDERS["suit-ace-low"]
    assert DEPRECATED_ORDER_NAMES == {"seed": "suit-ace-low"}
    with pytest.warns(DeprecationWarning, match="'seed' is deprecated; use 'suit-ace-low'") as w:
        assert get_order("seed") is new
    assert w[0].filename == __file__  # the warning points at the caller, not at croupier
    with pytest.warns(DeprecationWarning, match="suit-ace-low"):
        assert get_order(" SEED ") is new
    with pytest.warns(DeprecationWarning, match="suit-ace-low"):
        assert ORDERS["seed"] is new
    deck = list(reversed(STANDARD))
    for call in (
        lambda o: sort_cards(deck, o),
        lambda o: selection_sort(deck, o),
        lambda o: sort_cards(deck, o, descending=True),
    ):
        with pytest.warns(DeprecationWarning, match="suit-ace-low") as w:
            old = call("seed")
        assert w[0].filename == __file__
        assert old == call("suit-ace-low")
    with pytest.warns(DeprecationWarning):
        assert is_sorted(STANDARD, "seed") and find_lowest(deck, 0, "seed") == 51
    with pytest.warns(DeprecationWarning):
        assert find_bisect(STANDARD, "QH", "seed") == find_bisect_or_minus_one(STANDARD, "QH")
    # the old name is listed nowhere
    assert "seed" not in order_names() and "seed" not in ORDERS and "seed" not in list(ORDERS)
    with pytest.raises(CardOrderError) as info:
        get_order("whist")
    assert "seed" not in str(info.value) and "suit-ace-low" in str(info.value)


def test_the_new_name_gives_no_warning() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert get_order("suit-ace-low") is ORDERS["suit-ace-low"]
        assert sort_cards("KS AC", "Suit-Ace-Low") == sort_cards("KS AC")
        assert is_sorted(standard_deck(), "suit-ace-low")


def test_bridge_order_spades_high_ace_high() -> None:
    rank_strength = {r: (14 if r is Rank.ACE else int(r)) for r in Rank.standard()}
    bridge = ORDERS["bridge"]
    for a in STANDARD:
        for b in STANDARD:
            assert a.suit is not None and b.suit is not None
            expected = (a.suit, rank_strength[a.rank]) > (b.suit, rank_strength[b.rank])
            assert bridge.is_greater(a, b) == expected
    assert sort_cards(STANDARD, "bridge")[-1] == parse_card("AS")
    assert sort_cards(STANDARD, "bridge")[0] == parse_card("2C")


def test_poker_order_ace_high_suits_unranked() -> None:
    poker = ORDERS["poker"]
    for a in STANDARD:
        for b in STANDARD:
            ra = 14 if a.rank is Rank.ACE else int(a.rank)
            rb = 14 if b.rank is Rank.ACE else int(b.rank)
            assert poker.compare(a, b) == (ra > rb) - (ra < rb)
    assert not poker.suits_ranked


def test_rank_and_pinochle_orders() -> None:
    assert [c.code for c in sort_cards("AS 2C 2S AC KD", "rank")] == ["2C", "2S", "KD", "AC", "AS"]
    pin = sort_cards(make_deck("pinochle"), "pinochle")
    assert [Card(c.rank, c.suit).code for c in pin[:12]] == [
        "9C", "9C", "JC", "JC", "QC", "QC", "KC", "KC", "TC", "TC", "AC", "AC"]  # fmt: skip
    assert [c.copy for c in pin[:4]] == [0, 1, 0, 1]


def test_jokers_sort_last_in_every_named_order_and_first_when_low() -> None:
    for name in ORDERS:
        out = sort_cards([Card.joker(1), *STANDARD, Card.joker(0)], name)
        assert out[-2:] == [Card.joker(0), Card.joker(1)], name
    low = CardOrder.custom("AKQJT98765432", "SHDC", name="low-jokers", jokers="low")
    assert sort_cards([*STANDARD, Card.joker()], low)[0] == Card.joker()


# -- custom orders ----------------------------------------------------------------------


def test_custom_order_with_same_lists_matches_bridge() -> None:
    custom = CardOrder.custom("A K Q J 10 9 8 7 6 5 4 3 2", "♠♥♦♣")
    for c in WITH_JOKERS:
        assert custom.key(c) == ORDERS["bridge"].key(c)
    assert get_order("custom:AKQJT98765432:SHDC").key(parse_card("7H")) == custom.key(
        parse_card("7H")
    )


def test_custom_order_suit_sequence_is_high_to_low() -> None:
    o = CardOrder.custom("AKQJT98765432", "HSCD", name="odd-suits")
    out = sort_cards("AH AS AC AD", o, descending=True)
    assert [c.code for c in out] == ["AH", "AS", "AC", "AD"]


def test_custom_order_rank_major() -> None:
    o = CardOrder.custom("AKQJT98765432", "SHDC", suit_major=False)
    assert [c.code for c in sort_cards("AS KS AC KC", o)] == ["KC", "KS", "AC", "AS"]


def test_stripped_custom_order_rejects_missing_cards() -> None:
    o = CardOrder.custom("AKQJT987", "SHDC", name="piquet")
    assert len(sort_cards(make_deck("piquet"), o)) == 32
    with pytest.raises(CardOrderError, match="'2C' has no place in order 'piquet'"):
        sort_cards("AS 2C", o)
    spades_only = CardOrder.custom("AKQ", "S", name="s")
    with pytest.raises(CardOrderError, match="suits 'S'"):
        spades_only.key(parse_card("AH"))


@pytest.mark.parametrize(
    "ranks,suits,match",
    [("AKX", "SHDC", "bad rank 'X'"), ("AKA", "SHDC", "twice"), ("", "SHDC", "empty"),
     ("AK", "SHX", "bad suit 'X'"), ("AK", "SS", "twice")],
)  # fmt: skip
def test_bad_custom_orders(ranks: str, suits: str, match: str) -> None:
    with pytest.raises(CardOrderError, match=match):
        CardOrder.custom(ranks, suits)


def test_get_order_errors_list_the_valid_names() -> None:
    with pytest.raises(CroupierError) as info:
        get_order("whist")
    for name in ORDERS:
        assert name in str(info.value)
    with pytest.raises(CardOrderError, match="custom:RANKS:SUITS"):
        get_order("custom:AKQ")
    assert get_order(ORDERS["poker"]) is ORDERS["poker"]
    assert order_names()[:3] == ["suit-ace-low", "bridge", "poker"]


def test_card_order_is_frozen_and_hashable() -> None:
    o = ORDERS["suit-ace-low"]
    with pytest.raises(AttributeError):
        o.name = "x"  # type: ignore[misc]
    assert hash(o) == hash(CardOrder.custom("KQJT98765432A", "SHDC", name="suit-ace-low",
                                            description=o.description))  # fmt: skip


# -- sort properties -----------------------------------------------------------------------


def test_default_sort_gives_the_standard_deck() -> None:
    assert sort_cards(list(reversed(standard_deck()))) == standard_deck()
    assert selection_sort(list(reversed(standard_deck()))) == standard_deck()


@settings(max_examples=150, deadline=None)
@given(cards=cards_from_shoe, name=orders)
def test_sort_is_an_ordered_permutation_and_leaves_input_alone(
    cards: list[Card], name: str
) -> None:
    before = list(cards)
    out = sort_cards(cards, name)
    assert cards == before
    assert Counter(out) == Counter(cards)
    key = ORDERS[name].key
    assert all(key(a) <= key(b) for a, b in itertools.pairwise(out))
    assert is_sorted(out, name)
    assert sort_cards(out, name) == out
    down = sort_cards(cards, name, descending=True)
    assert is_sorted(down, name, descending=True)
    if ORDERS[name].suits_ranked and len(set(cards)) == len(cards):
        assert down == out[::-1]
        assert selection_sort(cards, name) == out


@settings(max_examples=100, deadline=None)
@given(cards=st.lists(st.sampled_from(STANDARD), max_size=20, unique=True))
def test_poker_sort_is_stable(cards: list[Card]) -> None:
    out = sort_cards(cards, "poker")
    for rank in Rank.standard():
        assert [c for c in out if c.rank == rank] == [c for c in cards if c.rank == rank]


def test_sort_accepts_text_and_rejects_non_cards() -> None:
    assert sort_cards("KH AH") == parse_cards("AH KH")
    with pytest.raises(CardOrderError, match="got 3 at index 1"):
        sort_cards([parse_card("AS"), 3])  # type: ignore[list-item]


def test_find_lowest_finds_the_first_lowest_card() -> None:
    cards = parse_cards("KS 3D AC 9H AC")
    assert find_lowest(cards) == 2  # first of the tied lowest
    assert find_lowest(cards, 3) == 4
    with pytest.raises(CardOrderError, match=r"start=5 out of range; expected 0\.\.4"):
        find_lowest(cards, 5)
    with pytest.raises(CardOrderError, match="empty"):
        find_lowest([])
    # against a plain linear scan, on every start of a shuffled deck
    deck = sort_cards(STANDARD, "poker")[::-1]
    for start in range(len(deck)):
        best = start
        for i in range(start, len(deck)):
            if ORDERS["suit-ace-low"].is_greater(deck[best], deck[i]):
                best = i
        assert find_lowest(deck, start) == best


# -- binary search -----------------------------------------------------------------------


class CountingSeq(Sequence[Card]):
    """A read-only sequence that counts item reads (to check O(log n) probes, no copies)."""

    def __init__(self, items: list[Card]) -> None:
        self.items = items
        self.reads = 0

    @overload
    def __getitem__(self, i: int) -> Card: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[Card]: ...
    def __getitem__(self, i: int | slice) -> Card | Sequence[Card]:
        if isinstance(i, slice):
            raise AssertionError("find_bisect must not slice (copy) the deck")
        self.reads += 1
        return self.items[i]

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self) -> Iterator[Card]:
        raise AssertionError("find_bisect must not iterate the whole deck")


@pytest.mark.parametrize("name", list(ORDERS))
def test_bisect_finds_each_of_52_cards_in_log_probes(name: str) -> None:
    deck = sort_cards(STANDARD, name)
    bound = math.ceil(math.log2(len(deck) + 1)) + 1
    ties = 0 if ORDERS[name].suits_ranked else 4  # poker: up to 4 cards share a rank
    for i, card in enumerate(deck):
        seq = CountingSeq(deck)
        found = find_bisect(seq, card, name)
        assert deck[found] == card
        if ORDERS[name].suits_ranked:
            assert found == i
        assert seq.reads <= bound + ties, (card, seq.reads)


@pytest.mark.parametrize("name", list(ORDERS))
def test_bisect_reports_absent_cards(name: str) -> None:
    deck = sort_cards(STANDARD, name)
    for missing in deck:
        rest = [c for c in deck if c != missing]
        with pytest.raises(CardNotFoundError, match=f"'{missing.code}' not found"):
            find_bisect(rest, missing, name)
        assert find_bisect_or_minus_one(rest, missing, name) == -1
    with pytest.raises(CardNotFoundError):
        find_bisect([], parse_card("AS"), name)
    with pytest.raises(CardNotFoundError):
        find_bisect(deck, Card.joker(), name)
    with pytest.raises(CardNotFoundError):
        find_bisect(deck, Card(Rank.ACE, Suit.SPADES, 1), name)


def test_bisect_error_is_a_croupier_error_with_one_line() -> None:
    with pytest.raises(CroupierError) as info:
        find_bisect("AC 2C", "3C")
    assert "\n" not in str(info.value) and "'suit-ace-low'" in str(info.value)


@settings(max_examples=150, deadline=None)
@given(cards=cards_from_shoe, probe=st.sampled_from([*shoe(2), Card.joker(0)]), name=orders)
def test_bisect_property_on_shoes(cards: list[Card], probe: Card, name: str) -> None:
    deck = sort_cards(cards, name)
    got = find_bisect_or_minus_one(deck, probe, name)
    if probe in deck:
        assert got == deck.index(probe)  # the first equal card
        assert find_bisect(deck, probe, name) == got
    else:
        assert got == -1


def test_the_bridge_card_order_has_one_source() -> None:
    from croupier.cards import (
        BRIDGE_DECK,
        BRIDGE_RANK_LETTERS,
        BRIDGE_RANKS,
        BRIDGE_SUIT_LETTERS,
        BRIDGE_SUITS,
    )
    from croupier.dealing.layout import canonical_deck
    from croupier.decks import standard_deck
    from croupier.formats.pbn_deal import PBN_RANKS, PBN_SUITS
    from croupier.orders import ORDERS
    from croupier.ranking.bigdeal import BIGDEAL_CARD_ORDER, bigdeal_card_index

    # the rule, stated independently: suits spades, hearts, diamonds, clubs; ace high
    codes = [r + s for s in "SHDC" for r in "AKQJT98765432"]
    assert [c.code for c in BRIDGE_DECK] == codes
    assert BRIDGE_RANK_LETTERS == "".join(r.letter for r in BRIDGE_RANKS) == "AKQJT98765432"
    assert BRIDGE_SUIT_LETTERS == "".join(s.letter for s in BRIDGE_SUITS) == "SHDC"
    # every user of the order reads it from cards.py
    assert BIGDEAL_CARD_ORDER is BRIDGE_DECK and PBN_SUITS is BRIDGE_SUITS
    assert PBN_RANKS is BRIDGE_RANK_LETTERS
    assert canonical_deck(standard_deck()) == BRIDGE_DECK
    assert [bigdeal_card_index(c) for c in BRIDGE_DECK] == list(range(52))
    assert sort_cards(standard_deck(), "bridge", descending=True) == list(BRIDGE_DECK)
    assert ORDERS["bridge"].rank_string == BRIDGE_RANK_LETTERS
    assert ORDERS["bridge"].suit_string == BRIDGE_SUIT_LETTERS
