"""What the differential tests of the board readers compare: all a reading gives."""

from __future__ import annotations

from croupier.formats.records import BoardFileContents


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
