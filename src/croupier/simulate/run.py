"""Dealing under a condition: a sampler, the whole condition on every row, exact counts.

A :class:`Simulation` draws numbered rows from a sampler
(:class:`~croupier.simulate.sampler.RejectionSampler`, or smart stacking when
it pays), evaluates the whole condition on every row and keeps the rows that
pass, in order.  The condition is the script's ``condition`` and every fixed
suit length of its ``predeal`` (``spades(north)==1``).  Each kept deal is
exactly uniform over the deals that hold the predealt cards and pass the
condition: every sampler row is uniform over a support that contains all of
them, and the condition is applied in full.

Rows are sampled in batches of a fixed size, whatever ``produce`` and
``generate`` are, and the run stops exactly at the ``produce``-th kept deal or
the ``generate``-th sampled row.  A seeded run is reproducible and
prefix-stable: its first K deals do not depend on ``produce``, ``generate`` or
the batch size, and every run of one seeded simulation is the same.  Without
a seed every run deals afresh: it samples the rows after those that earlier
runs of the simulation sampled, so no two runs share a row.
``docs/constraint-dealing.md`` is the guide.

>>> deals = deal_where("hcp(north) >= 20", 5, seed="demo")
>>> from croupier.bulk.evaluate import hcp
>>> len(deals), bool((hcp(deals, "N") >= 20).all())
(5, True)
"""

from __future__ import annotations

import importlib
import io
import threading
from collections.abc import Callable, Iterator
from dataclasses import field
from fractions import Fraction
from typing import TYPE_CHECKING, Literal, TypeAlias, cast, get_args

import numpy as np
import numpy.typing as npt

import croupier.randomness.source as _source_module
from croupier.bulk.array import DealArray
from croupier.bulk.generate import BULK_ALGORITHM_ID
from croupier.bulk.generate import DEFAULT_BATCH as BULK_BATCH
from croupier.dealing.layout import Layout
from croupier.errors import CroupierError, excerpt
from croupier.frozen import frozen_dataclass
from croupier.randomness.bulk_stream import BulkStream
from croupier.randomness.options import resolve_source
from croupier.randomness.purposes import Purpose
from croupier.randomness.seeded import Seed
from croupier.randomness.source import ForkAware, RandomSource, SourceKind
from croupier.simulate.ast import (
    Binary,
    Expr,
    Script,
)
from croupier.simulate.compile import Compiled, compile_expression, scales_of
from croupier.simulate.predeal import Predeal, PredealLike
from croupier.simulate.sampler import RejectionSampler, Sampler
from croupier.simulate.stats import Report
from croupier.simulate.support import STACKING_ALGORITHM_ID, SupportTrials

if TYPE_CHECKING:
    from concurrent.futures import Future, ThreadPoolExecutor

    from croupier.simulate.draws import Draws


def parse_script(text: str, filename: str = "<script>") -> Script:
    """:func:`croupier.simulate.parse.parse_script` (imported when first used)."""
    from croupier.simulate.parse import parse_script as parse

    return parse(text, filename)


def parse_expression(text: str, filename: str = "<expression>") -> Expr:
    """:func:`croupier.simulate.parse.parse_expression` (imported when first used)."""
    from croupier.simulate.parse import parse_expression as parse

    return parse(text, filename=filename)


__all__ = [
    "AUTO_PILOT",
    "DEFAULT_BATCH",
    "DEFAULT_GENERATE",
    "DEFAULT_PRINTED",
    "DOUBLE_DUMMY_BATCH",
    "LONG_RUN",
    "PER_DEAL_CAP",
    "RUN_SPAN",
    "STACKING_AT_MOST",
    "Condition",
    "RunBatch",
    "Simulation",
    "SimulationError",
    "SimulationResult",
    "Strategy",
    "deal_where",
    "script_statistics",
]

Strategy = Literal["auto", "rejection", "stacking"]
"""How rows are sampled: ``rejection``, ``stacking`` (smart stacking), or ``auto``."""

BoolArray: TypeAlias = npt.NDArray[np.bool_]
IntArray: TypeAlias = npt.NDArray[np.int64]
Condition: TypeAlias = Callable[[DealArray], npt.ArrayLike]
"""A condition written in Python: a deal array in, one truth value per deal out."""
DrawsFactory: TypeAlias = Callable[[str, "npt.ArrayLike | None", int], "Draws"]
"""What gives ``rnd``'s numbers: a purpose, the deals' numbers and their count
(:meth:`Simulation.draws`)."""

DEFAULT_GENERATE = 10_000_000
"""Rows sampled at most when neither the script nor the caller says (``generate``)."""

DEFAULT_PRINTED = 40
"""Deals produced at most, without ``produce``, by a script that prints deals."""

DEFAULT_BATCH = BULK_BATCH
"""Rows sampled per batch (:data:`croupier.bulk.generate.DEFAULT_BATCH`): the same for every
run, whatever ``produce`` and ``generate``."""

DOUBLE_DUMMY_BATCH = 8
"""Rows sampled per batch by a script that solves deals double dummy (``tricks()``, a
good fraction of a second a deal): a run stops close to ``produce`` and hears Ctrl-C.
(A cluster's tasks are longer: :data:`croupier.simulate.distributed.DEFAULT_DD_CHUNK`.)"""

LONG_RUN = 1_000_000
"""Rows from which a run counts as long: it samples the next batch while the current one is
evaluated."""

STACKING_AT_MOST = Fraction(1, 4)
"""``auto`` stacks when the stacked support holds at most this share of the deals."""

AUTO_PILOT = BULK_BATCH
"""Deals ``auto`` deals by rejection before it plans smart stacking: a run that ends
sooner (most runs of a few deals) never pays for a plan, and a plan is never more
than a small multiple of the time already spent."""

RUN_SPAN = 1 << 44
"""Without a seed, run ``k`` of a simulation numbers its deals from ``k * RUN_SPAN``, so
that no two runs share a deal (a run looks at fewer deals than that)."""

_FIRST_ROWS = 4096  # rows of the first piece of a short run's first batch (one stream block)
PER_DEAL_CAP = 1_000
"""A run for a number of deals gives up after this many rows generated per deal asked
(and at least :data:`DEFAULT_GENERATE`): ``deal_where`` and ``croupier deal --where``."""

_STACKING_MODULE = "croupier.simulate.stacking"


class SimulationError(CroupierError):
    """A simulation that cannot run as asked (strategy, limits, condition's result)."""


@frozen_dataclass
class RunBatch:
    """One batch of a run: the deals kept from it, in sequence order, and the totals so far.

    ``generated`` counts the uniform deals looked at so far (dealer's ``Generated``:
    under smart stacking it counts the deals outside the stacked support too, which
    are never dealt since none can pass), ``produced`` the deals kept so far;
    ``bits`` is the random bits this batch consumed (``None`` when the sampler does
    not say); ``numbers`` are the kept deals' numbers in the run (what ``rnd``
    draws depend on); ``sampled`` counts the rows the samplers dealt so far;
    ``stacked`` says whether smart stacking dealt any of them.  ``uniform`` is the
    number of uniform deals the deals looked at stand for: ``generated``, except in a
    run that does not count the deals outside a stacked support (``count=False`` of
    :meth:`Simulation.batches`), where each stacked row stands for ``1 / p`` of them;
    ``produced / uniform`` estimates the share of uniform deals that pass.

    >>> sim = Simulation(parse_script("condition hcp(north) >= 10"), seed="b")
    >>> batch = next(sim.batches(produce=3, generate=100))
    >>> len(batch.deals), batch.produced, batch.generated == int(batch.numbers[-1]) + 1
    (3, 3, True)
    """

    deals: DealArray
    generated: int
    produced: int
    bits: int | None = None
    numbers: IntArray = field(default_factory=lambda: np.zeros(0, np.int64))
    sampled: int = 0
    stacked: bool = False
    uniform: Fraction | None = None

    @property
    def share(self) -> Fraction | None:
        """The estimated share of uniform deals that pass: ``produced / uniform`` (``None``
        before any deal is looked at).

        >>> sim = Simulation(parse_script("condition hcp(north) >= 10"), seed="b")
        >>> batch = next(sim.batches(produce=3, generate=100))
        >>> batch.share == Fraction(3, batch.generated)
        True
        """
        looked = Fraction(self.generated) if self.uniform is None else self.uniform
        return Fraction(self.produced) / looked if looked else None


@frozen_dataclass
class SimulationResult:
    """What :func:`run_script` produced: the deals, the counts, the strategy and the source.

    ``generated`` counts the uniform deals looked at (dealer's meaning, under
    every strategy) and :attr:`acceptance` is ``produced / generated``, the share
    of uniform deals (holding the predealt cards) that pass, as dealer's two
    closing lines give it.  ``probability`` is the exact share of uniform deals
    in the support of the sampler that dealt the deals beyond the first ones (1 for
    rejection); ``numbers`` are the deals' numbers in the run.

    >>> from croupier.simulate.script_run import run_script
    >>> r = run_script("produce 4\\ncondition hcp(north) >= 12", seed="r")
    >>> r.produced, len(r.deals), r.strategy, str(r.source)
    (4, 4, 'rejection', 'seeded')
    """

    deals: DealArray
    generated: int
    produced: int
    strategy: str
    source: str
    probability: Fraction = Fraction(1)
    bits: int | None = None
    report: Report | None = None
    """The statistics of the script's ``average`` and ``frequency`` actions over the
    produced deals (:func:`run_script` fills it in)."""
    numbers: IntArray = field(default_factory=lambda: np.zeros(0, np.int64))

    @property
    def acceptance(self) -> Fraction | None:
        """The share of the uniform deals looked at that pass: ``produced / generated``.

        >>> from croupier.simulate.script_run import run_script
        >>> r = run_script("produce 4\\ncondition hcp(north) >= 12", seed="r")
        >>> r.acceptance == Fraction(4, r.generated)
        True
        """
        if self.generated == 0:
            return None
        return Fraction(self.produced, self.generated)


def _prints(script: Script) -> bool:
    """Whether the script prints deals (dealer's default action ``printall`` counts)."""
    return script.prints_deals()


@frozen_dataclass
class _Piece:
    """The rows dealt for trials ``start`` .. ``stop - 1`` of a run: one per trial that can
    pass, with its trial's number, and the bits each trial read (``None``: unknown)."""

    deals: DealArray
    numbers: IntArray
    trial_bits: npt.NDArray[np.uint64] | None
    next_row: int
    stacked: bool


class Simulation(ForkAware):
    """A dealer script's run: the sampler, the whole condition, and batches of kept deals.

    A run looks at uniform deals one by one, as dealer does, and keeps those
    that pass the whole condition; ``generate`` caps the deals looked at.
    ``seed`` gives a reproducible stream (``BulkStream.seeded(seed)``, the
    stream of ``croupier.bulk.deal_array(..., seed=seed)``): every run starts
    at deal 0 and deals the same.  Without it the key comes from the OS
    CSPRNG, and every run (:meth:`run`, :meth:`batches`) takes deal numbers no
    earlier run of this simulation took, so runs never repeat deals.
    ``strategy`` is ``"rejection"`` (every deal dealt in full), ``"stacking"``
    (smart stacking from the first deal) or ``"auto"``: the first
    :data:`AUTO_PILOT` deals by rejection, and when the run goes on, smart
    stacking if its plan fits :data:`croupier.simulate.stacking_plan.PLAN_BUDGET`
    and its support holds at most :data:`STACKING_AT_MOST` of the deals.  Under
    smart stacking, each deal looked at falls in the stacked support with that
    support's exact probability (:class:`~croupier.simulate.support.SupportTrials`);
    one stacked row is dealt for each that does, and the others, which cannot
    pass, are only counted.  ``predeal`` (a :class:`Predeal`, for any layout)
    replaces the script's predeal; ``accept`` (a Python function of a deal array)
    replaces its condition, and is never stacked; ``stream`` replaces ``seed`` (a
    stream that is not reproducible is used like the OS one).  ``swap`` (2 or 3)
    is dealer's swapping: each shuffled deal is followed by its hands exchanged
    (:class:`~croupier.simulate.swapping.SwapSampler`; the deals are then not
    independent, and the run is rejection's).

    >>> s = parse_script("predeal north SAKQ\\ncondition hcp(north) >= 20")
    >>> sim = Simulation(s, seed="demo")
    >>> str(sim.source), sim.limits()
    ('seeded', (40, 10000000))
    >>> deals = DealArray.concatenate([b.deals for b in sim.batches(produce=10)])
    >>> len(deals), bool((deals.piles[:, :3] == 0).all())
    (10, True)
    """

    def __init__(
        self,
        script: Script,
        *,
        seed: Seed | None = None,
        strategy: Strategy = "auto",
        predeal: Predeal | None = None,
        accept: Condition | None = None,
        stream: BulkStream | None = None,
        swap: int = 0,
    ) -> None:
        if strategy not in get_args(Strategy):
            raise SimulationError(
                f"strategy={strategy!r} is not one of {', '.join(get_args(Strategy))}"
            )
        if seed is not None and stream is not None:
            raise SimulationError("give seed= or stream=, not both")
        if predeal is not None and (script.predeal or script.predeal_lengths):
            raise SimulationError(
                "the script has a predeal; give predeal= only for scripts without"
            )
        if accept is not None and script.condition is not None:
            raise SimulationError(
                "the script has a condition; give accept= only for scripts without"
            )
        self.script = script
        self.predeal = Predeal.from_script(script) if predeal is None else predeal
        if stream is None:
            stream = BulkStream.from_os() if seed is None else BulkStream.seeded(seed)
        self.stream = stream
        self.source = SourceKind.SEEDED if stream.reproducible else SourceKind.OS_CSPRNG
        """Where the rows come from: ``seeded`` or ``os-csprng`` (a :class:`SourceKind`)."""
        lengths = self.predeal.length_condition()
        parts = [e for e in (lengths, script.condition) if e is not None]
        self.condition: Expr | None = None
        if parts:
            self.condition = parts[0] if len(parts) == 1 else Binary("&&", parts[0], parts[1])
        """The whole condition: the fixed suit lengths, then the script's (``None``: any deal)."""
        self._function = accept
        self._compiled: Compiled | None = None
        if self.condition is not None:
            self._compiled = compile_expression(
                self.condition,
                script.definitions,
                scales=scales_of(script),
                filename=script.filename,
            )
        self.requested: Strategy = strategy
        """The strategy asked for: ``auto``, ``rejection`` or ``stacking``."""
        self.rejection: Sampler = RejectionSampler(self.predeal, self.stream)
        """Rejection's sampler: every deal holding the predealt cards, dealt in full."""
        if swap:
            if strategy == "stacking":
                raise SimulationError(
                    f"swap={swap} exchanges the hands of whole deals; it needs "
                    "strategy='rejection' or 'auto' (which then deals by rejection)"
                )
            from croupier.simulate.swapping import SwapSampler

            try:
                self.rejection = SwapSampler(self.rejection, swap)
            except ValueError as exc:
                raise SimulationError(f"swap={swap}: {exc}") from None
            strategy = self.requested = "rejection"
        self.swap = swap
        """dealer's swapping: 0 (none), 2 or 3."""
        self._sampler: Sampler | None = None
        self._support: SupportTrials | None = None
        self.pilot = 0
        """The deals of a run dealt by rejection before :attr:`sampler` takes over."""
        if strategy == "rejection" or self.condition is None or accept is not None:
            if strategy == "stacking" and accept is not None:
                raise SimulationError(
                    "strategy='stacking' needs a condition in dealer's language; a Python "
                    "function cannot be stacked (use strategy='rejection' or 'auto')"
                )
            if strategy == "stacking" and self.condition is None:
                raise SimulationError(
                    "strategy='stacking': there is no condition to stack; use "
                    "strategy='auto' or 'rejection'"
                )
            self._sampler = self.rejection
        elif strategy == "stacking":
            self._sampler = self._choose("stacking")
        else:
            self.pilot = AUTO_PILOT
        self._runs = 0
        """Without a seed: the runs started so far (each takes its own deal numbers)."""
        self._lock = threading.Lock()
        self._fork_seen = _source_module.fork_generation

    def _after_fork(self) -> None:
        """In a forked child: a fresh lock (the stream re-keys itself)."""
        self._lock = threading.Lock()

    def _run_base(self) -> int:
        """The first deal number of a new run: 0 with a reproducible stream, else a range
        of :data:`RUN_SPAN` numbers no earlier run of this simulation took."""
        if self.stream.reproducible:
            return 0
        if self._fork_seen != _source_module.fork_generation:
            self._check_fork()
        with self._lock:
            self._runs += 1
            return self._runs * RUN_SPAN

    @property
    def sampler(self) -> Sampler:
        """The sampler of the deals after the first :attr:`pilot` ones: rejection's, or
        smart stacking's (``auto`` plans it on first use, when a run gets there)."""
        if self._sampler is None:
            self._sampler = self._choose("auto")
        return self._sampler

    @property
    def planned(self) -> bool:
        """Whether :attr:`sampler` is known yet (``auto`` plans only for long runs)."""
        return self._sampler is not None

    @property
    def support(self) -> SupportTrials:
        """Which deals fall in :attr:`sampler`'s support (:class:`SupportTrials`)."""
        if self._support is None:
            self._support = SupportTrials(self.sampler.probability, self.stream)
        return self._support

    @property
    def algorithm(self) -> str:
        """The id of what a seed gives: ``croupier-bulk/1`` (rejection keeps the passing
        deals of the bulk stream) or ``croupier-stack/2`` (``auto`` and ``stacking``)."""
        if self._sampler is self.rejection and (
            self.requested == "rejection" or self.condition is None or self._function
        ):
            return BULK_ALGORITHM_ID
        return STACKING_ALGORITHM_ID

    @property
    def impossible(self) -> bool:
        """Whether no deal can pass: the sampler's support is empty (counted exactly).

        Then a run looks at deals without dealing any (:meth:`batches`).
        """
        return self.sampler.probability == 0

    @property
    def layout(self) -> Layout:
        """The layout dealt."""
        return self.predeal.layout

    @property
    def strategy(self) -> str:
        """The sampler's name: ``"rejection"`` or smart stacking's description."""
        return self.sampler.name

    def _choose(self, strategy: Strategy) -> Sampler:
        plan = self._plan(required=strategy == "stacking")
        if strategy == "stacking":
            if plan is None:
                raise SimulationError(
                    f"strategy='stacking': no part of the condition {excerpt(str(self.condition))} "
                    "can be stacked within its budget (a shape or points condition on one seat); "
                    "use strategy='auto' or 'rejection'"
                )
            return plan
        if plan is not None and plan.probability <= STACKING_AT_MOST:
            return plan
        return self.rejection

    def _plan(self, *, required: bool) -> Sampler | None:
        """Smart stacking's sampler for the condition, or ``None``."""
        if self.condition is None:
            return None
        try:
            stacking = importlib.import_module(_STACKING_MODULE)
        except ModuleNotFoundError as exc:
            if exc.name != _STACKING_MODULE:
                raise
            if required:
                raise SimulationError(
                    "strategy='stacking': smart stacking is not available in this version"
                ) from None
            return None
        plan = stacking.plan_stacking(
            self.condition,
            self.script.definitions,
            scales_of(self.script),
            self.predeal,
            self.stream,
        )
        return cast("Sampler | None", plan)

    def accept(self, deals: DealArray, numbers: npt.ArrayLike | None = None) -> BoolArray:
        """Which deals pass the whole condition (fixed suit lengths first).

        ``numbers`` are the deals' numbers in the run, which ``rnd`` draws depend
        on (default: 0, 1, 2, ...).

        >>> sim = Simulation(parse_script("condition spades(north) >= 7"), seed="a")
        >>> deals = sim.sampler.rows(0, 1000)
        >>> bool((sim.accept(deals) == (deals.suit_lengths()[:, 0, 0] >= 7)).all())
        True
        """
        passed: BoolArray
        if self._compiled is None:
            passed = np.ones(len(deals), np.bool_)
        else:
            draws = None
            if self._compiled.random:
                draws = self.draws("condition", numbers, len(deals))
            passed = self._compiled(deals, draws) != 0
        if self._function is not None:
            rows = np.flatnonzero(passed)
            if rows.size:
                passed[rows] = self._call(deals if rows.size == len(deals) else deals[rows])
        return passed

    def draws(self, purpose: str, numbers: npt.ArrayLike | None, size: int) -> Draws:
        """The ``rnd`` numbers of ``purpose`` (``condition``, ``action/K``) for deals
        numbered ``numbers`` (default: 0 .. ``size - 1``)."""
        from croupier.simulate.draws import Draws

        chosen = np.arange(size, dtype=np.int64) if numbers is None else numbers
        return Draws(self.stream.derive(f"rnd/{purpose}"), chosen)

    def _call(self, deals: DealArray) -> BoolArray:
        """The Python condition on ``deals``, checked: one truth value per deal."""
        assert self._function is not None
        result = np.asarray(self._function(deals))
        if result.shape != (len(deals),):
            raise SimulationError(
                f"the condition function returned shape {result.shape} for {len(deals)} deals; "
                "it must return one truth value per deal"
            )
        if result.dtype == np.bool_:
            return result
        if not np.issubdtype(result.dtype, np.integer):
            raise SimulationError(
                f"the condition function returned {result.dtype} values; it must return "
                "booleans or integers (non-zero passes)"
            )
        truth: BoolArray = result != 0
        return truth

    @property
    def batch_size(self) -> int:
        """Rows per batch of this simulation's runs: :data:`DOUBLE_DUMMY_BATCH` when the script
        solves deals double dummy, else :data:`DEFAULT_BATCH` (the deals are the same).

        >>> Simulation(parse_script("condition hcp(north) > 20"), seed="b").batch_size
        65536
        """
        return DOUBLE_DUMMY_BATCH if self.script.uses_double_dummy() else DEFAULT_BATCH

    def acceptance_interval(self, produced: int, generated: int) -> tuple[float, float] | None:
        """The 95% Wilson interval of the share of deals that pass, from a run that produced
        ``produced`` of ``generated``; ``None`` when nothing was generated, or when the deals
        are not independent (dealer's swapped deals, ``-2``/``-3``).

        >>> [round(x, 3) for x in Simulation(parse_script("produce 1"), seed="w")
        ...     .acceptance_interval(5, 10)]
        [0.237, 0.763]
        """
        from croupier.simulate.stats import wilson_interval

        if not generated or self.swap:
            return None
        return wilson_interval(produced, generated)

    def limits(self, produce: int | None = None, generate: int | None = None) -> tuple[int, int]:
        """``(produce, generate)``: the caller's, else the script's, else dealer's defaults.

        Dealer's defaults: :data:`DEFAULT_GENERATE` deals looked at;
        :data:`DEFAULT_PRINTED` deals for a script that prints deals (no
        ``action`` means ``printall``), else no limit but ``generate``.

        >>> Simulation(parse_script("action average hcp(north)"), seed="l").limits()
        (10000000, 10000000)
        >>> Simulation(parse_script("generate 50\\nproduce 7"), seed="l").limits(generate=9)
        (7, 9)
        """
        for name, value in (("produce", produce), ("generate", generate)):
            if value is not None and (isinstance(value, bool) or value < 0):
                raise SimulationError(f"{name}={value!r} must be a count of at least 0")
        if generate is None:
            generate = self.script.generate or DEFAULT_GENERATE
        if produce is None:
            produce = self.script.produce or (DEFAULT_PRINTED if _prints(self.script) else generate)
        return produce, generate

    def trials(
        self, start: int, stop: int, row: int, base: int = 0, *, count: bool = True
    ) -> _Piece:
        """The rows dealt for deals ``start`` .. ``stop - 1`` of a run (numbered from 0;
        their numbers are ``base`` more), ``row`` the first stacked row for them.

        Deals before :attr:`pilot` are rejection's rows of their numbers; the others
        are too when :attr:`sampler` is rejection's, and otherwise each falls in the
        stacked support with its exact probability (:attr:`support`) and gets the
        next stacked row when it does.  With ``count=False`` the deals outside the
        support are not counted: every deal from :attr:`pilot` on is a stacked row.

        >>> sim = Simulation(parse_script("condition hcp(north) >= 20"), seed="t",
        ...                  strategy="stacking")
        >>> piece = sim.trials(0, 1000, 0)
        >>> len(piece.deals) == piece.next_row, 0 < piece.next_row < 100
        (True, True)
        """
        split = min(max(self.pilot, start), stop)
        pieces: list[_Piece] = []
        if split > start:
            pieces.append(self._rejected(base + start, base + split, row))
        if stop > split:
            sampler = self.sampler
            if sampler is self.rejection:
                pieces.append(self._rejected(base + split, base + stop, row))
            else:
                pieces.append(self._stacked(sampler, base + split, base + stop, row, count))
        if len(pieces) == 1:
            return pieces[0]
        a, b = pieces
        bits = None
        if a.trial_bits is not None and b.trial_bits is not None:
            bits = np.concatenate([a.trial_bits, b.trial_bits])
        return _Piece(
            DealArray.concatenate([a.deals, b.deals]),
            np.concatenate([a.numbers, b.numbers]),
            bits,
            b.next_row,
            b.stacked,
        )

    def _rejected(self, start: int, stop: int, row: int) -> _Piece:
        deals = self.rejection.rows(start, stop)
        bits = None if deals.bits is None else deals.bits.astype(np.uint64)
        return _Piece(deals, np.arange(start, stop, dtype=np.int64), bits, row, False)

    def _stacked(self, sampler: Sampler, start: int, stop: int, row: int, count: bool) -> _Piece:
        if count:
            inside, read = self.support.mask(start, stop)
        else:
            inside, read = np.ones(stop - start, np.bool_), np.zeros(stop - start, np.uint32)
        where = np.flatnonzero(inside)
        deals = sampler.rows(row, row + len(where))
        bits = None
        if deals.bits is not None:
            bits = read.astype(np.uint64)
            bits[where] += deals.bits.astype(np.uint64)
        return _Piece(deals, start + where.astype(np.int64), bits, row + len(where), True)

    def batches(
        self,
        *,
        produce: int | None = None,
        generate: int | None = None,
        batch: int | None = None,
        count: bool = True,
    ) -> Iterator[RunBatch]:
        """The run: one :class:`RunBatch` per ``batch`` uniform deals looked at.

        Deals ``k * batch`` to ``(k + 1) * batch - 1`` form batch ``k``; the last
        one stops at the ``produce``-th kept deal or the ``generate``-th deal
        looked at, so ``generated`` is then the number of the deal that gave the
        last kept deal, plus one (dealer's count, under every strategy).
        When no deal can pass (the stacked part's exact probability is 0), the
        run looks at the deals left without dealing them: none would pass.  With
        ``count=False`` the deals outside a stacked support are not counted (nor
        drawn): ``generated`` and ``generate`` then count the rows dealt, which
        is all that a run for a number of deals (:func:`deal_where`) needs.  Only
        the speed depends on the run's length: a long run loads the compiled
        kernel, when installed, and deals the next batch in another thread; a
        short run deals its first batch in pieces, and stops early when it has
        its deals.

        >>> sim = Simulation(parse_script("condition hcp(north) >= 15"), seed="demo")
        >>> small = [b.produced for b in sim.batches(produce=50, batch=100)]
        >>> once = DealArray.concatenate([b.deals for b in sim.batches(produce=50)])
        >>> small[-1], once == DealArray.concatenate(
        ...     [b.deals for b in sim.batches(produce=50, batch=100)])
        (50, True)
        """
        if batch is None:
            batch = self.batch_size
        if isinstance(batch, bool) or batch < 1:
            raise SimulationError(f"batch={batch!r} must be at least 1")
        produce, generate = self.limits(produce, generate)
        base = self._run_base()
        generated = produced = sampled = 0
        row = base
        stacked = False
        long_run = self._maybe_compile(generated, produced, produce, generate)
        pool: ThreadPoolExecutor | None = None
        ahead: Future[_Piece] | None = None
        try:
            while produced < produce and generated < generate:
                if generated >= self.pilot and self.sampler.probability == 0:
                    if not count:
                        return
                    empty = DealArray(self.layout, np.zeros((0, len(self.layout.deck)), np.uint8))
                    yield RunBatch(empty, generate, produced, 0, sampled=sampled, stacked=stacked)
                    return
                end = min(generated + batch, generate)
                parts: list[DealArray] = []
                numbers: list[IntArray] = []
                bits: int | None = 0
                stop = generated
                small = not long_run and not generated
                for lo, hi in _pieces(generated, end, small=small):
                    if ahead is not None:
                        piece, ahead = ahead.result(), None
                    else:
                        piece = self.trials(lo, hi, row, base, count=count)
                    nxt = min(end + batch, generate)
                    if long_run and hi == end < generate and self._prefetch(nxt):
                        # deal the next batch while this one is evaluated (the kernels
                        # release the GIL); at most one batch is dealt in vain at the end
                        if pool is None:
                            from concurrent.futures import ThreadPoolExecutor

                            pool = ThreadPoolExecutor(1, thread_name_prefix="croupier-rows")
                        ahead = pool.submit(self.trials, end, nxt, row, base)
                    deals, where, per_trial = piece.deals, piece.numbers, piece.trial_bits
                    row = piece.next_row
                    stacked = stacked or (piece.stacked and len(deals) > 0)
                    kept = np.flatnonzero(self.accept(deals, where))
                    stop = hi
                    if kept.size >= produce - produced:
                        kept = kept[: produce - produced]
                        stop = int(where[kept[-1]]) - base + 1
                    sampled += int(np.count_nonzero(where < base + stop))
                    if bits is not None and per_trial is not None:
                        bits += int(per_trial[: stop - lo].sum(dtype=np.uint64))
                    else:
                        bits = None
                    parts.append(deals[kept])
                    numbers.append(where[kept])
                    produced += int(kept.size)
                    if produced >= produce:
                        break
                generated = stop
                deals = parts[0] if len(parts) == 1 else DealArray.concatenate(parts)
                kept_numbers = numbers[0] if len(numbers) == 1 else np.concatenate(numbers)
                long_run = self._maybe_compile(generated, produced, produce, generate) or long_run
                uniform = None if count else self._uniform(generated)
                yield RunBatch(
                    deals, generated, produced, bits, kept_numbers, sampled, stacked, uniform
                )
        finally:
            if pool is not None:
                pool.shutdown(wait=False, cancel_futures=True)

    def _uniform(self, generated: int) -> Fraction:
        """The uniform deals that the first ``generated`` deals of a run that does not
        count (``count=False``) stand for: the pilot's, plus ``1 / p`` for each stacked row."""
        pilot = min(generated, self.pilot)
        sampler = self._sampler
        if sampler is None or sampler is self.rejection or sampler.probability == 0:
            return Fraction(generated)
        return pilot + (generated - pilot) / sampler.probability

    def _prefetch(self, stop: int) -> bool:
        """Whether the deals before ``stop`` may be dealt in another thread: all by
        rejection (the bulk engine is thread-safe and its compiled kernel releases the GIL)."""
        return stop <= self.pilot or (self._sampler is not None and self._sampler is self.rejection)

    def _maybe_compile(self, generated: int, produced: int, produce: int, generate: int) -> bool:
        """Whether the run looks long (:data:`LONG_RUN` rows or more still to deal).

        Before the first batch the deals still to look at are at least
        ``min(produce, generate)``; later they are estimated from the share kept
        so far.  Under smart stacking only the share in the support is dealt.
        """
        left = generate - generated
        if produced:
            left = min(left, (produce - produced) * generated // produced)
        elif not generated:
            left = min(left, produce)
        if generated >= self.pilot and self._sampler is not None:
            left = int(left * self._sampler.probability)
        return left >= LONG_RUN

    def run(
        self, *, produce: int | None = None, generate: int | None = None, count: bool = True
    ) -> SimulationResult:
        """The whole run in memory: every kept deal in one array (see :meth:`batches`).

        >>> script = parse_script("condition hcp(south) > 30")
        >>> sim = Simulation(script, seed="r", strategy="rejection")
        >>> sim.run(generate=5000).produced
        0
        """
        parts: list[DealArray] = []
        numbers: list[IntArray] = []
        generated = produced = 0
        bits: int | None = 0
        stacked = False
        for part in self.batches(produce=produce, generate=generate, count=count):
            parts.append(part.deals)
            numbers.append(part.numbers)
            generated, produced, stacked = part.generated, part.produced, part.stacked
            bits = None if bits is None or part.bits is None else bits + part.bits
        deals = (
            DealArray.concatenate(parts)
            if parts
            else DealArray(self.layout, np.zeros((0, len(self.layout.deck)), np.uint8))
        )
        return SimulationResult(
            deals,
            generated,
            produced,
            self.sampler.name if stacked else self.rejection.name,
            self.source,
            self.sampler.probability if stacked and not count else Fraction(1),
            bits,
            numbers=np.concatenate(numbers) if numbers else np.zeros(0, np.int64),
        )


def _pieces(start: int, stop: int, *, small: bool) -> Iterator[tuple[int, int]]:
    """The row ranges one batch is sampled in: all at once, or (``small``: the first batch
    of a short run) in ranges doubling from :data:`_FIRST_ROWS`, so that a run that ends
    early -- ``produce 1`` -- samples little more than it needs.

    >>> list(_pieces(0, 20000, small=True)), list(_pieces(0, 20000, small=False))
    ([(0, 4096), (4096, 12288), (12288, 20000)], [(0, 20000)])
    """
    size = _FIRST_ROWS if small else stop - start
    while start < stop:
        yield start, min(start + size, stop)
        start += size
        size *= 2


def script_statistics(
    script: Script,
    deals: DealArray,
    numbers: npt.ArrayLike | None = None,
    draws: DrawsFactory | None = None,
) -> Report:
    """The statistics of ``script``'s ``average`` and ``frequency`` actions over ``deals``.

    ``numbers`` (the deals' numbers in their run) and ``draws`` (a run's
    :meth:`Simulation.draws`) are what ``rnd`` in an action draws from.

    >>> from croupier.bulk import deal_array
    >>> s = parse_script("action average spades(north), printall")
    >>> script_statistics(s, deal_array(1000, seed="s")).results[0].count
    1000
    """
    from croupier.simulate.actions import ActionRunner

    runner = ActionRunner(script.statistics_only(), io.StringIO(), draws=draws)
    if len(deals):
        runner.feed(deals, 1, numbers=numbers)
    return runner.report()


def deal_where(
    condition: str | Condition,
    count: int,
    *,
    predeal: PredealLike = None,
    seed: Seed | None = None,
    entropy: str | None = None,
    source: RandomSource | None = None,
    strategy: Strategy = "auto",
    layout: Layout | str = "bridge",
    generate: int | None = None,
) -> DealArray:
    """Exactly ``count`` deals, uniform over the deals that hold ``predeal`` and pass ``condition``.

    ``condition`` is a dealer expression (``"hcp(north) >= 15"``) or a Python
    function of a deal array giving one truth value per deal (never stacked).
    ``predeal`` is PBN-like or dealer text, a mapping of seat to cards, or a
    :class:`Predeal`.  At most ``generate`` rows are sampled (default: 1,000 per
    deal asked, and at least 10,000,000): under smart stacking the uniform deals
    outside the stacked support are neither dealt nor counted (``count=False``
    of :meth:`Simulation.batches`).  Reaching the cap is an error that gives the
    acceptance rate seen.  With ``seed`` (text, bytes or a whole number),
    rejection keeps, in order, the deals of ``deal_array(..., seed=seed)`` that
    pass (when nothing is predealt).  A dealer-language condition on bridge
    gives the deals ``croupier deal --where CONDITION --seed ...`` writes: the
    command's conditioned dealer (:mod:`croupier.runs.conditioned`) runs this
    same :class:`Simulation`.  ``source=`` or ``entropy=`` key the stream with 256
    bits of that source or of your entropy instead, as in :func:`croupier.deal_array`.

    >>> from croupier.bulk import deal_array
    >>> from croupier.bulk.evaluate import hcp
    >>> a = deal_where("hcp(north) >= 20", 3, seed="s", strategy="rejection")
    >>> b = deal_where(lambda d: hcp(d, "N") >= 20, 3, seed="s")
    >>> plain = deal_array(2000, seed="s")
    >>> a == b == plain[hcp(plain, "N") >= 20][:3]
    True
    >>> deal_where("hcp(north) == 37", 1, generate=1000, strategy="rejection")
    Traceback (most recent call last):
    ...
    croupier.simulate.run.SimulationError: deal_where() found 0 of the 1 deals asked in 1000 ...
    """
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise SimulationError(f"count={count!r} must be a whole number of at least 0")
    random = resolve_source(seed, entropy, source, purpose=Purpose.BULK)  # (the one door)
    stream = None if random.kind == SourceKind.OS_CSPRNG else BulkStream.from_source(random)
    lay = Predeal.coerce(None, layout).layout
    chosen = Predeal.coerce(predeal, lay)
    if isinstance(condition, str):
        script = Script(
            filename="<condition>", condition=parse_expression(condition, filename="<condition>")
        )
        simulation = Simulation(script, stream=stream, strategy=strategy, predeal=chosen)
    elif callable(condition):
        simulation = Simulation(
            Script(filename="<condition>"),
            stream=stream,
            strategy=strategy,
            predeal=chosen,
            accept=condition,
        )
    else:
        raise SimulationError(
            f"condition= must be dealer text or a function of a deal array, "
            f"not {type(condition).__name__}"
        )
    cap = max(DEFAULT_GENERATE, PER_DEAL_CAP * count) if generate is None else generate
    result = simulation.run(produce=count, generate=cap, count=False)
    if result.produced < count:
        if simulation.impossible:
            raise SimulationError(
                f"no deal satisfies the condition {excerpt(str(simulation.condition))} "
                "with this predeal (counted exactly)"
            )
        looked = simulation._uniform(result.generated)
        rate = Fraction(result.produced) / looked if looked else Fraction(0)
        raise SimulationError(
            f"deal_where() found {result.produced} of the {count} deals asked in "
            f"{result.generated} sampled (acceptance rate about {float(rate):.3g}); raise "
            "generate= or ask for a condition that more deals pass"
        )
    return result.deals
