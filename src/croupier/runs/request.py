"""A deal run asked for: what to deal, how many, by which engine, from which randomness.

:class:`DealRequest` is checked once, when it is made (:meth:`DealRequest.make`),
so every door — ``croupier deal``, ``croupier.deals``, ``croupier.deal_array`` —
refuses the same things with the same one-line errors.

The **engine** is chosen by the request, never by the count or the output format:

* ``bulk`` (``croupier-bulk/1``, the default; ``croupier-bulk/2`` for layouts with
  stacks): exact, vectorised, millions of deals a second, from the OS CSPRNG or a seed;
* ``deal`` (``croupier-deal/2``; ``croupier-deal/3`` for layouts with stacks): deal by
  deal with the fewest random bits, every deal method, and finite user entropy (dice,
  coins).

Asking for a deal method (``method=``) or for user entropy (``entropy=``) asks for the
``deal`` engine (only it has them); a condition (``where=``, ``predeal=``) deals with
the ``bulk`` engine.

>>> from croupier.dealing import make_layout
>>> DealRequest.make(make_layout("bridge"), 10, seed="x").engine
'bulk'
>>> DealRequest.make(make_layout("bridge"), 1, entropy="coins:" + "HT" * 60).engine
'deal'
>>> DealRequest.make(make_layout("bridge"), 10, engine="bulk", method="block")
Traceback (most recent call last):
...
croupier.errors.CroupierError: the bulk engine has one algorithm (croupier-bulk/1), so no \
method=block; the deal methods (optimal, ...) use engine=deal
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Literal

from croupier.bulk.array import bulk_algorithm
from croupier.bulk.generate import BULK_ALGORITHM_ID
from croupier.dealing import ALGORITHM_ID, METHODS, Layout, get_deal_method
from croupier.dealing.deal import deal_algorithm
from croupier.errors import CroupierError, EntropyExhaustedError, RangeError
from croupier.frozen import frozen_dataclass
from croupier.randomness.purposes import Purpose
from croupier.randomness.seeded import seed_value
from croupier.ranking.partitions import decimal

if TYPE_CHECKING:  # a condition's simulation (and user entropy) come with the runs that use them
    from croupier.randomness import RandomSource, Seed
    from croupier.simulate.run import Strategy

__all__ = [
    "DEFAULT_ENGINE",
    "DEFAULT_METHOD",
    "ENGINES",
    "MAX_BULK_COUNT",
    "MAX_DEAL_COUNT",
    "STRATEGIES",
    "DealEngine",
    "DealRequest",
    "dice_note",
    "short_int",
]

DealEngine = Literal["bulk", "deal"]
"""The two dealing algorithms: ``croupier-bulk/1`` and ``croupier-deal/2``."""

ENGINES: dict[str, str] = {"bulk": BULK_ALGORITHM_ID, "deal": ALGORITHM_ID}
"""Each engine and the algorithm id of its deals of layouts without stacks (with stacks:
``croupier-bulk/2`` and ``croupier-deal/3``, :attr:`DealRequest.algorithm`)."""

DEFAULT_ENGINE: DealEngine = "bulk"
"""The engine of a request that names none (whatever its count or output format)."""

DEFAULT_METHOD = next(iter(METHODS))
"""The deal engine's default method (the registry lists it first: ``optimal``)."""

STRATEGIES: tuple[Strategy, ...] = ("auto", "rejection", "stacking")
"""Every :data:`croupier.simulate.run.Strategy` (the values of the type):

>>> from typing import get_args
>>> from croupier.simulate.run import Strategy
>>> STRATEGIES == get_args(Strategy)
True
"""

MAX_DEAL_COUNT = 1_000_000_000
"""The most deals one run of the deal engine makes (every format streams)."""

MAX_BULK_COUNT = 10_000_000_000
"""The most deals one run of the bulk engine makes (batch by batch)."""


def short_int(value: int) -> str:
    """An integer for a message: in full when short, else its first digits and length.

    >>> short_int(52), short_int(10**400)
    ('52', '10000000000000000000... (401 digits)')
    """
    text = decimal(value)
    return text if len(text) <= 30 else f"{text[:20]}... ({len(text)} digits)"


def dice_note(layout: Layout) -> str:
    """How much user entropy a deal of ``layout`` needs, in dice and coins.

    >>> from croupier.dealing import make_layout
    >>> dice_note(make_layout("bridge"))
    'about 37 d6 rolls or 96 coin flips per deal'
    """
    rolls = math.ceil(math.log2(layout.count) / math.log2(6) - 1e-12) if layout.count > 1 else 0
    flips = math.ceil(math.log2(layout.count) - 1e-12) if layout.count > 1 else 0
    return f"about {rolls} d6 rolls or {flips} coin flips per deal"


@frozen_dataclass
class DealRequest:
    """One run of deals: layout, count, engine, method, randomness and condition (checked).

    Build it with :meth:`make`, which checks every field against the others.
    ``seed`` is kept as the streams take it (text or bytes); ``source`` is the
    deal engine's random source (``None`` for the bulk engine, which keys its
    own stream from the seed or the OS).
    """

    layout: Layout
    count: int
    engine: DealEngine
    method: str
    seed: str | bytes | None
    entropy: str | None
    where: str | None
    predeal: str | None
    strategy: Strategy

    @classmethod
    def make(
        cls,
        layout: Layout,
        count: int = 1,
        *,
        engine: DealEngine | None = None,
        method: str | None = None,
        seed: Seed | None = None,
        entropy: str | None = None,
        where: str | None = None,
        predeal: str | None = None,
        strategy: Strategy = "auto",
    ) -> DealRequest:
        """A checked request; ``engine=None`` picks :data:`DEFAULT_ENGINE`, or ``deal`` when
        ``method`` or ``entropy`` asks for what only it has."""
        if engine is not None and engine not in ENGINES:
            raise CroupierError(f"unknown engine {engine!r}; choose {' or '.join(ENGINES)}")
        if strategy not in STRATEGIES:
            raise CroupierError(f"unknown strategy {strategy!r}; choose {', '.join(STRATEGIES)}")
        conditioned = where is not None or predeal is not None
        wants_deal = method is not None or entropy is not None
        chosen: DealEngine = (
            engine
            if engine is not None
            else "deal"
            if wants_deal and not conditioned
            else DEFAULT_ENGINE
        )
        name = DEFAULT_METHOD if method is None else get_deal_method(method).name
        if chosen == "bulk":
            _check_bulk(engine is not None, name, entropy, conditioned)
        elif conditioned:
            raise CroupierError(
                "where= and predeal= deal with the bulk engine; leave out engine=deal"
            )
        if not conditioned and strategy != "auto":
            raise CroupierError("strategy= chooses how where= deals are found; give where= too")
        if conditioned and not layout.bridge_like:
            raise CroupierError(
                f"where= and predeal= deal bridge hands (N E S W of 13); {layout.describe()} "
                "is not a bridge layout"
            )
        limit = MAX_BULK_COUNT if chosen == "bulk" else MAX_DEAL_COUNT
        if isinstance(count, bool) or not isinstance(count, int):
            raise RangeError(f"count= must be a whole number, got {repr(count)[:40]}")
        if count < 0:
            raise RangeError(f"count= must be at least 0, got {short_int(count)}")
        if count > limit:
            more = f" (the bulk engine deals up to {MAX_BULK_COUNT:,})" if chosen == "deal" else ""
            raise RangeError(f"count= must be at most {limit:,}, got {short_int(count)}{more}")
        request = cls(
            layout,
            count,
            chosen,
            name,
            seed_value(seed),
            entropy,
            where,
            predeal,
            strategy,
        )
        if chosen == "deal":
            request._check_entropy(request.source())
        return request

    @property
    def algorithm(self) -> str:
        """The algorithm id of the engine's deals of this layout (``croupier-bulk/1``,
        ``croupier-deal/2``; ``croupier-bulk/2``, ``croupier-deal/3`` with stacks)."""
        if self.engine == "bulk":
            return bulk_algorithm(self.layout)
        return deal_algorithm(self.layout)

    @property
    def conditioned(self) -> bool:
        """Whether only deals passing a condition (``where``, ``predeal``) are kept."""
        return self.where is not None or self.predeal is not None

    @property
    def reproducible(self) -> bool:
        """Whether the deals come from a seed (the same seed gives the same deals)."""
        return self.seed is not None

    def source(self, purpose: str = Purpose.DEAL) -> RandomSource:
        """A fresh random source of the deal engine: the seed's stream, the entropy or the OS."""
        from croupier.randomness.options import resolve_source

        return resolve_source(seed=self.seed, entropy=self.entropy, purpose=purpose)

    def _check_entropy(self, source: RandomSource) -> None:
        """Refuse up front user entropy too short for the run (no method can do with less)."""
        from croupier.randomness.entropy import EntropySource

        if not isinstance(source, EntropySource):
            return
        need = self.count * math.log2(self.layout.count) if self.layout.count > 1 else 0.0
        if source.total_bits < need - 1e-9:
            what = (
                f"a {self.layout.game} deal needs"
                if self.count == 1
                else f"{self.count} deals need"
            )
            raise EntropyExhaustedError(
                f"{source.shortfall(1, total_bits=need)} ({what} at least {need:.2f} bits; "
                f"{dice_note(self.layout)})"
            )


def _check_bulk(chosen: bool, method: str, entropy: str | None, conditioned: bool) -> None:
    why = (
        "the bulk engine"
        if chosen or not conditioned
        else "a condition deals with the bulk engine, which"
    )
    if entropy is not None:
        raise CroupierError(
            f"{why} draws from the OS CSPRNG or a seed's stream, not from entropy=; "
            "user entropy works with engine=deal"
        )
    if method != DEFAULT_METHOD:
        methods = ", ".join(list(METHODS)[:1]) + ", ..."
        raise CroupierError(
            f"{why} has one algorithm ({BULK_ALGORITHM_ID}), so no method={method}; "
            f"the deal methods ({methods}) use engine=deal"
        )
