"""Poker hand evaluation: every five-card hand, the rules, phevaluator, Omaha, deal arrays."""

from __future__ import annotations

import itertools
import os
from collections import Counter

import numpy as np
import pytest

from croupier.bulk import deal_array
from croupier.cards import BRIDGE_DECK, Card, parse_card
from croupier.dealing.layout import make_layout
from croupier.poker import (
    HAND_VALUES,
    Category,
    HandValue,
    PokerError,
    card_number,
    card_numbers,
    evaluate,
    evaluate_array,
    evaluate_deals,
    evaluate_masks,
    evaluate_omaha,
    evaluate_omaha_array,
    hand_value,
    number_card,
)
from tests.poker_reference import (
    number_text,
    phe_ids,
    phe_values,
    phevaluator,
    rules_best,
    rules_key,
    rules_omaha,
)

FIVE_CARD_HANDS = 2_598_960

# The textbook counts of the 2,598,960 five-card hands, and how many hands share
# one value in each category (suits permuted: 4^5 - 4 for a high card, 4 for a flush, ...).
CATEGORY_COUNTS = {
    Category.STRAIGHT_FLUSH: 40,
    Category.FOUR_OF_A_KIND: 624,
    Category.FULL_HOUSE: 3_744,
    Category.FLUSH: 5_108,
    Category.STRAIGHT: 10_200,
    Category.THREE_OF_A_KIND: 54_912,
    Category.TWO_PAIR: 123_552,
    Category.ONE_PAIR: 1_098_240,
    Category.HIGH_CARD: 1_302_540,
}
HANDS_PER_VALUE = {
    Category.STRAIGHT_FLUSH: 4,
    Category.FOUR_OF_A_KIND: 4,
    Category.FULL_HOUSE: 4 * 6,
    Category.FLUSH: 4,
    Category.STRAIGHT: 4**5 - 4,
    Category.THREE_OF_A_KIND: 4 * 4 * 4,
    Category.TWO_PAIR: 6 * 6 * 4,
    Category.ONE_PAIR: 6 * 4 * 4 * 4,
    Category.HIGH_CARD: 4**5 - 4,
}


def random_hands(n: int, size: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.permuted(np.tile(np.arange(52, dtype=np.uint8), (n, 1)), axis=1)[:, :size]


def test_every_five_card_hand_has_one_of_7462_values_in_the_known_numbers() -> None:
    flat = itertools.chain.from_iterable(itertools.combinations(range(52), 5))
    hands = np.fromiter(flat, np.uint8, count=5 * FIVE_CARD_HANDS).reshape(-1, 5)
    values = evaluate_array(hands)
    distinct, multiplicity = np.unique(values, return_counts=True)
    assert distinct.tolist() == list(range(1, HAND_VALUES + 1))
    by_category: Counter[Category] = Counter()
    for value, count in zip(distinct.tolist(), multiplicity.tolist(), strict=True):
        category = HandValue(value).category
        by_category[category] += count
        assert count == HANDS_PER_VALUE[category], (value, category)
    assert dict(by_category) == CATEGORY_COUNTS
    # categories occupy consecutive values, worst category first
    firsts = [c.first_value for c in Category]
    assert firsts == sorted(firsts) and firsts[0] == 1
    assert [HandValue(f).category for f in firsts] == list(Category)


def test_values_order_hands_as_the_rules_do() -> None:
    """On 3,000 random hands of each size, value order = the order of an independent
    from-the-rules classifier, and the scalar evaluator agrees with the vectorised one."""
    for size in (5, 6, 7):
        hands = random_hands(3000, size, seed=size)
        values = evaluate_array(hands).tolist()
        keys = [rules_best(row) for row in hands.tolist()]
        pairs = sorted(zip(values, keys, strict=True))
        for (v1, k1), (v2, k2) in itertools.pairwise(pairs):
            assert (v1 < v2) == (k1 < k2) and (v1 == v2) == (k1 == k2), (v1, k1, v2, k2)
        for row, value in list(zip(hands.tolist(), values, strict=True))[:300]:
            text = " ".join(number_text(c) for c in row)
            assert evaluate(text).value == value == hand_value(text)


def test_a_million_seven_card_hands_agree_with_phevaluator() -> None:
    hands = random_hands(1_000_000, 7, seed=2026)
    ours = evaluate_array(hands).astype(np.int64)
    theirs = phe_values(phe_ids(hands), 7)
    assert np.array_equal(ours, theirs)
    # the same, as a million comparisons of two hands: no disagreement in order
    a, b = ours[:500_000] - ours[500_000:], theirs[:500_000] - theirs[500_000:]
    assert np.array_equal(np.sign(a), np.sign(b))


@pytest.mark.parametrize("size", [5, 6])
def test_five_and_six_card_hands_agree_with_phevaluator(size: int) -> None:
    hands = random_hands(200_000, size, seed=10 + size)
    assert np.array_equal(evaluate_array(hands), phe_values(phe_ids(hands), size))


def test_order_agrees_with_eval7() -> None:
    import eval7

    deck = [eval7.Card(number_text(c)) for c in range(52)]
    hands = random_hands(100_000, 7, seed=77)
    ours = evaluate_array(hands)
    theirs = np.array([eval7.evaluate([deck[c] for c in row]) for row in hands.tolist()])
    order = np.lexsort((theirs, ours))
    ours, theirs = ours[order], theirs[order]
    step_ours, step_theirs = np.diff(ours.astype(np.int64)), np.diff(theirs.astype(np.int64))
    assert (step_theirs >= 0).all() and np.array_equal(step_ours > 0, step_theirs > 0)


def test_omaha_agrees_with_phevaluator_and_the_rules() -> None:
    core = phevaluator()
    cards = random_hands(20_000, 9, seed=9)
    board, hole = cards[:, :5], cards[:, 5:]
    ours = evaluate_omaha_array(hole, board).astype(np.int64)
    ids = phe_ids(cards)
    theirs = 7463 - np.array([core.evaluate_omaha_cards(*row) for row in ids.tolist()])
    assert np.array_equal(ours, theirs)
    # five and six hole cards, and boards of 3 and 4 cards, against the rules
    for holes, shared in ((5, 5), (6, 5), (4, 3), (6, 4)):
        deals = random_hands(300, holes + shared, seed=holes * 10 + shared)
        values = evaluate_omaha_array(deals[:, :holes], deals[:, holes:]).tolist()
        keys = [rules_omaha(r[:holes], r[holes:]) for r in deals.tolist()]
        pairs = sorted(zip(values, keys, strict=True))
        for (v1, k1), (v2, k2) in itertools.pairwise(pairs):
            assert (v1 < v2) == (k1 < k2), (v1, k1, v2, k2)
        row = deals[0].tolist()
        hole_text = " ".join(number_text(c) for c in row[:holes])
        board_text = " ".join(number_text(c) for c in row[holes:])
        assert evaluate_omaha(hole_text, board_text).value == values[0]


def test_omaha_uses_exactly_two_hole_cards() -> None:
    # four spades on the board and one in the hand: no flush in Omaha, a flush in hold'em
    assert evaluate_omaha("As Ah Kd Qc", "Ks Ts 9s 2s 7h").category is Category.ONE_PAIR
    assert evaluate("As Ah", "Ks Ts 9s 2s 7h").category is Category.FLUSH
    # four of a kind on the board plays only three of them
    assert evaluate_omaha("2c 3d 4h 5s", "Ah Ad Ac As Kd").category is Category.THREE_OF_A_KIND


def test_masks_and_arrays_agree() -> None:
    bits = np.uint64(1) << np.arange(52, dtype=np.uint64)
    for size in (5, 6, 7):
        hands = random_hands(50_000, size, seed=100 + size)
        masks = np.bitwise_or.reduce(bits[hands], axis=1)
        assert np.array_equal(evaluate_masks(masks), evaluate_array(hands))
    mixed = np.concatenate([masks[:10], np.bitwise_or.reduce(bits[random_hands(10, 5, 1)], 1)])
    assert evaluate_masks(mixed).shape == (20,)


def test_deal_arrays_of_the_poker_games() -> None:
    holdem = deal_array(2000, make_layout("holdem", players=4), seed="poker tests")
    values = evaluate_deals(holdem)
    assert values.shape == (2000, 4)
    for row in range(0, 2000, 97):
        deal = holdem[row]
        for seat in range(4):
            cards = [*deal.piles[seat], *deal.piles[4], *deal.piles[5], *deal.piles[6]]
            assert int(values[row, seat]) == evaluate(cards).value
    assert np.array_equal(evaluate_deals(holdem, "P2"), values[:, 1])
    omaha = deal_array(500, "omaha", seed="poker tests")
    got = evaluate_deals(omaha, 0)
    for row in range(0, 500, 50):
        deal = omaha[row]
        board = [*deal.piles[6], *deal.piles[7], *deal.piles[8]]  # flop, turn, river
        assert int(got[row]) == evaluate_omaha(deal.piles[0], board).value
    # a short deck (6 to ace): its columns are mapped to card numbers
    short = make_layout(hands=[2, 2, 5], deck="stripped:6789TJQKA")
    custom = deal_array(300, short, seed="poker tests")
    got = evaluate_deals(custom, board=2, seat=None)
    assert got.shape == (300, 2)
    for row in range(0, 300, 30):
        deal = custom[row]
        assert int(got[row, 1]) == evaluate([*deal.piles[1], *deal.piles[2]]).value


def test_card_numbers_are_the_deal_array_columns() -> None:
    assert [card_number(c) for c in BRIDGE_DECK] == list(range(52))
    assert all(number_card(card_number(c)) == c for c in BRIDGE_DECK)
    assert card_numbers("10h As").tolist() == [17, 0]
    assert card_numbers(["Ah Kh", "2c 2d"]).shape == (2, 2)
    assert card_number(parse_card("2c")) == 51


@pytest.mark.parametrize(
    ("cards", "description", "ranks", "best"),
    [
        ("As Ks Qs Js Ts", "Royal Flush", "AKQJT", "AS KS QS JS TS"),
        ("5d 4d 3d 2d Ad 9c 9h", "Straight Flush, Five high", "5432A", "5D 4D 3D 2D AD"),
        ("Qh Qd Qc Qs 2c 3c Ah", "Four of a Kind, Queens, Ace kicker", "QQQQA", None),
        ("Kh Kd 7s 7c Ah Kc 2d", "Full House, Kings full of Sevens", "KKK77", "KH KD KC 7S 7C"),
        ("Ah 9h 7h 4h 2h Kc Kd", "Flush, Ace Nine Seven Four Two", "A9742", None),
        ("6c 5d 4h 3s 2c Ac Kd", "Straight, Six high", "65432", None),
        ("7c 7d 7h Ks 2c 9c 4d", "Three of a Kind, Sevens, King Nine kickers", "777K9", None),
        ("Kh Kd 7s 7c Ah 2c 3d", "Two Pair, Kings and Sevens, Ace kicker", "KK77A", None),
        ("Jh Jd As 9c 4d 3c 2h", "One Pair, Jacks, Ace Nine Four kickers", "JJA94", None),
        ("Ah Kd 9s 7c 4d 3c 2h", "High Card, Ace, King Nine Seven Four", "AK974", None),
    ],
)
def test_descriptions_name_the_hand(
    cards: str, description: str, ranks: str, best: str | None
) -> None:
    value = evaluate(cards)
    assert str(value) == value.description == description
    assert "".join(r.letter for r in value.ranks) == ranks
    if best is not None:
        assert " ".join(c.code for c in value.best) == best
    assert len(value.best) == 5 and set(value.best) <= {parse_card(c) for c in cards.split()}
    assert rules_key([card_number(c) for c in value.best]) == rules_best(
        [card_number(parse_card(c)) for c in cards.split()]
    )


def test_hand_values_compare_as_ints() -> None:
    low, high = evaluate("7c 5d 4h 3s 2c"), evaluate("As Ks Qs Js Ts")
    assert (low.value, high.value) == (1, HAND_VALUES)
    assert low < high and HandValue(1) == low and int(high) == HAND_VALUES
    assert high.to_json()["best"] == ["AS", "KS", "QS", "JS", "TS"]
    assert [r.letter for r in HandValue(5854).deciding] == ["5"]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: evaluate("As Ks Qs"), "best five of 5, 6 or 7 cards, not 3"),
        (lambda: evaluate("As Ks Qs Js Ts 9s 8s 7s"), "not 8"),
        (lambda: evaluate("As Ks Qs Js As"), "card 'AS' appears twice"),
        (lambda: evaluate("As Ks Qs Js", board="Ks"), "card 'KS' appears twice"),
        (lambda: evaluate("As Ks Qs Js JK"), "without jokers"),
        (lambda: evaluate("As Ks Qs Js Xx"), "bad card 'Xx'"),
        (lambda: evaluate_omaha("As Ks Qs", "2c 3c 4c"), "4, 5 or 6 hole cards, not 3"),
        (lambda: evaluate_omaha("As Ks Qs Js", "2c 3c"), "3, 4 or 5 cards, not 2"),
        (lambda: evaluate_array(np.zeros((2, 4), np.uint8)), "not 4"),
        (lambda: evaluate_array(np.full((1, 5), 52)), "card numbers 0..51"),
        (lambda: evaluate_array(np.zeros(5, np.uint8)), "2-d array"),
        (lambda: evaluate_masks([0b1111]), "not 4"),
        (lambda: HandValue(7463), "1..7462, not 7463"),
        (lambda: evaluate_deals("deals"), "takes a DealArray"),
    ],
)
def test_bad_input_is_a_one_line_poker_error(call: object, message: str) -> None:
    with pytest.raises(PokerError if "bad card" not in message else ValueError) as info:
        call()  # type: ignore[operator]
    assert message in str(info.value) and "\n" not in str(info.value)


def test_deal_array_errors_name_the_pile() -> None:
    deals = deal_array(10, "holdem", seed="x")
    with pytest.raises(PokerError, match="'kitty' is not a pile"):
        evaluate_deals(deals, board="kitty")
    with pytest.raises(PokerError, match="'kitty' is not a pile"):
        evaluate_deals(deals, board=["flop", "kitty"])
    both = evaluate_deals(deals, board=("flop", "turn", "river"))
    assert np.array_equal(both, evaluate_deals(deals))
    assert not np.array_equal(evaluate_deals(deals, board="flop"), both)
    with pytest.raises(PokerError, match="seat=12 is not a pile index"):
        evaluate_deals(deals, 12)
    with pytest.raises(PokerError, match="distinct standard cards"):
        evaluate_deals(deal_array(2, make_layout(hands=[5, 5, 5], deck="shoe:2")), board=None)
    assert evaluate_deals(deal_array(3, "poker", seed="x"), board=None).shape == (3, 4)
    assert Card.parse("AS") == number_card(0)


def suited_hands(n: int, size: int, seed: int) -> np.ndarray:
    """Hands drawn from two suits only (spades and hearts): flushes and straight flushes
    by the thousand, which random hands seldom hold."""
    rng = np.random.default_rng(seed)
    return rng.permuted(np.tile(np.arange(26, dtype=np.uint8), (n, 1)), axis=1)[:, :size]


def test_the_compiled_kernel_gives_the_plain_python_values() -> None:
    """The kernel against the executable specification (every five-card subset by the
    rules), exactly, on seeded random hands of every size and on flush-rich hands."""
    for size, count in ((5, 20_000), (6, 4000), (7, 6000)):
        for hands in (
            random_hands(count, size, seed=300 + size),
            suited_hands(2000, size, 400 + size),
        ):
            compiled = evaluate_array(hands)
            assert compiled.dtype == np.uint16
            assert np.array_equal(compiled, evaluate_array(hands, engine="python"))
    flushes = evaluate_array(suited_hands(2000, 7, 407))
    assert (flushes >= Category.FLUSH.first_value).mean() > 0.3  # the flush path was run


def test_the_kernel_agrees_with_python_on_a_slice_of_every_five_card_hand() -> None:
    flat = itertools.chain.from_iterable(
        itertools.islice(itertools.combinations(range(52), 5), 0, None, 53)
    )
    hands = np.fromiter(flat, np.uint8).reshape(-1, 5)
    assert len(hands) == -(-FIVE_CARD_HANDS // 53)
    assert np.array_equal(evaluate_array(hands), evaluate_array(hands, engine="python"))


def test_masks_omaha_and_codes_give_the_plain_python_values() -> None:
    from croupier.poker.evaluate import values_from_codes
    from croupier.poker.tables import tables

    t = tables()
    for size in (5, 6, 7):
        for hands in (
            random_hands(1500, size, seed=500 + size),
            suited_hands(800, size, 600 + size),
        ):
            masks = np.bitwise_or.reduce(t.card_bit[hands], axis=1)
            expected = evaluate_array(hands, engine="python")
            assert np.array_equal(evaluate_masks(masks), expected)
            totals = t.card_code[hands].sum(axis=1, dtype=np.uint64)
            assert np.array_equal(values_from_codes(totals, size, masks=masks), expected)
            assert np.array_equal(values_from_codes(totals, size, cards=list(hands.T)), expected)
    mixed = np.concatenate(
        [masks[:300], np.bitwise_or.reduce(t.card_bit[random_hands(300, 5, 2)], 1)]
    )
    assert np.array_equal(evaluate_masks(mixed), evaluate_masks(mixed, engine="python"))
    assert np.array_equal(evaluate_masks(masks[:200], engine="python"), expected[:200])
    for holes, shared in ((4, 5), (5, 5), (6, 5), (4, 3), (6, 4)):
        for deals in (random_hands(250, holes + shared, 7), suited_hands(150, holes + shared, 8)):
            hole, board = deals[:, :holes], deals[:, holes:]
            assert np.array_equal(
                evaluate_omaha_array(hole, board),
                evaluate_omaha_array(hole, board, engine="python"),
            )


def test_deal_arrays_give_the_plain_python_values() -> None:
    holdem = deal_array(300, make_layout("holdem", players=3), seed="python engine")
    assert np.array_equal(evaluate_deals(holdem), evaluate_deals(holdem, engine="python"))
    omaha = deal_array(100, "omaha", seed="python engine")
    assert np.array_equal(evaluate_deals(omaha), evaluate_deals(omaha, engine="python"))
    short = deal_array(200, make_layout(hands=[2, 2, 5], deck="stripped:6789TJQKA"), seed="x")
    assert np.array_equal(
        evaluate_deals(short, board=2), evaluate_deals(short, board=2, engine="python")
    )


def test_long_calls_split_among_threads_give_the_same_values(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from croupier.poker import _threads

    hands = random_hands(5 * _threads.PARALLEL_FROM // 2, 7, seed=700)
    monkeypatch.setattr(_threads, "cores", lambda: 2)
    assert len(_threads.parts(len(hands))) == 2
    split = evaluate_array(hands)
    monkeypatch.setattr(_threads, "MAX_THREADS", 1)
    assert np.array_equal(split, evaluate_array(hands))
    sample = slice(0, None, 97)
    assert np.array_equal(split[sample], evaluate_array(hands[sample], engine="python"))
    monkeypatch.setattr(_threads, "MAX_THREADS", 8)
    bad = hands.copy()
    bad[-3, 4] = 52  # in the second half
    with pytest.raises(PokerError, match=r"card numbers 0\.\.51"):
        evaluate_array(bad)


@pytest.mark.parametrize("dtype", [np.int64, np.int16, np.uint16, np.int8])
def test_other_integer_types_are_card_numbers_too(dtype: type) -> None:
    hands = random_hands(1000, 7, seed=800)
    assert np.array_equal(evaluate_array(hands.astype(dtype)), evaluate_array(hands))
    bad = hands.astype(dtype)
    bad[10, 3] = -1 if np.issubdtype(dtype, np.signedinteger) else 300 % 128 + 52
    with pytest.raises(PokerError, match=r"card numbers 0\.\.51"):
        evaluate_array(bad)


def test_engines_are_chosen_in_one_place() -> None:
    from croupier.errors import CroupierError

    bad = random_hands(10, 7, seed=1)
    bad[4, 2] = 60
    for engine in ("auto", "compiled", "python"):
        with pytest.raises(PokerError, match=r"card numbers 0\.\.51"):
            evaluate_array(bad, engine=engine)  # type: ignore[arg-type]
    with pytest.raises(CroupierError, match="engine='gpu'"):
        evaluate_array(bad, engine="gpu")  # type: ignore[arg-type]
    with pytest.raises(CroupierError, match="numpy engines are gone"):
        evaluate_masks([0b11111], engine="numpy")  # type: ignore[arg-type]
    with pytest.raises(CroupierError, match="engine='gpu'"):
        evaluate_deals(deal_array(2, "holdem", seed="x"), engine="gpu")  # type: ignore[arg-type]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="os.fork is POSIX only")
def test_a_forked_child_splits_long_calls_with_threads_of_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The parent's worker threads are gone in a forked child: its pool is made again."""
    from croupier.poker import _threads

    monkeypatch.setattr(_threads, "cores", lambda: 2)
    hands = random_hands(3 * _threads.PARALLEL_FROM, 7, seed=900)
    expected = evaluate_array(hands)  # the parent's pool now has a worker
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - runs in the child, which never returns
        code = 1
        try:
            os.close(read_end)
            with os.fdopen(write_end, "wb") as out:
                out.write(evaluate_array(hands).tobytes())
            code = 0
        finally:
            os._exit(code)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as pipe:
        child = np.frombuffer(pipe.read(), np.uint16)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert np.array_equal(child, expected)
