"""Durations in words, as estimates and progress lines give them.

>>> duration_text(42.4), duration_text(754), duration_text(9400), duration_text(4e6)
('42 seconds', '13 minutes', '2.6 hours', '46 days')
"""

from __future__ import annotations

__all__ = ["duration_text"]


def _count(n: int, unit: str) -> str:
    return f"{n:,} {unit}" if n == 1 else f"{n:,} {unit}s"


def duration_text(seconds: float) -> str:
    """``seconds`` in words, rounded as an estimate is: seconds below 90, minutes below 90
    minutes, hours (one decimal) below two days, then days.

    >>> duration_text(0.2), duration_text(89.4), duration_text(90), duration_text(5400)
    ('1 second', '89 seconds', '2 minutes', '1.5 hours')
    """
    if seconds < 89.5:
        return _count(max(1, round(seconds)), "second")
    if seconds < 90 * 60:
        return _count(round(seconds / 60), "minute")
    if seconds < 48 * 3600:
        return f"{seconds / 3600:.1f} hours"
    return _count(round(seconds / 86400), "day")
