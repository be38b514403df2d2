"""Deal numbers: exact bijections, named bridge schemes, published and Big Deal vectors."""

from __future__ import annotations

import json
from itertools import permutations
from math import comb, factorial

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import croupier
from croupier.cards import Card
from croupier.dealing import deal_from_number, game_names, make_layout
from croupier.dealing.layout import GAMES
from croupier.errors import RankingError
from croupier.formats.pbn_deal import format_pbn_deal, parse_pbn_deal
from croupier.ranking.partitions import (
    multinomial,
    sequence_rank,
    sequence_unrank,
    split_by_lex_digits,
    subset_rank,
    subset_unrank,
    subsets_rank,
    subsets_unrank,
    unrank_lex_mask,
)
from croupier.ranking.schemes import get_scheme, scheme_names
from tests.conftest import VECTORS

BRIDGE_M = 53_644_737_765_488_792_839_237_440_000
SIZES_222 = (2, 2, 2)


def _all_owner_sequences(sizes: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every owner sequence with these pile sizes, in lexicographic order (by brute force)."""
    word = [pile for pile, k in enumerate(sizes) for _ in range(k)]
    return sorted(set(permutations(word)))


def test_bridge_count_is_the_published_number() -> None:
    assert multinomial((13, 13, 13, 13)) == BRIDGE_M
    assert factorial(52) // factorial(13) ** 4 == BRIDGE_M
    assert make_layout("bridge").count == BRIDGE_M


@pytest.mark.parametrize("order", ["lex", "colex"])
def test_subsets_unrank_hits_each_of_the_90_deals_once(order: str) -> None:
    seen = [tuple(subsets_unrank(r, SIZES_222, order)) for r in range(90)]  # type: ignore[arg-type]
    assert sorted(seen) == _all_owner_sequences(SIZES_222)
    assert len(set(seen)) == 90


def test_sequence_rank_is_the_lexicographic_position() -> None:
    # Independent check: brute-force lexicographic enumeration of all owner words.
    for sizes in [(2, 2, 2), (1, 2, 3), (3, 0, 2), (4,), (2, 1, 1, 1)]:
        words = _all_owner_sequences(sizes)
        assert len(words) == multinomial(sizes)
        for r, w in enumerate(words):
            assert sequence_unrank(r, sizes) == list(w)
            assert sequence_rank(w, sizes) == r


def test_lex_subset_rank_is_the_position_in_sorted_order() -> None:
    from itertools import combinations

    for n, k in [(6, 2), (7, 3), (5, 5), (5, 0), (9, 4)]:
        subsets = list(combinations(range(n), k))  # itertools yields lexicographic order
        for r, s in enumerate(subsets):
            assert subset_rank(s, n) == r
            assert subset_unrank(r, n, k) == list(s)
        colex = sorted(subsets, key=lambda s: tuple(reversed(s)))
        for r, s in enumerate(colex):
            assert subset_rank(s, n, "colex") == r
            assert subset_unrank(r, n, k, "colex") == list(s)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, comb(52, 13) - 1), st.sampled_from([(52, 13), (39, 13), (26, 13), (30, 5)]))
def test_fast_lex_mask_matches_the_reference(rank: int, nk: tuple[int, int]) -> None:
    n, k = nk
    rank %= comb(n, k)
    mask = unrank_lex_mask(rank, n, k)
    chosen = [i for i, bit in enumerate(mask) if bit]
    assert chosen == subset_unrank(rank, n, k)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, BRIDGE_M - 1))
def test_fast_dealing_path_agrees_with_subsets_unrank(number: int) -> None:
    lay = make_layout("bridge")
    d = deal_from_number(lay, number)  # through the scheme
    from croupier.dealing.deal import _FastUnranker

    fast = _FastUnranker(lay).piles(number)
    assert fast == d.piles
    owners = subsets_unrank(number, lay.sizes)
    digits: list[int] = []
    rest = number
    left = 52
    radices = []
    for k in lay.sizes:
        radices.append(comb(left, k))
        left -= k
    for r in reversed(radices):
        rest, dig = divmod(rest, r)
        digits.append(dig)
    digits.reverse()
    piles = split_by_lex_digits(list(range(52)), digits, lay.sizes)
    assert [[owners[i] for i in p] for p in piles] == [[j] * 13 for j in range(4)]


def _bridge_deck() -> tuple[Card, ...]:
    return make_layout("bridge").deck


def _hands_of(scheme: str, number: int) -> str:
    lay = make_layout("bridge")
    d = deal_from_number(lay, number, scheme)
    return format_pbn_deal(d.piles)


def test_bigdeal_goedel_vectors_from_big_deal_itself() -> None:
    data = json.loads((VECTORS / "deal_bigdeal_goedel.json").read_text(encoding="utf-8"))
    assert int(data["D"]) == BRIDGE_M
    assert len(data["goedel"]) >= 20
    lay = make_layout("bridge")
    for vec in data["goedel"]:
        number = int(vec["goedel"])
        expected = "N:" + vec["deal"]
        # Big Deal's own scheme, and croupier's generic scheme (independent code) agree.
        assert _hands_of("bigdeal", number) == expected
        assert _hands_of("croupier", number) == expected
        hands = parse_pbn_deal(expected)
        owners = [next(i for i, h in enumerate(hands) if c in h) for c in lay.deck]
        assert get_scheme("croupier").rank(lay.deck, lay.sizes, owners) == number
        assert get_scheme("bigdeal").rank(lay.deck, lay.sizes, owners) == number


# Published examples: page numbers (counted from 1) of the "impossible bridge book"
# editions numbered by Andrews' and by Pavlicek's method, as quoted by an independent
# re-implementation's test suite.  Hands N, E, S, W.
PUBLISHED = {
    "andrews-1": [
        (1, "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"),
        (10, "N:AKQJT98765432... .AKQJT98765432.. ..AKQJ98765432.A ..T.KQJT98765432"),
        (
            10**27,
            "N:KT862.J62.9632.A A93.K94.J4.K9765 4.A5.AKT75.QJT43 QJ75.QT873.Q8.82",
        ),
    ],
    "pavlicek-1": [
        (1, "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"),
        (10, "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT9876543.6 ..2.AKQJT9875432"),
        (
            10**27,
            "N:AK72.Q543.T863.8 QJ84.KT762.AK4.7 T953.9.972.QJ643 6.AJ8.QJ5.AKT952",
        ),
    ],
}


@pytest.mark.parametrize("scheme", sorted(PUBLISHED))
def test_published_example_numbers(scheme: str) -> None:
    lay = make_layout("bridge")
    base0 = scheme.removesuffix("-1")
    for number, pbn in PUBLISHED[scheme]:
        assert _hands_of(scheme, number) == pbn
        assert _hands_of(base0, number - 1) == pbn
        hands = parse_pbn_deal(pbn)
        owners = [next(i for i, h in enumerate(hands) if c in h) for c in lay.deck]
        assert get_scheme(scheme).rank(lay.deck, lay.sizes, owners) == number


def test_pavlicek_walks_the_cards_from_the_spade_ace() -> None:
    # Pavlicek's number is the card-by-card (sequence) number over SA..C2, seats N E S W.
    lay = make_layout("bridge")
    for number in (0, 1, 12345678901234567890, BRIDGE_M - 1):
        a = deal_from_number(lay, number, "pavlicek").piles
        b = deal_from_number(lay, number, "sequence").piles
        assert a == b
    assert _hands_of("pavlicek", BRIDGE_M - 1) == (
        "N:...AKQJT98765432 ..AKQJT98765432. .AKQJT98765432.. AKQJT98765432..."
    )


def test_schemes_state_their_base_and_range() -> None:
    lay = make_layout("bridge")
    for name in scheme_names():
        s = get_scheme(name)
        assert s.base == (1 if name.endswith("-1") else 0)
        s.unrank(lay.deck, lay.sizes, s.base)
        s.unrank(lay.deck, lay.sizes, s.base + BRIDGE_M - 1)
        with pytest.raises(RankingError, match="out of range"):
            s.unrank(lay.deck, lay.sizes, s.base + BRIDGE_M)
        with pytest.raises(RankingError, match="out of range"):
            s.unrank(lay.deck, lay.sizes, s.base - 1)


def test_bridge_schemes_refuse_other_layouts() -> None:
    lay = make_layout("euchre")
    with pytest.raises(RankingError, match="bridge deals only"):
        get_scheme("pavlicek").unrank(lay.deck, lay.sizes, 0)


_PRESETS = [(g, p) for g in game_names() for p in GAMES[g].players]


@pytest.mark.parametrize("preset", _PRESETS, ids=lambda p: f"{p[0]}-{p[1]}")
@settings(max_examples=8, deadline=None)
@given(data=st.data())
def test_rank_unrank_round_trip_for_every_preset_and_scheme(
    preset: tuple[str, int], data: st.DataObject
) -> None:
    game, players = preset
    lay = make_layout(game, players=players)
    # The schemes number the piles' cards: numbers over the whole range [0, M) (hypothesis
    # also tries both ends).  The orders of the stacks are numbered on top of them.
    offset = data.draw(st.integers(0, lay.partitions - 1))
    for scheme_name in scheme_names():
        s = get_scheme(scheme_name)
        if s.bridge_only and not lay.bridge_like:
            continue
        number = s.base + offset
        owners = s.unrank(lay.deck, lay.sizes, number)
        assert [owners.count(i) for i in range(len(lay.sizes))] == list(lay.sizes)
        assert s.rank(lay.deck, lay.sizes, owners) == number
        # the deal's number: the piles' number times the stacks' orders, plus their code
        code = data.draw(st.integers(0, lay.arrangements - 1))
        whole = s.base + offset * lay.arrangements + code
        deal = deal_from_number(lay, whole, scheme_name)
        assert deal.owners() == owners and deal.stack_code() == code
        assert deal.number_in(scheme_name) == whole


@pytest.mark.parametrize("sizes", [(2, 2, 2), (1, 0, 3, 2), (3, 3), (4, 1, 1), (0, 6)])
def test_fast_unranker_agrees_with_the_reference_on_every_number(sizes: tuple[int, ...]) -> None:
    from croupier.dealing.deal import _FastUnranker, _piles_from_masks

    lay = make_layout(hands=list(sizes[:-1]), deck="stripped:AKQ")
    lay = make_layout(hands=list(sizes[:-1]), deck=list(lay.deck[: sum(sizes)]))
    assert lay.sizes == sizes
    fast = _FastUnranker(lay)
    seen = set()
    for number in range(lay.count):
        owners = subsets_unrank(number, sizes)
        want = tuple(
            tuple(c for c, o in zip(lay.deck, owners, strict=True) if o == i)
            for i in range(len(sizes))
        )
        assert fast.piles(number) == want
        assert _piles_from_masks(lay.deck, fast.masks_reference(number)) == want
        seen.add(want)
    assert len(seen) == lay.count


@pytest.mark.parametrize("game", ["bridge", "skat", "holdem", "pinochle"])
def test_the_compiled_masks_give_the_piles_of_the_plain_python_walk(game: str) -> None:
    # Random numbers and the first and last numbers of real layouts (bridge: 95-bit
    # numbers, 40-bit subset ranks).
    import random

    from croupier.dealing.deal import _FastUnranker, _piles_from_masks

    lay = croupier.layout(game)  # type: ignore[attr-defined]
    fast = _FastUnranker(lay)
    rng = random.Random(game)
    top = lay.count // lay.arrangements
    for number in [0, 1, top - 1, top // 3] + [rng.randrange(top) for _ in range(300)]:
        want = _piles_from_masks(lay.deck, fast.masks_reference(number))
        assert _piles_from_masks(lay.deck, fast.masks(number)) == want


def test_rank_rejects_bad_owner_sequences() -> None:
    with pytest.raises(RankingError, match="do not match"):
        subsets_rank([0, 0, 0, 1, 2, 2], SIZES_222)
    with pytest.raises(RankingError, match="positions"):
        sequence_rank([0, 1], SIZES_222)
    with pytest.raises(RankingError, match="must be an integer"):
        subsets_unrank("5", SIZES_222)  # type: ignore[arg-type]


def _forbid_guard_changes(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    def refuse(limit: int) -> None:
        raise AssertionError(f"sys.set_int_max_str_digits({limit}) called")

    monkeypatch.setattr(sys, "set_int_max_str_digits", refuse)


@pytest.mark.parametrize("digits", [1, 4300, 4301, 5000, 100_000])
def test_decimal_round_trips_huge_numbers_without_touching_the_guard(
    digits: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    import random
    import sys

    from croupier.ranking.partitions import decimal, parse_decimal

    before = sys.get_int_max_str_digits()
    _forbid_guard_changes(monkeypatch)
    rng = random.Random(digits)
    text = str(rng.randint(1, 9)) + "".join(rng.choice("0123456789") for _ in range(digits - 1))
    number = parse_decimal(text)
    assert decimal(number) == text and decimal(-number) == "-" + text
    assert parse_decimal("000" + text) == number
    # the value itself, checked with arithmetic only: the last and first digits
    assert number % 10 == int(text[-1]) and number // 10 ** (digits - 1) == int(text[0])
    assert sys.get_int_max_str_digits() == before


def test_decimal_works_under_the_smallest_guard_and_at_chunk_edges() -> None:
    import sys

    from croupier.ranking.partitions import decimal, decimal_json, parse_decimal

    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(640)  # the smallest guard Python allows
    try:
        for number in [0, 7, 10**639, 10**640 - 1, 10**640, 10**1000, 10**2000 + 1, 3**9000]:
            text = decimal(number)
            assert text[0] != "0" or number == 0
            assert parse_decimal(text) == number
            assert decimal_json({"n": [number]}) == '{"n": [' + text + "]}"
        assert decimal(10**2000) == "1" + "0" * 2000
    finally:
        sys.set_int_max_str_digits(old)


def test_a_thread_parsing_untrusted_text_keeps_its_guard_during_big_conversions() -> None:
    import sys
    import threading

    from croupier.ranking.partitions import decimal, parse_decimal

    big = 7**60_000  # about 50,700 digits
    guard = sys.get_int_max_str_digits()
    stop = threading.Event()
    refused: list[bool] = []

    def untrusted() -> None:
        while not stop.is_set():
            try:
                int("9" * 5000)
                refused.append(False)
            except ValueError:
                refused.append(True)

    worker = threading.Thread(target=untrusted)
    worker.start()
    try:
        for _ in range(5):
            assert parse_decimal(decimal(big)) == big
    finally:
        stop.set()
        worker.join()
    assert sys.get_int_max_str_digits() == guard
    assert refused and all(refused) == (0 < guard < 5000)
