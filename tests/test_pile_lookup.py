"""One lookup of a pile by name (Layout.find_pile): the bulk evaluators, predeals and poker's
evaluation of deal arrays find the same pile for every spelling, and refuse the same ones."""

from __future__ import annotations

import numpy as np
import pytest

from croupier.bulk import deal_array
from croupier.bulk.evaluate import EvaluationError, hcp, seat_index
from croupier.dealing import make_layout
from croupier.dealing.layout import Layout, Pile
from croupier.poker import PokerError, evaluate_deals
from croupier.simulate.predeal import Predeal, PredealError

SPELLINGS = ["N", "n", "north", "NORTH", " South ", "e", "West", "w", 0, 3, np.int64(2)]
NOT_PILES = ["middle", "", "NN", 4, -1, 2.0, True, None]


def _compass_poker_layout() -> Layout:
    """Four seven-card hands named N E S W and the rest: a poker evaluation of compass piles."""
    bridge = make_layout("bridge")
    piles = (*(Pile(seat, 7) for seat in "NESW"), Pile("stock", 24, is_hand=False))
    return Layout("compass seven", bridge.deck_name, bridge.deck, piles)


def test_the_lookup_itself() -> None:
    bridge = make_layout("bridge")
    want = {"N": 0, "E": 1, "S": 2, "W": 3}
    for spelling in SPELLINGS:
        found = bridge.find_pile(spelling)
        if isinstance(spelling, str):
            assert found == want[spelling.strip()[0].upper()], spelling
        else:
            assert found == int(spelling)
    for bad in NOT_PILES:
        assert bridge.find_pile(bad) is None, bad
    holdem = make_layout("holdem")
    names = [p.name for p in holdem.piles]
    for i, name in enumerate(names):
        assert holdem.find_pile(name.upper()) == holdem.find_pile(name.lower()) == i
    assert holdem.find_pile("north") is None  # (no compass piles)


def test_bulk_evaluators_and_predeals_find_the_same_pile() -> None:
    deals = deal_array(50, seed="piles")
    layout = deals.layout
    for spelling in SPELLINGS:
        index = layout.find_pile(spelling)
        assert seat_index(deals, spelling) == index
        assert np.array_equal(hcp(deals, spelling), hcp(deals, index))
        if isinstance(spelling, str):
            predeal = Predeal.coerce({spelling: "AS KS"}, layout)
            assert [p for p, cards in enumerate(predeal.hands) if cards] == [index]
    for bad in NOT_PILES:
        with pytest.raises(EvaluationError, match="is not a pile of this layout"):
            seat_index(deals, bad)  # type: ignore[arg-type]
    with pytest.raises(PredealError, match="unknown seat"):
        Predeal.coerce({"middle": "AS"}, layout)


def test_poker_evaluation_finds_the_same_pile() -> None:
    layout = _compass_poker_layout()
    deals = deal_array(20, layout, seed="poker piles")
    by_index = evaluate_deals(deals, seat=1, board=None)
    for spelling in ["E", "e", "east", " EAST "]:
        assert np.array_equal(evaluate_deals(deals, seat=spelling, board=None), by_index)
    with pytest.raises(PokerError, match="is not a pile of"):
        evaluate_deals(deals, seat="middle", board=None)
    with pytest.raises(PokerError, match="is not a pile index"):
        evaluate_deals(deals, seat=9, board=None)
    holdem = deal_array(20, "holdem", seed="poker piles")
    assert np.array_equal(
        evaluate_deals(holdem, seat="p1", board="FLOP"), evaluate_deals(holdem, seat=0, board=6)
    )
