"""Big Deal's Gödel numbering: Big Deal's own vectors, exact bijection checks, errors."""

from __future__ import annotations

import json
from itertools import combinations
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.cards import Card
from croupier.errors import RankingError
from croupier.formats.pbn_deal import format_pbn_deal, parse_pbn_deal
from croupier.ranking import bigdeal as rb
from croupier.ranking.bigdeal import GOEDEL_MAX, goedel_rank, goedel_unrank
from croupier.ranking.partitions import subset_rank, subset_unrank
from tests.conftest import VECTORS

DATA = json.loads((VECTORS / "bigdeal" / "vectors.json").read_text(encoding="utf-8"))


def test_constants_match_big_deal() -> None:
    c = DATA["constants"]
    assert int(c["D"]) == GOEDEL_MAX == comb(52, 13) * comb(39, 13) * comb(26, 13)
    assert hex(GOEDEL_MAX) == c["D_hex"]
    assert [int(c[k]) for k in ("C52_13", "C39_13", "C26_13")] == [
        comb(52, 13),
        comb(39, 13),
        comb(26, 13),
    ]


@pytest.mark.parametrize("vector", DATA["goedel"], ids=lambda v: v["goedel"][:12])
def test_goedel_vectors_from_big_deal(vector: dict[str, str]) -> None:
    number = int(vector["goedel"])
    hands = goedel_unrank(number)
    assert format_pbn_deal(hands) == "N:" + vector["deal"]
    assert goedel_rank(parse_pbn_deal("N:" + vector["deal"])) == number


def test_subset_ranking_is_lexicographic_order_of_position_lists() -> None:
    # Independent check: enumerate every 13-subset of 15 positions in lexicographic order.
    for n in (13, 14, 15, 16):
        for index, picks in enumerate(combinations(range(n), 13)):
            assert subset_rank(picks, n, "lex") == index
            assert subset_unrank(index, n, 13, "lex") == list(picks)


def test_card_order_is_big_deals() -> None:
    codes = [c.code for c in rb.BIGDEAL_CARD_ORDER]
    assert codes[:3] == ["AS", "KS", "QS"] and codes[12] == "2S" and codes[13] == "AH"
    assert codes[-1] == "2C" and len(set(codes)) == 52


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=GOEDEL_MAX - 1))
def test_round_trip(number: int) -> None:
    hands = goedel_unrank(number)
    assert sorted(len(h) for h in hands) == [13, 13, 13, 13]
    assert len({c for h in hands for c in h}) == 52
    assert goedel_rank(hands) == number


@settings(max_examples=50, deadline=None)
@given(st.permutations(list(rb.BIGDEAL_CARD_ORDER)))
def test_rank_accepts_any_card_order_within_hands(deck: list[Card]) -> None:
    hands = [deck[0:13], deck[13:26], deck[26:39], deck[39:52]]
    number = goedel_rank(hands)
    back = goedel_unrank(number)
    assert [set(h) for h in back] == [set(h) for h in hands]


@pytest.mark.parametrize("bad", [-1, GOEDEL_MAX, GOEDEL_MAX + 5, True, "3"])
def test_unrank_rejects_out_of_range(bad: object) -> None:
    with pytest.raises(RankingError):
        goedel_unrank(bad)  # type: ignore[arg-type]


def test_rank_rejects_bad_hands() -> None:
    n, e, s, w = goedel_unrank(7)
    with pytest.raises(RankingError, match="4 hands"):
        goedel_rank([n, e, s])
    with pytest.raises(RankingError, match="has 12 cards"):
        goedel_rank([n[:-1], e, s, w + n[-1:]])
    with pytest.raises(RankingError, match="appears in hand N and hand E"):
        goedel_rank([n, [n[0], *e[1:]], s, w])
    with pytest.raises(RankingError, match="standard deck"):
        goedel_rank([[Card.joker(), *n[1:]], e, s, w])
