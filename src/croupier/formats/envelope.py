"""The one JSON envelope of every ``--json`` output (see docs/json.md).

Whatever the command, the count or the options, ``--json`` prints one object:

==================  ==================================================================
``croupier``        the version that wrote it
``command``         the command, e.g. ``deal`` or ``squaredeal verify``
``algorithm``       the algorithm id of reproducible results (``croupier-bulk/1``), or null
``source``          where the randomness came from (``os-csprng``, ``seeded``,
                    ``entropy``, ...), or null when none was used
``reproducible``    whether the same inputs give the same result (a seed, or no randomness)
``result``          the payload: its shape is the command's (a list of deals, a report...)
``bits``            random bits used, or null
==================  ==================================================================

Commands print it with :func:`envelope_json`; an output written as it is made
(the deals of ``croupier deal``, the cards of a big shoe) writes
:func:`envelope_prefix`, the result, then :func:`envelope_suffix`, and gives
the same text.

>>> doc = envelope("cards", ["AS", "KH"])
>>> list(doc), doc["result"], doc["reproducible"]
(['croupier', 'command', 'algorithm', 'source', 'reproducible', 'result', 'bits'], \
['AS', 'KH'], True)
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "ENVELOPE_KEYS",
    "envelope",
    "envelope_head",
    "envelope_json",
    "envelope_prefix",
    "envelope_suffix",
]

ENVELOPE_KEYS = ("croupier", "command", "algorithm", "source", "reproducible", "result", "bits")
"""The keys of every envelope, in order."""


def envelope_head(
    command: str,
    *,
    algorithm: str | None = None,
    source: str | None = None,
    reproducible: bool | None = None,
) -> dict[str, Any]:
    """The keys that come before ``result`` (for outputs written as they are made).

    ``reproducible`` defaults to whether no randomness was used (``source`` is None).
    """
    from croupier.version import version

    return {
        "croupier": version(),
        "command": command,
        "algorithm": algorithm,
        "source": source,
        "reproducible": source is None if reproducible is None else reproducible,
    }


def envelope(
    command: str,
    result: Any,
    *,
    algorithm: str | None = None,
    source: str | None = None,
    reproducible: bool | None = None,
    bits: float | int | None = None,
) -> dict[str, Any]:
    """The whole envelope of ``result``."""
    head = envelope_head(command, algorithm=algorithm, source=source, reproducible=reproducible)
    return {**head, "result": result, "bits": bits}


def envelope_json(
    command: str,
    result: Any,
    *,
    algorithm: str | None = None,
    source: str | None = None,
    reproducible: bool | None = None,
    bits: float | int | None = None,
) -> str:
    """The envelope as the text every ``--json`` prints: indented by two, characters as
    they are (UTF-8), integers of any size written exactly.

    >>> print(envelope_json("order", {"order": 8}, bits=None))  # doctest: +ELLIPSIS
    {
      "croupier": "...",
      "command": "order",
      "algorithm": null,
      "source": null,
      "reproducible": true,
      "result": {
        "order": 8
      },
      "bits": null
    }
    """
    from croupier.ranking.partitions import decimal_json

    doc = envelope(
        command, result, algorithm=algorithm, source=source, reproducible=reproducible, bits=bits
    )
    return decimal_json(doc, ensure_ascii=False, indent=2)


def envelope_prefix(
    command: str,
    *,
    algorithm: str | None = None,
    source: str | None = None,
    reproducible: bool | None = None,
) -> str:
    """The envelope's text up to the value of ``result`` (for outputs written as they are made).

    >>> envelope_prefix("cards").endswith('"reproducible": true,\\n  "result": ')
    True
    """
    import json

    head = envelope_head(command, algorithm=algorithm, source=source, reproducible=reproducible)
    text = json.dumps(head, ensure_ascii=False, indent=2)
    return text[: text.rindex("}")].rstrip() + ',\n  "result": '


def envelope_suffix(bits: float | int | None = None) -> str:
    """The envelope's text after the value of ``result``: ``bits`` and the closing brace.

    >>> envelope_suffix(12.5)
    ',\\n  "bits": 12.5\\n}\\n'
    """
    import json

    return f',\n  "bits": {json.dumps(bits)}\n}}\n'
