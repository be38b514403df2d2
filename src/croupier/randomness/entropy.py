"""Finite user entropy: dice rolls, coin flips, bits and hex digits.

An :class:`EntropySource` hands out its digits one at a time, each exactly
once, as ``(digit, radix)`` pairs; :class:`~croupier.randomness.uniform.UniformSampler`
combines them in mixed radix, so no roll is wasted or reduced with bias.
When the digits run out it raises :class:`~croupier.errors.EntropyExhaustedError`
saying how many more rolls (or bits) are needed at least; it never reuses or
pads what it was given.

Spec strings (:meth:`EntropySource.parse`):

* ``dice:3,6,1,...`` or ``d6:361...`` — six-sided dice, faces 1 to 6;
* ``dN:...`` — N-sided dice (``d20:17,3,20``), faces 1 to N;
* ``coins:HTTH...`` — coin flips (H is 0, T is 1);
* ``bits:0110...`` — bits;
* ``hex:9f3a...`` — hex digits, used as 4 bits each (most significant first).

>>> src = EntropySource.parse("dice:3,6,1")
>>> src.draw(1), src.draw(1), src.remaining
((2, 6), (5, 6), 1)
"""

from __future__ import annotations

import math
import re
from typing import ClassVar

import croupier.randomness.source as _source_module
from croupier.errors import EntropyExhaustedError, SeedError, bounded_decimal
from croupier.randomness.source import RandomSource, SourceKind

__all__ = ["MAX_DICE_SIDES", "EntropySource", "EntropySpecError"]


class EntropySpecError(SeedError):
    """An entropy spec (``dice:...``, ``coins:...``, ``hex:...``) is malformed."""


_SEPARATOR = re.compile(r"[\s,;_]")
_VALID = "valid: dice:3,6,1  d20:17,3,20  coins:HTTH  bits:0110  hex:9f3a"
_HEX_VALUES = {c: i for i, c in enumerate("0123456789abcdef")} | {
    c: 10 + i for i, c in enumerate("ABCDEF")
}

MAX_DICE_SIDES = 10**9
"""The most sides a die of an entropy spec (``dN:...``) may have (see ``docs/limits.md``)."""


class EntropySource(RandomSource):
    """A finite list of uniform digits of one radix, each handed out once.

    ``unit`` names one digit in messages ("d6 roll", "coin flip", "bit").

    >>> src = EntropySource([1, 0, 1], 2, unit="bit")
    >>> src.total_bits, src.bits_used
    (3.0, 0.0)
    """

    kind: ClassVar[str] = SourceKind.ENTROPY
    reproducible: bool = True

    def __init__(
        self, digits: list[int], radix: int, *, unit: str = "digit", spec: str = ""
    ) -> None:
        if radix < 2:
            raise EntropySpecError(f"radix {radix} is too small; use 2 or more")
        for number, d in enumerate(digits, 1):
            if not 0 <= d < radix:  # the value is not shown: the digits are the user's secret
                raise EntropySpecError(f"digit {number} is not from 0 to {radix - 1}")
        super().__init__()
        self.digits = tuple(digits)
        self.radix = radix
        self.unit = unit
        self.spec = spec
        self._pos = 0

    @classmethod
    def parse(cls, spec: str) -> EntropySource:
        """Read a spec such as ``dice:3,6,1``, ``d20:...``, ``coins:HTTH``, ``hex:...``.

        The spec is the user's secret, so an error never quotes it: it says
        what is wrong and where (the roll's number, the character's position
        after the ``:``), showing at most the one character that is not allowed.

        >>> EntropySource.parse("coins:HTTH").digits
        (0, 1, 1, 0)
        >>> EntropySource.parse("hex:a").digits
        (1, 0, 1, 0)
        >>> EntropySource.parse("d20:20,1").digits
        (19, 0)
        >>> EntropySource.parse("dice:3,6,1,5,2,22,4")
        Traceback (most recent call last):
        ...
        croupier.randomness.entropy.EntropySpecError: bad d6 roll 6 (character 11 after ':', \
2 characters): a d6 shows 1 to 6 (the spec is not shown)
        """
        if not isinstance(spec, str):
            raise EntropySpecError(
                f"an entropy spec is text such as 'dice:3,6,1', not {type(spec).__name__}"
            )
        kind, sep, body = spec.partition(":")
        kind = kind.strip().lower()
        size = f"{len(spec)} characters"
        if not sep:
            raise EntropySpecError(
                f"bad entropy spec ({size}): no ':' after the kind ({_VALID}; "
                "the spec is not shown)"
            )
        if kind in ("dice", "d6") or re.fullmatch(r"d[0-9]+", kind):
            sides = 6 if kind == "dice" else bounded_decimal(kind[1:], 10)
            if sides is None or not 2 <= sides <= MAX_DICE_SIDES:
                raise EntropySpecError(
                    f"bad entropy spec ({size}): dice have 2 to {MAX_DICE_SIDES} sides "
                    "(the spec is not shown)"
                )
            return cls._dice(body, sides, spec)
        if kind == "hex":
            bits: list[int] = []
            for position, ch in _characters(body):
                v = _HEX_VALUES.get(ch, -1)  # ASCII only: int(ch, 16) also reads '٣'
                if v < 0:
                    raise EntropySpecError(
                        f"bad hex digit {ch!r} at character {position} after 'hex:': "
                        "use 0-9 and a-f (the spec is not shown)"
                    )
                bits.extend((v >> s) & 1 for s in (3, 2, 1, 0))
            return cls(bits, 2, unit="bit", spec=spec)
        if kind in ("coins", "coin"):
            table, unit, valid = {"h": 0, "t": 1}, "coin flip", "H/T"
        elif kind == "bits":
            table, unit, valid = {"0": 0, "1": 1}, "bit", "0/1"
        else:
            # a kind of 5 characters or fewer cannot hold a quotable piece of the rolls
            shown = (
                repr(kind) if re.fullmatch(r"[a-z0-9]{0,5}", kind) else f"({len(kind)} characters)"
            )
            raise EntropySpecError(
                f"unknown entropy kind {shown} before the ':' ({_VALID}; the spec is not shown)"
            )
        digits = []
        for position, ch in _characters(body):
            if ch.lower() not in table:
                raise EntropySpecError(
                    f"bad {unit} {ch!r} at character {position} after '{kind}:': "
                    f"use {valid} (the spec is not shown)"
                )
            digits.append(table[ch.lower()])
        return cls(digits, 2, unit=unit, spec=spec)

    @classmethod
    def _dice(cls, body: str, sides: int, spec: str) -> EntropySource:
        """The rolls of a ``dN:`` body: one character each, or separated for dice beyond 9."""
        if re.search(r"[\s,;]", body.strip()) or sides > 9:
            rolls = [(m.start() + 1, m.group()) for m in re.finditer(r"[^\s,;]+", body)]
        else:
            rolls = [(i + 1, ch) for i, ch in enumerate(body) if not ch.isspace()]
        digits = []
        for number, (position, roll) in enumerate(rolls, 1):
            face = bounded_decimal(roll, len(str(sides)))
            if face is None or not 1 <= face <= sides:
                if len(roll) == 1:  # one character that is no roll: no secret, and telling
                    where = f"{roll!r} (roll {number}, character {position} after ':')"
                else:
                    where = f"{number} (character {position} after ':', {len(roll)} characters)"
                raise EntropySpecError(
                    f"bad d{sides} roll {where}: a d{sides} shows 1 to {sides} "
                    "(the spec is not shown)"
                )
            digits.append(face - 1)
        return cls(digits, sides, unit=f"d{sides} roll", spec=spec)

    @property
    def remaining(self) -> int:
        """How many digits are still unused."""
        return len(self.digits) - self._pos

    @property
    def bits_per_digit(self) -> float:
        """``log2(radix)``: the entropy of one digit."""
        return math.log2(self.radix)

    @property
    def total_bits(self) -> float:
        """The entropy of everything supplied, in bits."""
        return len(self.digits) * self.bits_per_digit

    @property
    def bits_used(self) -> float:
        return self._pos * self.bits_per_digit

    def draw(self, bits: int) -> tuple[int, int]:
        """The next digit as ``(digit, radix)``; raises when none is left.

        >>> src = EntropySource.parse("coins:H")
        >>> src.draw(1)
        (0, 2)
        >>> src.draw(1)
        Traceback (most recent call last):
        ...
        croupier.errors.EntropyExhaustedError: entropy exhausted: all 1 coin flip(s) ...
        """
        if self._fork_seen != _source_module.fork_generation:
            self._check_fork()
        with self._lock:  # threads sharing the source never get the same digit
            pos = self._pos
            if pos >= len(self.digits):
                raise EntropyExhaustedError(self.shortfall(2 ** max(1, bits)))
            self._pos = pos + 1
        return self.digits[pos], self.radix

    def more_digits_needed(self, factor: int) -> int:
        """The fewest more digits whose combined range is at least ``factor``.

        >>> EntropySource([], 6).more_digits_needed(37)
        3
        """
        k, reach = 0, 1
        while reach < factor:
            reach *= self.radix
            k += 1
        return k

    def shortfall(self, factor: int, *, total_bits: float | None = None) -> str:
        """The message for running out when a draw needs a range ``factor`` times larger.

        With ``total_bits`` (the entropy the whole job needs at least), the
        message also gives the lower bound for the whole job.

        >>> EntropySource.parse("dice:1,2").shortfall(37)
        'entropy exhausted: all 2 d6 roll(s) used (5.2 bits); need at least 3 more d6 roll(s)'
        >>> print(EntropySource.parse("hex:ff").shortfall(1, total_bits=21.8))
        entropy exhausted: all 8 bit(s) used (8.0 bits); need at least 14 more bit(s) (4 more ...
        """
        more = max(1, self.more_digits_needed(factor))
        if total_bits is not None:
            per = self.bits_per_digit
            missing = total_bits - self.total_bits
            more = max(more, math.ceil(missing / per - 1e-9))
        hex_digits = f" ({-(-more // 4)} more hex digit(s))" if self._is_hex() else ""
        return (
            f"entropy exhausted: all {len(self.digits)} {self.unit}(s) used "
            f"({self.total_bits:.1f} bits); need at least {more} more {self.unit}(s){hex_digits}"
        )

    def _is_hex(self) -> bool:
        return self.spec.strip().lower().startswith("hex:")

    def describe(self) -> str:
        return (
            f"entropy ({len(self.digits)} {self.unit}(s), {self.total_bits:.1f} bits; "
            f"only as secret as the rolls)"
        )

    def __repr__(self) -> str:
        """Counts only: the digits are the user's secret.

        >>> EntropySource.parse("dice:3,6,1")
        EntropySource(<3 d6 roll(s)>)
        """
        return f"EntropySource(<{len(self.digits)} {self.unit}(s)>)"


def _characters(body: str) -> list[tuple[int, str]]:
    """The characters of a spec's body with their positions after the ``:`` (from 1),
    leaving out the separators (white space, ``,``, ``;``, ``_``)."""
    return [(i, ch) for i, ch in enumerate(body, 1) if not _SEPARATOR.fullmatch(ch)]
