"""Stacks: piles dealt in order, top first (a stock, a pond, War's piles, the euchre kitty).

Exactness is checked exactly: every method and both engines give every ordered outcome
of small layouts probability exactly ``1 / (M · ∏ k!)`` (decision trees walked with exact
fractions; the bulk engine's code replayed on every possible input).  Deal numbers are a
bijection that includes the orders (exhaustively on small layouts).  On large runs the
place of a card inside a stack is checked with chi-square tests (fixed seeds; each test's
false-alarm rate is at most 1e-6 per statistic).  Golden vectors pin ``croupier-deal/3``
and ``croupier-bulk/2``, and a second implementation of ``croupier-bulk/2`` written from
docs/reproducibility.md checks the vectorised code.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from fractions import Fraction
from itertools import permutations
from math import comb, factorial, log2
from typing import Any

import numpy as np
import pytest
from scipy.stats import chisquare

import croupier
from croupier.bulk import BulkDealer, DealArray, DealArrayError
from croupier.bulk.array import card_dtype
from croupier.bulk.digits import accepted_digits, digit_plan
from croupier.bulk.stacks import order_into, stack_plan
from croupier.bulk.unrank import unrank_with_masks
from croupier.cards import Card, parse_cards
from croupier.dealing import GAMES, METHODS, Layout, deal_from_number, deal_many, make_layout
from croupier.dealing.deal import deal_from_piles
from croupier.dealing.methods import DealMethod, Dealt
from croupier.deck import Deck
from croupier.errors import LayoutError
from croupier.formats.deal_text import format_deal_piles, parse_deal_piles
from croupier.randomness import (
    SeededSource,
    UniformSampler,
    exact_distribution,
    exact_distribution_truncated,
    make_source,
)
from croupier.ranking.partitions import multinomial, subsets_unrank
from croupier.ranking.schemes import get_scheme
from croupier.ranking.stacks import order_code, order_from_code, stacks_from_code
from tests.conftest import VECTORS, CliRunner
from tests.test_deal_methods import _interval_exact

# (sizes, stacks): small layouts with a stack, or two
SMALL = [
    ((1, 3), (1,)),
    ((2, 2), (0, 1)),
    ((1, 2, 2), (2,)),
    ((2, 1, 2), (0, 2)),
    ((3, 2), (0,)),
    ((1, 1, 3), (2,)),
]


def _ordered_outcomes(sizes: tuple[int, ...], stacks: tuple[int, ...]) -> set[Any]:
    """Every ordered deal, found independently: every order of the deck, cut into piles."""
    found = set()
    n = sum(sizes)
    for order in permutations(range(n)):
        owners = [0] * n
        orders: dict[int, list[int]] = {}
        start = 0
        for pile, k in enumerate(sizes):
            part = list(order[start : start + k])
            for pos in part:
                owners[pos] = pile
            if pile in stacks and k > 1:
                orders[pile] = part
            start += k
        found.add(Dealt(owners, orders, None).key())
    return found


def _count(sizes: tuple[int, ...], stacks: tuple[int, ...]) -> int:
    total = multinomial(sizes)
    for i in stacks:
        total *= factorial(sizes[i])
    return total


# -- exactness of every method -------------------------------------------------------------

FINITE = ["optimal", "block", "round-robin", "proportional", "fraction"]


@pytest.mark.parametrize("name", FINITE)
@pytest.mark.parametrize(("sizes", "stacks"), SMALL)
def test_every_ordered_outcome_is_exactly_equally_likely(
    name: str, sizes: tuple[int, ...], stacks: tuple[int, ...]
) -> None:
    method = METHODS[name]
    dist = exact_distribution(lambda ch: method.deal(sizes, ch, stacks).key())
    total = _count(sizes, stacks)
    assert set(dist) == _ordered_outcomes(sizes, stacks)
    assert len(dist) == total
    assert set(dist.values()) == {Fraction(1, total)}


def _orders_given(
    method: DealMethod, owners: list[int], sizes: tuple[int, ...], stacks: Any
) -> Any:
    """The exact distribution of ``method``'s stack orders once its owners are ``owners``."""
    fixed = DealMethod(method.name, lambda s, ch: (list(owners), None), method.summary)
    return exact_distribution(lambda ch: fixed.deal(sizes, ch, stacks).key())


@pytest.mark.parametrize("name", ["interval", "arithmetic"])
@pytest.mark.parametrize(("sizes", "stacks"), SMALL)
def test_coin_flip_methods_are_exactly_uniform_with_stacks(
    name: str, sizes: tuple[int, ...], stacks: tuple[int, ...]
) -> None:
    """Their trees are infinite: the owners' exact distribution (retries conditioned away for
    interval; floor(x·M) for arithmetic, tested in test_deal_methods) times the exact
    distribution of the orders drawn after them."""
    method = METHODS[name]
    assert method.ordered is None  # the owners, then one draw below ∏ k!
    m = multinomial(sizes)
    if name == "interval":
        owners_dist = _interval_exact(sizes)
    else:
        owners_dist = {o: Fraction(1, m) for o, _ in _ordered_outcomes(sizes, ())}
    joint: dict[Any, Fraction] = {}
    for owners, p in owners_dist.items():
        for outcome, q in _orders_given(method, list(owners), sizes, stacks).items():
            joint[outcome] = joint.get(outcome, Fraction(0)) + p * q
    total = _count(sizes, stacks)
    assert set(joint) == _ordered_outcomes(sizes, stacks)
    assert set(joint.values()) == {Fraction(1, total)}
    # and the real method, walked as far as it goes: never more than its share
    done, unfinished = exact_distribution_truncated(
        lambda ch: method.deal(sizes, ch, stacks).key(), 14
    )
    assert all(p <= Fraction(1, total) for p in done.values())
    assert sum(done.values()) + unfinished == 1 and unfinished < Fraction(1, 2)


@pytest.mark.parametrize("name", list(METHODS))
def test_without_stacks_every_method_draws_what_it_drew_before(name: str) -> None:
    """Stacks of one card (or none) are sets: the owners' draws, draw for draw."""
    for sizes, stacks in [((2, 2, 2), ()), ((2, 1, 3), (1,)), ((3, 3), (5,))]:
        stacks = tuple(i for i in stacks if i < len(sizes))
        a = METHODS[name].deal(sizes, UniformSampler(SeededSource("same", "deal")), stacks)
        owners, number = METHODS[name].run(sizes, UniformSampler(SeededSource("same", "deal")))
        assert a == Dealt(owners, {}, number)


# -- exactness of the bulk engine: every input replayed through its code -------------------


def _bulk_replay(layout: Layout) -> Counter[Any]:
    """Every pair of bytes (the piles' digit, the stacks' digit) through the vectorised code."""
    plan = digit_plan(layout.sizes)
    splan = stack_plan(tuple((i, layout.piles[i].size) for i in layout.stack_piles))
    assert plan.row_bytes == 1 and splan.digits.row_bytes == 1
    values = np.arange(256, dtype=np.uint8)
    main = np.repeat(values, 256).reshape(-1, 1)
    stack = np.tile(values, 256).reshape(-1, 1)
    digits, rejected = accepted_digits(main, plan)
    sdigits, srejected = accepted_digits(stack, splan.digits)
    keep = ~rejected.any(axis=1) & ~srejected.any(axis=1)
    piles, _ = unrank_with_masks(digits[:, keep], layout.sizes)
    python, _ = unrank_with_masks(digits[:, keep], layout.sizes, "python")
    assert np.array_equal(piles, python)  # the compiled core is the plain-Python rule
    width = sum(k for _, k in splan.stacks)
    ordered = np.zeros((len(piles), width), card_dtype(layout))
    order_into(piles, layout.sizes, sdigits[:, keep], splan, ordered)
    again = np.zeros_like(ordered)
    order_into(piles, layout.sizes, sdigits[:, keep], splan, again, engine="python")
    assert np.array_equal(again, ordered)  # both put every stack in the same order
    starts = np.cumsum([0, *(k for _, k in splan.stacks)]).tolist()
    outcomes: Counter[Any] = Counter()
    for row in range(len(piles)):
        key = (tuple(piles[row].tolist()),)
        key += tuple(
            tuple(ordered[row, starts[s] : starts[s + 1]].tolist())
            for s in range(len(splan.stacks))
        )
        outcomes[key] += 1
    return outcomes


@pytest.mark.parametrize(
    ("hands", "stacks"), [([1], ("stock",)), ([2], ("P1", "stock")), ([2], ("stock",))]
)
def test_bulk_engine_gives_every_ordered_outcome_equally_often(
    hands: list[int], stacks: tuple[str, ...]
) -> None:
    layout = make_layout(hands=hands, deck="stripped:A").with_stacks(*stacks)
    counts = _bulk_replay(layout)
    assert len(counts) == layout.count
    assert len(set(counts.values())) == 1  # every outcome equally often
    # and the outcomes are every ordered deal of the layout
    sizes = layout.sizes
    expected = _ordered_outcomes(sizes, layout.stack_piles)
    got = set()
    for key in counts:
        owners, *orders = key
        got.add(
            Dealt(
                list(owners), dict(zip(layout.stack_piles, map(list, orders), strict=True)), None
            ).key()
        )
    assert got == expected


# -- deal numbers: a bijection that includes the orders -----------------------------------


@pytest.mark.parametrize(
    "layout",
    [
        make_layout(hands=[1], deck="stripped:A").with_stacks("stock"),
        make_layout(hands=[2], deck="stripped:A").with_stacks("P1", "stock"),
        make_layout(hands=[1, 2], deck=parse_cards("AS KS AH KH AD KD")).with_stacks("P2", "stock"),
        make_layout("war", deck=parse_cards("AS KS QS AH KH QH"), hands=[3, 3]),
        make_layout("euchre", deck=parse_cards("AS KS AH KH AD KD"), hands=[1, 1, 1]),
    ],
    ids=["1+3", "2+2", "1+2+3", "war-6", "euchre-6"],
)
def test_rank_and_unrank_are_a_bijection_on_small_layouts(layout: Layout) -> None:
    seen = set()
    for number in range(layout.count):
        deal = deal_from_number(layout, number)
        assert deal.number == number
        again = deal_from_piles(layout, deal.piles)  # from the cards, orders as given
        assert again.number == number and again == deal
        assert parse_deal_piles(layout, format_deal_piles(deal)).number == number
        for scheme in ("sequence",):
            assert deal_from_number(layout, deal.number_in(scheme), scheme) == deal
        seen.add(deal.piles)
    assert len(seen) == layout.count
    distinct = {
        tuple(
            tuple(part) if layout.piles[i].ordered else frozenset(part)
            for i, part in enumerate(_cut(order, layout.sizes))
        )
        for order in permutations(layout.deck)
    }
    assert len(distinct) == layout.count


def _cut(order: tuple[Card, ...], sizes: tuple[int, ...]) -> list[tuple[Card, ...]]:
    out, start = [], 0
    for k in sizes:
        out.append(order[start : start + k])
        start += k
    return out


def test_the_number_is_the_piles_number_times_the_orders_plus_the_code() -> None:
    layout = make_layout("euchre")
    assert layout.count == layout.partitions * factorial(4)
    deal = deal_from_number(layout, 10**12 + 17)
    high, code = divmod(10**12 + 17, 24)
    assert deal.owners() == subsets_unrank(high, layout.sizes, "lex")
    kitty = [c for c in layout.deck if c in deal.remainder]  # in deck order
    assert [kitty[i] for i in order_from_code(code, 4)] == deal.remainder
    assert deal.stack_code() == code
    with pytest.raises(croupier.CroupierError, match="out of range"):
        deal_from_number(layout, layout.count)
    # schemes other than croupier number the piles' cards, and the code is appended
    s = get_scheme("sequence")
    assert (
        deal.number_in("sequence") == s.rank(layout.deck, layout.sizes, deal.owners()) * 24 + code
    )


def test_stack_codes_are_a_bijection() -> None:
    for k in range(6):
        codes = {order_code(order_from_code(c, k)) for c in range(factorial(k))}
        assert codes == set(range(factorial(k)))
        assert {tuple(order_from_code(c, k)) for c in range(factorial(k))} == set(
            permutations(range(k))
        )
    assert stacks_from_code(0, (3, 2)) == [[0, 1, 2], [0, 1]]


# -- presets, layouts and the algorithm ids -------------------------------------------------


def test_presets_say_which_piles_are_stacks() -> None:
    def stacks(game: str, players: int | None = None) -> list[str]:
        lay = make_layout(game, players=players)
        return [lay.piles[i].name for i in lay.stack_piles]

    assert stacks("war") == ["P1", "P2"]
    assert stacks("ratscrew", 3) == ["P1", "P2", "P3"]
    assert stacks("go-fish", 4) == ["pond"] and stacks("draw") == ["stock"]
    assert stacks("holdem") == ["stock"] and stacks("omaha") == ["stock"]
    assert stacks("gin") == ["stock"] and stacks("cribbage", 3) == ["stock"]
    assert stacks("euchre") == ["kitty"] and stacks("pinochle", 2) == ["stock"]
    for game in ("bridge", "whist", "spades", "hearts", "skat"):
        assert stacks(game) == [], game
    assert stacks("pinochle", 3) == [] and stacks("pinochle") == []
    holdem = make_layout("holdem-burn", players=2)
    assert [p.name for p in holdem.piles] == [
        "P1", "P2", "burn1", "flop", "burn2", "turn", "burn3", "river", "stock"
    ]  # fmt: skip
    assert make_layout("go-fish", players=3).sizes[0] == 7
    assert make_layout("go-fish", players=4).sizes[0] == 5
    assert make_layout("war", hands=[20, 20]).stack_piles == (0, 1)  # hands= keeps them stacks


@pytest.mark.parametrize("game", list(GAMES))
def test_the_id_names_the_deals_of_layouts_with_stacks(game: str) -> None:
    lay = make_layout(game)
    deal = croupier.deal(lay, seed="ids")
    array = croupier.deal_array(lay, 2, seed="ids")
    if lay.ordered:
        assert deal.algorithm == "croupier-deal/3" and array[0].algorithm == "croupier-bulk/2"
    else:
        assert deal.algorithm == "croupier-deal/2" and array[0].algorithm == "croupier-bulk/1"
    assert lay.count == lay.partitions * lay.arrangements


def test_layouts_gain_and_lose_stacks() -> None:
    lay = make_layout(hands=[7, 7])
    assert not lay.ordered and lay.with_stacks("stock").ordered
    assert lay.with_stacks("stock").without_stacks() == lay
    with pytest.raises(LayoutError, match="no pile 'pond'"):
        lay.with_stacks("pond")
    assert not make_layout("bridge").with_stacks("N").bridge_like  # PBN cannot hold an order


# -- statistics on large runs ---------------------------------------------------------------


def _places(stack: np.ndarray) -> np.ndarray:
    """For every card of a stack, its place among the stack's cards in deck order."""
    return np.argsort(np.argsort(stack, axis=1), axis=1)


@pytest.mark.parametrize(
    ("game", "pile"), [("go-fish", "pond"), ("euchre", "kitty"), ("war", "P1")]
)
def test_card_places_in_a_stack_are_uniform_bulk(game: str, pile: str) -> None:
    """Chi-square: the card at a stack position is any of the stack's cards equally often, and
    any card of the deck equally often (fixed seed; each p-value's false alarm rate 1e-6)."""
    deals = croupier.deal_array(game, 120_000, seed=f"stack places {game}")
    stack = deals.stack(pile)
    k = stack.shape[1]
    places = _places(stack)
    for position in sorted({0, 1, k // 2, k - 1}):
        counts = np.bincount(places[:, position], minlength=k)
        assert chisquare(counts).pvalue > 1e-6, (game, position)
        cards = np.bincount(stack[:, position], minlength=len(deals.layout.deck))
        assert chisquare(cards).pvalue > 1e-6, (game, position)


def test_card_places_in_a_stack_are_uniform_deal_engine() -> None:
    """The same for the deal engine (optimal and block), on the euchre kitty (4! orders)."""
    lay = make_layout("euchre")
    for method in ("optimal", "block", "proportional"):
        src = make_source(seed=f"kitty places {method}", purpose="deal")
        orders = Counter(
            tuple(sorted(d.remainder, key=lay.index).index(c) for c in d.remainder)
            for d in deal_many(lay, 24_000, method=method, source=src)
        )
        assert len(orders) == 24
        assert chisquare(list(orders.values())).pvalue > 1e-6, method


# -- bits: the fewest, log2 of the ordered outcomes -----------------------------------------


@pytest.mark.parametrize(("game", "players"), [("go-fish", 4), ("holdem", 6), ("euchre", 4)])
def test_optimal_spends_log2_of_the_ordered_outcomes(game: str, players: int) -> None:
    lay = make_layout(game, players=players)
    src = make_source(seed="stack bits", purpose="deal")
    deals = list(deal_many(lay, 400, source=src))
    mean = sum(d.bits_used for d in deals) / len(deals)
    bound = log2(lay.count)
    assert bound > log2(lay.partitions) + 1
    assert bound - 0.5 < mean < bound + 1.0


# -- the deal engine: golden vectors --------------------------------------------------------

GOLDEN_V3 = json.loads((VECTORS / "deal_golden_v3.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", GOLDEN_V3["cases"], ids=lambda c: c["seed"])
def test_golden_deals_of_layouts_with_stacks(case: dict[str, Any]) -> None:
    assert GOLDEN_V3["algorithm"] == "croupier-deal/3"
    lay = make_layout(case["game"], players=case["players"])
    src = make_source(seed=case["seed"], purpose=case["purpose"])
    deals = list(deal_many(lay, case["count"], method=case["method"], source=src))
    for got, want in zip(deals, case["deals"], strict=True):
        assert got.algorithm == "croupier-deal/3"
        assert [" ".join(c.code for c in p) for p in got.piles] == want["piles"]
        assert str(got.number) == want["number"] and got.bits_used == want["bits_used"]
        # the number and the piles agree, by the reference unranking and the stack codes
        high, code = divmod(int(want["number"]), lay.arrangements)
        owners = subsets_unrank(high, lay.sizes, "lex")
        sizes = [lay.piles[i].size for i in lay.stack_piles]
        perms = dict(zip(lay.stack_piles, stacks_from_code(code, sizes), strict=True))
        for i, text in enumerate(want["piles"]):
            cards = [c for c, o in zip(lay.deck, owners, strict=True) if o == i]
            if i in perms:
                cards = [cards[place] for place in perms[i]]
            assert " ".join(c.code for c in cards) == text
    if case["method"] == "optimal":  # one draw below M · ∏ k!
        fresh = UniformSampler(make_source(seed=case["seed"], purpose="deal"))
        assert str(fresh.below(lay.count)) == case["deals"][0]["number"]
    # the top-level API and the command line deal the same
    api = list(croupier.deals(lay, case["count"], seed=case["seed"], method=case["method"]))
    assert [str(d.number) for d in api] == [d["number"] for d in case["deals"]]


def test_golden_deals_match_the_cli(cli: CliRunner) -> None:
    case = GOLDEN_V3["cases"][1]  # hold'em, two deals
    args = ["deal", case["game"], "--players", str(case["players"]), "--seed", case["seed"]]
    out = cli([*args, "--count", "2", "--engine", "deal", "--json"]).out
    result = json.loads(out)["result"]
    assert [d["number"] for d in result] == [d["number"] for d in case["deals"]]
    assert result[0]["remainder"] == case["deals"][0]["piles"][-1].split()  # top first
    assert json.loads(out)["algorithm"] == "croupier-deal/3"


# -- the bulk engine: golden vectors and the written rule ------------------------------------

GOLDEN_BULK = json.loads((VECTORS / "bulk_v2.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", GOLDEN_BULK["cases"], ids=lambda c: c["game"])
def test_golden_bulk_deals_of_layouts_with_stacks(case: dict[str, Any]) -> None:
    assert GOLDEN_BULK["algorithm"] == ["croupier-bulk/2"]
    lay = make_layout(case["game"], players=case["players"])
    rows = case["rows"]
    got = croupier.deal_array(
        case["game"], len(rows), players=case["players"], seed=case["seed"], start=case["start"]
    )
    assert got[0].algorithm == "croupier-bulk/2"
    for r, want in enumerate(rows):
        assert "".join(map(str, got.piles[r].tolist())) == want["piles"]
        for name, text in want["stacks"].items():
            assert " ".join(lay.deck[c].code for c in got.stack(name)[r].tolist()) == text
        assert int(got.bits[r]) == want["bits"]  # type: ignore[index]
    spec = spec_bulk_v2(case["seed"], lay, case["start"], len(rows))
    assert [s[0] for s in spec] == [list(map(int, w["piles"])) for w in rows]
    for (_, stacks), want in zip(spec, rows, strict=True):
        assert [" ".join(lay.deck[c].code for c in s) for s in stacks] == list(
            want["stacks"].values()
        )


def spec_bulk_v2(seed: str, layout: Layout, start: int, count: int) -> list[Any]:
    """Deals ``start .. start + count - 1`` of croupier-bulk/2, by the written rule, in plain
    Python (docs/reproducibility.md §5): the piles as croupier-bulk/1, then the stacks."""
    key = SeededSource(seed, purpose="croupier-bulk/1").bits(256).to_bytes(32, "big")
    skey = hashlib.shake_128(key + b"derive:croupier-bulk/2 stacks").digest(32)

    def width(c: int) -> int:
        w = 0 if c == 1 else 1
        while c > 1 and 64 * (256**w % c) > 256**w:
            w += 1
        return w

    left, ranges = sum(layout.sizes), []
    for k in layout.sizes:
        ranges.append(comb(left, k))
        left -= k
    radices = [
        layout.piles[i].size - j
        for i in layout.stack_piles
        for j in range(layout.piles[i].size - 1)
    ]
    chunks: list[list[int]] = [[]]
    product = 1
    for q in radices:
        if chunks[-1] and product * q > 2**56:
            chunks.append([])
            product = 1
        chunks[-1].append(q)
        product *= q
    chunk_ranges = [int(np.prod(c, dtype=object)) for c in chunks]

    def digits(k: bytes, rngs: list[int], block: int, t: int, before: int) -> list[int]:
        ws = [width(c) for c in rngs]
        row = sum(ws)
        main = hashlib.shake_128(k + b"main" + block.to_bytes(8, "big")).digest(4096 * row)
        retry = hashlib.shake_128(k + b"retry" + block.to_bytes(8, "big")).digest(1 << 16)
        pos = before  # the retry bytes the block's earlier deals used
        out, offset = [], t * row
        for c, w in zip(rngs, ws, strict=True):
            limit = 256**w - 256**w % c
            value = int.from_bytes(main[offset : offset + w], "big")
            offset += w
            while value >= limit:
                value = int.from_bytes(retry[pos : pos + w], "big")
                pos += w
            out.append(value % c)
        return out

    def used(k: bytes, rngs: list[int], block: int, t: int) -> int:
        """The retry bytes deals 0 .. t-1 of the block consumed."""
        ws = [width(c) for c in rngs]
        row = sum(ws)
        main = hashlib.shake_128(k + b"main" + block.to_bytes(8, "big")).digest(4096 * row)
        retry = hashlib.shake_128(k + b"retry" + block.to_bytes(8, "big")).digest(1 << 16)
        pos = 0
        for s in range(t):
            offset = s * row
            for c, w in zip(rngs, ws, strict=True):
                limit = 256**w - 256**w % c
                value = int.from_bytes(main[offset : offset + w], "big")
                offset += w
                while value >= limit:
                    value = int.from_bytes(retry[pos : pos + w], "big")
                    pos += w
        return pos

    out = []
    for i in range(start, start + count):
        block, t = divmod(i, 4096)
        number = 0
        pile_digits = digits(key, ranges, block, t, used(key, ranges, block, t))
        for d, c in zip(pile_digits, ranges, strict=True):
            number = number * c + d
        owners = subsets_unrank(number, layout.sizes, "lex")
        offsets: list[int] = []
        sdigits = digits(skey, chunk_ranges, block, t, used(skey, chunk_ranges, block, t))
        for value, chunk in zip(sdigits, chunks, strict=True):
            part = []
            for q in reversed(chunk):
                value, r = divmod(value, q)
                part.append(r)
            offsets += reversed(part)
        stacks, at = [], 0
        for p in layout.stack_piles:
            a = [pos for pos, o in enumerate(owners) if o == p]
            for j in range(len(a) - 1):
                jj = j + offsets[at + j]
                a[j], a[jj] = a[jj], a[j]
            at += len(a) - 1
            stacks.append(a)
        out.append((owners, stacks))
    return out


def test_bulk_engine_follows_the_written_rule_across_a_block() -> None:
    lay = make_layout("go-fish", players=2)
    spec = spec_bulk_v2("spec v2", lay, 4090, 10)
    for engine in ("compiled", "python"):
        got = BulkDealer(lay, seed="spec v2", engine=engine).rows(4090, 4100)
        assert got.piles.tolist() == [s[0] for s in spec]
        assert got.stack("pond").tolist() == [s[1][0] for s in spec]


def test_bulk_deals_are_prefix_stable_and_the_same_on_both_kernels() -> None:
    lay = make_layout("holdem", players=4)
    whole = BulkDealer(lay, seed="prefix v2").deal(5000)
    dealer = BulkDealer(lay, seed="prefix v2")
    parts = [dealer.deal(k) for k in (7, 4089, 904)]
    assert DealArray.concatenate(parts) == whole
    # the compiled kernels and the plain-Python rule: the same piles and the same orders
    assert BulkDealer(lay, seed="prefix v2", engine="python").deal(5000) == whole
    war = make_layout("war")
    compiled = BulkDealer(war, seed="war kernels", engine="compiled").deal(3000)
    assert compiled == BulkDealer(war, seed="war kernels", engine="python").deal(3000)
    assert whole.stack("stock").shape == (5000, 39)
    # the same piles as croupier-bulk/1 deals for the layout without stacks
    sets = BulkDealer(lay.without_stacks(), seed="prefix v2").deal(5000)
    assert np.array_equal(sets.piles, whole.piles)
    assert whole[3].number == whole.numbers()[3]


def test_deal_arrays_keep_the_stacks() -> None:
    lay = make_layout("war")
    deals = [deal_from_number(lay, n) for n in (0, 10**40, lay.count - 1)]
    array = DealArray.from_deals(deals)
    assert list(array) == deals and array.numbers() == [d.number for d in deals]
    assert array[1:].stack("P2").tolist() == [[lay.index(c) for c in d.piles[1]] for d in deals[1:]]
    assert DealArray.concatenate([array, array[:1]])[3] == deals[0]
    # a deal array made from the piles alone has its stacks in deck order
    plain = DealArray(lay, array.piles)
    assert plain[1].piles[0] == tuple(sorted(deals[1].piles[0], key=lay.index))
    assert plain != array
    with pytest.raises(DealArrayError, match="does not hold the cards"):
        DealArray(lay, array.piles, stacks={0: array.stack(1)})
    with pytest.raises(DealArrayError, match="no pile 'nowhere'"):
        array.stack("nowhere")
    with pytest.raises(DealArrayError, match="not a stack"):
        DealArray.from_deals([deal_from_number(make_layout("bridge"), 0)]).stack(0)


def test_big_decks_take_the_exact_path_with_stacks() -> None:
    lay = make_layout(hands=[40, 40], deck="shoe:2").with_stacks("P2", "stock")
    got = BulkDealer(lay, seed="wide v2").deal(3)
    spec = spec_bulk_v2("wide v2", lay, 0, 3)
    assert got.piles.tolist() == [s[0] for s in spec]
    assert got.stack(1).tolist() == [s[1][0] for s in spec]
    assert got.stack("stock").tolist() == [s[1][1] for s in spec]


# -- output ----------------------------------------------------------------------------------


def test_text_shows_holdem_as_it_lies_on_the_table(cli: CliRunner) -> None:
    out = cli(["deal", "holdem", "--players", "6", "--seed", "table"]).out.splitlines()
    names = [line.split()[0] for line in out[1:]]
    assert names == ["P1", "P2", "P3", "P4", "P5", "P6", "flop", "turn", "river", "stock"]
    assert out[-1].split(None, 1)[1] == "35 cards, face down"
    shown = cli(["deal", "holdem", "--players", "6", "--seed", "table", "--show-stock"]).out
    stock = shown.splitlines()[-1].split()
    assert stock[0] == "stock" and stock[-2:] == ["(top", "first)"] and len(stock) == 38
    array = croupier.deal_array("holdem", 1, players=6, seed="table")
    assert parse_cards(" ".join(stock[1:-2])) == list(array[0].remainder)


def test_war_and_go_fish_show_their_stacks_top_first(cli: CliRunner) -> None:
    war = cli(["deal", "war", "--seed", "s", "--engine", "deal"]).out.splitlines()
    deal = croupier.deal("war", seed="s")
    for line, cards in zip(war[1:], deal.piles, strict=True):
        assert line.endswith("(top first)")
        assert parse_cards(" ".join(line.split()[1:-2])) == list(cards)
    assert deal.piles[0] != tuple(sorted(deal.piles[0], key=deal.layout.index))
    fish = croupier.deal("go-fish", players=4, seed="s")
    pond = json.loads(cli(["deal", "go-fish", "-p", "4", "--seed", "s", "--engine", "deal",
                           "--json"]).out)["result"][0]["remainder"]  # fmt: skip
    assert pond == [c.code for c in fish.remainder] and len(pond) == 32
    csv_row = cli(["deal", "go-fish", "-p", "4", "--seed", "s", "-f", "csv"]).out.splitlines()[1]
    bulk = croupier.deal_array("go-fish", 1, players=4, seed="s")[0]
    assert " ".join(c.code for c in bulk.remainder) in csv_row
    line = cli(["deal", "euchre", "--seed", "s", "-f", "oneline"]).out.splitlines()[0]
    kitty = croupier.deal_array("euchre", 1, seed="s")[0].remainder
    assert line.endswith("kitty " + " ".join(c.code for c in kitty))


def test_bridge_output_is_unchanged_by_stacks(cli: CliRunner) -> None:
    text = cli(["deal", "--seed", "README example", "--engine", "deal", "-f", "pbn-deal"]).out
    assert text.splitlines()[-1] == croupier.deal(seed="README example").pbn
    assert not make_layout("bridge").ordered and "stack" not in json.dumps(
        make_layout("bridge").pile_records()
    )


def test_notebook_shows_stacks_in_order() -> None:
    deal = croupier.deal("euchre", seed="notebook")
    page = deal._repr_html_()
    kitty = page[page.index("croupier-stack") :]
    where = [kitty.index(f'data-card="{c.code}"') for c in deal.remainder]
    assert where == sorted(where) and "top first" in kitty


def test_npz_keeps_the_stacks(tmp_path: Any) -> None:
    from croupier.bulk.writers.formats import write_npz

    deals = croupier.deal_array("gin", 50, seed="npz")
    path = tmp_path / "gin.npz"
    with path.open("wb") as out:
        write_npz(deals, out)
    with np.load(path) as z:
        assert np.array_equal(z["stacks"], deals.stack("stock"))
        assert json.loads(str(z["meta"]))["stacks"] == ["stock"]


# -- the stateful deck ----------------------------------------------------------------------


def test_a_deck_deals_a_layout_and_keeps_the_stock_in_order() -> None:
    deck = Deck(seed="gin night")
    deck.shuffle()
    before = deck.cards
    piles = deck.deal_layout(make_layout("gin"))
    assert [len(p) for p in piles.values()] == [10, 10, 1]
    assert piles["P1"] == list(before[0:20:2]) and piles["upcard"] == [before[20]]
    assert deck.cards == before[21:]  # the stock, top first, for drawing
    assert deck.draw() == before[21]


def test_dealing_a_layout_from_a_shuffled_deck_is_exactly_uniform() -> None:
    """Every order of a 5-card deck (a uniform shuffle) through deal_layout: every deal of the
    layout (a set of 2, a card, the stock in order) comes out equally often."""
    cards = parse_cards("AS KS QS JS TS")
    layout = make_layout(hands=[2, 1], deck=cards).with_stacks("stock")
    outcomes: Counter[Any] = Counter()
    for order in permutations(cards):
        deck = Deck(order)
        piles = deck.deal_layout(layout)
        outcomes[(frozenset(piles["P1"]), tuple(piles["P2"]), deck.cards)] += 1
    assert len(outcomes) == layout.count == 60
    assert set(outcomes.values()) == {2}
