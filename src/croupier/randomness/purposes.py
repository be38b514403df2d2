"""The purposes of seeded streams: one home for every spelling.

A seed gives a different stream for each purpose (``croupier-seeded/1``: the purpose is
part of what is hashed), so that ``croupier deal --seed s`` and ``croupier shuffle
--seed s`` never share bits.  The spellings are part of the stream contract
(docs/reproducibility.md): changing one changes every output made with it.  Every
caller takes them from here.

>>> Purpose.DEAL, f"{Purpose.SHUFFLE_FILE}", analyze_purpose("riffle"), bits_purpose("cut")
(<Purpose.DEAL: 'deal'>, 'shuffle-file', 'analyze/riffle', 'bits/cut')
"""

from __future__ import annotations

from enum import StrEnum

from croupier.algorithm_ids import BULK, EQUITY_MC

__all__ = ["Purpose", "analyze_purpose", "bits_purpose"]


class Purpose(StrEnum):
    """A seeded stream's purpose (its value is the spelling that is hashed)."""

    DEAL = "deal"
    """``croupier.deal``, ``deals``, ``croupier deal`` (the deal engine)."""
    SHUFFLE = "shuffle"
    """``croupier.shuffle``, ``permutation``, ``sample``, ``Deck.shuffle``, ``croupier shuffle``."""
    SHUFFLE_FILE = "shuffle-file"
    """``croupier shuffle --file`` and ``croupier.scale.shuffle`` (the same order)."""
    BULK = BULK
    """The key of the bulk engine's stream (``croupier-bulk/1``)."""
    EQUITY_MC = EQUITY_MC
    """Monte Carlo poker equity (``croupier-equity-mc/1``)."""


def analyze_purpose(method: str) -> str:
    """The purpose of ``croupier analyze --trials --seed``'s runs of shuffle ``method``."""
    return f"analyze/{method}"


def bits_purpose(method: str) -> str:
    """The purpose of ``croupier analyze --bits``'s runs of shuffle ``method``."""
    return f"bits/{method}"
