"""Deals under a condition (``where``, ``predeal``), presented as a :class:`RunDealer`.

:class:`ConditionedDealer` wraps a :class:`~croupier.simulate.run.Simulation`:
batches of the deals that pass the condition, in sequence order, exactly uniform
over the deals that hold the predealt cards and satisfy the condition.  Every
writer of a run then works unchanged.

>>> from croupier.dealing import make_layout
>>> from croupier.runs.request import DealRequest
>>> request = DealRequest.make(make_layout("bridge"), 3, seed="x", where="hcp(north) >= 20")
>>> dealer = ConditionedDealer.build(request)
>>> [len(a) for a in dealer.arrays(3)], dealer.strategy  # found among the first deals
([3], 'rejection')
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

import numpy as np

from croupier.bulk import DealArray
from croupier.dealing import Deal, Layout
from croupier.errors import CroupierError
from croupier.runs.dealers import BATCH, array_deals, dealt_ahead
from croupier.runs.request import DealRequest
from croupier.simulate.ast import Script
from croupier.simulate.parse import parse_expression
from croupier.simulate.predeal import Predeal
from croupier.simulate.run import DEFAULT_GENERATE, PER_DEAL_CAP, Simulation

__all__ = ["ConditionedDealer"]


class ConditionedDealer:
    """A simulation presented as a run's dealer: batches of the deals that pass."""

    def __init__(self, simulation: Simulation) -> None:
        self.simulation = simulation
        self.generated = 0
        self.produced = 0
        self.share: Fraction | None = None
        self.stacked = False
        self._bits = 0

    @classmethod
    def build(cls, request: DealRequest) -> ConditionedDealer:
        """The dealer of ``request.where`` (a dealer expression) and ``request.predeal``
        (PBN-like or dealer text) on a bridge deal.

        >>> from croupier.dealing import make_layout
        >>> ConditionedDealer.build(DealRequest.make(make_layout("bridge"), where="hcp(north) >"))
        Traceback (most recent call last):
        ...
        croupier.simulate.parse.ScriptError: --where:1:13: found the end of the script, ...
        """
        where, predeal = request.where, request.predeal
        condition = None if where is None else parse_expression(where, filename="--where")
        script = Script(filename="--where", condition=condition)
        chosen = None if predeal is None else Predeal.parse(predeal)
        simulation = Simulation(
            script, seed=request.seed, strategy=request.strategy, predeal=chosen
        )
        if simulation.impossible:
            what = "--where" if predeal is None else "--where and --predeal"
            raise CroupierError(f"no deal satisfies {what} (counted exactly)")
        return cls(simulation)

    @property
    def layout(self) -> Layout:
        """The layout dealt (bridge)."""
        return self.simulation.layout

    @property
    def algorithm(self) -> str:
        """The run's algorithm id: ``croupier-bulk/1`` (rejection) or ``croupier-stack/2``
        (``auto`` and ``stacking``, :attr:`Simulation.algorithm`)."""
        return self.simulation.algorithm

    @property
    def method(self) -> str:
        return f"{self.algorithm} ({self.simulation.stream.kind} stream)"

    @property
    def source_kind(self) -> str:
        return str(self.simulation.stream.kind)

    @property
    def bits(self) -> float:
        """Bits of every deal generated, the rejected ones too."""
        return float(self._bits)

    @property
    def strategy(self) -> str:
        """How the deals were found: ``rejection`` or smart stacking's description (before
        the run, or when ``auto`` ended within its first deals: the sampler it plans)."""
        if self.generated and not self.stacked:
            return self.simulation.rejection.name
        return self.simulation.strategy

    @property
    def acceptance(self) -> Fraction | None:
        """The estimated share of uniform deals that pass, from the run so far (a stacked
        row stands for ``1 / p`` uniform deals, :attr:`RunBatch.uniform`)."""
        return self.share

    def describe(self) -> str:
        """The algorithm, for file headers and notes."""
        return f"{self.algorithm} under a condition ({self.strategy})"

    def _passing(self, count: int, batch: int) -> Iterator[DealArray]:
        cap = max(DEFAULT_GENERATE, PER_DEAL_CAP * count)
        if self.simulation.script.uses_double_dummy():
            batch = min(batch, 8)  # each solve takes a good part of a second
        # Only the deals are asked for: under smart stacking the uniform deals outside the
        # support are not counted (count=False), so a rare condition costs its rows alone.
        parts = self.simulation.batches(produce=count, generate=cap, batch=batch, count=False)
        for part in parts:
            self.generated, self.produced, self.share = part.generated, part.produced, part.share
            self.stacked = self.stacked or part.stacked
            self._bits += part.bits or 0
            if len(part.deals):
                yield part.deals
        if self.produced < count:
            rate = self.acceptance or Fraction(0)
            raise CroupierError(
                f"found only {self.produced:,} of {count:,} deals passing the condition in "
                f"{self.generated:,} generated (about {float(rate):.3g} of deals pass); "
                "ask for fewer deals or a condition more deals pass"
            )

    def arrays(self, count: int, batch: int = BATCH) -> Iterator[DealArray]:
        """The first ``count`` deals that pass, in batches (empty batches are skipped).

        Raises :class:`CroupierError` when fewer than ``count`` pass within the cap
        of :data:`~croupier.simulate.run.PER_DEAL_CAP` generated deals per deal asked.
        """
        return dealt_ahead(lambda: self._passing(count, batch))

    def array(self, count: int) -> DealArray:
        """The first ``count`` deals that pass, as one deal array."""
        parts = list(self.arrays(count))
        if not parts:
            return DealArray(self.layout, np.zeros((0, len(self.layout.deck)), np.uint8))
        return parts[0] if len(parts) == 1 else DealArray.concatenate(parts)

    def deals(self, count: int) -> Iterator[Deal]:
        return array_deals(self.arrays(count), source=self.source_kind, algorithm=self.algorithm)

    def notes(self) -> list[str]:
        """One line for stderr: produced, generated, acceptance and strategy.

        >>> from croupier.dealing import make_layout
        >>> request = DealRequest.make(make_layout("bridge"), 5, seed="n", where="hcp(north) >= 10")
        >>> d = ConditionedDealer.build(request)
        >>> _ = list(d.arrays(5))
        >>> d.notes()[0].startswith("condition: 5 deals of ")
        True
        """
        rate = self.acceptance
        share = "" if rate is None else f", about {100 * float(rate):.4g}% of uniform deals pass"
        return [
            f"condition: {self.produced:,} deals of {self.generated:,} dealt"
            f"{share}; strategy {self.strategy}"
        ]
