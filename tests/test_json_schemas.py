"""Every ``--json`` output is one envelope, valid against its command's JSON Schema.

Each leaf command runs in-process with ``--json`` (several option sets each: counts,
modes, seeds, files), in a copy of the sample folder of ``tests/test_cli_output.py``,
and its standard output is validated against :data:`croupier.cli.schemas.SCHEMAS`.
The schemas are checked too: valid draft 2020-12 schemas, strict enough to refuse
the shapes ``--json`` printed before the envelope, and shown in docs/json.md as the
module writes them.
"""

from __future__ import annotations

import copy
import io
import json
import shutil
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from croupier.cli.app import leaf_commands
from croupier.cli.schemas import DOC_MARKER, SCHEMAS, doc_section, schema_text
from tests.conftest import ROOT, CliResult, CliRunner
from tests.test_cli_output import ALL_SEATS, COMMITTED, EVENT, SESSION, STDIN_FILE
from tests.test_cli_output import sample_folder as sample_folder  # the shared sample files

LEAVES = [" ".join(path) for path, _ in leaf_commands()]
STATS_SCRIPT = (
    "generate 3000\nproduce 5\ncondition hcp(north) >= 15\n"
    'action average "s" hcp(south), frequency (hcp(north), 15, 20), '
    "frequency (hcp(east), 0, 5, hcp(west), 0, 5)\n"
)
BOARDS = ["boards", "make", *EVENT, *SESSION]
PAGE = ["--verify-page", "v.html"]

# Command lines of every leaf command with --json: each option that changes the output's shape.
JSON_CASES: dict[str, list[list[str]]] = {
    "deal": [
        ["deal"],
        ["deal", "-n", "2", "--seed", "s"],
        ["deal", "euchre", "-n", "3", "--engine", "deal", "--seed", "s"],
        ["deal", "--where", "hcp(north) >= 20", "-n", "2", "--seed", "s"],
        ["deal", "holdem", "-p", "2", "--entropy", "hex:" + "5a" * 40],
    ],
    "rank": [["rank", "bridge", ALL_SEATS], ["rank", "custom", "AH AS / AD", "--hands", "2,1"]],
    "unrank": [["unrank", "bridge", "0"], ["unrank", "skat", "12345"]],
    "entropy": [["entropy", "war", "--deals", "5"]],
    "dealer": [["dealer", "s.dlr", "--seed", "x"], ["dealer", "stats.dlr"]],
    "shuffle": [
        ["shuffle", "a", "b", "c"],
        ["shuffle", "--cards", "3000", "--seed", "x"],
        ["shuffle", "--deck", "standard", "--method", "poker-1999", "--seed", "x"],
        ["shuffle", "--file", "names.txt", "--seed", "x"],
        ["shuffle", "--file", "names.txt", "-n", "3", "--seed", "x"],
        ["shuffle", "a", "b", "c", "-n", "2"],
        ["shuffle", "--cards", "3", "--entropy", "dice:1,2,3,4,5,6"],
    ],
    "cards": [["cards", "AS KH JK 10d AS#2"]],
    "deck": [["deck"], ["deck", "pinochle"], ["deck", "shoe:3", "--sort", "bridge"]],
    "apply": [["apply", "riffle", "1", "2", "3"], ["apply", "faro-out", "--deck", "standard"]],
    "order": [
        ["order", "faro-out", "--cards", "52", "--trace"],
        ["order", "cut:1,riffle", "--cards", "20"],
    ],
    "elmsley": [["elmsley", "--cards", "52", "--to", "5"]],
    "group": [["group", "faro-in", "faro-out", "--cards", "8"]],
    "bigdeal": [
        ["bigdeal", "--owner", "t", "--entropy", "hello", "--boards", "1-3"],
        ["bigdeal", "--owner", "t", "--hash", "0" * 40, "-b", "2", "-f", "lin", "-o", "x.lin"],
    ],
    "squaredeal new": [
        ["squaredeal", "new", "NEW.sqd", "--name", "N", "--phase", "1:1-4:A#:A"],
    ],
    "squaredeal publish": [
        ["squaredeal", "publish", "UNPUB.sqd"],
        ["squaredeal", "publish", "UNPUB.sqd", *PAGE],
    ],
    "squaredeal set-dv": [["squaredeal", "set-dv", "NODV.sqd", "7"]],
    "squaredeal make": [["squaredeal", "make", "EV.sqd", "--keys", "EV.sqk", "--out", "made/"]],
    "squaredeal verify": [["squaredeal", "verify", "EV.sqd", "EV.sqk", "sets/CUP1.pbn"]],
    "boards new-key": [
        ["boards", "new-key", "--event", "Other", "--key-file", "other.key"],
        ["boards", "new-key", "--event", "O", "--plan", "1:1-4", "--key-file", "o.key", *PAGE],
    ],
    "boards commitment": [
        ["boards", "commitment", *EVENT],
        ["boards", "commitment", *EVENT, "--plan", "1:1-4;2:5-8"],
    ],
    "boards make": [[*BOARDS, "--boards", "1-4"], [*BOARDS, "--plan", "1:1-2", "-o", "m.lin"]],
    "boards verify": [
        ["boards", "verify", *EVENT, *SESSION, "--boards", "1-4", *COMMITTED, "cup1.pbn"],
        ["boards", "verify", *EVENT, *SESSION, "--boards", "1-5", *COMMITTED, "cup1.pbn"],
    ],
    "convert": [["convert", "session.pbn", "out.lin"], ["convert", "-", "o.csv", "--from", "pbn"]],
    "handrecord": [
        ["handrecord", "cup1.pbn", "--out", "r.html"],
        ["handrecord", "sets/CUP1.pbn", "--sqd", "EV.sqd", "--session", "1", "-o", "s.html"],
    ],
    "analyze": [
        ["analyze", "--list"],
        ["analyze", "swap-any", "--cards", "3"],
        ["analyze", "deal:open-players", "--cards", "6"],
        ["analyze", "riffle,cut", "--cards", "4", "--repeat", "3"],
        ["analyze", "fisher-yates", "--cards", "5", "--trials", "50", "--seed", "t"],
        ["analyze", "lehmer,fisher-yates", "--bits", "--cards", "6", "--trials", "5"],
    ],
    "mixing riffle": [["mixing", "riffle", "--cards", "52", "--max", "3"]],
    "poker eval": [
        ["poker", "eval", "As", "Ks", "Qs", "Js", "Ts", "9h", "2c"],
        ["poker", "eval", "AsAhKdQc", "--omaha", "--board", "Ks Ts 9s 2s 7h"],
    ],
    "poker equity": [
        ["poker", "equity", "AsKs", "QhQd", "--board", "2s7sQc"],
        ["poker", "equity", "AhKh", "random", "--trials", "300", "--seed", "s"],
    ],
    "page verify": [["page", "verify", "--out", "v.html"]],
}

VERIFY_FAILS = [
    ["boards", "verify", *EVENT, *SESSION, "--boards", "1-5", *COMMITTED, "cup1.pbn"],
]  # exit 1: the file does not match, and the JSON says so


@pytest.fixture(scope="module")
def samples(sample_folder: Path) -> Path:
    """The sample folder, with a dealer script that gathers statistics."""
    (sample_folder / "stats.dlr").write_text(STATS_SCRIPT)
    return sample_folder


def run_in_copy(
    cli: CliRunner,
    folder: Path,
    args: list[str],
    work: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> CliResult:
    """Run ``croupier ARGS`` in a fresh copy ``work`` of ``folder`` (standard input: a PBN file;
    ``@commitment``: the sample key's commitment)."""
    shutil.copytree(folder, work)
    args = [(work / "commitment.txt").read_text() if a == "@commitment" else a for a in args]
    monkeypatch.chdir(work)
    stdin = io.TextIOWrapper(io.BytesIO((work / STDIN_FILE).read_bytes()), encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", stdin)
    return cli(args)


def _cases() -> list[tuple[str, list[str]]]:
    return [(name, [*args, "--json"]) for name, lines in JSON_CASES.items() for args in lines]


def validate(command: str, document: Any) -> None:
    """Validate ``document`` against ``command``'s schema (raises ``ValidationError``)."""
    jsonschema.Draft202012Validator(SCHEMAS[command]).validate(document)


def test_every_leaf_command_has_a_schema_and_json_cases() -> None:
    assert set(SCHEMAS) == set(LEAVES)
    assert set(JSON_CASES) == set(LEAVES)


@pytest.mark.parametrize("command", list(SCHEMAS))
def test_every_schema_is_a_valid_draft_2020_12_schema(command: str) -> None:
    schema = SCHEMAS[command]
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["additionalProperties"] is False
    assert schema["properties"]["command"] == {"const": command}


@pytest.mark.parametrize(("command", "args"), _cases(), ids=lambda v: str(v))
def test_json_output_is_one_envelope_valid_against_its_schema(
    cli: CliRunner,
    samples: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    command: str,
    args: list[str],
) -> None:
    result = run_in_copy(cli, samples, args, tmp_path / "work", monkeypatch)
    expected_code = 1 if args[:-1] in VERIFY_FAILS else 0
    assert result.code == expected_code, result.err
    document = json.loads(result.out)  # one JSON document, nothing else on stdout
    validate(command, document)
    assert document["command"] == command
    # reproducible: no randomness, or randomness from what was given (a seed, a key, rolls)
    reproducible = document["source"] in (None, "seeded", "keyed", "entropy")
    assert document["reproducible"] is reproducible
    if "--seed" in args:
        assert document["source"] == "seeded"


# -- the schemas refuse what --json printed before the envelope -----------------------------
_OLD_SHAPES: dict[str, Any] = {
    "cards": [{"rank": "A", "suit": "S", "code": "AS"}],
    "deal": {"deals": [], "total_bits": 0.0},
    "mixing riffle": [{"shuffles": 1, "tv": 0.5, "separation": 1.0}],
    "order": {"spec": "faro-out", "cards": 52, "order": 8},
}


@pytest.mark.parametrize("command", list(_OLD_SHAPES))
def test_the_old_bare_shapes_fail(command: str) -> None:
    with pytest.raises(jsonschema.ValidationError):
        validate(command, _OLD_SHAPES[command])


def _good(command: str, result: Any, **meta: Any) -> dict[str, Any]:
    doc = {"croupier": "1.0", "command": command, "algorithm": None, "source": None}
    return {**doc, "reproducible": True, "result": result, "bits": None, **meta}


def test_the_schemas_are_strict_about_every_level() -> None:
    statistics = [{"kind": "average", "label": None, "expression": "hcp(south)", "count": 0,
                   "sum": 0, "sum_squares": 0, "mean": None, "mean_exact": None, "sd": None,
                   "se": None, "ci95": None}]  # fmt: skip
    result = {"script": "s.dlr", "generated": 1, "produced": 1, "acceptance": 1.0,
              "acceptance_ci95": [0.2065, 1.0], "strategy": "rejection",
              "support_probability": 1.0, "seconds": 0.1,
              "statistics": statistics, "deals": []}  # fmt: skip
    meta = {"algorithm": "croupier-bulk/1", "source": "seeded", "bits": 240}
    validate("dealer", _good("dealer", result, **meta))  # the model is valid: the tests can pass
    nested = {**result, "statistics": {"produced": 1, "statistics": statistics}}
    for bad in (
        _good("dealer", nested, **meta),  # the old statistics.statistics
        {**_good("dealer", result, **meta), "extra": 1},  # a key beside the envelope's
        _good("dealer", {**result, "algorithm": "croupier-bulk/1"}, **meta),  # result grows
        _good("dealer", result, **{**meta, "source": "entropy"}),  # a source dealer never uses
        _good("deal", []),  # deal always counts its bits
        _good("cards", [{"code": "AS"}]),  # a card object lacks its keys
    ):
        with pytest.raises(jsonschema.ValidationError):
            validate(bad["command"], bad)
    missing = _good("cards", [])
    del missing["bits"]
    with pytest.raises(jsonschema.ValidationError):
        validate("cards", missing)


def test_a_schema_mutated_to_accept_anything_is_caught() -> None:
    """The validation test can fail: a document of another command does not pass."""
    loose = copy.deepcopy(SCHEMAS["cards"])
    loose["properties"]["result"] = {}
    doc = _good("cards", {"anything": True})
    jsonschema.Draft202012Validator(loose).validate(doc)
    with pytest.raises(jsonschema.ValidationError):
        validate("cards", doc)


def test_docs_show_every_schema_as_the_module_writes_it() -> None:
    text = (ROOT / "docs" / "json.md").read_text(encoding="utf-8")
    assert DOC_MARKER in text, "docs/json.md lost the line that starts the schemas"
    shown = text[text.index(DOC_MARKER) :]
    assert shown == doc_section(), (
        "docs/json.md shows other schemas than croupier.cli.schemas: run "
        "'.venv/bin/python -m croupier.cli.schemas docs/json.md'"
    )
    for command, schema in SCHEMAS.items():
        assert f"### `croupier {command}`" in shown
        assert json.loads(schema_text(schema)) == schema  # the text shown is the schema


def test_version_json_lists_every_algorithm_id_and_is_valid(cli: CliRunner) -> None:
    from croupier.algorithm_ids import ALGORITHMS
    from croupier.cli.schemas import VERSION_SCHEMA

    for args in (["--version", "--json"], ["--json", "--version"]):
        result = cli(args)
        assert result.code == 0, result.err
        document = json.loads(result.out)
        jsonschema.Draft202012Validator.check_schema(VERSION_SCHEMA)
        jsonschema.Draft202012Validator(VERSION_SCHEMA).validate(document)
        rows = document["result"]["algorithms"]
        assert [(r["id"], r["status"], r["home"]) for r in rows] == [
            (a.id, a.status, a.home) for a in ALGORITHMS
        ]
    assert cli(["--version"]).out.startswith("croupier ")
    refused = cli(["--json", "deal"])
    assert refused.code == 2 and "--json before a command goes with --version" in refused.err
