"""Equity: how often each hand wins, ties and what share of the pot it takes.

:func:`equity` takes 2 to 10 hands — hold'em hole cards (``"AsKs"``), hand
ranges (``"QQ+, AKs"``, :mod:`croupier.poker.ranges`) or Omaha hands of 4 to
6 cards — with an optional ``board`` (0 to 5 cards) and ``dead`` cards, and
counts the showdowns.  A pot that ``w`` hands split gives each ``1/w``;
``equity = win + (the tie shares)``.

**Exact** (``method == "exact"``): every *matchup* (one combo of each range,
no card twice) meets every board the remaining cards can make; the counts
are integers and the shares exact :class:`~fractions.Fraction` values.
Hand ranges weigh every matchup alike.

**Monte Carlo** (``method == "monte-carlo"``): ``trials`` random matchups and
boards drawn by ``croupier-equity-mc/1`` (below) from a key that comes from
the OS CSPRNG, a ``seed``, your ``entropy`` or any random ``source``; the result has a 95%
confidence interval for each equity (normal approximation with the sample
variance of the per-trial pot shares).

**Which one.**  ``exact=True`` enumerates, ``trials=N`` samples.  With
neither, croupier enumerates when the showdowns to count (*deals*: matchups
× boards per matchup) are at most :data:`EXACT_LIMIT` (100,000,000), and
otherwise samples :data:`DEFAULT_TRIALS` trials; the result always says which
(``method``).  Every hold'em matchup of fixed hands is exact by this rule:
heads-up preflop is 1,712,304 boards, three hands preflop 1,370,754.

>>> r = equity(["AsAh", "KsKh"])
>>> r.method, r.deals, r.hands[0].equity
('exact', 1712304, Fraction(707495, 856152))
>>> r = equity(["AsKs", "QhQd"], board="2s7sQc")
>>> [str(h.equity) for h in r.hands], r.deals
(['23/90', '67/90'], 990)

``croupier-equity-mc/1``: the key is 32 bytes (from the seed: the first
256 bits of its ``croupier-seeded/1`` stream with purpose
``croupier-equity-mc/1``).  Candidates come in batches of 65,536; batch
``b`` reads ``SHAKE-128(key || b"croupier-equity-mc/1" || b as 8-byte
big-endian)`` as big-endian 32-bit words, ``D`` per candidate: first one per
hand with several combos (in hand order: the combo's index in the range),
then one per missing board card.  A word ``u`` gives a number below ``n`` as
``u mod n`` when ``u < 2**32 - 2**32 mod n``; otherwise, or when two hands
share a card, the candidate is rejected.  The board: the cards that are not
on the board, dead or in a hand, in card-number order, are partly shuffled
(Fisher–Yates from the front: position ``s`` swaps with ``s + (word mod
(m - s))``) and the first missing cards taken.  The accepted candidates, in
order, are the trials.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import comb
from typing import Literal, TypeVar

import numpy as np
import numpy.typing as npt

from croupier._core import poker_eval
from croupier._core.engines import Engine, resolve
from croupier.algorithm_ids import EQUITY_MC
from croupier.cards import Card, parse_cards
from croupier.durations import duration_text
from croupier.errors import CardNotationError, excerpt
from croupier.poker._threads import run_parts
from croupier.poker.evaluate import (
    CardsLike,
    _best_value,
    _omaha_value,
    card_number,
    lookup,
    number_card,
    to_cards,
)
from croupier.poker.ranges import HandRange, parse_range
from croupier.poker.tables import tables
from croupier.poker.values import PokerError
from croupier.randomness.keyed_blocks import keyed_block
from croupier.randomness.options import resolve_source
from croupier.randomness.purposes import Purpose
from croupier.randomness.seeded import Seed
from croupier.randomness.source import RandomSource

__all__ = [
    "DEFAULT_TRIALS",
    "EXACT_LIMIT",
    "MAX_EXACT_DEALS",
    "MAX_MATCHUPS",
    "MAX_TRIALS",
    "MC_ALGORITHM_ID",
    "MC_ESTIMATE_AFTER",
    "MC_ESTIMATE_BATCHES",
    "MC_TIME_BUDGET",
    "Clock",
    "EquityPlan",
    "EquityResult",
    "HandEquity",
    "Progress",
    "equity",
    "plan_equity",
]

MC_ALGORITHM_ID = EQUITY_MC
"""Id and version of the Monte Carlo sampler; a change that alters any trial bumps it."""

EXACT_LIMIT = 100_000_000
"""Without ``exact=`` or ``trials=``: enumerate when there are at most this many deals."""

MAX_EXACT_DEALS = 10_000_000_000
"""``exact=True`` refuses more deals than this (it would run for hours)."""

MAX_MATCHUPS = 10_000_000
"""Exact enumeration lists the matchups of the ranges; it refuses ranges whose sizes multiply
to more than this (and without ``exact=`` they are sampled)."""

DEFAULT_TRIALS = 1_000_000
"""Monte Carlo trials when the deals are too many to enumerate and ``trials`` is not given."""

MAX_TRIALS = 10_000_000_000
"""The most trials one run takes."""

MC_TIME_BUDGET = 300.0
"""Seconds a Monte Carlo run may take without ``time_limit=``: a run whose first batches
estimate a longer time is refused at once, with the estimate and what to change."""

MC_ESTIMATE_AFTER = 1.0
"""Seconds (or :data:`MC_ESTIMATE_BATCHES` batches, whichever comes first) of sampling
after which a Monte Carlo run estimates how long all its trials take (from the rate of
every batch but the first, which warms up)."""

MC_ESTIMATE_BATCHES = 16
"""Batches of 65,536 candidates after which a Monte Carlo run estimates its time at the
latest."""

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""

Progress = Callable[[int], None]
"""Called with how many more deals (exact) or trials (Monte Carlo) are done."""

Clock = Callable[[], float]
"""Seconds from an arbitrary start, never going back (:func:`time.monotonic`)."""

Game = Literal["auto", "holdem", "omaha"]
T = TypeVar("T")

_BATCH = 65536
_EMPTY_BATCHES = 64  # batches in a row with no trial: the ranges (nearly) never fit together
_WORK = 1 << 22  # exact: evaluations between progress reports
_PARALLEL_WORK = 1 << 17  # exact: evaluations a thread must have before a call is split
_TRIAL_CHUNK = 8192  # accepted trials evaluated together: the clock is read between chunks


@dataclass(frozen=True)
class HandEquity:
    """One hand's result: exact fractions, or Monte Carlo estimates with a 95% interval."""

    hand: str
    """The hand as given (cards, or range notation)."""
    combos: int
    """How many combos of it can be dealt (1 for fixed cards)."""
    win: Fraction
    """The probability that this hand alone wins."""
    tie: Fraction
    """The probability that it splits the pot with others."""
    equity: Fraction
    """Its expected share of the pot: ``win`` plus its part of the ties."""
    shares: tuple[int, ...]
    """``shares[w - 1]``: deals (or trials) in which it is one of ``w`` winners."""
    interval: tuple[float, float] | None = None
    """Monte Carlo: a 95% confidence interval for ``equity`` (``None`` when exact)."""

    def to_json(self) -> dict[str, object]:
        """The result as JSON: fractions as ``"p/q"`` strings, with percentages."""
        out: dict[str, object] = {
            "hand": self.hand,
            "combos": self.combos,
            "equity": str(self.equity),
            "win": str(self.win),
            "tie": str(self.tie),
            "equity_percent": round(100 * float(self.equity), 4),
            "win_percent": round(100 * float(self.win), 4),
            "tie_percent": round(100 * float(self.tie), 4),
            "shares": list(self.shares),
        }
        if self.interval is not None:
            out["interval_percent"] = [round(100 * x, 4) for x in self.interval]
        return out


@dataclass(frozen=True)
class EquityResult:
    """What :func:`equity` found, and how."""

    hands: tuple[HandEquity, ...]
    board: tuple[Card, ...]
    dead: tuple[Card, ...]
    game: str
    """``holdem`` or ``omaha``."""
    method: str
    """``exact`` or ``monte-carlo``."""
    deals: int
    """Showdowns counted: every matchup with every board (exact), or the trials."""
    matchups: int | None = None
    """Exact: the matchups (one combo of every hand, no card twice) counted."""
    boards: int | None = None
    """Exact: the boards each matchup meets (``deals == matchups * boards``)."""
    source: str | None = None
    """Monte Carlo: where the randomness came from (``seeded``, ``os-csprng``, ...)."""
    algorithm: str | None = field(default=None)
    """Monte Carlo: :data:`MC_ALGORITHM_ID`."""
    requested: int | None = None
    """Monte Carlo: the trials asked for (``deals`` is fewer when the time limit stopped it)."""
    stopped: str | None = None
    """Monte Carlo: ``"time-limit"`` when ``time_limit=`` ended the run before ``requested``
    trials (``deals`` trials were done: the first ones of the same stream)."""

    def to_json(self) -> dict[str, object]:
        """The result as a JSON object."""
        out: dict[str, object] = {
            "game": self.game,
            "board": [c.code for c in self.board],
            "dead": [c.code for c in self.dead],
            "method": self.method,
            "deals" if self.method == "exact" else "trials": self.deals,
        }
        if self.method == "exact":
            out["matchups"] = self.matchups
            out["boards"] = self.boards
        else:
            out["algorithm"] = self.algorithm
            out["source"] = self.source
            if self.stopped is not None:
                out["stopped"] = self.stopped
                out["trials_requested"] = self.requested
        out["hands"] = [h.to_json() for h in self.hands]
        return out


@dataclass(frozen=True)
class _Player:
    label: str
    combos: npt.NDArray[np.uint8]  # (R, hole cards)
    fixed: bool


def _player(hand: CardsLike | HandRange) -> _Player:
    """One hand argument: fixed cards (text or cards), or a hold'em range (text or
    :class:`HandRange`).  Text that is not a list of two or more cards is a range."""
    if isinstance(hand, HandRange):
        found = hand
    elif isinstance(hand, str):
        try:
            cards = parse_cards(hand)
        except CardNotationError:
            cards = []
        if len(cards) >= 2 and all(c.suit is not None for c in cards):
            numbers = [card_number(c) for c in to_cards(hand, "hand")]
            return _Player(hand.strip(), np.array([numbers], np.uint8), True)
        found = parse_range(hand)
    else:
        given = to_cards(hand, "hand")
        numbers = [card_number(c) for c in given]
        return _Player("".join(c.code for c in given), np.array([numbers], np.uint8), True)
    combos = np.array(found.combos, np.uint8).reshape(-1, 2)
    label = hand.strip() if isinstance(hand, str) else str(found)
    return _Player(label, combos, len(found) == 1)


def _dealable(players: Sequence[_Player], fixed: set[int]) -> list[_Player]:
    """The players with the combos that do not touch the fixed cards."""
    out = []
    for p in players:
        if p.fixed:
            out.append(p)
            continue
        keep = ~np.isin(p.combos, np.array(sorted(fixed), np.int64)).any(axis=1)
        if not keep.any():
            raise PokerError(
                f"the range {excerpt(p.label)} has no combo left beside the board, dead cards "
                "and the other hands"
            )
        out.append(_Player(p.label, p.combos[keep], False))  # its cards stay in the deck
    return out


def _colex(values: npt.NDArray[np.uint64], k: int) -> npt.NDArray[np.uint64]:
    """The sums of ``values`` over every ``k``-subset of its positions, in colex order.

    Colex order lists the subsets of the first ``i`` positions first, so the
    ``k``-subsets ending at position ``i`` are the ``(k-1)``-subsets of the
    first ``i`` positions (a prefix of the previous list) plus ``values[i]``.
    With card codes or card bits this gives every board's code sum or mask in
    a few vectorised passes.

    >>> _colex(np.array([1, 10, 100], np.uint64), 2).tolist()
    [11, 101, 110]
    """
    n = len(values)
    if k == 0:
        return np.zeros(1, np.uint64)
    sums = values.astype(np.uint64)
    for j in range(2, k + 1):
        out = np.empty(comb(n, j), np.uint64)
        at = 0
        for i in range(j - 1, n):
            part = sums[: comb(i, j - 1)]
            np.add(part, values[i], out=out[at : at + len(part)])
            at += len(part)
        sums = out
    return sums


def _colex_subsets(n: int, k: int) -> npt.NDArray[np.uint8]:
    """Every ``k``-subset of ``range(n)`` in colex order (as :func:`_colex` sums them).

    >>> _colex_subsets(4, 2).tolist()
    [[0, 1], [0, 2], [1, 2], [0, 3], [1, 3], [2, 3]]
    """
    rows = np.zeros((1, 0), np.uint8)
    for j in range(1, k + 1):
        out = np.empty((comb(n, j), j), np.uint8)
        at = 0
        for i in range(j - 1, n):
            part = rows[: comb(i, j - 1)]
            out[at : at + len(part), :-1] = part
            out[at : at + len(part), -1] = i
            at += len(part)
        rows = out
    return rows


def _mask_of(numbers: Iterable[int]) -> int:
    out = 0
    for n in numbers:
        out |= 1 << int(n)
    return out


class EquityPlan:
    """A checked equity problem and the method chosen for it (see :func:`plan_equity`)."""

    def __init__(
        self,
        hands: Sequence[CardsLike | HandRange],
        board: CardsLike = (),
        dead: CardsLike = (),
        *,
        trials: int | None = None,
        exact: bool | None = None,
        game: Game = "auto",
    ) -> None:
        if isinstance(hands, str):
            raise PokerError("hands= is a list of hands, e.g. ['AsKs', 'QhQd']")
        if not 2 <= len(hands) <= 10:
            raise PokerError(f"equity needs 2 to 10 hands, not {len(hands)}")
        self.board = tuple(to_cards(board, "board"))
        self.dead = tuple(to_cards(dead, "dead cards"))
        if len(self.board) > 5:
            raise PokerError(f"a board has at most 5 cards, not {len(self.board)}")
        players = [_player(h) for h in hands]
        sizes = {p.combos.shape[1] for p in players}
        if game == "auto":
            game = "omaha" if max(sizes) >= 4 else "holdem"
        if game not in ("holdem", "omaha"):
            raise PokerError(f"game={game!r} is not one of 'auto', 'holdem', 'omaha'")
        for p in players:
            size = p.combos.shape[1]
            if game == "holdem" and size != 2:
                raise PokerError(f"a hold'em hand has 2 cards, not {size}: {excerpt(p.label)}")
            if game == "omaha" and not 4 <= size <= 6:
                raise PokerError(f"an Omaha hand has 4 to 6 cards, not {size}: {excerpt(p.label)}")
        self.game: str = game
        fixed_cards = [card_number(c) for c in (*self.board, *self.dead)]
        for p in players:
            if p.fixed:
                fixed_cards += p.combos[0].tolist()
        seen: set[int] = set()
        for n in fixed_cards:
            if n in seen:
                raise PokerError(
                    f"card {number_card(n).code!r} is dealt twice (hands, board and dead cards)"
                )
            seen.add(n)
        self.players = _dealable(players, seen)
        self.fixed = seen
        self.available = np.array([c for c in range(52) if c not in seen], np.uint8)
        self.missing = 5 - len(self.board)
        self.ranged = [i for i, p in enumerate(self.players) if not p.fixed]
        left = len(self.available) - 2 * len(self.ranged)
        if left < self.missing:
            raise PokerError(
                f"not enough cards: the board needs {self.missing} more and {max(left, 0)} remain"
            )
        self.boards_per_matchup = comb(left, self.missing)
        self.matchups, self.matchup_count = self._matchups()
        self.deals = self.matchup_count * self.boards_per_matchup
        if self.matchup_count == 0:
            raise PokerError("the ranges have no matchup without a card dealt twice")
        if trials is not None:
            if exact:
                raise PokerError("give exact= or trials=, not both")
            if isinstance(trials, bool) or not isinstance(trials, int) or trials < 1:
                raise PokerError(f"trials= must be a whole number >= 1, got {trials!r}")
            if trials > MAX_TRIALS:
                raise PokerError(f"trials= is at most {MAX_TRIALS:,}, got {trials:,}")
            self.method, self.total = "monte-carlo", trials
        elif exact or (exact is None and self.deals <= EXACT_LIMIT and self.matchups is not None):
            if self.matchups is None:
                raise PokerError(
                    f"exact enumeration would list more than {MAX_MATCHUPS:,} matchups "
                    f"(the ranges multiply to {self._count_text(self.matchup_count)}); "
                    "use trials= for Monte Carlo"
                )
            if self.deals > MAX_EXACT_DEALS:
                raise PokerError(
                    f"exact enumeration of {self._count_text(self.deals)} deals would take too "
                    f"long (at most {MAX_EXACT_DEALS:,}); use trials= for Monte Carlo"
                )
            self.method, self.total = "exact", self.deals
        else:
            self.method, self.total = "monte-carlo", DEFAULT_TRIALS

    @staticmethod
    def _count_text(count: int) -> str:
        return f"{count:,}" if count < 10**15 else f"about 10^{len(str(count)) - 1}"

    def _matchups(self) -> tuple[npt.NDArray[np.int32] | None, int]:
        """Every matchup of the ranged hands as combo indices ``(T, ranged)`` and ``T``; the
        array is ``None`` when the ranges' sizes multiply to more than :data:`MAX_MATCHUPS`
        (then ``T`` is that product, an upper bound)."""
        if not self.ranged:
            return np.zeros((1, 0), np.int32), 1
        bound = math.prod(len(self.players[i].combos) for i in self.ranged)
        bits = tables().card_bit
        masks = [
            bits[self.players[i].combos].astype(np.uint64).sum(axis=1, dtype=np.uint64)
            for i in self.ranged
        ]
        if bound > MAX_MATCHUPS:
            return None, bound
        rows = np.arange(len(masks[0]), dtype=np.int32)[:, None]
        held = masks[0]
        for m in masks[1:]:
            left = np.repeat(np.arange(len(rows)), len(m))
            right = np.tile(np.arange(len(m)), len(rows))
            ok = (held[left] & m[right]) == 0
            rows = np.column_stack([rows[left[ok]], right[ok].astype(np.int32)])
            held = held[left[ok]] | m[right[ok]]
        return rows, len(rows)

    # -- running -------------------------------------------------------------------

    def run(
        self,
        *,
        seed: Seed | None = None,
        entropy: str | None = None,
        source: RandomSource | None = None,
        progress: Progress | None = None,
        time_limit: float | None = None,
        clock: Clock | None = None,
        engine: Engine = "auto",
    ) -> EquityResult:
        """Count (exact) or sample (Monte Carlo); ``progress`` hears how far it got.

        Monte Carlo keeps to a time: ``time_limit`` seconds stops it after the trials done
        by then (at least one; the result says ``stopped``), and without one a run whose
        first batches estimate more than :data:`MC_TIME_BUDGET` seconds is refused with
        that estimate.  Exact counting ignores both.  ``clock`` (default
        :func:`time.monotonic`) is read between batches of trials.  ``engine="python"``
        values and tallies every showdown with the scalar evaluator (the specification:
        the same counts, thousands of times slower).
        """
        resolve(engine)  # a bad engine is refused before any work
        random = resolve_source(seed, entropy, source, purpose=Purpose.EQUITY_MC)  # (one door)
        if time_limit is not None and (
            isinstance(time_limit, bool)
            or not isinstance(time_limit, (int, float))
            or not 0 < time_limit < math.inf
        ):
            raise PokerError(f"time_limit= must be a number of seconds > 0, got {time_limit!r}")
        if self.method == "exact":
            counts = self._exact(progress, engine)
            return self._result(counts, self.deals, None)
        key, kind = _key(random)
        if clock is None:
            import time

            clock = time.monotonic
        counts, done = self._monte_carlo(key, self.total, progress, time_limit, clock, engine)
        result = self._result(counts, done, kind)
        stopped = "time-limit" if done < self.total else None
        return dataclasses.replace(result, requested=self.total, stopped=stopped)

    def _result(
        self,
        counts: npt.NDArray[np.int64],
        deals: int,
        source: str | None,
    ) -> EquityResult:
        """The result of ``counts[p, w - 1]`` over ``deals``; ``source`` names the randomness
        of a Monte Carlo run (``None``: exact)."""
        hands = []
        for p, player in enumerate(self.players):
            row = [int(x) for x in counts[p]]
            win = Fraction(row[0], deals)
            tie = Fraction(sum(row[1:]), deals)
            share = Fraction(sum(Fraction(c, w) for w, c in enumerate(row, start=1)), deals)
            interval = None
            if source is not None:  # Monte Carlo: the interval from the shares' variance
                second = Fraction(sum(Fraction(c, w * w) for w, c in enumerate(row, start=1)))
                variance = (second / deals - share * share) * deals / max(deals - 1, 1)
                half = Z95 * math.sqrt(float(variance) / deals)
                interval = (max(0.0, float(share) - half), min(1.0, float(share) + half))
            hands.append(
                HandEquity(
                    hand=player.label,
                    combos=len(player.combos),
                    win=win,
                    tie=tie,
                    equity=share,
                    shares=tuple(row),
                    interval=interval,
                )
            )
        return EquityResult(
            hands=tuple(hands),
            board=self.board,
            dead=self.dead,
            game=self.game,
            method=self.method,
            deals=deals,
            matchups=self.matchup_count if source is None else None,
            boards=self.boards_per_matchup if source is None else None,
            source=source,
            algorithm=None if source is None else MC_ALGORITHM_ID,
        )

    def _given(self) -> tuple[int, int]:
        """Code sum and card mask of the given board cards."""
        t = tables()
        given = [card_number(c) for c in self.board]
        return int(t.card_code[given].sum()) if given else 0, _mask_of(given)

    def _board_parts(
        self, boards: npt.NDArray[np.uint8]
    ) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint64]]:
        """Code sums and card masks of whole boards (given cards plus ``boards`` rows)."""
        t = tables()
        code, mask = self._given()
        total = np.full(len(boards), code, np.uint64)
        masks = np.full(len(boards), mask, np.uint64)
        for column in np.ascontiguousarray(boards.T):
            total += t.card_code[column]
            masks |= t.card_bit[column]
        return total, masks

    def _whole_boards(self, boards: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
        given = np.array([card_number(c) for c in self.board], np.uint8)
        whole = np.concatenate([np.broadcast_to(given, (len(boards), len(given))), boards], axis=1)
        return np.ascontiguousarray(whole, np.uint8)

    @functools.cached_property
    def _combos(self) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint64], list[int]]:
        """Every hand's combos one after another: their code sums and card masks, and where
        each hand's combos start (hold'em)."""
        t = tables()
        codes, masks, starts = [], [], [0]
        for p in self.players:
            codes.append(t.card_code[p.combos].sum(axis=1, dtype=np.uint64))
            masks.append(np.bitwise_or.reduce(t.card_bit[p.combos], axis=1))
            starts.append(starts[-1] + len(p.combos))
        return np.concatenate(codes), np.concatenate(masks), starts

    def _picks(
        self, combos: npt.NDArray[np.integer], starts: Sequence[int]
    ) -> npt.NDArray[np.int32]:
        """Each row's combo of every hand as an index into :attr:`_combos`: ``combos`` holds
        the ranged hands' combo indices (one column each)."""
        picks = np.empty((len(combos), len(self.players)), np.int32)
        for p in range(len(self.players)):
            picks[:, p] = starts[p]
        for j, i in enumerate(self.ranged):
            picks[:, i] += combos[:, j].astype(np.int32)
        return picks

    def _holes(self) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int32]]:
        """The Omaha hands (fixed) as rows of 6 card numbers, and how many each holds."""
        holes = np.zeros((len(self.players), 6), np.uint8)
        sizes = np.zeros(len(self.players), np.int32)
        for p, player in enumerate(self.players):
            hole = player.combos[0]
            holes[p, : len(hole)] = hole
            sizes[p] = len(hole)
        return holes, sizes

    def _exact(self, progress: Progress | None, engine: Engine) -> npt.NDArray[np.int64]:
        if resolve(engine) == "python":
            return self._exact_python(progress)
        players = len(self.players)
        counts = np.zeros((players, players), np.int64)
        matchups = self.matchups
        assert matchups is not None
        count = comb(len(self.available), self.missing)  # boards
        work: Callable[[int, int], tuple[npt.NDArray[np.int64], int]]
        if self.game == "holdem":
            t = tables()
            code, mask = self._given()
            every_total = _colex(t.card_code[self.available], self.missing) + np.uint64(code)
            every_mask = _colex(t.card_bit[self.available], self.missing) | np.uint64(mask)
            combo_code, combo_mask, starts = self._combos
            picks = self._picks(matchups, starts)
            held = np.zeros(len(matchups), np.uint64)
            for i in self.ranged:
                held |= combo_mask[picks[:, i]]
            seven = lookup(7)
            per_board = len(matchups) * players

            def work(lo: int, hi: int) -> tuple[npt.NDArray[np.int64], int]:
                part = np.zeros_like(counts)
                done = poker_eval.holdem_boards(
                    seven,
                    every_total,
                    every_mask,
                    combo_code,
                    combo_mask,
                    picks,
                    held,
                    part,
                    lo,
                    hi,
                )
                return part, done

        else:
            subsets = _colex_subsets(len(self.available), self.missing)
            boards = self._whole_boards(self.available[subsets])
            holes, sizes = self._holes()
            five = lookup(5)
            per_board = 60 * players

            def work(lo: int, hi: int) -> tuple[npt.NDArray[np.int64], int]:
                part = np.zeros_like(counts)
                poker_eval.omaha_boards(five, boards, holes, sizes, part, lo, hi)
                return part, hi - lo

        step = max(256, _WORK // per_board)  # boards a progress report
        least = max(16, _PARALLEL_WORK // per_board)  # boards a thread
        counted = 0
        for first in range(0, count, step):
            last = min(first + step, count)
            for part, done in run_parts(_shifted(work, first), last - first, least):
                counts += part
                counted += done
                if progress is not None:
                    progress(done)
        if counted != self.deals:  # the enumeration must meet its own count
            raise AssertionError(f"counted {counted} deals, expected {self.deals}")
        return counts

    def _value(self, hole: Sequence[int], board: Sequence[int]) -> int:
        """One hand's value by the rules (the scalar evaluator)."""
        if self.game == "omaha":
            return _omaha_value(hole, board)
        return _best_value([*hole, *board])

    def _holes_of(self, row: Sequence[int]) -> list[list[int]]:
        """Every hand's cards for one matchup (the ranged hands' combo indices)."""
        return [
            p.combos[row[self.ranged.index(i)] if i in self.ranged else 0].tolist()
            for i, p in enumerate(self.players)
        ]

    def _exact_python(self, progress: Progress | None) -> npt.NDArray[np.int64]:
        """:meth:`_exact` by the specification: every matchup on every board the other cards
        make, each hand valued by the scalar evaluator."""
        players = len(self.players)
        counts = np.zeros((players, players), np.int64)
        assert self.matchups is not None
        given = [card_number(c) for c in self.board]
        boards = list(itertools.combinations(self.available.tolist(), self.missing))
        counted = 0
        for row in self.matchups.tolist():
            holes = self._holes_of(row)
            held = {c for i in self.ranged for c in holes[i]}
            done = 0
            for board in boards:
                if held.isdisjoint(board):
                    whole = [*given, *board]
                    _tally_one([self._value(h, whole) for h in holes], counts)
                    done += 1
            counted += done
            if progress is not None:
                progress(done)
        if counted != self.deals:
            raise AssertionError(f"counted {counted} deals, expected {self.deals}")
        return counts

    def _monte_carlo(
        self,
        key: bytes,
        trials: int,
        progress: Progress | None,
        time_limit: float | None,
        clock: Clock,
        engine: Engine = "auto",
    ) -> tuple[npt.NDArray[np.int64], int]:
        """The counts of the first ``trials`` trials, or of those done within
        ``time_limit`` seconds, and how many that is."""
        players = len(self.players)
        counts = np.zeros((players, players), np.int64)
        tables()  # built once, before the clock starts
        start = clock()
        done = 0
        batch = 0
        empty = 0
        estimated = time_limit is not None  # a run with a time limit needs no estimate
        warm = (0.0, 0)  # seconds and trials of the first batch
        while done < trials:
            combos, boards = self.sample(key, batch)
            batch += 1
            take = min(len(boards), trials - done)
            if take == 0:
                empty += 1
                if empty == _EMPTY_BATCHES:
                    raise PokerError(
                        f"the ranges made no matchup without a card dealt twice in "
                        f"{_EMPTY_BATCHES * _BATCH:,} tries"
                    )
            else:
                empty = 0
            for first in range(0, take, _TRIAL_CHUNK):
                last = min(take, first + _TRIAL_CHUNK)
                self._count_trials(combos[first:last], boards[first:last], counts, engine)
                done += last - first
                if progress is not None:
                    progress(last - first)
                elapsed = clock() - start
                if time_limit is not None and elapsed >= time_limit and done < trials:
                    return counts, done
            elapsed = clock() - start
            if time_limit is not None and elapsed >= time_limit and done < trials:
                if done == 0:
                    raise PokerError(
                        f"no trial in the time limit ({time_limit:g} s): none of the first "
                        f"{batch * _BATCH:,} candidates fitted the ranges without a card "
                        "dealt twice"
                    )
                return counts, done
            if batch == 1:  # the first batch warms up: the estimate starts after it
                warm = (elapsed, done)
            elif not estimated and (batch >= MC_ESTIMATE_BATCHES or elapsed >= MC_ESTIMATE_AFTER):
                estimated = True
                _check_budget(trials, done - warm[1], (batch - 1) * _BATCH, elapsed - warm[0], done)
        return counts, done

    def _count_trials(
        self,
        combos: npt.NDArray[np.int64],
        boards: npt.NDArray[np.uint8],
        counts: npt.NDArray[np.int64],
        engine: Engine,
    ) -> None:
        """Add the showdowns of trials (combo indices and missing board cards) to ``counts``."""
        if resolve(engine) == "python":
            given = [card_number(c) for c in self.board]
            for row, board in zip(combos.tolist(), boards.tolist(), strict=True):
                whole = [*given, *board]
                _tally_one([self._value(h, whole) for h in self._holes_of(row)], counts)
            return
        if self.game == "holdem":
            board_total, board_mask = self._board_parts(boards)
            combo_code, combo_mask, starts = self._combos
            picks = self._picks(combos, starts)
            poker_eval.holdem_trials(
                lookup(7),
                board_total,
                board_mask,
                combo_code,
                combo_mask,
                picks,
                counts,
                0,
                len(boards),
            )
        else:
            holes, sizes = self._holes()
            full = self._whole_boards(boards)
            poker_eval.omaha_boards(lookup(5), full, holes, sizes, counts, 0, len(boards))

    def sample(self, key: bytes, batch: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.uint8]]:
        """The accepted candidates of batch ``batch`` of ``croupier-equity-mc/1``: each
        ranged hand's combo index ``(trials, ranged hands)`` and the missing board cards
        ``(trials, missing)`` as card numbers."""
        draws = len(self.ranged) + self.missing
        data = keyed_block(key, MC_ALGORITHM_ID.encode("ascii"), batch, 4 * draws * _BATCH)
        words = np.frombuffer(data, ">u4").astype(np.uint64).reshape(_BATCH, draws)
        ok = np.ones(_BATCH, bool)

        def below(column: int, n: int) -> npt.NDArray[np.int64]:
            limit = (1 << 32) - (1 << 32) % n
            w = words[:, column]
            ok[w >= limit] = False
            return (w % np.uint64(n)).astype(np.int64)

        bits = tables().card_bit
        combos = np.zeros((_BATCH, len(self.ranged)), np.int64)
        held = np.zeros(_BATCH, np.uint64)
        for j, i in enumerate(self.ranged):
            options = self.players[i].combos
            combos[:, j] = below(j, len(options))
            m = bits[options].astype(np.uint64).sum(axis=1, dtype=np.uint64)[combos[:, j]]
            ok &= (held & m) == 0
            held |= m
        free = ((held[:, None] >> self.available.astype(np.uint64)[None, :]) & np.uint64(1)) == 0
        m = len(self.available) - 2 * len(self.ranged)
        rows = np.flatnonzero(ok)
        deck = np.broadcast_to(self.available, (_BATCH, len(self.available)))
        if len(rows) == 0:
            return combos[:0], np.zeros((0, self.missing), np.uint8)
        left = deck[rows][free[rows]].reshape(len(rows), m).copy()
        keep = np.ones(len(rows), bool)
        line = np.arange(len(rows))
        for s in range(self.missing):
            n = m - s
            limit = (1 << 32) - (1 << 32) % n
            w = words[rows, len(self.ranged) + s]
            keep &= w < limit
            j = s + (w % np.uint64(n)).astype(np.int64)
            picked = left[line, j].copy()
            left[line, j] = left[:, s]
            left[:, s] = picked
        final = rows[keep]
        return combos[final], left[keep, : self.missing]


def _shifted(work: Callable[[int, int], T], at: int) -> Callable[[int, int], T]:
    """``work`` on rows ``at + lo .. at + hi``."""
    return lambda lo, hi: work(at + lo, at + hi)


def _tally_one(values: Sequence[int], counts: npt.NDArray[np.int64]) -> None:
    """Add one showdown of ``values`` (one per hand) to ``counts[p, w - 1]``: each of the
    ``w`` hands with the best value is one of ``w`` winners."""
    best = max(values)
    winners = list(values).count(best)
    for p, value in enumerate(values):
        if value == best:
            counts[p, winners - 1] += 1


def _check_budget(trials: int, done: int, candidates: int, elapsed: float, before: int) -> None:
    """Refuse a run of ``trials`` when, at the rate of ``done`` trials (of ``candidates``
    tried) in ``elapsed`` seconds, the ``trials - before`` still to do would take more than
    :data:`MC_TIME_BUDGET`."""
    rate = max(done, 1) / max(elapsed, 1e-9)  # no trial yet: as if the next one fitted
    expected = (trials - before) / rate
    if expected <= MC_TIME_BUDGET:
        return
    fit = max(1, int(MC_TIME_BUDGET * rate))
    found = (
        f"{done:,} of {candidates:,} candidates fitted the ranges"
        if done < candidates // 4
        else f"{rate:,.0f} trials a second"
    )
    raise PokerError(
        f"{trials:,} trials would take about {duration_text(expected)} ({found}), more than "
        f"the {duration_text(MC_TIME_BUDGET)} a run may take unless time_limit= is given; "
        f"ask for fewer trials= (about {fit:,} fit in that time), give time_limit= (seconds), "
        "or give hands that share fewer cards"
    )


def _key(source: RandomSource) -> tuple[bytes, str]:
    """The 32-byte key of the Monte Carlo stream (one draw below ``2**256``), and where it
    came from."""
    from croupier.randomness.uniform import UniformSampler

    value = UniformSampler(source).below(1 << 256)
    return value.to_bytes(32, "big"), source.kind


def plan_equity(
    hands: Sequence[CardsLike | HandRange],
    board: CardsLike = (),
    dead: CardsLike = (),
    *,
    trials: int | None = None,
    exact: bool | None = None,
    game: Game = "auto",
) -> EquityPlan:
    """Check an equity problem and choose the method, without running it.

    ``plan.method`` is ``exact`` or ``monte-carlo``, ``plan.total`` the deals or
    trials it will count (for a progress bar), ``plan.deals`` the deals an exact
    count needs.

    >>> plan = plan_equity(["QQ+", "AKs"])
    >>> plan.method, plan.matchup_count, plan.deals
    ('exact', 48, 82190592)
    """
    return EquityPlan(hands, board, dead, trials=trials, exact=exact, game=game)


def equity(
    hands: Sequence[CardsLike | HandRange],
    board: CardsLike = (),
    dead: CardsLike = (),
    *,
    trials: int | None = None,
    exact: bool | None = None,
    game: Game = "auto",
    seed: Seed | None = None,
    entropy: str | None = None,
    source: RandomSource | None = None,
    progress: Progress | None = None,
    time_limit: float | None = None,
    engine: Engine = "auto",
) -> EquityResult:
    """Win, tie and equity of 2 to 10 hands, exact or by Monte Carlo (see the module).

    A Monte Carlo run stops after ``time_limit`` seconds with the trials done by then
    (``result.stopped == "time-limit"``); without one, a run estimated from its first
    batches to take more than :data:`MC_TIME_BUDGET` seconds is refused.  The showdowns
    are valued and tallied by the compiled kernel; ``engine="python"`` does it with the
    scalar evaluator (the same counts; for tests and small problems).

    >>> r = equity(["AhKh", "QQ+"], board="Kd 7c 2s", trials=20_000, seed="doc")
    >>> r.method, r.algorithm, r.deals, r.hands[1].combos
    ('monte-carlo', 'croupier-equity-mc/1', 20000, 10)
    >>> low, high = r.hands[0].interval
    >>> low < float(r.hands[0].equity) < high
    True
    """
    plan = plan_equity(hands, board, dead, trials=trials, exact=exact, game=game)
    return plan.run(
        seed=seed,
        entropy=entropy,
        source=source,
        progress=progress,
        time_limit=time_limit,
        engine=engine,
    )
