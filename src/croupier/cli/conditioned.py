"""``croupier deal --where EXPR --predeal TEXT``: bulk dealing under a condition.

:class:`ConditionedDealer` presents a :class:`~croupier.simulate.run.Simulation`
the way ``croupier deal`` uses a :class:`~croupier.bulk.BulkDealer`: batches of
deals (here only those that pass the condition, in sequence order), its
stream, its layout and a description.  Every writer of ``croupier deal`` then
works unchanged, and the deals are exactly uniform over the deals that hold
the predealt cards and satisfy the condition.

>>> dealer = ConditionedDealer.build("hcp(north) >= 20", None, seed="x", strategy="auto")
>>> deals = next(dealer.batches(3, 65536))
>>> len(deals), dealer.strategy
(3, 'smart stacking (north)')
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from typing import Protocol

from croupier.bulk import DealArray
from croupier.bulk.stream import BulkStream
from croupier.dealing import Layout
from croupier.errors import CroupierError
from croupier.simulate.ast import Script
from croupier.simulate.parse import parse_expression
from croupier.simulate.predeal import Predeal
from croupier.simulate.run import DEFAULT_GENERATE, Simulation, Strategy

__all__ = ["PER_DEAL_CAP", "ConditionedDealer", "DealerLike"]

PER_DEAL_CAP = 1_000
"""A ``--where`` run gives up after this many generated deals per deal asked
(and at least :data:`~croupier.simulate.run.DEFAULT_GENERATE`)."""


class DealerLike(Protocol):
    """What ``croupier deal`` needs of a bulk dealer."""

    @property
    def layout(self) -> Layout: ...

    @property
    def stream(self) -> BulkStream: ...

    def describe(self) -> str: ...

    def batches(self, count: int, batch: int = ...) -> Iterator[DealArray]: ...


class ConditionedDealer:
    """A simulation presented as a bulk dealer: batches of the deals that pass."""

    def __init__(self, simulation: Simulation) -> None:
        self.simulation = simulation
        self.generated = 0
        self.produced = 0
        self.bits = 0

    @classmethod
    def build(
        cls,
        where: str | None,
        predeal: str | None,
        *,
        seed: str | None,
        strategy: Strategy,
    ) -> ConditionedDealer:
        """The dealer of ``--where`` (a dealer expression) and ``--predeal`` (PBN-like or
        dealer text) on a bridge deal.

        >>> ConditionedDealer.build("hcp(north) >", None, seed=None, strategy="auto")
        Traceback (most recent call last):
        ...
        croupier.simulate.parse.ScriptError: --where:1:13: found the end of the script, ...
        """
        condition = None if where is None else parse_expression(where, filename="--where")
        script = Script(filename="--where", condition=condition)
        chosen = None if predeal is None else Predeal.parse(predeal)
        simulation = Simulation(script, seed=seed, strategy=strategy, predeal=chosen)
        if simulation.impossible:
            what = "--where" if predeal is None else "--where and --predeal"
            raise CroupierError(f"no deal satisfies {what} (counted exactly)")
        return cls(simulation)

    @property
    def layout(self) -> Layout:
        """The layout dealt (bridge)."""
        return self.simulation.layout

    @property
    def stream(self) -> BulkStream:
        """The random stream (seeded or from the OS)."""
        return self.simulation.stream

    @property
    def strategy(self) -> str:
        """How the deals are found: rejection or smart stacking."""
        return self.simulation.strategy

    @property
    def acceptance(self) -> Fraction | None:
        """The estimated share of uniform deals that pass, from the run so far."""
        if not self.generated:
            return None
        return self.simulation.sampler.probability * Fraction(self.produced, self.generated)

    def describe(self) -> str:
        """The algorithm, for file headers and notes."""
        return f"{self.simulation.sampler.algorithm} under a condition ({self.strategy})"

    def batches(self, count: int, batch: int = 65_536) -> Iterator[DealArray]:
        """The first ``count`` deals that pass, in batches (empty batches are skipped).

        Raises :class:`CroupierError` when fewer than ``count`` pass within the cap
        of :data:`PER_DEAL_CAP` generated deals per deal asked.
        """
        cap = max(DEFAULT_GENERATE, PER_DEAL_CAP * count)
        if self.simulation.script.uses_double_dummy():
            batch = min(batch, 8)  # each solve takes a good part of a second
        for part in self.simulation.batches(produce=count, generate=cap, batch=batch):
            self.generated, self.produced = part.generated, part.produced
            self.bits += part.bits or 0
            if len(part.deals):
                yield part.deals
        if self.produced < count:
            rate = self.acceptance or Fraction(0)
            raise CroupierError(
                f"found only {self.produced:,} of {count:,} deals passing the condition in "
                f"{self.generated:,} generated (about {float(rate):.3g} of deals pass); "
                "ask for fewer deals or a condition more deals pass"
            )

    def note(self) -> str:
        """One line for stderr: produced, generated, acceptance and strategy.

        >>> d = ConditionedDealer.build("hcp(north) >= 10", None, seed="n", strategy="rejection")
        >>> _ = list(d.batches(5))
        >>> d.note().startswith("condition: 5 deals of ")
        True
        """
        rate = self.acceptance
        share = "" if rate is None else f", {100 * float(rate):.4g}% of deals pass"
        return (
            f"condition: {self.produced:,} deals of {self.generated:,} generated"
            f"{share}; strategy {self.strategy}"
        )
