"""What the differential tests of the board readers compare: all a reading gives."""

from __future__ import annotations

import random

from croupier.formats.records import BoardFileContents
from croupier.ranking.bigdeal import GOEDEL_MAX, goedel_unrank


def every_field(contents: BoardFileContents | None) -> object:
    """All a reading gives, where each record was too (records compare by content only)."""
    assert contents is not None
    records = [(r.hands, r.number, r.dealer, r.vulnerable, r.game, r.line, r.room)
               for r in contents.records]  # fmt: skip
    return records, contents.skipped, contents.source


def agree(
    fast: BoardFileContents | None,
    general: BoardFileContents,
    read: BoardFileContents,
    text: str,
) -> None:
    """The fast path read ``text`` (plain), as the general reader and the public reader did."""
    assert fast is not None, text  # every file here is plain
    assert every_field(fast) == every_field(general), text
    assert every_field(read) == every_field(fast)


def lin_hands(rng: random.Random) -> list[str]:
    """The hands of a random deal as a LIN ``md`` writes them: ``S..H..D..C..``, South,
    West, North, East."""
    hands = goedel_unrank(rng.randrange(GOEDEL_MAX))
    parts = []
    for seat in (2, 3, 0, 1):  # LIN: South, West, North, East
        by_suit = {s: "" for s in "SHDC"}
        for card in hands[seat]:
            by_suit[card.suit.letter] += card.rank.letter
        parts.append("".join(s + by_suit[s] for s in "SHDC"))
    return parts
