"""Deterministic shuffles: the dealer's move's worked examples, every move against a hand model."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier import moves
from croupier.errors import CroupierError
from croupier.moves import (
    cut,
    cut_perm,
    dealers_move,
    dealers_move_perm,
    faro,
    faro_inverse,
    faro_perm,
    interweave,
    kway_faro,
    kway_faro_perm,
    milk,
    milk_perm,
    monge,
    monge_perm,
    pile_perm,
    pile_shuffle,
    randomize_list,
    randomize_list_perm,
    reverse,
    reverse_perm,
    riffle,
    riffle_perm,
    unfaro,
    unfaro_perm,
)
from croupier.perm import Permutation

# -------------------------------- dealer's move: cut at k (wrapping), then riffle


def test_dealers_move_worked_examples() -> None:
    assert cut([1, 2, 3, 4, 5, 6, 7, 8], 3) == [4, 5, 6, 7, 8, 1, 2, 3]
    assert cut(["Red", "Green", "Blue", "Black", "White"], 3) == [
        "Black",
        "White",
        "Red",
        "Green",
        "Blue",
    ]
    assert interweave([1, 2, 3], [4, 5, 6]) == [1, 4, 2, 5, 3, 6]
    assert riffle([1, 2, 3, 4, 5, 6]) == [1, 4, 2, 5, 3, 6]
    assert riffle([1, 2, 3, 4, 5]) == [1, 3, 2, 4, 5]
    assert dealers_move([1, 2, 3, 4, 5, 6], 2) == [3, 6, 4, 1, 5, 2]
    assert randomize_list([1, 2, 3, 4, 5, 6, 7, 9, 10], [2, 5]) == [10, 3, 6, 7, 1, 4, 2, 9, 5]
    # three moves, cuts 2, 4 and 3
    assert randomize_list([1, 2, 3, 4, 5, 6], [2, 4, 3]) == [4, 5, 3, 6, 1, 2]
    # List.Extra.splitAt 3 [10..15], glued back in the other order, is the cut
    assert cut([10, 11, 12, 13, 14, 15], 3) == [13, 14, 15, 10, 11, 12]


def _elm_split_at(k: int, xs: list[Any]) -> tuple[list[Any], list[Any]]:
    k = max(0, k)
    return xs[:k], xs[k:]


def _elm_interweave(a: list[Any], b: list[Any]) -> list[Any]:
    out: list[Any] = []
    a, b = list(a), list(b)
    while a and b:
        out += [a.pop(0), b.pop(0)]
    return out + a + b


def _elm_cut(j: int, xs: list[Any], wrap: bool = True) -> list[Any]:
    k = j % len(xs) if xs else 0  # Elm's modBy
    a, b = _elm_split_at(k if wrap else j, xs)
    return b + a


def test_cut_wraps_around_and_a_cut_without_the_wrap_differs() -> None:
    deck = list(range(1, 7))
    # The cut takes k modulo the deck size; croupier agrees with that on every cut ...
    for k in range(-12, 13):
        assert cut(deck, k) == _elm_cut(k, deck)
    # ... while a cut that splits at k unreduced does nothing for a cut of n + 2.
    assert _elm_cut(8, deck, wrap=False) == deck
    assert cut(deck, 8) == cut(deck, 2) == [3, 4, 5, 6, 1, 2]
    # With cuts below n both give the same worked examples.

    def unwrapped_randomize(ks: list[int], xs: list[Any]) -> list[Any]:
        for k in ks:
            xs = _elm_cut(k, xs, wrap=False)
            half = len(xs) // 2
            xs = _elm_interweave(xs[:half], xs[half:])
        return xs

    for ks, xs, printed in (
        ([2], [1, 2, 3, 4, 5, 6], [3, 6, 4, 1, 5, 2]),
        ([2, 5], [1, 2, 3, 4, 5, 6, 7, 9, 10], [10, 3, 6, 7, 1, 4, 2, 9, 5]),
        ([2, 4, 3], [1, 2, 3, 4, 5, 6], [4, 5, 3, 6, 1, 2]),
    ):
        assert unwrapped_randomize(ks, xs) == printed == randomize_list(xs, ks)
    assert unwrapped_randomize([8], deck) != randomize_list(deck, [8])


@settings(max_examples=150)
@given(st.lists(st.integers(), max_size=20), st.lists(st.integers(-30, 30), max_size=6))
def test_dealers_moves_match_an_elm_style_reference(deck: list[int], ks: list[int]) -> None:
    def ref_shuffle(xs: list[Any]) -> list[Any]:
        a, b = _elm_split_at(len(xs) // 2, xs)
        return _elm_interweave(a, b)

    state = list(deck)
    for k in ks:
        expected = ref_shuffle(_elm_cut(k, state))
        assert dealers_move(state, k) == expected
        state = expected
    assert randomize_list(deck, ks) == state


@settings(max_examples=100)
@given(st.lists(st.integers(), max_size=15), st.lists(st.integers(), max_size=15))
def test_interweave_matches_reference(a: list[int], b: list[int]) -> None:
    assert interweave(a, b) == _elm_interweave(a, b)


# ------------------------------- perfect shuffle: halves interlaced, top stays


def _perfect_shuffle_by_formula(arr: list[Any]) -> list[Any]:
    """Out-shuffle of an even deck: card ``x`` goes to ``2x`` (top half) or ``2x - 2N + 1``."""
    n = len(arr) // 2
    ret: list[Any] = [None] * len(arr)
    for i in range(n):
        ret[2 * i] = arr[i]
    for i in range(n, 2 * n):
        ret[2 * i - 2 * n + 1] = arr[i]
    return ret


def test_faro_out_matches_the_position_formula_loop() -> None:
    for n in range(0, 80, 2):
        deck = [object() for _ in range(n)]
        assert faro(deck, "out") == _perfect_shuffle_by_formula(deck)
        assert riffle(deck) == _perfect_shuffle_by_formula(deck)


def test_faro_out_moves_the_right_objects_on_ten_cards() -> None:
    a = [object() for _ in range(10)]
    b = faro(a, "out")
    assert a[0] is not a[1]
    assert a[0] is b[0]
    assert a[1] is b[2]
    assert a[5] is b[1]
    assert a[9] is b[9]


def test_eight_and_sixteen_out_shuffles_restore_52_cards() -> None:
    arr = [object() for _ in range(52)]
    shuffled = arr
    lines = []
    for i in range(16):
        shuffled = faro(shuffled, "out")
        same = all(x is y for x, y in zip(arr, shuffled, strict=True))
        lines.append(f"{i + 1}th: {'true' if same else 'false'}")
    expected = [f"{i}th: false" for i in range(1, 8)] + ["8th: true"]
    expected += [f"{i}th: false" for i in range(9, 16)] + ["16th: true"]
    assert lines == expected


def test_faro_position_formulas() -> None:
    for two_n in range(0, 60, 2):
        n = two_n // 2
        f_out = [2 * x if x < n else 2 * x - 2 * n + 1 for x in range(two_n)]
        f_in = [2 * x + 1 if x < n else 2 * x - 2 * n for x in range(two_n)]
        assert faro_perm(two_n, "out").positions().tolist() == f_out
        assert faro_perm(two_n, "in").positions().tolist() == f_in


def _physical_faro(deck: list[Any], mode: str) -> list[Any]:
    """Split so that the packet dropping first has the extra card, then alternate exactly."""
    n = len(deck)
    top_size = (n + 1) // 2 if mode == "out" else n // 2
    top, bottom = deque(deck[:top_size]), deque(deck[top_size:])
    first, second = (top, bottom) if mode == "out" else (bottom, top)
    out: list[Any] = []
    while first or second:
        out.append(first.popleft())
        if second:
            out.append(second.popleft())
    assert not first and not second
    return out


@pytest.mark.parametrize("mode", ["out", "in"])
def test_faro_any_size_is_a_perfect_interlacing(mode: str) -> None:
    for n in range(40):
        deck = list(range(n))
        out = faro(deck, mode)
        assert out == _physical_faro(deck, mode)
        assert unfaro(out, mode) == deck
        assert faro_inverse(out, mode) == deck
        assert unfaro_perm(n, mode) == faro_perm(n, mode).inverse()
        if n % 2 and mode == "out":
            assert out[0] == 0  # top stays
            assert faro_perm(n, "out").positions().tolist() == [(2 * x) % n for x in range(n)]
        if n % 2 and mode == "in":
            assert out[-1] == n - 1  # bottom stays
            assert faro_perm(n, "in").positions().tolist() == [(2 * x + 1) % n for x in range(n)]


# ------------------------------------------------- the other moves, simulated


def _sim_monge(deck: list[Any]) -> list[Any]:
    pile: deque[Any] = deque()
    for i, card in enumerate(deck):
        if i % 2:
            pile.appendleft(card)  # above
        else:
            pile.append(card)  # below (the first card just starts the pile)
    return list(pile)


def _sim_milk(deck: list[Any]) -> list[Any]:
    hand = deque(deck)
    pile: list[Any] = []  # pile[0] is the top
    while hand:
        pair = [hand.popleft()]
        if hand:
            pair.append(hand.pop())
        pile = pair + pile
    return pile


def _sim_piles(deck: list[Any], p: int, order: Sequence[int] | None) -> list[Any]:
    piles: list[list[Any]] = [[] for _ in range(p)]  # each pile listed top first
    for i, card in enumerate(deck):
        piles[i % p].insert(0, card)
    out: list[Any] = []
    for j in order if order is not None else range(p):
        out += piles[j]
    return out


def _sim_kway(deck: list[Any], k: int, mode: str) -> list[Any]:
    n = len(deck)
    q, r = divmod(n, k)
    if mode == "out":
        sizes = [q + 1 if j < r else q for j in range(k)]
    else:
        sizes = [q + 1 if j >= k - r else q for j in range(k)]
    packets, pos = [], 0
    for s in sizes:
        packets.append(deque(deck[pos : pos + s]))
        pos += s
    turn = packets if mode == "out" else packets[::-1]
    out: list[Any] = []
    while any(turn):
        for packet in turn:
            if packet:
                out.append(packet.popleft())
    return out


def test_monge_milk_reverse_match_simulations() -> None:
    for n in range(30):
        deck = [f"c{i}" for i in range(n)]
        assert monge(deck) == _sim_monge(deck)
        assert milk(deck) == _sim_milk(deck)
        assert reverse(deck) == deck[::-1]
    assert monge(list(range(1, 9))) == [8, 6, 4, 2, 1, 3, 5, 7]
    assert milk(list(range(1, 9))) == [4, 5, 3, 6, 2, 7, 1, 8]


def test_pile_shuffle_matches_simulation() -> None:
    for n in range(25):
        deck = list(range(n))
        for p in range(1, 8):
            assert pile_shuffle(deck, p) == _sim_piles(deck, p, None)
            order = list(range(p))[::-1]
            assert pile_shuffle(deck, p, order) == _sim_piles(deck, p, order)


def test_kway_faro_matches_simulation_and_generalises_faro() -> None:
    for n in range(30):
        deck = list(range(n))
        for k in range(1, 7):
            for mode in ("out", "in"):
                assert kway_faro(deck, k, mode) == _sim_kway(deck, k, mode)
        assert kway_faro(deck, 2) == faro(deck, "out")
        assert kway_faro(deck, 2, "in") == faro(deck, "in")
        assert kway_faro(deck, 1) == deck


def test_riffle_leaves_at_most_two_rising_sequences() -> None:
    for n in range(60):
        assert riffle_perm(n).rising_sequences() <= 2
        assert faro_perm(n, "in").rising_sequences() <= 2


# ------------------------------------------------ functions vs permutations

CASES: list[tuple[Callable[..., list[Any]], Callable[..., Permutation], tuple[Any, ...]]] = [
    (cut, cut_perm, (3,)),
    (cut, cut_perm, (-7,)),
    (riffle, riffle_perm, ()),
    (dealers_move, dealers_move_perm, (2,)),
    (randomize_list, randomize_list_perm, ([2, 5, -1],)),
    (faro, faro_perm, ("out",)),
    (faro, faro_perm, ("in",)),
    (unfaro, unfaro_perm, ("in",)),
    (monge, monge_perm, ()),
    (milk, milk_perm, ()),
    (reverse, reverse_perm, ()),
    (pile_shuffle, pile_perm, (4,)),
    (kway_faro, kway_faro_perm, (3,)),
    (kway_faro, kway_faro_perm, (3, "in")),
]


@pytest.mark.parametrize(("fn", "perm", "args"), CASES)
def test_function_and_permutation_forms_agree(
    fn: Callable[..., list[Any]], perm: Callable[..., Permutation], args: tuple[Any, ...]
) -> None:
    for n in (*range(12), 53, 100, 101):
        deck = [f"x{i}" for i in range(n)]
        snapshot = list(deck)
        out = fn(deck, *args)
        assert deck == snapshot  # input untouched
        assert isinstance(out, list)
        assert out == perm(n, *args).apply(deck)
        assert sorted(out) == sorted(deck)
    # tuples and strings come back as lists
    assert fn(tuple("abcde"), *args) == fn(list("abcde"), *args)
    assert fn("abcde", *args) == fn(list("abcde"), *args)


@pytest.mark.parametrize(("fn", "perm", "args"), CASES)
def test_empty_and_one_card(
    fn: Callable[..., list[Any]], perm: Callable[..., Permutation], args: tuple[Any, ...]
) -> None:
    assert fn([], *args) == []
    assert fn(["only"], *args) == ["only"]
    assert perm(0, *args).is_identity()
    assert interweave([], []) == []


def test_bad_arguments_raise_one_line_croupier_errors() -> None:
    for call in (
        lambda: faro([1, 2], "sideways"),
        lambda: pile_shuffle([1, 2], 0),
        lambda: pile_shuffle([1, 2], 2, order=[0, 0]),
        lambda: kway_faro([1, 2], 0),
        lambda: cut_perm(-1, 2),
    ):
        with pytest.raises(CroupierError) as info:
            call()
        assert "\n" not in str(info.value)


def test_stable_public_names_exist() -> None:
    for name in [
        "cut",
        "interweave",
        "riffle",
        "dealers_move",
        "randomize_list",
        "faro",
        "unfaro",
        "faro_inverse",
        "monge",
        "milk",
        "reverse",
        "pile_shuffle",
        "kway_faro",
    ]:
        assert callable(getattr(moves, name))


def test_more_piles_or_packets_than_cards_act_like_one_per_card() -> None:
    # Piles/packets beyond the n-th stay empty, so a huge count costs nothing.
    for n in range(8):
        deck = list(range(n))
        for extra in (n + 1, n + 5, 10**18):
            assert pile_shuffle(deck, extra) == _sim_piles(deck, max(n, 1), None)
            for mode in ("out", "in"):
                assert kway_faro(deck, extra, mode) == _sim_kway(deck, max(n, 1), mode)
        assert pile_shuffle(deck, 10**18) == deck  # one card per pile, pile 0 on top
        assert kway_faro(deck, 10**18, "in") == deck[::-1]
        assert kway_faro(deck, 10**18, "out") == deck
