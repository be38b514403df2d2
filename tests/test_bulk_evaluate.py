"""Vectorised hand evaluation (croupier.bulk.evaluate) equals the scalar functions.

The scalar functions of croupier.dealing.evaluation are a separate
implementation (pure Python over cards) checked against hand-computed values
and against the real ``dealer``; here every vectorised function must give the
same value on every hand of thousands of random deals, for bridge and for
layouts with jokers, duplicate cards, stripped decks, odd hand sizes and
remainder piles.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from croupier.bulk import DealArray, deal_array
from croupier.bulk import evaluate as bulk
from croupier.cards import Card
from croupier.dealing import evaluation as ev
from croupier.dealing.evaluation import EvaluationError
from croupier.dealing.layout import Layout, make_layout
from croupier.decks import shoe

SUITS = ("S", "H", "D", "C")
PATTERNS = (
    "any 4333 + any 4432 + any 5332",
    "5xxx - 5332 + any 5332",
    "- any 0xxx + x5x4",
    "any 55xx + any 64xx - 6x4x",
    "any 7xxx",
    "xxxx - any 4333",
    "4333",
)


def _layouts() -> list[tuple[Layout, int]]:
    return [
        (make_layout("bridge"), 1500),
        (make_layout("euchre"), 300),  # stripped deck, kitty pile
        (make_layout("pinochle"), 300),  # two copies of every card
        (make_layout(hands=[13, 13, 13, 13], deck="jokers2"), 300),  # jokers in the stock
        (make_layout("skat"), 300),  # 10-card hands
        (make_layout(hands=[60, 60], deck=list(shoe(4))), 40),  # long suits: no lookup table
    ]


def _scalar_patterns(layout: Layout, rng: random.Random) -> list[str]:
    """Patterns valid for every pile size of the layout (x only, so any size fits)."""
    out = []
    for _ in range(6):
        terms = []
        for i in range(rng.randint(1, 3)):
            chars = [rng.choice("0123x") if rng.random() < 0.6 else "x" for _ in range(4)]
            sign = rng.choice(["+ ", "- "]) if i else ""
            terms.append(sign + ("any " if rng.random() < 0.5 else "") + "".join(chars))
        out.append(" ".join(terms))
    return out


@pytest.mark.parametrize(
    ("layout", "count"), _layouts(), ids=lambda v: v.game if isinstance(v, Layout) else str(v)
)
def test_vectorised_equals_scalar(layout: Layout, count: int) -> None:
    rng = random.Random(count)
    deals = deal_array(count, layout, seed=f"evaluate-{layout.game}-{len(layout.deck)}")
    hold = bulk.Holdings(deals)
    piles = len(layout.piles)
    patterns = _scalar_patterns(layout, rng)
    scale = [rng.randint(-3, 6) for _ in range(rng.randint(1, 13))]
    cards = rng.sample([c for c in layout.deck if c.suit is not None], 3)
    suit = SUITS[count % 4]

    whole: dict[str, np.ndarray] = {
        "hcp": bulk.hcp(hold),
        "hcp_suit": bulk.hcp(hold, None, suit),
        "scale": bulk.points(hold, scale),
        "controls": bulk.controls(hold),
        "controls_suit": bulk.controls(hold, None, suit),
        "losers": bulk.losers(hold),
        "losers_suit": bulk.losers(hold, None, suit),
        "cccc": bulk.cccc(hold),
        "balanced": bulk.is_balanced(hold),
        "semi": bulk.is_semi_balanced(hold),
        "sorted": bulk.sorted_shape(hold),
        "lengths": bulk.suit_lengths(hold),
    }
    for n in range(10):
        whole[f"pt{n}"] = bulk.pt(hold, n)
    for name in ev.ALT_COUNT_NAMES:
        whole[name + "_suit"] = getattr(bulk, name)(hold, None, suit)
    for s in SUITS:
        whole[f"quality_{s}"] = bulk.quality(hold, None, s)
    for k, pattern in enumerate(patterns):
        whole[f"shape{k}"] = bulk.shape(hold, None, ev.parse_shape(pattern, cards=None))
    for k, card in enumerate(cards):
        whole[f"card{k}"] = bulk.hascard(hold, None, card)
    for key, values in whole.items():
        assert values.shape[:2] == (count, piles), key

    for i in range(count):
        for p, hand in enumerate(deals[i].piles):
            h = list(hand)
            want = {
                "hcp": ev.hcp(h),
                "hcp_suit": ev.hcp(h, suit),
                "scale": ev.points(h, scale),
                "controls": ev.controls(h),
                "controls_suit": ev.controls(h, suit),
                "losers": ev.losers(h),
                "losers_suit": ev.losers(h, suit),
                "cccc": ev.cccc(h),
                "balanced": ev.is_balanced(h),
                "semi": ev.is_semi_balanced(h),
                "sorted": list(ev.sorted_shape(h)),
                "lengths": list(ev.suit_lengths(h)),
            }
            for n in range(10):
                want[f"pt{n}"] = ev.pt(h, n)
            for name in ev.ALT_COUNT_NAMES:
                want[name + "_suit"] = getattr(ev, name)(h, suit)
            for s in SUITS:
                want[f"quality_{s}"] = ev.quality(h, s)
            for k, pattern in enumerate(patterns):
                want[f"shape{k}"] = ev.shape(h, ev.parse_shape(pattern, cards=None))
            for k, card in enumerate(cards):
                want[f"card{k}"] = ev.hascard(h, card)
            for key, value in want.items():
                got = whole[key][i, p]
                assert (got.tolist() if isinstance(value, list) else got) == value, (key, i, p, h)


def test_bridge_shapes_and_one_seat() -> None:
    deals = deal_array(3000, seed="shapes")
    hold = bulk.Holdings(deals)
    lengths = deals.suit_lengths()  # DealArray's own implementation
    assert np.array_equal(bulk.suit_lengths(deals), lengths)
    assert np.array_equal(bulk.suit_length(deals, "E", "diamonds"), lengths[:, 1, 2])
    for pattern in PATTERNS:
        parsed = ev.parse_shape(pattern)
        every = bulk.shape(hold, None, pattern)
        want = np.array([[parsed.matches(row) for row in deal] for deal in lengths.tolist()])
        assert np.array_equal(every, want), pattern
        for p, seat in enumerate(("north", "E", 2, "West")):
            assert np.array_equal(bulk.shape(deals, seat, parsed), want[:, p])
    # One seat gives that column of all seats, for every function.
    for name in ("hcp", "controls", "losers", "cccc", "tens", "c13", "is_balanced"):
        every = getattr(bulk, name)(hold)
        assert np.array_equal(getattr(bulk, name)(deals, "S"), every[:, 2]), name
    assert np.array_equal(bulk.quality(deals, "N", "H"), bulk.quality(hold, None, "H")[:, 0])
    assert bulk.hcp(deals, "N").dtype == np.int64 and bulk.shape(deals, 0, "4333").dtype == bool


def test_points_of_deals_add_up() -> None:
    deals = deal_array(2000, seed="sums")
    # every card is in exactly one hand: totals over the four seats are the deck's totals
    assert (bulk.hcp(deals).sum(axis=1) == 40).all()
    assert (bulk.c13(deals).sum(axis=1) == 52).all()
    assert (bulk.controls(deals).sum(axis=1) == 12).all()
    assert (bulk.top5(deals, None, "S").sum(axis=1) == 5).all()
    assert (bulk.hascard(deals, None, "7D").sum(axis=1) == 1).all()
    assert (bulk.suit_lengths(deals).sum(axis=2) == 13).all()


def test_seats_and_errors() -> None:
    deals = deal_array(5, seed="seats")
    assert [bulk.seat_index(deals, s) for s in ("N", "e", "south", "WEST", 3)] == [0, 1, 2, 3, 3]
    for bad in ("X", 4, -1, True, "northeast"):
        with pytest.raises(EvaluationError, match="seat="):
            bulk.hcp(deals, bad)  # type: ignore[arg-type]
    with pytest.raises(EvaluationError):
        bulk.pt(deals, 10)
    with pytest.raises(EvaluationError):
        bulk.hcp(deals, scale=[1] * 14)
    with pytest.raises(EvaluationError, match="position 0"):
        bulk.shape(deals, "N", "5555")
    with pytest.raises(EvaluationError):
        bulk.Holdings(deals.piles)  # type: ignore[arg-type]
    # a card the deck does not hold is held by nobody
    euchre = deal_array(3, make_layout("euchre"), seed="e")
    assert not bulk.hascard(euchre, None, Card.parse("2C")).any()
    # pile names of other layouts
    assert bulk.hcp(euchre, "kitty").shape == (3,)


def test_empty_and_sliced_arrays() -> None:
    deals = deal_array(10, seed="slice")
    assert bulk.cccc(deals[:0]).shape == (0, 4)
    assert np.array_equal(bulk.cccc(deals[3:7]), bulk.cccc(deals)[3:7])
    empty = DealArray(deals.layout, np.zeros((0, 52), np.uint8))
    assert bulk.shape(empty, "N", "4333").shape == (0,)


def test_formulas_without_lookup_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    """Decks too large for lookup tables evaluate the same formulas directly."""
    deals = deal_array(2000, seed="no-tables")
    with_tables = [
        bulk.cccc(deals),
        bulk.losers(deals),
        bulk.quality(deals, None, "D"),
        bulk.shape(deals, None, "any 5xxx - 5332 + any 4333"),
    ]
    monkeypatch.setattr(bulk, "_MAX_TABLE", 0)
    without = [
        bulk.cccc(deals),
        bulk.losers(deals),
        bulk.quality(deals, None, "D"),
        bulk.shape(deals, None, "any 5xxx - 5332 + any 4333"),
    ]
    for a, b in zip(with_tables, without, strict=True):
        assert np.array_equal(a, b)


@pytest.mark.parametrize(
    "text",
    [
        "any 4333 + any 4432 + any 5332",
        "5xxx - 5332",
        "any 55xx + any 64xx - any 6430",
        "x5xx",
        "any 7xxx + 4x4x - any 0xxx",
        "- any 4333 + xxxx",
    ],
)
@pytest.mark.parametrize("longest", [13, 7, 4])
def test_a_shape_table_marks_exactly_the_points_the_comparisons_find(
    text: str, longest: int
) -> None:
    # The table is made term by term, one assignment per order of the lengths; the
    # whole grid compared with each order (the plain way) must give the same table.
    from croupier.bulk import evaluate
    from croupier.dealing.evaluation import parse_shape

    pattern = parse_shape(text, cards=13)
    grid = np.indices((longest + 1,) * 4, dtype=np.int64)
    plain = evaluate._pattern_mask(pattern, list(grid)).ravel()
    assert np.array_equal(evaluate._shape_table.__wrapped__(pattern, longest), plain)
