"""How many random bits each deal method uses, measured (``croupier entropy``).

>>> from croupier.dealing import make_layout
>>> bits = measured_bits(make_layout("war"), 5)
>>> sorted(bits) == sorted(METHODS) and all(b > 0 for b in bits.values())
True
"""

from __future__ import annotations

from croupier.dealing import METHODS, Layout, deal_many
from croupier.errors import CroupierError
from croupier.randomness import OsRandomSource, UniformSampler
from croupier.runs.request import short_int

__all__ = ["MAX_ENTROPY_DEALS", "MAX_ENTROPY_WORK", "measured_bits"]

MAX_ENTROPY_DEALS = 10_000
"""The most deals per method :func:`measured_bits` deals."""

MAX_ENTROPY_WORK = 30_000_000
"""The bound on deals x (deck size)² (dealing a big deck costs about the square of its
size; bridge: 10,000 deals, 208 cards: 693)."""


def measured_bits(layout: Layout, deals: int) -> dict[str, float]:
    """The mean bits per deal of every method of :data:`METHODS` over ``deals`` deals from the
    OS CSPRNG, leftover randomness recycled (as in a long run)."""
    if isinstance(deals, bool) or not isinstance(deals, int) or not 1 <= deals <= MAX_ENTROPY_DEALS:
        shown = short_int(deals) if isinstance(deals, int) else repr(deals)
        raise CroupierError(
            f"deals= must be at least 1 and at most {MAX_ENTROPY_DEALS:,}, got {shown}"
        )
    n = len(layout.deck)
    most = max(1, MAX_ENTROPY_WORK // max(1, n * n))
    if deals > most:
        raise CroupierError(
            f"deals={deals} is too many for a deck of {n} cards; the measurement takes "
            f"at most {most:,} deals of it (deals x cards² <= {MAX_ENTROPY_WORK:,})"
        )
    measured: dict[str, float] = {}
    for name in METHODS:
        source = OsRandomSource()
        sampler = UniformSampler(source, margin_bits=32)
        for _ in deal_many(layout, deals, method=name, sampler=sampler):
            pass
        measured[name] = (source.bits_used - sampler.leftover_bits) / deals
    return measured
