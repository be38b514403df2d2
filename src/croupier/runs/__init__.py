"""Deal runs: one way to deal from every door.

A run is a checked :class:`DealRequest` (what to deal, how many, by which
engine, from which randomness, under which condition), a :class:`RunDealer`
that makes the deals (:func:`open_dealer`), and a writer of one format
(:func:`open_deal_writer`), joined by :func:`run_deals`.  ``croupier deal``,
``croupier.deals`` (the deal engine) and ``croupier.deal_array`` (the bulk
engine) go through it, so the same request gives the same deals whatever the
door or the format; the conditioned dealer runs the very
:class:`~croupier.simulate.run.Simulation` that
:func:`croupier.simulate.deal_where` runs, so ``deal_where`` (a layer below)
gives the deals of ``croupier deal --where`` too.

>>> import io
>>> from croupier.dealing import make_layout
>>> from croupier.runs import DealRequest, open_deal_writer, open_dealer, run_deals
>>> request = DealRequest.make(make_layout("bridge"), 3, seed="runs")
>>> texts = {}
>>> for fmt in ("pbn-deal", "json"):
...     out = io.BytesIO()
...     _ = run_deals(open_dealer(request), 3, open_deal_writer(fmt, out, request.layout))
...     texts[fmt] = out.getvalue().decode()
>>> import json
>>> [d["deal"] for d in json.loads(texts["json"])["result"]] == texts["pbn-deal"].split("\\n")[:3]
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from croupier.lazy_names import LazyNames

if TYPE_CHECKING:
    from croupier.runs.dealers import BATCH, RunDealer
    from croupier.runs.request import (
        DEFAULT_ENGINE,
        ENGINES,
        MAX_BULK_COUNT,
        MAX_DEAL_COUNT,
        DealEngine,
        DealRequest,
    )
    from croupier.runs.run import RunResult, open_dealer, run_deals
    from croupier.runs.writers import (
        BINARY_FORMATS,
        BRIDGE_FORMATS,
        FORMATS,
        NUMBERED_FORMATS,
        DealOutput,
        WriteOptions,
        open_deal_writer,
    )

# Each name is imported from its module on first use: croupier dealer's run needs
# croupier.runs.notes alone.
_HOMES = {
    "BATCH": "dealers",
    "RunDealer": "dealers",
    "DEFAULT_ENGINE": "request",
    "ENGINES": "request",
    "MAX_BULK_COUNT": "request",
    "MAX_DEAL_COUNT": "request",
    "DealEngine": "request",
    "DealRequest": "request",
    "RunResult": "run",
    "open_dealer": "run",
    "run_deals": "run",
    "BINARY_FORMATS": "writers",
    "NUMBERED_FORMATS": "writers",
    "BRIDGE_FORMATS": "writers",
    "FORMATS": "writers",
    "DealOutput": "writers",
    "WriteOptions": "writers",
    "open_deal_writer": "writers",
}


_LAZY = LazyNames(globals(), _HOMES)


def __getattr__(name: str) -> Any:
    return _LAZY.get(name)


def __dir__() -> list[str]:
    return _LAZY.listing()


__all__ = [
    "BATCH",
    "BINARY_FORMATS",
    "BRIDGE_FORMATS",
    "DEFAULT_ENGINE",
    "ENGINES",
    "FORMATS",
    "MAX_BULK_COUNT",
    "MAX_DEAL_COUNT",
    "NUMBERED_FORMATS",
    "DealEngine",
    "DealOutput",
    "DealRequest",
    "RunDealer",
    "RunResult",
    "WriteOptions",
    "open_deal_writer",
    "open_dealer",
    "run_deals",
]
