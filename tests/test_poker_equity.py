"""Equity: exact counts against phevaluator enumerating the same boards, Monte Carlo pinned."""

from __future__ import annotations

import hashlib
import importlib
import itertools
import json
from fractions import Fraction

import numpy as np
import pytest

from croupier.errors import CroupierError, SeedError
from croupier.poker import (
    EXACT_LIMIT,
    MC_ALGORITHM_ID,
    PokerError,
    RangeNotationError,
    equity,
    parse_range,
    plan_equity,
)
from croupier.poker.equity import EquityPlan
from croupier.randomness import SeededSource
from tests.conftest import VECTORS
from tests.poker_reference import phe_ids, phevaluator


def ids(text: str) -> list[int]:
    """Card numbers of card text, computed here without the library (``As`` -> 0)."""
    ranks, suits = "AKQJT98765432", "shdc"
    text = text.replace(" ", "")
    return [13 * suits.index(text[i + 1].lower()) + ranks.index(text[i].upper())
            for i in range(0, len(text), 2)]  # fmt: skip


def brute_force(
    hands: list[list[list[int]]], board: list[int], dead: list[int] = (), omaha: bool = False
) -> tuple[int, list[list[int]]]:
    """Showdowns counted with phevaluator: every matchup of the hands' combos (no card twice)
    with every completion of the board; ``shares[p][w - 1]`` as in ``HandEquity.shares``."""
    core = phevaluator()
    players = len(hands)
    shares = [[0] * players for _ in range(players)]
    deals = 0
    for matchup in itertools.product(*hands):
        held = [c for combo in matchup for c in combo]
        if len(set(held)) != len(held) or set(held) & set(board) | set(held) & set(dead):
            continue
        rest = [c for c in range(52) if c not in set(held) | set(board) | set(dead)]
        hole_ids = [phe_ids(np.array(combo)).tolist() for combo in matchup]
        for extra in itertools.combinations(rest, 5 - len(board)):
            shared = phe_ids(np.array([*board, *extra])).tolist()
            if omaha:
                ranks = [core.evaluate_omaha_cards(*shared, *h) for h in hole_ids]
            else:
                ranks = [core.evaluate_7cards(*h, *shared) for h in hole_ids]
            best = min(ranks)
            winners = ranks.count(best)
            for p, r in enumerate(ranks):
                if r == best:
                    shares[p][winners - 1] += 1
            deals += 1
    return deals, shares


@pytest.mark.parametrize(
    ("hands", "board", "dead"),
    [
        (["AsKs", "QhQd"], "2s7sQc", ""),
        (["AhKh", "AdKd", "7c7d"], "QsJs2c", ""),
        (["AhKh", "AdKd", "7c7d", "5s4s"], "QsJs2c9d", ""),
        (["AsAh", "KsKh"], "Kd7d2c", "3h"),
        (["8c8d", "AsQs", "JhTh"], "9s8s2h", "Ac Kd"),
        (["2c2d", "3c3d"], "AhKhQhJhTh", ""),
    ],
)
def test_exact_counts_match_phevaluator(hands: list[str], board: str, dead: str) -> None:
    result = equity(hands, board=board, dead=dead)
    deals, shares = brute_force([[ids(h)] for h in hands], ids(board), ids(dead))
    assert result.method == "exact" and result.deals == deals
    assert [list(h.shares) for h in result.hands] == shares
    for h, row in zip(result.hands, shares, strict=True):
        assert h.win == Fraction(row[0], deals)
        assert h.tie == Fraction(sum(row[1:]), deals)
        assert h.equity == sum(Fraction(c, deals * w) for w, c in enumerate(row, start=1))
    assert sum(h.equity for h in result.hands) == 1


def test_ranges_count_every_matchup_like_phevaluator() -> None:
    hands = ["QQ+", "AKs", "AhQh, JJ"]
    result = equity(hands, board="Kd 7c 2s 3h")
    combos = [[ids(f"{c[0]}{c[1]}") for c in _texts(h)] for h in hands]
    deals, shares = brute_force(combos, ids("Kd7c2s3h"))
    assert result.deals == deals and [list(h.shares) for h in result.hands] == shares
    assert result.matchups is not None and result.boards is not None
    assert result.deals == result.matchups * result.boards == 190 * 42
    assert [h.combos for h in result.hands] == [15, 3, 7]


def test_a_range_left_with_one_combo_is_that_hand() -> None:
    narrowed = equity(["AsAh", "AA"])  # AA beside AsAh: only AdAc is left
    fixed = equity(["AsAh", "AdAc"])
    assert narrowed.deals == fixed.deals == 1_712_304 and narrowed.hands[1].combos == 1
    assert [h.shares for h in narrowed.hands] == [h.shares for h in fixed.hands]
    assert equity([parse_range("KK"), "AsAh"], board="Kd 7c 2s").hands[0].hand == "KK"


def _texts(text: str) -> list[tuple[str, str]]:
    from tests.poker_reference import number_text

    return [(number_text(a), number_text(b)) for a, b in parse_range(text).combos]


def test_omaha_counts_match_phevaluator() -> None:
    hands = ["As Ah Kd Qc", "Ks Kh 7c 8d"]
    result = equity(hands, board="2c 3d 9h")
    assert result.game == "omaha"
    deals, shares = brute_force([[ids(h)] for h in hands], ids("2c3d9h"), omaha=True)
    assert result.deals == deals == 820 and [list(h.shares) for h in result.hands] == shares


def test_heads_up_preflop_is_exact_over_all_1712304_boards() -> None:
    """AsAh against KsKh: every board, counted again here with phevaluator's evaluator."""
    core = phevaluator()
    result = equity(["AsAh", "KsKh"])
    assert result.method == "exact" and result.deals == 1_712_304
    aces, kings = phe_ids(np.array(ids("AsAh"))).tolist(), phe_ids(np.array(ids("KsKh"))).tolist()
    rest = sorted(set(range(52)) - set(aces) - set(kings))
    seven = core.evaluate_7cards
    first = second = 0
    for board in itertools.combinations(rest, 5):
        a, k = seven(*aces, *board), seven(*kings, *board)
        if a < k:
            first += 1
        elif k < a:
            second += 1
    tie = 1_712_304 - first - second
    assert result.hands[0].shares == (first, tie) and result.hands[1].shares == (second, tie)
    assert result.hands[0].equity == Fraction(2 * first + tie, 2 * 1_712_304)
    assert result.hands[0].equity == Fraction(707495, 856152)  # 82.64%


def test_three_way_preflop_is_exact() -> None:
    result = equity(["AsKs", "QhQd", "JcTc"])
    assert result.method == "exact" and result.deals == 1_370_754
    assert sum(h.equity for h in result.hands) == 1
    # each board counted once: shares of all hands add up to the boards, split w ways
    total = sum(Fraction(c, w) for h in result.hands for w, c in enumerate(h.shares, 1))
    assert total == result.deals


def test_the_method_follows_the_documented_rule() -> None:
    small = plan_equity(["AA", "KK"])
    assert small.deals == 36 * 1_712_304 <= EXACT_LIMIT and small.method == "exact"
    wide = plan_equity(["random", "AKs"])
    assert wide.deals > EXACT_LIMIT and wide.method == "monte-carlo"
    assert wide.total == 1_000_000
    assert plan_equity(["random", "AKs"], board="2c3d4h5s", exact=True).method == "exact"
    assert plan_equity(["AsKs", "QhQd"], trials=10).method == "monte-carlo"
    with pytest.raises(PokerError, match="would take too long"):
        plan_equity(["random", "QQ+"], exact=True)  # 22,050 matchups x 1,712,304 boards
    with pytest.raises(CroupierError, match="not both"):
        plan_equity(["AsKs", "QhQd"], trials=10, exact=True)
    river = plan_equity(["random"] * 3, board="AsKsQsJsTs")  # 1,263,214,441 matchups
    assert river.method == "monte-carlo" and river.deals == 1081 * 1081 * 1081
    with pytest.raises(PokerError, match="more than 10,000,000 matchups"):
        plan_equity(["random"] * 3, board="AsKsQsJsTs", exact=True)
    assert plan_equity(["random"] * 2, board="AsKsQsJsTs").method == "exact"


def test_ranges_that_never_fit_together_stop(monkeypatch: pytest.MonkeyPatch) -> None:
    module = importlib.import_module("croupier.poker.equity")  # the function shadows the name

    with pytest.raises(PokerError, match="no matchup without a card dealt twice"):
        plan_equity(["AA, KK"] * 5, exact=True)  # five pairs of two ranks: impossible
    monkeypatch.setattr(module, "_EMPTY_BATCHES", 2)
    with pytest.raises(PokerError, match=r"no matchup .* in 131,072 tries"):
        equity(["AA, KK"] * 10, trials=100, seed="x")  # too many to list: sampled


def _golden() -> dict[str, object]:
    return json.loads((VECTORS / "poker_equity_mc.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def test_monte_carlo_matches_its_golden_vector() -> None:
    vec = _golden()
    assert vec["algorithm"] == MC_ALGORITHM_ID
    result = equity(vec["hands"], board=vec["board"], trials=vec["trials"], seed=vec["seed"])  # type: ignore[arg-type]
    assert result.method == "monte-carlo" and result.algorithm == MC_ALGORITHM_ID
    assert result.source == "seeded"
    assert [list(h.shares) for h in result.hands] == vec["shares"]
    again = equity(vec["hands"], board=vec["board"], trials=vec["trials"], seed=vec["seed"])  # type: ignore[arg-type]
    assert again == result


def _reference_sample(
    plan: EquityPlan, key: bytes, batch: int
) -> list[tuple[list[int], list[int]]]:
    """croupier-equity-mc/1 from its specification, in plain Python: the accepted candidates
    of one batch as (combo index per ranged hand, board cards)."""
    ranged = [p for p in plan.players if len(p.combos) > 1]
    fixed = {int(c) for p in plan.players if len(p.combos) == 1 for c in p.combos[0]}
    fixed |= set(ids("".join(c.code[0] + c.code[1].lower() for c in plan.board)))
    missing = 5 - len(plan.board)
    draws = len(ranged) + missing
    data = hashlib.shake_128(key + b"croupier-equity-mc/1" + batch.to_bytes(8, "big")).digest(
        4 * draws * 65536
    )
    out = []
    for t in range(65536):
        words = [int.from_bytes(data[4 * (t * draws + j) : 4 * (t * draws + j + 1)], "big")
                 for j in range(draws)]  # fmt: skip

        def below(word: int, n: int) -> int | None:
            return word % n if word < 2**32 - 2**32 % n else None

        picks, held, ok = [], set(), True
        for j, player in enumerate(ranged):
            index = below(words[j], len(player.combos))
            if index is None:
                ok = False
                break
            combo = {int(c) for c in player.combos[index]}
            ok = ok and not combo & held
            held |= combo
            picks.append(index)
        if not ok:
            continue
        deck = [c for c in range(52) if c not in fixed | held]
        for s in range(missing):
            r = below(words[len(ranged) + s], len(deck) - s)
            if r is None:
                ok = False
                break
            deck[s], deck[s + r] = deck[s + r], deck[s]
        if ok:
            out.append((picks, deck[:missing]))
    return out


def test_monte_carlo_samples_as_specified() -> None:
    vec = _golden()
    plan = plan_equity(vec["hands"], board=vec["board"], trials=vec["trials"])  # type: ignore[arg-type]
    key = SeededSource(vec["seed"], purpose="croupier-equity-mc/1").bits(256).to_bytes(32, "big")  # type: ignore[arg-type]
    combos, boards = plan.sample(key, 0)
    expected = _reference_sample(plan, key, 0)
    assert len(expected) == len(combos) > 30000
    assert [list(map(int, c)) for c in combos] == [e[0] for e in expected]
    assert [list(map(int, b)) for b in boards] == [e[1] for e in expected]


def test_monte_carlo_interval_covers_the_exact_equity() -> None:
    exact = equity(["AhKh", "QQ+"], board="Kd 7c 2s")
    sampled = equity(["AhKh", "QQ+"], board="Kd 7c 2s", trials=200_000, seed="coverage")
    for e, s in zip(exact.hands, sampled.hands, strict=True):
        low, high = s.interval  # type: ignore[misc]
        # a 95% interval: this seed's interval covers it (fixed seed: no false alarms)
        assert low < float(e.equity) < high and high - low < 0.01
    os_run = equity(["AhKh", "QQ+"], board="Kd 7c 2s", trials=1000)
    assert os_run.source == "os-csprng" and os_run.deals == 1000


def test_seed_and_source_give_the_same_trials() -> None:
    by_seed = equity(["AKs", "random"], trials=3000, seed="same")
    source = SeededSource("same", purpose=MC_ALGORITHM_ID)
    assert equity(["AKs", "random"], trials=3000, source=source) == by_seed
    other = equity(["AKs", "random"], trials=3000, seed="other")
    assert other.hands != by_seed.hands
    with pytest.raises(CroupierError, match="not both"):
        equity(["AKs", "random"], trials=10, seed="x", source=source)


@pytest.mark.parametrize(
    ("hands", "board", "dead"),
    [
        (["AsKs", "QhQd"], "2s7sQc", ""),
        (["AhKh", "AdKd", "7c7d", "5s4s"], "QsJs2c", ""),
        (["QQ+", "AKs", "AhQh, JJ"], "Kd 7c 2s 3h 4d", ""),
        (["QQ+", "AKs"], "Kd 7c 2s 3h", ""),
        (["AA", "KQs, JTs, 98s"], "Ks Qs Js Ts", "2c"),
        (["AhKh", "9s8s", "7c7d", "5s4s", "AdKd", "2h2d"], "QsJs2c9d", "3h"),
        (["As Ah Kd Qc", "Ks Kh 7c 8d"], "2c 3d 9h", ""),
        (["As Ah Kd Qc Jh", "Ks Kh 7c 8d 9d 9c", "2s 3s 4s 5s"], "6s 7s Th Tc", ""),
    ],
)
def test_exact_counts_are_the_plain_python_counts(hands: list[str], board: str, dead: str) -> None:
    """The compiled showdown kernels against the specification: every matchup on every
    board valued by the scalar evaluator and tallied in Python."""
    compiled = equity(hands, board=board, dead=dead)
    python = equity(hands, board=board, dead=dead, engine="python")
    assert compiled.method == python.method == "exact" and compiled.deals == python.deals
    assert [h.shares for h in compiled.hands] == [h.shares for h in python.hands]
    assert sum(sum(h.shares) for h in compiled.hands) >= compiled.deals


@pytest.mark.parametrize(
    ("hands", "board"),
    [
        (["AKs", "QQ+", "7c7d"], "Kd 7s 2s"),
        (["random", "random", "AsKs"], ""),
        (["As Ah Kd Qc", "Ks Kh 7c 8d 9d"], "2c 3d"),
    ],
)
def test_monte_carlo_counts_are_the_plain_python_counts(hands: list[str], board: str) -> None:
    compiled = equity(hands, board=board, trials=1500, seed="engines")
    python = equity(hands, board=board, trials=1500, seed="engines", engine="python")
    assert compiled.deals == python.deals == 1500
    assert [h.shares for h in compiled.hands] == [h.shares for h in python.hands]


def test_exact_counts_split_among_threads_are_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    from croupier.poker import _threads

    monkeypatch.setattr(_threads, "cores", lambda: 2)
    split = equity(["AsAh", "KsKh", "7c7d"], board="2s")
    hands = equity(["AA", "KK"], board="Qs 7h")
    monkeypatch.setattr(_threads, "MAX_THREADS", 1)
    assert [h.shares for h in split.hands] == [
        h.shares for h in equity(["AsAh", "KsKh", "7c7d"], board="2s").hands
    ]
    assert [h.shares for h in hands.hands] == [
        h.shares for h in equity(["AA", "KK"], board="Qs 7h").hands
    ]


def test_the_memo_of_many_combos_counts_the_same() -> None:
    """With more combos than the matchups name, the kernel values a combo when a matchup
    first needs it on a board (not every combo at once): the counts are the same."""
    from croupier._core import poker_eval
    from croupier.poker.equity import _colex
    from croupier.poker.evaluate import lookup
    from croupier.poker.tables import tables

    t = tables()
    plan = plan_equity(["AsAh", "KK", "7c7d"], board="2s 9d 4c 5h")
    code, mask = plan._given()
    totals = _colex(t.card_code[plan.available], 1) + np.uint64(code)
    masks = _colex(t.card_bit[plan.available], 1) | np.uint64(mask)
    combo_code, combo_mask, starts = plan._combos
    assert plan.matchups is not None
    picks = plan._picks(plan.matchups, starts)
    held = np.bitwise_or.reduce(combo_mask[picks[:, plan.ranged]], axis=1)
    counted = []
    for pad in (0, 100):  # 100 combos no matchup names: far more combos than needed
        codes = np.concatenate([combo_code, np.full(pad, combo_code[0])])
        bits = np.concatenate([combo_mask, np.full(pad, combo_mask[0])])
        counts = np.zeros((3, 3), np.int64)
        done = poker_eval.holdem_boards(
            lookup(7), totals, masks, codes, bits, picks, held, counts, 0, len(totals)
        )
        counted.append((done, counts.tolist()))
    expected = equity(["AsAh", "KK", "7c7d"], board="2s 9d 4c 5h", engine="python")
    assert counted[0] == counted[1] == (expected.deals, [list(h.shares) for h in expected.hands])


def test_a_bad_engine_is_refused_before_any_work() -> None:
    from croupier.errors import CroupierError

    with pytest.raises(CroupierError, match="numpy engines are gone"):
        equity(["AsAh", "KsKh"], engine="numpy")  # type: ignore[arg-type]
    with pytest.raises(CroupierError, match="engine='fast'"):
        equity(["AsAh", "KsKh"], trials=10, seed="x", engine="fast")  # type: ignore[arg-type]


def test_progress_hears_every_deal() -> None:
    seen: list[int] = []
    result = equity(["AsKs", "QhQd"], board="2s7s3c", progress=seen.append)
    assert sum(seen) == result.deals == 990
    seen.clear()
    equity(["AA", "KK"], trials=70_000, seed="p", progress=seen.append)
    # trials are counted in chunks of at most 8,192 (the clock is read between them)
    assert sum(seen) == 70_000 and len(seen) == 9 and max(seen) == 8192


@pytest.mark.parametrize(
    ("hands", "board", "dead", "message"),
    [
        (["AsKs"], "", "", "2 to 10 hands, not 1"),
        (["22"] * 11, "", "", "2 to 10 hands, not 11"),
        (["AsKs", "AsQd"], "", "", "card 'AS' is dealt twice"),
        (["AsKs", "QhQd"], "Ks 2c 3c", "", "card 'KS' is dealt twice"),
        (["AsKs", "QhQd"], "2c 3c 4c 5c 6c 7c", "", "at most 5 cards, not 6"),
        (["AsKs", "QhQdJd"], "", "", "2 cards, not 3"),
        (["AsKsQsJs", "2c2d"], "", "", "4 to 6 cards, not 2"),
        (["AsKsQsJs", "2c2d3c"], "", "", "4 to 6 cards, not 3"),
        (["AsAh", "AA"], "", "Ad", "'AA' has no combo left"),
        (["AsKs", "QQ+x"], "", "", "bad range token 'QQ+x'"),
        (["QsJs", "AA"], "Ad Ac", "Ah", "'AA' has no combo left"),
    ],
)
def test_bad_equity_input_is_one_line(
    hands: list[str], board: str, dead: str, message: str
) -> None:
    with pytest.raises((PokerError, RangeNotationError)) as info:
        equity(hands, board=board, dead=dead)
    assert message in str(info.value) and "\n" not in str(info.value)


def test_too_many_cards_and_bad_trials() -> None:
    from tests.poker_reference import number_text

    hands = [" ".join(number_text(c) for c in range(6 * i, 6 * i + 6)) for i in range(8)]
    with pytest.raises(PokerError, match="the board needs 5 more and 4 remain"):
        equity(hands)
    with pytest.raises(PokerError, match="trials= must be a whole number"):
        equity(["AsKs", "QhQd"], trials=0)
    with pytest.raises(PokerError, match="a list of hands"):
        equity("AsKs QhQd")  # type: ignore[arg-type]


def test_every_kind_of_seed_is_taken_as_every_other_seed_is() -> None:
    # a whole number is its decimal text, bytes are their hex: spelling (as deal(), shuffle())
    def run(seed: object) -> object:
        return equity(["AsAh", "KsKh"], seed=seed, trials=3000).hands[0].equity  # type: ignore[arg-type]

    assert run(42) == run("42")
    assert run(b"*") == run("hex:2a")
    assert run(42) != run(b"*")
    with pytest.raises(SeedError, match="not float"):
        run(4.2)
