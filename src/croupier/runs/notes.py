"""What a run says besides its deals: the seeded label, and the notes for stderr.

The label goes first in a seeded run's output (``seeded: reproducible from its
seed (ALGORITHM), so only as secret as the seed``); it never quotes the seed.
The notes say where the randomness came from, warn about weak seeds where
secrecy matters (board formats), and report a condition's acceptance.

>>> seeded_label("croupier-bulk/1")
'seeded: reproducible from its seed (croupier-bulk/1), so only as secret as the seed'
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the rest is imported where it is used: croupier dealer needs only the label
    from croupier.dealing import Layout
    from croupier.runs.dealers import RunDealer
    from croupier.runs.request import DealRequest

__all__ = ["bits_note", "label_algorithm", "run_notes", "seeded_label"]


def seeded_label(algorithm: str) -> str:
    """The line that says a run is seeded (never the seed: whoever reads the deals must not
    be able to deal the rest of the stream)."""
    return f"seeded: reproducible from its seed ({algorithm}), so only as secret as the seed"


def label_algorithm(request: DealRequest, dealer: RunDealer) -> str:
    """The algorithm a seeded run's label names: the deal engine's seeded stream
    (``croupier-seeded/1``), else the dealer's algorithm (``croupier-bulk/1``,
    ``croupier-stack/2``)."""
    from croupier.randomness import SEEDED_STREAM_ID

    return SEEDED_STREAM_ID if request.engine == "deal" else dealer.algorithm


def bits_note(bits: float, deals: int, layout: Layout) -> str:
    """The ``--bits`` line on stderr: bits in all and per deal, against log2 M.

    >>> from croupier.dealing import make_layout
    >>> bits_note(1280, 10, make_layout("bridge"))
    'bits used: 1,280 in all, 128.00 per deal (log2 M = 95.44)'
    """
    per = bits / deals if deals else 0.0
    log2m = math.log2(layout.count) if layout.count > 1 else 0.0
    total = f"{bits:,.0f}" if float(bits).is_integer() else f"{bits:,.2f}"
    return f"bits used: {total} in all, {per:.2f} per deal (log2 M = {log2m:.2f})"


def run_notes(
    request: DealRequest, dealer: RunDealer, fmt: str, written: int, *, quiet: bool = False
) -> list[str]:
    """The lines for stderr after a run: a weak-seed warning (board formats only: where the
    deals must stay secret), where the randomness came from, and the condition's note.
    With ``quiet`` there are none."""
    if quiet:
        return []
    from croupier.randomness import seed_warning, source_note
    from croupier.randomness.purposes import Purpose
    from croupier.randomness.seeded import SeededSource
    from croupier.runs.writers import NUMBERED_FORMATS

    lines: list[str] = []
    layout = request.layout
    source = request.source() if request.engine == "deal" else None
    if fmt in NUMBERED_FORMATS and request.seed is not None:
        log2m = math.log2(layout.count) if layout.count > 1 else 0.0
        seeded = SeededSource(request.seed, Purpose.DEAL)
        warning = seed_warning(seeded, log2m, f"~2^{log2m:.1f} deals of {layout.game}")
        if warning is not None:
            lines.append(f"warning: {warning}")
    what = "" if written == 1 else f" {written} deals"
    if source is not None:
        where = source_note(source)
    elif request.seed is not None:
        where = "from the seed: reproducible, and only as secret as the seed"
    else:
        where = "from the OS CSPRNG (not reproducible)"
    lines.append(f"dealt{what} with {dealer.method} {where}")
    lines += dealer.notes()
    return lines
