"""Every algorithm id croupier has published: one table, one home for each id's spelling.

An algorithm id names a way of turning a seed and options into outputs, and its
version; the same id, seed and options give the same output, byte for byte, in
every later release (docs/reproducibility.md).  Each module that implements one
takes its spelling from here (``KEYED_SPLIT_ALGORITHM_ID = KEYED_SPLIT``), and the
JSON schemas of the command line, ``croupier --version --json`` and the tests of
docs/reproducibility.md read :data:`ALGORITHMS`.  A retired id stays in the table
(its code in :mod:`croupier.legacy`, or its outputs still dealt by its successor).

>>> [a.id for a in ALGORITHMS if a.status == "retired"]
['croupier-stack/1', 'croupier-extshuffle/1']
>>> by_id(KEYED_SPLIT).home
'croupier.scale.keyed_split'
"""

from __future__ import annotations

from typing import Literal, NamedTuple

__all__ = [
    "ALGORITHMS",
    "ANALYZE_MC",
    "BIGDEAL",
    "BOARDS",
    "BOARDS_PLAN",
    "BULK",
    "BULK_STACKS",
    "CHUNKS",
    "DEAL",
    "DEAL_STACKS",
    "EQUITY_MC",
    "EXTSHUFFLE",
    "KEYED_SPLIT",
    "RESERVOIR",
    "SAMPLE",
    "SEEDED",
    "SHUFFLE_METHOD",
    "SHUFFLE_SPLIT",
    "SQUAREDEAL",
    "STACK",
    "STACK_V1",
    "UNIFORM",
    "Algorithm",
    "Status",
    "by_id",
]

Status = Literal["current", "retired"]
"""``current``: what croupier runs today; ``retired``: kept so old outputs regenerate."""

SEEDED = "croupier-seeded/1"
UNIFORM = "croupier-uniform/1"
SHUFFLE_METHOD = "croupier-shuffle-<method>/1"
"""One id per shuffle method of :mod:`croupier.shuffling.registry` (``<method>``: its name)."""
SHUFFLE_SPLIT = "croupier-shuffle-split/1"
SAMPLE = "croupier-sample/1"
DEAL = "croupier-deal/2"
DEAL_STACKS = "croupier-deal/3"
BULK = "croupier-bulk/1"
BULK_STACKS = "croupier-bulk/2"
CHUNKS = "croupier-chunks/1"
STACK_V1 = "croupier-stack/1"
STACK = "croupier-stack/2"
BOARDS = "croupier-boards/1"
BOARDS_PLAN = "croupier-boards/2"
BIGDEAL = "bigdeal/2"
SQUAREDEAL = "squaredeal/2"
ANALYZE_MC = "croupier-analyze-mc/1"
EQUITY_MC = "croupier-equity-mc/1"
KEYED_SPLIT = "croupier-keyed-split/1"
RESERVOIR = "croupier-reservoir/1"
EXTSHUFFLE = "croupier-extshuffle/1"


class Algorithm(NamedTuple):
    """One published algorithm id: its spelling, whether it is current or retired, the
    module that implements it (``home``) and what it gives."""

    id: str
    status: Status
    home: str
    what: str


ALGORITHMS: tuple[Algorithm, ...] = (
    Algorithm(SEEDED, "current", "croupier.randomness.seeded", "the bit stream of a seed"),
    Algorithm(UNIFORM, "current", "croupier.randomness.uniform", "exact uniform integers"),
    Algorithm(
        SHUFFLE_METHOD, "current", "croupier.shuffling.registry", "each shuffle method's order"
    ),
    Algorithm(SHUFFLE_SPLIT, "current", "croupier.shuffling.split", "the split shuffle"),
    Algorithm(SAMPLE, "current", "croupier.shuffling.arrays", "croupier.sample"),
    Algorithm(DEAL, "current", "croupier.dealing.deal", "deals of layouts without stacks"),
    Algorithm(DEAL_STACKS, "current", "croupier.dealing.deal", "deals of layouts with stacks"),
    Algorithm(BULK, "current", "croupier.bulk.array", "deal arrays without stacks"),
    Algorithm(BULK_STACKS, "current", "croupier.bulk.array", "deal arrays with stacks"),
    Algorithm(CHUNKS, "current", "croupier.bulk.chunk_files", "a bulk run as chunk files"),
    Algorithm(STACK_V1, "retired", "croupier.simulate.support", "smart stacking, first counts"),
    Algorithm(STACK, "current", "croupier.simulate.support", "deals under a condition"),
    Algorithm(BOARDS, "current", "croupier.tournament.verifiable", "commit-and-reveal boards"),
    Algorithm(BOARDS_PLAN, "current", "croupier.tournament.verifiable", "the same, with the plan"),
    Algorithm(BIGDEAL, "current", "croupier.tournament.bigdeal", "boards as Big Deal deals"),
    Algorithm(SQUAREDEAL, "current", "croupier.tournament.squaredeal", "SquareDeal events"),
    Algorithm(ANALYZE_MC, "current", "croupier.analysis.run", "croupier analyze Monte Carlo"),
    Algorithm(EQUITY_MC, "current", "croupier.poker.equity", "Monte Carlo poker equity"),
    Algorithm(KEYED_SPLIT, "current", "croupier.scale.keyed_split", "the file shuffle"),
    Algorithm(RESERVOIR, "current", "croupier.scale.file_sample", "a one-pass file sample"),
    Algorithm(EXTSHUFFLE, "retired", "croupier.legacy.extshuffle", "the former file shuffle"),
)
"""Every published id, in the order of docs/reproducibility.md's table."""


def by_id(spelling: str) -> Algorithm:
    """The row of the id ``spelling`` (a shuffle method's own id gives the family's row).

    >>> by_id("croupier-shuffle-lehmer/1").id
    'croupier-shuffle-<method>/1'
    >>> by_id("deal")
    Traceback (most recent call last):
    ...
    KeyError: "no algorithm id 'deal'"
    """
    for row in ALGORITHMS:
        if row.id == spelling:
            return row
    family = SHUFFLE_METHOD.split("<method>")
    if (
        spelling.startswith(family[0])
        and spelling.endswith(family[1])
        and spelling != SHUFFLE_SPLIT
    ):
        return by_id(SHUFFLE_METHOD)
    raise KeyError(f"no algorithm id {spelling!r}")
