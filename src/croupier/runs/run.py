"""One deal run: a dealer's deals written in one format, as they come.

:func:`run_deals` is the whole of a run below the command line: it hands the
writer the kind of batches it takes (arrays or deals — the same deals either
way), moves a progress callback on, and stops cleanly when asked (after the
deal or batch being written, so the output stays valid).

>>> import io
>>> from croupier.dealing import make_layout
>>> from croupier.runs.request import DealRequest
>>> from croupier.runs.writers import open_deal_writer
>>> request = DealRequest.make(make_layout("bridge"), 2, seed="doc")
>>> out = io.BytesIO()
>>> result = run_deals(open_dealer(request), 2, open_deal_writer("pbn-deal", out, request.layout))
>>> result.written, len(out.getvalue().splitlines())
(2, 2)
"""

from __future__ import annotations

from collections.abc import Callable

from croupier.frozen import frozen_dataclass
from croupier.runs.dealers import BulkRunDealer, MinimalBitsDealer, RunDealer
from croupier.runs.request import DealRequest
from croupier.runs.writers import DealOutput

__all__ = ["PROGRESS_STEP", "RunResult", "open_dealer", "run_deals"]

PROGRESS_STEP = 1024
"""Deals between moves of the progress callback when deals are written one by one."""


@frozen_dataclass
class RunResult:
    """What a run did: deals written, random bits used, whether it was stopped early."""

    written: int
    bits: float
    interrupted: bool


def open_dealer(request: DealRequest) -> RunDealer:
    """The dealer of ``request``: its engine, or its condition's simulation.

    >>> from croupier.dealing import make_layout
    >>> type(open_dealer(DealRequest.make(make_layout("bridge"), engine="deal"))).__name__
    'MinimalBitsDealer'
    """
    if request.conditioned:  # the simulation is imported by the runs with a condition
        from croupier.runs.conditioned import ConditionedDealer

        return ConditionedDealer.build(request)
    if request.engine == "bulk":
        return BulkRunDealer(request)
    return MinimalBitsDealer(request)


def _never() -> bool:
    return False


def _nothing(done: int) -> None:
    pass


def run_deals(
    dealer: RunDealer,
    count: int,
    writer: DealOutput,
    *,
    advance: Callable[[int], None] = _nothing,
    should_stop: Callable[[], bool] = _never,
) -> RunResult:
    """Write the next ``count`` deals of ``dealer`` with ``writer``, then close it.

    ``advance(n)`` is called as deals are written; when ``should_stop()`` turns
    true the run ends after the deal or batch being written (the writer is
    closed, so the output is complete and valid).
    """
    written = 0
    stopped = False
    if writer.takes == "arrays":
        for batch in dealer.arrays(count):
            writer.write(batch)
            written += len(batch)
            advance(len(batch))
            if should_stop():
                stopped = True
                break
    else:
        pending = 0
        for deal in dealer.deals(count):
            writer.write([deal])
            written += 1
            pending += 1
            if pending == PROGRESS_STEP:
                advance(pending)
                pending = 0
            if should_stop():
                stopped = True
                break
        advance(pending)
    writer.close(dealer.bits)
    return RunResult(written, dealer.bits, stopped and written < count)
