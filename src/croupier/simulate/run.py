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
the batch size.  ``docs/constraint-dealing.md`` is the guide.

>>> deals = deal_where("hcp(north) >= 20", 5, seed="demo")
>>> from croupier.bulk.evaluate import hcp
>>> len(deals), bool((hcp(deals, "N") >= 20).all())
(5, True)
"""

from __future__ import annotations

import importlib
import io
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Literal, TypeAlias, cast, get_args

import numpy as np
import numpy.typing as npt

from croupier.bulk.array import DealArray
from croupier.bulk.generate import BulkDealer
from croupier.bulk.stream import BulkStream
from croupier.dealing.layout import Layout
from croupier.errors import CroupierError, excerpt
from croupier.simulate.ast import (
    Binary,
    Expr,
    Script,
)
from croupier.simulate.compile import compile_expression, scales_of
from croupier.simulate.parse import parse_expression, parse_script
from croupier.simulate.predeal import Predeal, PredealLike
from croupier.simulate.sampler import RejectionSampler, Sampler
from croupier.simulate.stats import Report

__all__ = [
    "DEFAULT_BATCH",
    "DEFAULT_GENERATE",
    "DEFAULT_PRINTED",
    "LONG_RUN",
    "STACKING_AT_MOST",
    "Condition",
    "RunBatch",
    "Simulation",
    "SimulationError",
    "SimulationResult",
    "Strategy",
    "deal_where",
    "run_script",
    "script_statistics",
]

Strategy = Literal["auto", "rejection", "stacking"]
"""How rows are sampled: ``rejection``, ``stacking`` (smart stacking), or ``auto``."""

BoolArray: TypeAlias = npt.NDArray[np.bool_]
Condition: TypeAlias = Callable[[DealArray], npt.ArrayLike]
"""A condition written in Python: a deal array in, one truth value per deal out."""

DEFAULT_GENERATE = 10_000_000
"""Rows sampled at most when neither the script nor the caller says (``generate``)."""

DEFAULT_PRINTED = 40
"""Deals produced at most, without ``produce``, by a script that prints deals."""

DEFAULT_BATCH = 65_536
"""Rows sampled per batch: the same for every run, whatever ``produce`` and ``generate``."""

LONG_RUN = 1_000_000
"""Rows from which a run counts as long: it loads the compiled kernel (when installed) and
samples the next batch while the current one is evaluated.  Loading the kernel costs
about a second once per process; the compiled kernel saves about a microsecond a row."""

STACKING_AT_MOST = Fraction(1, 4)
"""``auto`` stacks when the stacked support holds at most this share of the deals."""

_FIRST_ROWS = 4096  # rows of the first piece of a short run's first batch (one stream block)
_WHERE_PER_DEAL = 1_000  # deal_where's default cap: this many rows per deal asked, at least ...
_STACKING_MODULE = "croupier.simulate.stacking"


class SimulationError(CroupierError):
    """A simulation that cannot run as asked (strategy, limits, condition's result)."""


@dataclass(frozen=True)
class RunBatch:
    """One batch of a run: the deals kept from it, in sequence order, and the totals so far.

    ``generated`` counts the rows sampled so far, ``produced`` the deals kept
    so far; ``bits`` is the random bits this batch's sampled rows consumed
    (``None`` when the sampler does not say).

    >>> sim = Simulation(parse_script("condition hcp(north) >= 10"), seed="b")
    >>> batch = next(sim.batches(produce=3, generate=100))
    >>> len(batch.deals), batch.produced, batch.generated <= 100
    (3, 3, True)
    """

    deals: DealArray
    generated: int
    produced: int
    bits: int | None = None


@dataclass(frozen=True)
class SimulationResult:
    """What :func:`run_script` produced: the deals, the counts, the strategy and the source.

    ``probability`` is the exact share of uniform deals (holding the predealt
    cards) in the sampler's support (1 for rejection); :attr:`acceptance`
    estimates the share of such deals that pass the condition.

    >>> r = run_script("produce 4\\ncondition hcp(north) >= 12", seed="r")
    >>> r.produced, len(r.deals), r.strategy, r.source
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

    @property
    def acceptance(self) -> Fraction | None:
        """Estimated share of uniform deals that pass: ``probability * produced / generated``.

        >>> r = run_script("produce 4\\ncondition hcp(north) >= 12", seed="r")
        >>> r.acceptance == Fraction(4, r.generated)
        True
        """
        if self.generated == 0:
            return None
        return self.probability * Fraction(self.produced, self.generated)


def _prints(script: Script) -> bool:
    """Whether the script prints deals (dealer's default action ``printall`` counts)."""
    return script.prints_deals()


class Simulation:
    """A dealer script's run: the sampler, the whole condition, and batches of kept deals.

    ``seed`` gives a reproducible stream (``BulkStream.seeded(seed)``, the
    stream of ``croupier.bulk.deal_array(..., seed=seed)``); without it the
    key comes from the OS CSPRNG.  ``strategy`` is ``"rejection"``,
    ``"stacking"`` or ``"auto"`` (stacking when a plan exists whose support
    holds at most :data:`STACKING_AT_MOST` of the deals).  ``predeal`` (a
    :class:`Predeal`, for any layout) replaces the script's predeal;
    ``accept`` (a Python function of a deal array) replaces its condition,
    and is never stacked; ``stream`` replaces ``seed``.

    >>> s = parse_script("predeal north SAKQ\\ncondition hcp(north) >= 20")
    >>> sim = Simulation(s, seed="demo")
    >>> sim.source, sim.limits()
    ('seeded', (40, 10000000))
    >>> deals = DealArray.concatenate([b.deals for b in sim.batches(produce=10)])
    >>> len(deals), bool((deals.piles[:, :3] == 0).all())
    (10, True)
    """

    def __init__(
        self,
        script: Script,
        *,
        seed: str | bytes | None = None,
        strategy: Strategy = "auto",
        predeal: Predeal | None = None,
        accept: Condition | None = None,
        stream: BulkStream | None = None,
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
        self.source = "seeded" if stream.reproducible else "os"
        lengths = self.predeal.length_condition()
        parts = [e for e in (lengths, script.condition) if e is not None]
        self.condition: Expr | None = None
        if parts:
            self.condition = parts[0] if len(parts) == 1 else Binary("&&", parts[0], parts[1])
        """The whole condition: the fixed suit lengths, then the script's (``None``: any deal)."""
        self._function = accept
        self._compiled = None
        if self.condition is not None:
            self._compiled = compile_expression(
                self.condition,
                script.definitions,
                scales=scales_of(script),
                filename=script.filename,
            )
        self.sampler: Sampler = self._choose(strategy)

    @property
    def impossible(self) -> bool:
        """Whether no deal can pass: the sampler's support is empty (counted exactly).

        Then :meth:`batches` samples nothing.
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
        rejection = RejectionSampler(self.predeal, self.stream)
        if strategy == "rejection":
            return rejection
        if self._function is not None:
            if strategy == "stacking":
                raise SimulationError(
                    "strategy='stacking' needs a condition in dealer's language; a Python "
                    "function cannot be stacked (use strategy='rejection' or 'auto')"
                )
            return rejection
        plan = self._plan(required=strategy == "stacking")
        if strategy == "stacking":
            if plan is None:
                raise SimulationError(
                    f"strategy='stacking': no part of the condition {excerpt(str(self.condition))} "
                    "can be stacked (a shape or points condition on one seat); use "
                    "strategy='auto' or 'rejection'"
                )
            return plan
        if plan is not None and plan.probability <= STACKING_AT_MOST:
            return plan
        return rejection

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

    def accept(self, deals: DealArray) -> BoolArray:
        """Which deals pass the whole condition (fixed suit lengths first).

        >>> sim = Simulation(parse_script("condition spades(north) >= 7"), seed="a")
        >>> deals = sim.sampler.rows(0, 1000)
        >>> bool((sim.accept(deals) == (deals.suit_lengths()[:, 0, 0] >= 7)).all())
        True
        """
        passed: BoolArray
        if self._compiled is None:
            passed = np.ones(len(deals), np.bool_)
        else:
            passed = self._compiled(deals) != 0
        if self._function is not None:
            rows = np.flatnonzero(passed)
            if rows.size:
                passed[rows] = self._call(deals if rows.size == len(deals) else deals[rows])
        return passed

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

    def limits(self, produce: int | None = None, generate: int | None = None) -> tuple[int, int]:
        """``(produce, generate)``: the caller's, else the script's, else dealer's defaults.

        Dealer's defaults: :data:`DEFAULT_GENERATE` rows; :data:`DEFAULT_PRINTED`
        deals for a script that prints deals (no ``action`` means ``printall``),
        else no limit but ``generate``.

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

    def batches(
        self,
        *,
        produce: int | None = None,
        generate: int | None = None,
        batch: int = DEFAULT_BATCH,
    ) -> Iterator[RunBatch]:
        """The run: one :class:`RunBatch` per ``batch`` sampled rows, kept deals or not.

        Rows ``k * batch`` to ``(k + 1) * batch - 1`` form batch ``k``; the last
        one stops at the ``produce``-th kept deal or the ``generate``-th row, so
        ``generated`` is then the number of the row that gave the last deal,
        plus one.  Only the speed depends on the run's length: a long run
        (:data:`LONG_RUN` rows) loads the compiled kernel, when installed, and
        samples the next batch in another thread; a short run samples its first
        batch in pieces, and stops early when it has its deals.

        >>> sim = Simulation(parse_script("condition hcp(north) >= 15"), seed="demo")
        >>> small = [b.produced for b in sim.batches(produce=50, batch=100)]
        >>> once = DealArray.concatenate([b.deals for b in sim.batches(produce=50)])
        >>> small[-1], once == DealArray.concatenate(
        ...     [b.deals for b in sim.batches(produce=50, batch=100)])
        (50, True)
        """
        if isinstance(batch, bool) or batch < 1:
            raise SimulationError(f"batch={batch!r} must be at least 1")
        produce, generate = self.limits(produce, generate)
        generated = produced = 0
        if self.impossible:
            return
        long_run = _maybe_compile(self.sampler, generated, produced, produce, generate)
        pool: ThreadPoolExecutor | None = None
        ahead: Future[DealArray] | None = None
        try:
            while produced < produce and generated < generate:
                end = min(generated + batch, generate)
                parts: list[DealArray] = []
                bits: int | None = 0
                stop = generated
                for lo, hi in _pieces(generated, end, small=not long_run and not generated):
                    if ahead is None:
                        rows = self.sampler.rows(lo, hi)
                    else:
                        rows, ahead = ahead.result(), None
                    if long_run and hi == end < generate and self._prefetch():
                        # sample the next batch while this one is evaluated (the kernels
                        # release the GIL); at most one batch is sampled in vain at the end
                        pool = pool or ThreadPoolExecutor(1, thread_name_prefix="croupier-rows")
                        ahead = pool.submit(self.sampler.rows, end, min(end + batch, generate))
                    kept = np.flatnonzero(self.accept(rows))
                    stop = hi
                    if kept.size >= produce - produced:
                        kept = kept[: produce - produced]
                        stop = lo + int(kept[-1]) + 1
                    if bits is not None and rows.bits is not None:
                        bits += int(rows.bits[: stop - lo].sum(dtype=np.uint64))
                    else:
                        bits = None
                    parts.append(_take(rows, kept))
                    produced += int(kept.size)
                    if produced >= produce:
                        break
                generated = stop
                deals = parts[0] if len(parts) == 1 else DealArray.concatenate(parts)
                # every batch: smart stacking makes its second dealer on first use
                long_run = (
                    _maybe_compile(self.sampler, generated, produced, produce, generate) or long_run
                )
                yield RunBatch(deals, generated, produced, bits)
        finally:
            if pool is not None:
                pool.shutdown(wait=False, cancel_futures=True)

    def _prefetch(self) -> bool:
        """Whether the next batch may be sampled in another thread (the bulk engine is
        thread-safe and its compiled kernel releases the GIL)."""
        return isinstance(self.sampler, RejectionSampler)

    def run(self, *, produce: int | None = None, generate: int | None = None) -> SimulationResult:
        """The whole run in memory: every kept deal in one array (see :meth:`batches`).

        >>> script = parse_script("condition hcp(south) > 30")
        >>> sim = Simulation(script, seed="r", strategy="rejection")
        >>> sim.run(generate=5000).produced
        0
        """
        parts: list[DealArray] = []
        generated = produced = 0
        bits: int | None = 0
        for part in self.batches(produce=produce, generate=generate):
            parts.append(part.deals)
            generated, produced = part.generated, part.produced
            bits = None if bits is None or part.bits is None else bits + part.bits
        deals = (
            DealArray.concatenate(parts)
            if parts
            else DealArray(self.layout, np.zeros((0, len(self.layout.deck)), np.uint8))
        )
        return SimulationResult(
            deals, generated, produced, self.strategy, self.source, self.sampler.probability, bits
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


def _take(rows: DealArray, kept: npt.NDArray[np.intp]) -> DealArray:
    """``rows[kept]``, keeping the pile bitmasks the sampler computed (evaluation needs them)."""
    known = rows._masks  # the masks computed so far, by pile
    piles = len(rows.layout.piles)
    if rows.bits is None or len(known) < piles:
        return rows[kept]
    masks = np.stack([known[p][kept] for p in range(piles)])
    return DealArray._dealt(rows.layout, rows.piles[kept], rows.bits[kept], masks)


def _dealers(sampler: Sampler) -> list[BulkDealer]:
    """The bulk dealers behind ``sampler`` (rejection's, smart stacking's other seats)."""
    found = [getattr(sampler, name, None) for name in ("dealer", "_rest_dealer")]
    return [d for d in found if isinstance(d, BulkDealer)]


def _maybe_compile(
    sampler: Sampler, generated: int, produced: int, produce: int, generate: int
) -> bool:
    """Whether the run looks long (:data:`LONG_RUN` rows or more still to sample); if so,
    switch its bulk dealers to the compiled kernel (when installed).

    Before the first batch the rows still to sample are at least
    ``min(produce, generate)``; later they are estimated from the share kept so
    far.  The deals are the same with either kernel, so this changes only the speed.
    """
    left = generate - generated
    if produced:
        left = min(left, (produce - produced) * generated // produced)
    elif not generated:
        left = min(left, produce)
    if left < LONG_RUN:
        return False
    from croupier.bulk.unrank import use_compiled

    for dealer in _dealers(sampler):
        if dealer.engine == "auto" and use_compiled("auto", dealer.layout.sizes):
            dealer.engine = "compiled"
    return True


def run_script(
    script: str | Script,
    *,
    seed: str | bytes | None = None,
    produce: int | None = None,
    generate: int | None = None,
    strategy: Strategy = "auto",
    client: Any = None,
    workers: int | None = None,
    scheduler: str | None = None,
    chunk: int | None = None,
) -> SimulationResult:
    """Run a dealer script (text or parsed) and return its produced deals, counts and statistics.

    ``produce`` and ``generate`` override the script's; without either,
    dealer's defaults apply (see :meth:`Simulation.limits`).  The script's
    ``average`` and ``frequency`` actions are computed over the produced deals
    into ``report`` (a :class:`~croupier.simulate.stats.Report`); its print
    actions are not run (see :class:`~croupier.simulate.actions.ActionRunner`).

    On a Dask cluster (extra ``cluster``): give ``client`` (a
    ``dask.distributed.Client``), ``workers`` (a local cluster of that many
    processes) or ``scheduler`` (a running cluster's address); ``chunk`` is the
    rows per task.  The result is the same as this process's, whatever the
    workers and the chunk size (:func:`croupier.simulate.distributed.run_distributed`).

    >>> r = run_script("generate 2000\\nproduce 3\\ncondition shape(north, 5xxx)", seed="x")
    >>> r.produced, bool((r.deals.suit_lengths()[:, 0, 0] == 5).all())
    (3, True)
    >>> text = "generate 5000\\ncondition hcp(north) >= 15\\naction average hcp(south)"
    >>> r = run_script(text, seed="x")
    >>> stat = r.report.results[0]
    >>> stat.count == r.produced, 6 < float(stat.mean) < 9
    (True, True)
    """
    if client is not None or workers is not None or scheduler is not None:
        from croupier.simulate.distributed import run_distributed

        return run_distributed(
            script,
            seed=seed,
            produce=produce,
            generate=generate,
            strategy=strategy,
            client=client,
            workers=workers,
            scheduler=scheduler,
            chunk=chunk,
        )
    if chunk is not None:
        raise SimulationError(
            f"chunk={chunk!r} splits a run on a cluster; give client=, workers= or scheduler= too"
        )
    parsed = parse_script(script) if isinstance(script, str) else script
    simulation = Simulation(parsed, seed=seed, strategy=strategy)
    result = simulation.run(produce=produce, generate=generate)
    return replace(result, report=script_statistics(parsed, result.deals))


def script_statistics(script: Script, deals: DealArray) -> Report:
    """The statistics of ``script``'s ``average`` and ``frequency`` actions over ``deals``.

    >>> from croupier.bulk import deal_array
    >>> s = parse_script("action average spades(north), printall")
    >>> script_statistics(s, deal_array(1000, seed="s")).results[0].count
    1000
    """
    from croupier.simulate.actions import ActionRunner

    runner = ActionRunner(script.statistics_only(), io.StringIO())
    if len(deals):
        runner.feed(deals, 1)
    return runner.report()


def deal_where(
    condition: str | Condition,
    count: int,
    *,
    predeal: PredealLike = None,
    seed: str | bytes | None = None,
    strategy: Strategy = "auto",
    layout: Layout | str = "bridge",
    generate: int | None = None,
) -> DealArray:
    """Exactly ``count`` deals, uniform over the deals that hold ``predeal`` and pass ``condition``.

    ``condition`` is a dealer expression (``"hcp(north) >= 15"``) or a Python
    function of a deal array giving one truth value per deal (never stacked).
    ``predeal`` is PBN-like or dealer text, a mapping of seat to cards, or a
    :class:`Predeal`.  At most ``generate`` rows are sampled (default: 1,000 per
    deal asked, and at least 10,000,000); reaching it is an error that gives
    the acceptance rate seen.  With ``seed``, rejection keeps, in order, the
    deals of ``deal_array(..., seed=seed)`` that pass (when nothing is predealt).

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
    lay = Predeal.coerce(None, layout).layout
    chosen = Predeal.coerce(predeal, lay)
    if isinstance(condition, str):
        script = Script(
            filename="<condition>", condition=parse_expression(condition, filename="<condition>")
        )
        simulation = Simulation(script, seed=seed, strategy=strategy, predeal=chosen)
    elif callable(condition):
        simulation = Simulation(
            Script(filename="<condition>"),
            seed=seed,
            strategy=strategy,
            predeal=chosen,
            accept=condition,
        )
    else:
        raise SimulationError(
            f"condition= must be dealer text or a function of a deal array, "
            f"not {type(condition).__name__}"
        )
    if simulation.impossible and count:
        raise SimulationError(
            f"no deal satisfies the condition {excerpt(str(simulation.condition))} "
            "with this predeal (counted exactly)"
        )
    cap = max(DEFAULT_GENERATE, _WHERE_PER_DEAL * count) if generate is None else generate
    result = simulation.run(produce=count, generate=cap)
    if result.produced < count:
        rate = Fraction(result.produced, max(result.generated, 1)) * simulation.sampler.probability
        raise SimulationError(
            f"deal_where() found {result.produced} of the {count} deals asked in "
            f"{result.generated} sampled (acceptance rate about {float(rate):.3g}); raise "
            "generate= or ask for a condition that more deals pass"
        )
    return result.deals
