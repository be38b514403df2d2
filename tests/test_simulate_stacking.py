"""Smart stacking: exactness proved by enumeration on small decks, statistics on bridge.

The proof: on layouts small enough to list every deal, the map from
``[0, W * R)`` to deals (:meth:`StackingSampler.deals_of`, which
:meth:`StackingSampler.rows` uses) gives distinct deals, each holding the
predealt cards and satisfying the stacked conjunct, and as many as a brute
force count of such deals over every deal of the layout (evaluated with the
vectorised evaluator).  So it is a bijection onto the support, and a uniform
number in ``[0, W * R)`` gives a uniform deal of the support.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import product
from math import comb

import numpy as np
import pytest
from scipy.stats import chi2_contingency, chisquare

from croupier.bulk import BulkDealer, BulkStream
from croupier.bulk import evaluate as bulk
from croupier.bulk.array import DealArray
from croupier.bulk.unrank import unrank_digits
from croupier.cards import Card, parse_cards
from croupier.dealing.evaluation import parse_shape
from croupier.dealing.layout import Layout, make_layout
from croupier.ranking.partitions import multinomial
from croupier.simulate import compile_expression, parse_expression
from croupier.simulate.ast import Binary, Expr, Shape
from croupier.simulate.predeal import Predeal
from croupier.simulate.sampler import RejectionSampler, Sampler
from croupier.simulate.stacking import (
    ImpossibleConditionError,
    StackingSampler,
    plan_stacking,
    uniform_below,
)
from croupier.simulate.stacking_factor import factor, features, stackable_seat
from croupier.simulate.stacking_plan import StackingLimitError, survey

# -- small layouts, every deal listed ---------------------------------------------------


@cache
def _layout(kind: str) -> Layout:
    if kind == "12":  # AKQ of each suit, N E S 4 cards each
        return make_layout(hands=[4, 4, 4], deck="stripped:AKQ", names=["N", "E", "S"])
    if kind == "16":  # AKQJ of each suit, N 4, S 4, a stock of 8
        return make_layout(hands=[4, 4], deck="stripped:AKQJ", names=["N", "S"])
    if kind == "12-copies":  # A K Q of spades and hearts, two copies of each: N E S 4 cards each
        cards = [c for c in parse_cards("AS KS QS AH KH QH")]
        deck = cards + [Card(c.rank, c.suit, 1) for c in cards]
        return make_layout(hands=[4, 4, 4], deck=deck, names=["N", "E", "S"])
    if kind == "16-2":  # N 4, the rest in one pile
        return make_layout(hands=[4], deck="stripped:AKQJ", names=["N"])
    if kind == "20":  # AKQJT of each suit, N 5, E 5, a stock of 10
        return make_layout(hands=[5, 5], deck="stripped:AKQJT", names=["N", "E"])
    raise AssertionError(kind)


@cache
def _every_deal(kind: str) -> DealArray:
    """Every deal of a small layout, by deal number (croupier scheme, mixed radix)."""
    layout = _layout(kind)
    sizes = layout.sizes
    numbers = np.arange(layout.count, dtype=np.int64)
    digits = []
    for p in range(len(sizes)):
        below = multinomial(sizes[p + 1 :]) if p + 1 < len(sizes) else 1
        digits.append((numbers // below).astype(np.uint64))
        numbers = numbers % below
    return DealArray(layout, unrank_digits(digits, sizes))


def _holds(deals: DealArray, predeal: Predeal) -> np.ndarray:
    ok = np.ones(len(deals), bool)
    for pile, cards in enumerate(predeal.hands):
        for card in cards:
            ok &= deals.piles[:, deals.layout.index(card)] == pile
    return ok


def _keys(deals: DealArray) -> np.ndarray:
    """One integer per deal (two bits a card: small layouts of at most 4 piles)."""
    key = np.zeros(len(deals), np.int64)
    for c in range(deals.piles.shape[1]):
        key |= deals.piles[:, c].astype(np.int64) << (2 * c)
    return key


def _expr(text: str, layout: Layout) -> Expr:
    """Parse; ``shape(seat, ...)`` terms whose patterns are for the small hands are spliced in."""
    if text.startswith("shape4:"):  # shape4:SEAT:PATTERN for 4-card hands
        _, seat, pattern = text.split(":", 2)
        return Shape(seat, parse_shape(pattern, cards=4))  # type: ignore[arg-type]
    return parse_expression(text)


def _prove(kind: str, cond: Expr, predeal_text: str | None, seat: str) -> StackingSampler:
    layout = _layout(kind)
    predeal = Predeal.parse(predeal_text, layout) if predeal_text else Predeal.none(layout)
    every = _every_deal(kind)
    held = _holds(every, predeal)
    passing = held & (compile_expression(cond)(every) != 0)
    brute = int(passing.sum())

    sampler = plan_stacking(cond, {}, {}, predeal, BulkStream.seeded("p"), worth_below=Fraction(1))
    assert sampler is not None
    assert sampler.seat == seat
    support = sampler.hand_count * sampler.rest_count
    assert support == brute > 0
    assert sampler.probability == Fraction(brute, int(held.sum()))

    image = sampler.deals_of(range(support))
    assert len(np.unique(_keys(image))) == support  # distinct
    assert _holds(image, predeal).all()
    assert (compile_expression(cond)(image) != 0).all()
    assert (image.counts() == np.array(layout.sizes)).all()
    return sampler


CASES = [
    ("hcp(north) >= 9 && hcp(north) <= 10", None, "N"),
    ("hcp(north) >= 11 && hcp(north) <= 12", "N:A... E:.K..", "N"),
    ("shape4:N:any 2110", None, "N"),
    ("spades(south) >= 2 && hcp(south, spades) >= 5", "S:Q... E:.A..", "S"),
    ("hascard(east, KH) && !hascard(east, AS)", None, "E"),
    ("hcp(north) >= 12 || (hearts(north) == 0 && loser(north) <= 5)", "E:KQ...", "N"),
    ("(spades(north) > 1 ? hcp(north, spades) : 0) + control(north) >= 7", None, "N"),
    ("quality(east, hearts) >= 200 && pt4(east) == 1", "N:...A", "E"),
]


@pytest.mark.parametrize("text,predeal,seat", CASES)
def test_stacking_is_a_bijection_onto_the_support_12_cards(
    text: str, predeal: str | None, seat: str
) -> None:
    _prove("12", _expr(text, _layout("12")), predeal, seat)


def test_stacking_is_a_bijection_with_repeated_cards() -> None:
    """A deck with two copies of each card (as pinochle): holdings are sets of deck positions."""
    cond = parse_expression("hcp(south) >= 12 && hearts(south) >= 1 && hascard(south, AS)")
    _prove("12-copies", cond, None, "S")
    _prove("12-copies", parse_expression("hcp(east, spades) == 5"), "N:KS", "E")


def test_stacking_is_a_bijection_onto_the_support_16_cards() -> None:
    cond = parse_expression("hcp(south) >= 9 && hcp(south) <= 10 && diamonds(south) <= 1")
    _prove("16", cond, None, "S")
    cond = parse_expression("spades(north) == 2 && hcp(north, hearts) >= 3")
    _prove("16", cond, "N:K... stock:A...", "N")


def test_rows_go_through_the_bijection_with_uniform_numbers() -> None:
    """Row i is deals_of(v_i * R + k_i): v_i exactly uniform below W, k_i the bulk deal number."""
    layout = _layout("12")
    cond = parse_expression("hcp(north) >= 9")
    stream = BulkStream.seeded("rows")
    sampler = plan_stacking(cond, {}, {}, Predeal.none(layout), stream, worth_below=Fraction(1))
    assert sampler is not None and sampler.rest_layout is not None
    rows = sampler.rows(0, 3000)
    values, _ = uniform_below(stream.derive("stacking/hand"), sampler.hand_count, 0, 3000)
    rest = BulkDealer(sampler.rest_layout, stream=stream.derive("stacking/rest")).rows(0, 3000)
    numbers = values * sampler.rest_count + np.array(rest.numbers(), np.int64)
    assert rows == sampler.deals_of(numbers)
    # and the support is hit evenly: 3000 rows over W * R deals
    assert (compile_expression(cond)(rows) != 0).all()


def test_hand_level_bijection_20_cards_with_predeal() -> None:
    """20 cards: every hand of N is listed; those the stacking map gives are exactly the
    hands that satisfy the conjunct."""
    layout = _layout("20")
    predeal = Predeal.parse("N:T... E:.A.. stock:..K.", layout)
    cond = parse_expression("hcp(north) >= 8 && (spades(north) >= 2 || hascard(north, QC))")
    sampler = plan_stacking(cond, {}, {}, predeal, BulkStream.seeded("h"), worth_below=Fraction(1))
    assert sampler is not None and sampler.seat == "N"
    # brute force: every 4-card choice from the 17 free cards completes North's hand
    free = list(predeal.free_cards)
    hands = np.zeros((comb(17, 4), 17), bool)
    for row, chosen in enumerate(_choices(17, 4)):
        hands[row, list(chosen)] = True
    deals = sampler.space.assemble(hands)
    brute = int((compile_expression(cond)(deals) != 0).sum())
    marks = sampler.hands(range(sampler.hand_count))
    assert sampler.hand_count == brute
    assert len({m.tobytes() for m in marks}) == brute
    assert (marks.sum(axis=1) == 4).all()
    assert (compile_expression(cond)(sampler.space.assemble(marks)) != 0).all()
    assert len(free) == 17 and sampler.rest_count == comb(13, 4)  # E 4 of the 13 left
    rows = sampler.rows(0, 500)
    assert _holds(rows, predeal).all() and (compile_expression(cond)(rows) != 0).all()


def _choices(n: int, k: int) -> list[tuple[int, ...]]:
    from itertools import combinations

    return list(combinations(range(n), k))


def test_one_other_pile_and_no_other_pile() -> None:
    layout = _layout("16-2")
    cond = parse_expression("hcp(north) == 10")
    sampler = _prove("16-2", cond, None, "N")
    assert sampler.rest_count == 1
    assert (compile_expression(cond)(sampler.rows(0, 100)) != 0).all()
    full = Predeal.parse("stock:AKQJ.AKQJ.AKQJ.-", layout)
    only = plan_stacking(
        parse_expression("clubs(north) == 4"), {}, {}, full, BulkStream.seeded("o"), worth_below=1
    )
    assert only is not None and only.hand_count == 1 and only.rest_count == 1
    assert only.rows(0, 3).suit_lengths()[:, 0, 3].tolist() == [4, 4, 4]


# -- bridge -----------------------------------------------------------------------------

OPENER = "hcp(north)>=20 && hcp(north)<=21 && shape(north, any 4333+any 4432+any 5332)"


def _balanced_counts() -> dict[tuple[int, str], int]:
    """Hands of 20-21 points by (points, pattern), counted suit by suit (independent of croupier):
    a suit of length l with honours H (A K Q J) has C(9, l - |H|) spot-card choices."""
    per_suit: dict[tuple[int, int], int] = {}
    for honours in product((0, 1), repeat=4):
        points = sum(h * v for h, v in zip(honours, (4, 3, 2, 1), strict=True))
        k = sum(honours)
        for length in range(k, 14):
            if length - k <= 9:
                per_suit[length, points] = per_suit.get((length, points), 0) + comb(9, length - k)
    counts: dict[tuple[int, str], int] = {}
    patterns = {(4, 3, 3, 3): "4333", (4, 4, 3, 2): "4432", (5, 3, 3, 2): "5332"}
    for lengths in product(range(6), repeat=4):
        pattern = patterns.get(tuple(sorted(lengths, reverse=True)))
        if sum(lengths) != 13 or pattern is None:
            continue
        ways = {0: 1}
        for length in lengths:
            step: dict[int, int] = {}
            for total, n in ways.items():
                for (l2, p), m in per_suit.items():
                    if l2 == length:
                        step[total + p] = step.get(total + p, 0) + n * m
            ways = step
        for points in (20, 21):
            counts[points, pattern] = counts.get((points, pattern), 0) + ways.get(points, 0)
    return counts


def test_bridge_plan_counts_match_an_independent_count() -> None:
    counts = _balanced_counts()
    sampler = plan_stacking(
        parse_expression(OPENER), {}, {}, Predeal.none(), BulkStream.seeded("c")
    )
    assert sampler is not None and sampler.name == "smart stacking (north)"
    assert sampler.hand_count == sum(counts.values())
    assert sampler.probability == Fraction(sum(counts.values()), comb(52, 13))
    assert isinstance(sampler, Sampler)


def _cells(deals: DealArray) -> np.ndarray:
    """(north points 20/21) x (north pattern) as 0..5."""
    points = bulk.hcp(deals, "N") - 20
    shape = bulk.sorted_shape(deals, "N")
    pattern = np.where(shape[:, 0] == 5, 2, np.where(shape[:, 1] == 4, 1, 0))
    return points * 3 + pattern


def test_bridge_stacked_rows_follow_the_exact_distribution() -> None:
    """Goodness of fit of (points, pattern) of 40,000 stacked rows against the exact counts.
    False-alarm rate 1e-4 (the seed is fixed, so the outcome is too)."""
    counts = _balanced_counts()
    order = [(p, s) for p in (20, 21) for s in ("4333", "4432", "5332")]
    sampler = plan_stacking(
        parse_expression(OPENER), {}, {}, Predeal.none(), BulkStream.seeded("g")
    )
    assert sampler is not None
    rows = sampler.rows(0, 40_000)
    observed = np.bincount(_cells(rows), minlength=6)
    total = sum(counts.values())
    expected = np.array([counts[key] * 40_000 / total for key in order])
    assert chisquare(observed, expected).pvalue > 1e-4


def test_bridge_stacking_matches_rejection() -> None:
    """Accepted deals by stacking and by rejection: a 2 x K contingency test on the opener's
    cells and South's points (another seat's cards: the rest is dealt right).  False-alarm
    rate 1e-4 with fixed seeds."""
    cond = parse_expression(OPENER)
    accept = compile_expression(cond)
    rejected = RejectionSampler(Predeal.none(), BulkStream.seeded("r"))
    kept = [
        d[accept(d) != 0]
        for d in (rejected.rows(i, i + 262_144) for i in range(0, 786_432, 262_144))
    ]
    plain = DealArray.concatenate(kept)
    assert len(plain) > 3500
    sampler = plan_stacking(cond, {}, {}, Predeal.none(), BulkStream.seeded("s"))
    assert sampler is not None
    stacked = sampler.rows(0, 20_000)
    assert (accept(stacked) != 0).all()

    def cells(deals: DealArray) -> np.ndarray:
        south = np.minimum(bulk.hcp(deals, "S") // 3, 5)  # 0-2, 3-5, ... 15+
        return _cells(deals) * 6 + south

    table = np.array([np.bincount(cells(d), minlength=36) for d in (plain, stacked)])
    table = table[:, table.sum(axis=0) >= 10]
    assert chi2_contingency(table).pvalue > 1e-4


def test_rows_reproducible_and_prefix_stable() -> None:
    cond = parse_expression(OPENER)

    def make(seed: str) -> StackingSampler:
        s = plan_stacking(cond, {}, {}, Predeal.none(), BulkStream.seeded(seed))
        assert s is not None
        return s

    a, b = make("same"), make("same")
    whole = a.rows(0, 9000)
    assert whole == b.rows(0, 9000)
    assert whole[4000:4100] == b.rows(4000, 4100)  # crosses no block
    assert whole[4090:8200] == a.rows(4090, 8200)  # crosses two block boundaries
    assert whole[:10] != make("other").rows(0, 10)
    assert a.bits(0, 9000) == int(whole.bits.sum()) > 9000 * 40
    # the card bitmasks handed to the evaluator are the deals' own
    assert (DealArray(whole.layout, whole.piles).masks() == whole.masks()).all()
    with pytest.raises(StackingLimitError, match="values="):
        a.hands([a.hand_count])


def test_predeal_is_respected_on_bridge() -> None:
    predeal = Predeal.parse("N:AK.-.-.- S:-.AKQ.-.-")
    cond = parse_expression(OPENER + " && hcp(south) >= 0")
    sampler = plan_stacking(cond, {}, {}, predeal, BulkStream.seeded("pre"))
    assert sampler is not None
    rows = sampler.rows(0, 2000)
    assert _holds(rows, predeal).all()
    assert (compile_expression(cond)(rows) != 0).all()


# -- uniform numbers --------------------------------------------------------------------


def test_uniform_below_reads_bytes_by_the_stated_rule() -> None:
    """An independent reading of block 0: one byte a number, values 0..254 kept (mod 3),
    255 drawn again from the retry stream, in order."""
    stream = BulkStream.seeded("uniform")
    values, bits = uniform_below(stream, 3, 0, 4096)
    main = stream.main(0, 4096)
    retry = iter(stream.retry(0, 4096))
    expected, used = [], []
    for byte in main:
        n = 8
        while byte == 255:
            byte = next(retry)
            n += 8
        expected.append(byte % 3)
        used.append(n)
    assert values.tolist() == expected and bits.tolist() == used
    assert 255 in main  # the retry path was exercised
    with pytest.raises(StackingLimitError):
        uniform_below(stream, 0, 0, 1)


# -- factoring and planning ---------------------------------------------------------------


def test_factor_follows_names_and_finds_seats() -> None:
    defs = {
        "strong": parse_expression("hcp(north) >= 15 && fit", names=["fit"]),
        "fit": parse_expression("hearts(north) + hearts(south) >= 8"),
        "n5": parse_expression("spades(north) >= 5"),
    }
    cond = parse_expression("strong && !n5 && hcp(west) < 5 && 1", names=list(defs))
    parts = factor(cond, defs)
    assert [(str(p.expr), p.seat) for p in parts] == [
        ("hcp(north) >= 15", "N"),
        ("hearts(north) + hearts(south) >= 8", None),
        ("!n5", "N"),
        ("hcp(west) < 5", "W"),
        ("1", None),
    ]
    for text in ("cccc(north) > 10", "tricks(north, spades) >= 9", "rnd(4) > 1"):
        assert stackable_seat(parse_expression(text)) is None
    assert stackable_seat(parse_expression("imps(hcp(east) * 10) > 2")) == "E"
    f = features(parse_expression("loser(south) + loser(south, clubs) < 7"), "S")
    assert f.summed == ("loser",) and [len(s) for s in f.separate] == [0, 0, 0, 1]


def test_plan_picks_the_most_selective_seat_or_none() -> None:
    p, stream = Predeal.none(), BulkStream.seeded("pick")
    cond = parse_expression("hcp(north) >= 12 && shape(south, any 6511) && hcp(east) <= 30")
    chosen = plan_stacking(cond, {}, {}, p, stream)
    assert chosen is not None and chosen.seat == "S"
    forced = plan_stacking(cond, {}, {}, p, stream, seat="N", worth_below=Fraction(1))
    assert forced is not None and forced.seat == "N"
    assert (
        plan_stacking(parse_expression("hcp(north) + hcp(south) >= 30"), {}, {}, p, stream) is None
    )
    weak = parse_expression("hcp(north) >= 10")  # 0.6 of the hands
    assert plan_stacking(weak, {}, {}, p, stream, worth_below=Fraction(1, 2)) is None
    assert plan_stacking(weak, {}, {}, p, stream) is not None
    # the script's point scales are used: with every card worth 1, "hcp(north) == 13" is certain
    scaled = plan_stacking(
        parse_expression("hcp(north) == 13 && spades(north) == 13"),
        {},
        {"hcp": [1] * 13},
        p,
        stream,
    )
    assert scaled is not None and scaled.hand_count == 1


def test_impossible_stacked_part() -> None:
    predeal = Predeal.parse("E:AKQJ.-.-.-")
    sampler = plan_stacking(
        parse_expression("hcp(north, spades) >= 1"), {}, {}, predeal, BulkStream.seeded("i")
    )
    assert sampler is not None and sampler.probability == 0
    with pytest.raises(ImpossibleConditionError, match="no deal"):
        sampler.rows(0, 1)


def test_survey_refuses_jokers_and_counts_predealt_lengths() -> None:
    jokers = make_layout(hands=[5, 5], deck="jokers2", names=["N", "S"])
    with pytest.raises(StackingLimitError, match="suit"):
        survey(parse_expression("hcp(north) > 3"), "N", Predeal.none(jokers))
    cards = tuple(parse_cards("AS KS"))
    predeal = Predeal((cards, (), (), ()))
    s = survey(parse_expression("spades(north) == 2"), "N", predeal)
    assert s.hands == comb(50, 11) and s.satisfying == comb(39, 11)
    combos, weights = s.combinations()
    assert int(weights.sum()) == s.satisfying and combos.shape[1] == 4


def test_conjunction_of_parts_is_what_is_stacked() -> None:
    cond = Binary("&&", parse_expression("hcp(east) >= 16"), parse_expression("clubs(east) >= 5"))
    sampler = plan_stacking(cond, {}, {}, Predeal.none(), BulkStream.seeded("c"))
    assert sampler is not None and str(sampler.expr) == "hcp(east) >= 16 && clubs(east) >= 5"


def test_figures_stated_in_the_docs_page() -> None:
    """docs/smart-stacking.md states the survey's size for 20-21 balanced and the rarity of
    the conditions it quotes; recompute them."""
    from tests.conftest import ROOT

    page = (ROOT / "docs" / "smart-stacking.md").read_text(encoding="utf-8")
    s = survey(parse_expression(OPENER), "N", Predeal.none())
    assert f"this is {s.steps[-1].states:,} states" in page
    assert f"({s.combination_count:,} tuples" in page
    assert f"about one\ndeal in {round(s.hands / s.satisfying)}" in page
    rare = survey(
        parse_expression("hcp(north) == 27 && shape(north, any 4333 + any 4432 + any 5332)"),
        "N",
        Predeal.none(),
    )
    assert f"(one deal in {round(rare.hands / rare.satisfying):,})" in page
