"""The JSON Schema (draft 2020-12) of every command's ``--json`` output.

Every ``--json`` prints one object, the envelope of
:mod:`croupier.formats.envelope`; :data:`SCHEMAS` holds, for every leaf
command (``croupier.cli.app.leaf_commands``), the schema of that whole
object: the envelope's keys (none other: ``additionalProperties`` is false),
the values this command puts in ``algorithm``, ``source`` and ``bits``, and the
shape of its ``result``, strict too.  ``tests/test_json_schemas.py`` runs every
command with ``--json`` and validates the output against its schema;
``docs/json.md`` shows every schema as :func:`doc_section` writes it (the test
compares them; ``python -m croupier.cli.schemas docs/json.md`` rewrites the
section).

>>> SCHEMAS["cards"]["properties"]["command"]
{'const': 'cards'}
>>> sorted(SCHEMAS["deal"]["required"])
['algorithm', 'bits', 'command', 'croupier', 'reproducible', 'result', 'source']
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from croupier import algorithm_ids as ids
from croupier.dealing import METHODS
from croupier.formats.envelope import ENVELOPE_KEYS
from croupier.randomness.source import SourceKind
from croupier.shuffling import FLAWED_METHODS, SHUFFLE_METHODS

__all__ = ["DOC_MARKER", "SCHEMAS", "VERSION_SCHEMA", "doc_section", "schema_text", "update_doc"]

Schema = dict[str, Any]

DRAFT = "https://json-schema.org/draft/2020-12/schema"

# -- building blocks ------------------------------------------------------------------------
STR: Schema = {"type": "string"}
INT: Schema = {"type": "integer"}
NAT: Schema = {"type": "integer", "minimum": 0}
NUM: Schema = {"type": "number"}
BOOL: Schema = {"type": "boolean"}
NULL: Schema = {"type": "null"}
ANY: Schema = {}
DECIMAL: Schema = {"type": "string", "pattern": "^[0-9]+$"}
FRACTION: Schema = {"type": "string", "pattern": "^-?[0-9]+(/[0-9]+)?$"}
HEX64: Schema = {"type": "string", "pattern": "^[0-9a-f]{64}$"}
CARD_CODE: Schema = {"type": "string", "pattern": "^(JK|[AKQJT98765432][SHDC])(#[0-9]+)?$"}
SEAT: Schema = {"enum": ["N", "E", "S", "W"]}
VULNERABLE: Schema = {"enum": ["None", "NS", "EW", "All"]}
PBN_DEAL: Schema = {"type": "string", "pattern": "^[NESW]:"}


def nullable(schema: Schema) -> Schema:
    """``schema`` or ``null``."""
    return {"anyOf": [schema, NULL]}


def array(items: Schema, **more: Any) -> Schema:
    """An array of ``items``."""
    return {"type": "array", "items": items, **more}


def obj(properties: dict[str, Schema], *, optional: tuple[str, ...] = ()) -> Schema:
    """An object with exactly these keys, all required but the ``optional`` ones."""
    required = [k for k in properties if k not in optional]
    return {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }


def mapping(values: Schema, keys: Schema | None = None) -> Schema:
    """An object used as a map: any keys (or ``keys``), every value ``values``."""
    out: Schema = {"type": "object", "additionalProperties": values}
    if keys is not None:
        out["propertyNames"] = keys
    return out


def envelope(
    command: str,
    result: Schema,
    *,
    algorithm: list[str | None] | Schema | None = None,
    source: list[str | None] | None = None,
    bits: Schema = NULL,
) -> Schema:
    """The schema of ``command``'s whole ``--json`` output: the envelope around ``result``.

    ``algorithm`` and ``source`` list the values the command writes (default: ``null``
    only); ``bits`` is the schema of ``bits``.
    """
    algorithms: Schema
    if isinstance(algorithm, dict):
        algorithms = algorithm
    else:
        algorithms = {"enum": algorithm if algorithm is not None else [None]}
    properties: dict[str, Schema] = {
        "croupier": {"type": "string", "pattern": "^[0-9]"},
        "command": {"const": command},
        "algorithm": algorithms,
        "source": {"enum": source if source is not None else [None]},
        "reproducible": BOOL,
        "result": result,
        "bits": bits,
    }
    assert tuple(properties) == ENVELOPE_KEYS
    return {"$schema": DRAFT, "title": f"croupier {command} --json", **obj(properties)}


OS = SourceKind.OS_CSPRNG.value
SEEDED = SourceKind.SEEDED.value
ENTROPY = SourceKind.ENTROPY.value
KEYED = SourceKind.KEYED.value

# -- shared shapes ---------------------------------------------------------------------------
CARD = obj(
    {
        "rank": STR,
        "suit": nullable({"enum": ["S", "H", "D", "C"]}),
        "code": CARD_CODE,
        "symbol": STR,
        "long": STR,
        "glyph": STR,
        "copy": NAT,
        "index": NAT,
    }
)
PILE_CARDS = mapping(array(CARD_CODE))
"""Piles by name and their cards (``{"N": ["AS", ...], ...}``): a deal's and a board's
``hands``."""
DEAL = obj(
    {
        "game": STR,
        "layout": obj(
            {
                "deck": STR,
                "piles": array(
                    obj(
                        {
                            "name": STR,
                            "size": NAT,
                            "kind": {"enum": ["hand", "pile", "remainder"]},
                            "stack": {"const": True},
                        },
                        optional=("stack",),
                    )
                ),
            }
        ),
        "hands": PILE_CARDS,
        "piles": PILE_CARDS,
        "remainder": array(CARD_CODE),
        "number": DECIMAL,
        "scheme": STR,
        "deal": PBN_DEAL,
        "method": STR,
        "bits_used": NUM,
        "algorithm": STR,
        "source": STR,
    },
    optional=("deal",),
)
NUMBER = {
    **obj(
        {"number": DECIMAL, "scheme": STR, "deal": PBN_DEAL, "hands": PILE_CARDS},
        optional=("deal", "hands"),
    ),
    "oneOf": [{"required": ["deal"]}, {"required": ["hands"]}],
}
BOARD_KEYS: dict[str, Schema] = {
    "board": {"type": "integer", "minimum": 1},
    "dealer": SEAT,
    "vulnerable": VULNERABLE,
    "deal": PBN_DEAL,
    "hands": obj({seat: array(CARD_CODE) for seat in "NESW"}),
}
"""The one board object (``croupier.formats.records.board_object``, docs/json.md): every
command's boards begin with these keys."""
BOARD = obj({**BOARD_KEYS, "goedel": nullable(DECIMAL)})
SKIPPED = obj({"game": NAT, "line": NAT, "reason": STR})
PAGE = obj({"file": STR, "bytes": NAT, "sha256": HEX64})
MISMATCH = obj(
    {
        "file": STR,
        "board": nullable(INT),
        "what": {
            "enum": [
                "deal",
                "dealer",
                "vulnerability",
                "missing",
                "duplicate",
                "extra",
                "order",
                "no-boards",
            ]
        },
        "expected": nullable(STR),
        "found": nullable(STR),
        "message": STR,
    }
)
REPORT = obj(
    {
        "ok": BOOL,
        "keys": obj(
            {
                "ok": BOOL,
                "key_file": STR,
                "published": nullable(STR),
                "computed": nullable(STR),
                "message": STR,
            }
        ),
        "files": array(
            obj(
                {
                    "file": STR,
                    "ok": BOOL,
                    "boards": NAT,
                    "phase": NAT,
                    "session": NAT,
                    "reserve": BOOL,
                    "mismatches": array(MISMATCH),
                },
                optional=("phase", "session", "reserve"),
            )
        ),
        "failures": NAT,
        "notes": array(STR),
    }
)
EVENT = {
    "name": STR,
    "delayed_info": STR,
    "delayed_value": nullable(STR),
    "phases": array(obj({"sessions": NAT, "boards": STR, "prefix": STR, "description": STR})),
    "key_hash": nullable(HEX64),
}
PLAN = nullable(STR)
FACTORS = array(array(INT, minItems=2, maxItems=2))
STATISTIC_ROW = obj(
    {
        "value": {"anyOf": [INT, {"enum": ["Low", "High"]}]},
        "count": NAT,
        "fraction": nullable(NUM),
        "se": nullable(NUM),
        "ci95": nullable(array(NUM)),
    }
)
MOMENTS = {
    "count": NAT,
    "sum": INT,
    "sum_squares": INT,
    "mean": nullable(NUM),
    "mean_exact": nullable(FRACTION),
    "sd": nullable(NUM),
    "se": nullable(NUM),
    "ci95": nullable(array(NUM)),
}
STATISTIC = {
    "oneOf": [
        obj({"kind": {"const": "average"}, "label": nullable(STR), "expression": STR, **MOMENTS}),
        obj(
            {
                "kind": {"const": "frequency"},
                "label": nullable(STR),
                "expression": STR,
                "low": INT,
                "high": INT,
                "below": NAT,
                "above": NAT,
                "rows": array(STATISTIC_ROW),
                **MOMENTS,
            }
        ),
        obj(
            {
                "kind": {"const": "frequency2d"},
                "label": nullable(STR),
                "expressions": array(STR, minItems=2, maxItems=2),
                "low": INT,
                "high": INT,
                "low2": INT,
                "high2": INT,
                "rows": array(STR),
                "columns": array(STR),
                "counts": array(array(NAT)),
                "count": NAT,
            }
        ),
    ]
}
TEST = obj({"test": STR, "statistic": NUM, "df": NAT, "p_value": NUM})
OUTCOME = obj({"outcome": ANY, "probability": FRACTION})
EXACT_REPORT = obj(
    {
        "method": STR,
        "cards": NAT,
        "kind": {"enum": ["arrangement", "deal"]},
        "engine": STR,
        "space": NAT,
        "reachable": NAT,
        "uniform": BOOL,
        "verdict": STR,
        "tv": FRACTION,
        "tv_float": NUM,
        "unfinished": FRACTION,
        "max_probability": FRACTION,
        "min_probability": FRACTION,
        "min_reachable_probability": FRACTION,
        "most_likely": array(OUTCOME),
        "least_likely": array(OUTCOME),
        "obstructions": array(STR),
        "tv_bounds": array(FRACTION, minItems=2, maxItems=2),
        "hands": array(NAT),
        "parity": STR,
        "position_matrix": array(array(FRACTION)),
        "hand_matrix": array(array(FRACTION)),
        "outcomes": array(OUTCOME),
    },
    optional=("tv_bounds", "hands", "parity", "position_matrix", "hand_matrix"),
)
REPEAT_REPORT = obj(
    {
        "method": STR,
        "cards": NAT,
        "exact": BOOL,
        "curve": array(
            obj(
                {"repetitions": NAT, "tv": NUM, "tv_fraction": FRACTION},
                optional=("tv_fraction",),
            )
        ),
        "reachable_group": NAT,
        "period": NAT,
        "limit_tv": FRACTION,
        "limit_tv_float": NUM,
        "stops_falling_at": nullable(NAT),
    }
)
MONTE_CARLO_REPORT = obj(
    {
        "method": STR,
        "cards": NAT,
        "trials": NAT,
        "kind": {"enum": ["arrangement", "deal"]},
        "source_description": STR,
        "bits_per_trial": NUM,
        "bound_bits": NUM,
        "min_expected_count": NUM,
        "tests": array(TEST),
        "games": array(
            obj(
                {
                    "game": STR,
                    "observed": mapping(NAT),
                    "expected": mapping(NUM),
                    "tests": array(TEST),
                }
            )
        ),
        "counts": array(array(NAT)),
    }
)


def _reports(mode: str, report: Schema) -> Schema:
    return obj({"mode": {"const": mode}, "reports": array(report, minItems=1)})


EQUITY_HAND = obj(
    {
        "hand": STR,
        "combos": NAT,
        "equity": FRACTION,
        "win": FRACTION,
        "tie": FRACTION,
        "equity_percent": NUM,
        "win_percent": NUM,
        "tie_percent": NUM,
        "shares": array(NAT),
        "interval_percent": array(NUM, minItems=2, maxItems=2),
    },
    optional=("interval_percent",),
)
_EQUITY_COMMON = {
    "game": {"enum": ["holdem", "omaha"]},
    "board": array(CARD_CODE),
    "dead": array(CARD_CODE),
}
FILE_METHODS = ["keyed-split", "reservoir"]  # croupier shuffle --file: shuffle, and -n sample
SHUFFLE_ALGORITHMS = [
    *sorted(m.algorithm_id for m in (*SHUFFLE_METHODS.values(), *FLAWED_METHODS.values())),
    ids.KEYED_SPLIT,
    ids.RESERVOIR,
]

VERSION_SCHEMA = envelope(
    "--version",
    obj(
        {
            "version": STR,
            "python": STR,
            "algorithms": array(
                obj(
                    {
                        "id": STR,
                        "status": {"enum": ["current", "retired"]},
                        "home": STR,
                        "what": STR,
                    }
                )
            ),
        }
    ),
)
"""``croupier --version --json``: the version, Python's, and every algorithm id."""

# -- every command ---------------------------------------------------------------------------
SCHEMAS: dict[str, Schema] = {
    "deal": envelope(
        "deal",
        array(DEAL),
        algorithm=[
            ids.BULK,
            ids.BULK_STACKS,
            ids.DEAL,
            ids.DEAL_STACKS,
            ids.STACK,
        ],
        source=[OS, SEEDED, ENTROPY],
        bits=NUM,
    ),
    "rank": envelope("rank", NUMBER),
    "unrank": envelope("unrank", NUMBER),
    "entropy": envelope(
        "entropy",
        obj(
            {
                "game": STR,
                "layout": STR,
                "deals": DECIMAL,
                "log2_deals": NUM,
                "log2_deck_orders": NUM,
                "measured_bits": mapping(NUM, {"enum": list(METHODS)}),
                "measured_over": NAT,
            }
        ),
        source=[OS],
    ),
    "dealer": envelope(
        "dealer",
        obj(
            {
                "script": STR,
                "generated": NAT,
                "produced": NAT,
                "acceptance": nullable(NUM),
                "acceptance_ci95": nullable({**array(NUM), "minItems": 2, "maxItems": 2}),
                "strategy": STR,
                "support_probability": NUM,
                "seconds": NUM,
                "statistics": array(STATISTIC),
                "deals": array(PBN_DEAL),
            }
        ),
        algorithm=[ids.BULK, ids.STACK],
        source=[OS, SEEDED],
        bits=nullable(NAT),
    ),
    "shuffle": envelope(
        "shuffle",
        obj(
            {
                "items": array(ANY),
                "method": {"enum": [*sorted({*SHUFFLE_METHODS, *FLAWED_METHODS}), *FILE_METHODS]},
                "method_requested": STR,
                "uniform": BOOL,
                "source_description": STR,
                "sampler": nullable(STR),
                "bits_bound": NUM,
                "warnings": array(STR),
            }
        ),
        algorithm=list(SHUFFLE_ALGORITHMS),
        source=[OS, SEEDED, ENTROPY],
        bits=NUM,
    ),
    "cards": envelope("cards", array(CARD)),
    "deck": envelope(
        "deck",
        {
            "oneOf": [
                obj({"deck": STR, "cards": array(CARD)}),
                obj(
                    {
                        "presets": array(
                            obj({"name": STR, "cards": NAT, "description": STR}), minItems=1
                        )
                    }
                ),
            ]
        },
    ),
    "apply": envelope("apply", obj({"spec": STR, "items": array(ANY)})),
    "order": envelope(
        "order",
        obj(
            {
                "spec": STR,
                "cards": NAT,
                "order": {"type": "integer", "minimum": 1},
                "cycle_type": FACTORS,
                "cycles": NAT,
                "modulus": NAT,
                "modulus_factors": FACTORS,
                "order_factors": FACTORS,
                "trace": array(BOOL),
            },
            optional=("modulus", "modulus_factors", "order_factors", "trace"),
        ),
    ),
    "elmsley": envelope(
        "elmsley",
        obj(
            {
                "cards": NAT,
                "from": NAT,
                "to": NAT,
                "moves": array({"enum": ["in", "out"]}),
                "length": NAT,
                "verified": BOOL,
            }
        ),
    ),
    "group": envelope(
        "group",
        obj(
            {
                "cards": NAT,
                "generators": array(STR, minItems=1),
                "order": {"type": "integer", "minimum": 1},
                "order_factors": FACTORS,
                "index": {"type": "integer", "minimum": 1},
                "is_symmetric": BOOL,
                "is_alternating": BOOL,
            }
        ),
    ),
    "bigdeal": envelope(
        "bigdeal",
        obj(
            {
                "owner": STR,
                "event": nullable(STR),
                "seed": {"type": "string", "pattern": "^[0-9a-f]{40}$"},
                "file": nullable(STR),
                "format": nullable(STR),
                "boards": array(BOARD),
                "warnings": array(STR),
            }
        ),
        algorithm=[ids.BIGDEAL],
        source=[KEYED],
    ),
    "squaredeal new": envelope(
        "squaredeal new",
        obj({"event_file": STR, **EVENT}),
        algorithm=[ids.SQUAREDEAL],
    ),
    "squaredeal publish": envelope(
        "squaredeal publish",
        obj({"event_file": STR, "key_file": STR, "key_hash": HEX64, "verify_page": nullable(PAGE)}),
        algorithm=[ids.SQUAREDEAL],
        source=[OS],
    ),
    "squaredeal set-dv": envelope(
        "squaredeal set-dv",
        obj({"event_file": STR, "delayed_value": STR}),
        algorithm=[ids.SQUAREDEAL],
    ),
    "squaredeal make": envelope(
        "squaredeal make",
        obj(
            {
                "format": STR,
                "files": array(
                    obj(
                        {
                            "file": STR,
                            "phase": NAT,
                            "session": NAT,
                            "reserve": BOOL,
                            "boards": array(BOARD),
                        }
                    )
                ),
            }
        ),
        algorithm=[ids.SQUAREDEAL],
        source=[KEYED],
    ),
    "squaredeal verify": envelope("squaredeal verify", REPORT, algorithm=[ids.SQUAREDEAL]),
    "boards new-key": envelope(
        "boards new-key",
        obj(
            {
                "key_file": STR,
                "event": STR,
                "plan": PLAN,
                "commitment": HEX64,
                "verify_page": nullable(PAGE),
            }
        ),
        algorithm=[ids.BOARDS, ids.BOARDS_PLAN],
        source=[OS],
    ),
    "boards commitment": envelope(
        "boards commitment",
        obj({"event": STR, "plan": PLAN, "commitment": HEX64}),
        algorithm=[ids.BOARDS, ids.BOARDS_PLAN],
    ),
    "boards make": envelope(
        "boards make",
        obj(
            {
                "event": STR,
                "plan": PLAN,
                "delayed_value": STR,
                "session": {"type": "integer", "minimum": 1},
                "file": nullable(STR),
                "format": nullable(STR),
                "boards": array(BOARD),
            }
        ),
        algorithm=[ids.BOARDS, ids.BOARDS_PLAN],
        source=[KEYED],
    ),
    "boards verify": envelope("boards verify", REPORT, algorithm=[ids.BOARDS, ids.BOARDS_PLAN]),
    "page verify": envelope(
        "page verify",
        obj({"page": {"const": "verify"}, "file": STR, "bytes": NAT, "sha256": HEX64}),
    ),
    "convert": envelope(
        "convert",
        obj(
            {
                "input": STR,
                "from": STR,
                "output": STR,
                "to": STR,
                "read": NAT,
                "written": NAT,
                "partial": NAT,
                "repeats": NAT,
                "skipped": array(SKIPPED),
                "warnings": array(STR),
            }
        ),
    ),
    "handrecord": envelope(
        "handrecord",
        obj(
            {
                "file": STR,
                "format": {"enum": ["html", "pdf"]},
                "paper": {"enum": ["a4", "letter"]},
                "per_page": {"type": "integer", "minimum": 1},
                "pages": {"type": "integer", "minimum": 1},
                "inputs": array(STR),
                "skipped": array(obj({"file": STR, "game": NAT, "line": NAT, "reason": STR})),
                "replaced": array(obj({"character": STR, "code": STR})),
                "event": nullable(STR),
                "session": nullable(STR),
                "date": nullable(STR),
                "boards_range": nullable(STR),
                "provenance": nullable(
                    obj(
                        {
                            "scheme": STR,
                            "commitment": STR,
                            "delayed_value": STR,
                            "verify": array(STR),
                        }
                    )
                ),
                "boards": array(
                    obj(
                        {
                            **BOARD_KEYS,
                            "board": NAT,
                            "hcp": obj({seat: nullable(NAT) for seat in "NESW"}),
                            "double_dummy": nullable(
                                obj(
                                    {
                                        "tricks": obj(
                                            {
                                                seat: obj({s: NAT for s in "SHDCN"})
                                                for seat in "NESW"
                                            }
                                        ),
                                        "par_score": INT,
                                        "par_contracts": array(STR),
                                    }
                                )
                            ),
                        }
                    )
                ),
            }
        ),
    ),
    "analyze": envelope(
        "analyze",
        {
            "oneOf": [
                obj(
                    {
                        "mode": {"const": "list"},
                        "methods": array(
                            obj(
                                {
                                    "name": STR,
                                    "kind": {"enum": ["arrangement", "deal"]},
                                    "group": STR,
                                    "claimed_fair": BOOL,
                                    "description": STR,
                                }
                            ),
                            minItems=1,
                        ),
                    }
                ),
                _reports("exact", EXACT_REPORT),
                _reports("repeat", REPEAT_REPORT),
                _reports("monte-carlo", MONTE_CARLO_REPORT),
                obj(
                    {
                        "mode": {"const": "bits"},
                        "trials": NAT,
                        "sizes": array(NAT),
                        "bound": array(NUM),
                        "methods": mapping(array(NUM)),
                    }
                ),
            ]
        },
        algorithm=[None, ids.ANALYZE_MC],
        source=[None, OS, SEEDED],
    ),
    "mixing riffle": envelope(
        "mixing riffle",
        obj(
            {
                "cards": NAT,
                "packets": {"type": "integer", "minimum": 2},
                "points": array(
                    obj(
                        {
                            "shuffles": NAT,
                            "tv": NUM,
                            "separation": NUM,
                            "tv_fraction": FRACTION,
                            "separation_fraction": FRACTION,
                        }
                    )
                ),
                "riffles_needed": NAT,
            }
        ),
    ),
    "poker eval": envelope(
        "poker eval",
        obj(
            {
                "cards": STR,
                "board": STR,
                "rule": {"enum": ["best-five", "omaha"]},
                "value": {"type": "integer", "minimum": 1},
                "category": STR,
                "ranks": array(STR),
                "description": STR,
                "best": array(CARD_CODE, minItems=5, maxItems=5),
            },
            optional=("best",),
        ),
    ),
    "poker equity": envelope(
        "poker equity",
        {
            "oneOf": [
                obj(
                    {
                        **_EQUITY_COMMON,
                        "method": {"const": "exact"},
                        "deals": NAT,
                        "matchups": NAT,
                        "boards": NAT,
                        "hands": array(EQUITY_HAND, minItems=2),
                    }
                ),
                obj(
                    {
                        **_EQUITY_COMMON,
                        "method": {"const": "monte-carlo"},
                        "trials": NAT,
                        "stopped": {"const": "time-limit"},
                        "trials_requested": NAT,
                        "hands": array(EQUITY_HAND, minItems=2),
                    },
                    optional=("stopped", "trials_requested"),
                ),
            ]
        },
        algorithm=[None, ids.EQUITY_MC],
        source=[None, OS, SEEDED],
        bits=nullable(NUM),
    ),
}
"""The schema of every leaf command's ``--json`` output, by command (``squaredeal verify``)."""


# -- docs/json.md ----------------------------------------------------------------------------
DOC_MARKER = (
    "<!-- The schemas below are written by `python -m croupier.cli.schemas docs/json.md`. -->"
)
"""The line of docs/json.md after which :func:`doc_section` stands."""

_WIDTH = 96


def schema_text(schema: Any, indent: int = 0, before: int = 0) -> str:
    """JSON text of a schema, indented by two, with a short object or array on one line
    (``indent``: the line's indentation; ``before``: the characters before the value on it).

    >>> print(schema_text({"type": "object", "properties": {"a": {"type": "string"}}}))
    {"type": "object", "properties": {"a": {"type": "string"}}}
    """
    flat = json.dumps(schema, ensure_ascii=False)
    if indent + before + len(flat) <= _WIDTH or not isinstance(schema, dict | list) or not schema:
        return flat
    pad = " " * (indent + 2)
    if isinstance(schema, dict):
        items = []
        for key, value in schema.items():
            name = json.dumps(key, ensure_ascii=False) + ": "
            items.append(pad + name + schema_text(value, indent + 2, len(name)))
    elif all(not isinstance(value, dict | list) for value in schema):  # words: filled lines
        items, line = [], ""
        for word in (json.dumps(value, ensure_ascii=False) for value in schema):
            if line and len(pad) + len(line) + len(word) + 2 > _WIDTH:
                items.append(pad + line.rstrip())
                line = ""
            line += word + ", "
        items.append(pad + line.removesuffix(", "))
        return "[\n" + "\n".join(items) + "\n" + " " * indent + "]"
    else:
        items = [pad + schema_text(value, indent + 2) for value in schema]
    ends = "{}" if isinstance(schema, dict) else "[]"
    return ends[0] + "\n" + ",\n".join(items) + "\n" + " " * indent + ends[1]


def doc_section() -> str:
    """The part of docs/json.md after :data:`DOC_MARKER`: every command's schema."""
    parts = [DOC_MARKER, ""]
    for command, schema in SCHEMAS.items():
        parts += [f"### `croupier {command}`", "", "```json", schema_text(schema), "```", ""]
    return "\n".join(parts)


def update_doc(path: Path) -> bool:
    """Rewrite the schemas of the page at ``path``; return whether it changed."""
    text = path.read_text(encoding="utf-8")
    head, marker, _ = text.partition(DOC_MARKER)
    if not marker:
        raise SystemExit(f"{path}: the line {DOC_MARKER!r} is missing")
    new = head + doc_section()
    if new == text:
        return False
    path.write_text(new, encoding="utf-8")
    return True


if __name__ == "__main__":  # pragma: no cover - a maintenance command
    for name in sys.argv[1:] or ["docs/json.md"]:
        print(f"{name}: {'rewritten' if update_doc(Path(name)) else 'unchanged'}")
