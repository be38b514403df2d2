"""How the program words what went wrong: one bounded line, and parameter names as flags.

Every error and warning line the program prints goes through :func:`one_line`, so every
one of them hides key material the same way (:func:`croupier.cli.secrets_mask.mask_secrets`):
a secret key given to the wrong argument is never echoed back.

Kept apart from :mod:`croupier.cli.app` (which needs Typer) so that a command
run without Typer (``croupier dealer``'s quick path) reports its errors in the
same words.

>>> one_line("bad\\n value\\x1b[31m")
'bad value\\\\x1b[31m'
>>> as_flags("produce= must be at least 1", {"produce": "--produce"})
'--produce must be at least 1'
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping

from croupier.cli.secrets_mask import mask_secrets

__all__ = ["MESSAGE_LIMIT", "as_flags", "mask_secrets", "one_line"]

MESSAGE_LIMIT = 600
"""The longest error or warning line the program prints (characters)."""


def one_line(text: str) -> str:
    r"""A message as one bounded, printable line.

    White space runs become one space, other control characters are shown
    escaped (a message can quote hostile input), whatever may be key material is
    hidden (:func:`~croupier.cli.secrets_mask.mask_secrets`; before the cut, so no
    half of a key survives it), and a message longer than :data:`MESSAGE_LIMIT`
    is cut in the middle.

    >>> len(one_line("x" * 5000)) <= MESSAGE_LIMIT
    True
    >>> one_line("bad deal number '" + "9f" * 32 + "'; expected a number")
    "bad deal number '<64 hex digits hidden>'; expected a number"
    """
    text = " ".join(text.split())
    text = "".join(repr(c)[1:-1] if unicodedata.category(c).startswith("C") else c for c in text)
    text = mask_secrets(text)
    if len(text) > MESSAGE_LIMIT:
        half = (MESSAGE_LIMIT - 5) // 2
        text = f"{text[:half]} ... {text[-half:]}"
    return text


def as_flags(message: str, flags: Mapping[str, str]) -> str:
    """Write ``name=`` in a library message as the flag ``flags[name]`` (``--players``).

    >>> as_flags("nosuch= stays", {"count": "--count"})
    'nosuch= stays'
    """

    def replace(match: re.Match[str]) -> str:
        flag = flags.get(match.group(1))
        if flag is None:
            return match.group(0)
        return f"{flag} " if match.group(2) == "" else f"{flag}{match.group(2)}"

    return re.sub(r"(?<![\w-])([a-z][a-z0-9_]*)=(\s*)", replace, message)
