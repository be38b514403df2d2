"""The one rule that hides key material in the program's error and warning lines.

A message quotes what the user typed (``unknown game '...'``, ``file '...' not found``),
and a secret key pasted into the wrong argument would be echoed to the terminal and to
every log that keeps it.  :func:`mask_secrets` hides, wherever it stands in a message:

* a run of :data:`SECRET_RUN` or more hex digits, whatever they are (``0`` * 64 is a key
  too), and a run of as many letters and digits that mixes at least two of
  upper-case letters, lower-case letters and digits — every key format croupier reads:
  a ``croupier-boards`` key (64 hex digits), a Big Deal hash (``bigdealx -h``, 40 hex
  digits, any case), a SquareDeal key (60 of ``A-Z a-z 0-9``, also inside a ``.sqk``
  line ``p,s:KEY``) (a 32-digit window of a key is already 128 secret bits);
* the digits of a ``hex:`` seed (:class:`croupier.randomness.seeded.SeededSource`),
  also when spaces group them, once they are :data:`SECRET_RUN` or more.

It is shown as ``<N hex digits hidden>`` (only hex digits) or ``<N characters hidden>``,
so a message still says how long the hidden text was.  A word in one case, and every token
shorter than :data:`SECRET_RUN` (a number of up to 31 digits, a card, a flag), stay as they
are; a longer number is hidden like a key, since it may be one.

>>> mask_secrets("unknown game '" + "3f" * 32 + "'")
"unknown game '<64 hex digits hidden>'"
>>> mask_secrets("file '1,1:" + "Az9" * 20 + "' not found; bad card 'X'")
"file '1,1:<60 characters hidden>' not found; bad card 'X'"
>>> mask_secrets("key '" + "0" * 64 + "', number " + "8" * 31)
"key '<64 hex digits hidden>', number 8888888888888888888888888888888"
"""

from __future__ import annotations

import re

__all__ = ["SECRET_RUN", "mask_secrets"]

SECRET_RUN = 32
"""The shortest run of letters and digits (or ``hex:`` digits) that is hidden."""

_RUN = re.compile(r"[0-9A-Za-z]+")
_HEX_SEED = re.compile(r"(?i:hex:)((?:[ \t]*[0-9A-Fa-f]+\b)+)")
_HEX = frozenset("0123456789abcdefABCDEF")


def _kinds(run: str) -> int:
    """How many of upper-case letters, lower-case letters and digits ``run`` holds."""
    return sum(any(test(c) for c in run) for test in (str.isupper, str.islower, str.isdigit))


def _placeholder(hidden: str) -> str:
    if _HEX.issuperset(hidden):
        return f"<{len(hidden)} hex digits hidden>"
    return f"<{len(hidden)} characters hidden>"


def _hide_run(match: re.Match[str]) -> str:
    run = match.group()
    if len(run) >= SECRET_RUN and (_HEX.issuperset(run) or _kinds(run) >= 2):
        return _placeholder(run)
    return run


def _hide_hex_seed(match: re.Match[str]) -> str:
    digits = "".join(match.group(1).split())
    if len(digits) < SECRET_RUN:
        return match.group()
    return f"{match.group()[:4]}<{len(digits)} hex digits hidden>"


def mask_secrets(text: str) -> str:
    """``text`` with every run that may be key material hidden (see the module's rule).

    Applying it twice changes nothing more; one-character and short tokens are kept.

    >>> mask_secrets("seed 'hex:" + "0a1b " * 16 + "' and 'hex:ab'")
    "seed 'hex:<64 hex digits hidden> ' and 'hex:ab'"
    >>> mask_secrets("E4321609A9B22CAFE0AB9EFB605F36BDDA57D18E and x" + "y" * 40)
    '<40 hex digits hidden> and xyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy'
    >>> mask_secrets("A K Q J T 9 8 7 6 5 4 3 2 a b c d e f 0 1 2 3 4 5 6 7 8 9 a b c")
    'A K Q J T 9 8 7 6 5 4 3 2 a b c d e f 0 1 2 3 4 5 6 7 8 9 a b c'
    """
    return _RUN.sub(_hide_run, _HEX_SEED.sub(_hide_hex_seed, text))
