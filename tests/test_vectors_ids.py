"""Every algorithm id has a row on the compatibility page and golden vectors that pin it.

``docs/reproducibility.md`` (section "Algorithm ids") lists every id with its
promise and its vectors.  The tests here fail when an id in ``src/croupier`` has
no row, when a row names vectors that are not there or do not mention the id,
and when one of the vector files made here no longer matches what the code
makes.

The files made here (``shuffle_flawed_v1.json``, ``chunks_v1.json``,
``scale_v1.json``) are computed again by the tests from their recorded inputs.
A deliberate change of an algorithm gets a new id; before an id is first
released its vectors may be written again with::

    CROUPIER_WRITE_VECTORS=1 python -m pytest tests/test_vectors_ids.py
"""

from __future__ import annotations

import ast
import hashlib
import importlib
import io
import json
import os
import re
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from croupier.algorithm_ids import ALGORITHMS
from croupier.randomness import SeededSource, UniformSampler
from croupier.shuffling.registry import FLAWED_METHODS, SHUFFLE_METHODS
from tests.conftest import ROOT, VECTORS

PAGE = ROOT / "docs" / "reproducibility.md"
SRC = ROOT / "src" / "croupier"
ID = re.compile(r"\bcroupier-[a-z0-9]+(?:-[a-z0-9]+)*/[0-9]+")
METHOD_ROW = "croupier-shuffle-<method>/1"


# -- the page -----------------------------------------------------------------------------
def _rows() -> dict[str, str]:
    """The id of every row of the page's table and the row's last cell (its vectors)."""
    text = PAGE.read_text(encoding="utf-8")
    section = text.split("\n## Algorithm ids\n", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        if line.startswith("| `croupier-"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            rows[cells[0].strip("`")] = cells[-1]
    return rows


def _ids_in_source() -> set[str]:
    """Every algorithm id the source writes, and the id of every shuffle method."""
    found: set[str] = set()
    for path in SRC.rglob("*"):
        if path.suffix in (".py", ".html", ".js") and path.is_file():
            found |= set(ID.findall(path.read_text(encoding="utf-8", errors="replace")))
    methods = {**SHUFFLE_METHODS, **FLAWED_METHODS}.values()
    return found | {m.algorithm_id for m in methods}


def _row_of(algorithm: str, rows: dict[str, str]) -> str | None:
    if algorithm in rows:
        return algorithm
    if algorithm.startswith("croupier-shuffle-") and METHOD_ROW in rows:
        return METHOD_ROW
    return None


def test_the_page_lists_every_id_of_the_source() -> None:
    rows = _rows()
    missing = sorted(a for a in _ids_in_source() if _row_of(a, rows) is None)
    assert not missing, f"ids with no row in docs/reproducibility.md: {missing}"
    assert len(rows) >= 15


def test_the_page_lists_no_id_the_source_lacks() -> None:
    known = _ids_in_source()
    stale = [a for a in _rows() if a != METHOD_ROW and a not in known]
    page = PAGE.read_text(encoding="utf-8")
    unmarked = [a for a in stale if f"| `{a}` | retired: " not in page]
    assert not unmarked, f"rows for ids no code uses, not marked retired: {unmarked}"


def _vector_paths(cell: str) -> list[Path]:
    return [ROOT / p for p in re.findall(r"`((?:tests/vectors|docs)/[^`]+)`", cell)]


def _walk(value: Any) -> Iterator[Any]:
    yield value
    if isinstance(value, dict):
        for item in value.values():
            yield from _walk(item)
    elif isinstance(value, list):
        for item in value:
            yield from _walk(item)


@pytest.mark.parametrize("algorithm", sorted(_ids_in_source()))
def test_every_id_has_golden_vectors(algorithm: str) -> None:
    rows = _rows()
    row = _row_of(algorithm, rows)
    assert row is not None, algorithm
    paths = _vector_paths(rows[row])
    assert paths, f"the row of {algorithm} names no vectors"
    for path in paths:
        assert path.is_file(), f"{algorithm}: {path.relative_to(ROOT)} is missing"
    texts = [p.read_text(encoding="utf-8") for p in paths]
    if row == METHOD_ROW:  # one case at least of this very method
        method = algorithm.removeprefix("croupier-shuffle-").removesuffix("/1")
        cases = [
            item
            for p, text in zip(paths, texts, strict=True)
            if p.suffix == ".json"
            for item in _walk(json.loads(text))
            if isinstance(item, dict) and item.get("method") == method
        ]
        assert cases, f"no vectors of the shuffle method {method!r}"
    elif all(p.suffix == ".md" for p in paths):
        assert any(f"<!-- {algorithm} vectors -->" in t for t in texts), algorithm
    else:
        assert any(algorithm in t for t in texts), f"no vector file names {algorithm}"


# -- vectors made here ---------------------------------------------------------------------
def _flawed_shuffles() -> dict[str, Any]:
    cases = []
    for name, method in FLAWED_METHODS.items():
        for n in (2, 5, 13, 52):
            source = SeededSource("flawed golden", "shuffle")
            order = method(list(range(n)), UniformSampler(source))
            cases.append(
                {
                    "method": name,
                    "algorithm": method.algorithm_id,
                    "seed": "flawed golden",
                    "purpose": "shuffle",
                    "n": n,
                    "bits_used": source.bits_used,
                    "result": order,
                }
            )
    return {
        "note": "Seeded runs of the known-flawed shuffles (croupier.shuffling.registry."
        "FLAWED_METHODS) on range(n), one UniformSampler over SeededSource(seed, purpose); "
        "croupier shuffle --method NAME prints the same orders",
        "cases": cases,
    }


def _chunks() -> dict[str, Any]:
    from croupier.bulk.chunk_files import FileJob, deal_to_files
    from croupier.cluster import InlineClient
    from croupier.dealing import make_layout

    runs = []
    for game, fmt, count, chunk in (("bridge", "oneline", 10, 4), ("euchre", "npy", 7, 3)):
        with tempfile.TemporaryDirectory() as folder:
            job = FileJob(
                folder,
                make_layout(game),
                fmt,
                "chunks golden",
                count,
                chunk,
                label="seeded: chunks golden",
            )
            manifest = deal_to_files(job, InlineClient())
            runs.append({"game": game, "format": fmt, "manifest": manifest})
    return {
        "algorithm": "croupier-chunks/1",
        "note": "manifest.json of bulk runs written as chunk files (seed 'chunks golden'); "
        "every file's rows, bytes and SHA-256",
        "runs": runs,
    }


def _records(n: int) -> bytes:
    return b"".join(b"record %d\n" % i for i in range(n))


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _scale() -> dict[str, Any]:
    from croupier.legacy.extshuffle import EXTSHUFFLE_ALGORITHM_ID, shuffle_file
    from croupier.scale.file_sample import RESERVOIR_ALGORITHM_ID, sample_stream
    from croupier.scale.file_shuffle import shuffle_stream
    from croupier.scale.keyed_split import KEYED_SPLIT_ALGORITHM_ID

    cases = []
    data = _records(3000)
    for memory in (2**20, 2**16):  # in memory; through buckets (the same order)
        with tempfile.TemporaryDirectory() as folder:
            path, out = Path(folder) / "in.txt", Path(folder) / "out.txt"
            path.write_bytes(data)
            source = SeededSource("extshuffle golden", "shuffle-file")
            shuffle_file(path, out, source=source, memory=memory)
            shuffled = out.read_bytes()
        cases.append(
            {
                "algorithm": EXTSHUFFLE_ALGORITHM_ID,
                "seed": "extshuffle golden",
                "purpose": "shuffle-file",
                "records": 3000,
                "memory": memory,
                "first": shuffled.splitlines()[:5],
                "sha256": _digest(shuffled),
            }
        )
    for n in (5, 3000):
        out_buffer = io.BytesIO()
        source = SeededSource("keyed golden", "shuffle-file")
        shuffle_stream(io.BytesIO(_records(n)), out_buffer.write, source=source)
        shuffled = out_buffer.getvalue()
        cases.append(
            {
                "algorithm": KEYED_SPLIT_ALGORITHM_ID,
                "seed": "keyed golden",
                "purpose": "shuffle-file",
                "records": n,
                "first": shuffled.splitlines()[:5],
                "sha256": _digest(shuffled),
            }
        )
    for n, k in ((3000, 10), (4, 10)):
        out_buffer = io.BytesIO()
        source = SeededSource("reservoir golden", "shuffle-file")
        sample_stream(io.BytesIO(_records(n)), out_buffer.write, k, source=source)
        cases.append(
            {
                "algorithm": RESERVOIR_ALGORITHM_ID,
                "seed": "reservoir golden",
                "purpose": "shuffle-file",
                "records": n,
                "count": k,
                "sample": out_buffer.getvalue().splitlines(),
            }
        )
    for case in cases:
        for key in ("first", "sample"):
            if key in case:
                case[key] = [line.decode() for line in case[key]]
    return {
        "note": "Seeded file shuffles and samples of the lines 'record 0' .. 'record n-1' "
        "(SeededSource(seed, purpose) as the source)",
        "cases": cases,
    }


MADE_HERE: dict[str, Callable[[], dict[str, Any]]] = {
    "shuffle_flawed_v1.json": _flawed_shuffles,
    "chunks_v1.json": _chunks,
    "scale_v1.json": _scale,
}


@pytest.mark.parametrize("name", list(MADE_HERE))
def test_the_vectors_made_here_are_what_the_code_makes(name: str) -> None:
    made = json.loads(json.dumps(MADE_HERE[name]()))
    path = VECTORS / name
    if os.environ.get("CROUPIER_WRITE_VECTORS"):
        path.write_text(json.dumps(made, indent=1) + "\n", encoding="utf-8")
    assert path.is_file(), f"{name} is missing: write it with CROUPIER_WRITE_VECTORS=1"
    assert json.loads(path.read_text(encoding="utf-8")) == made


def test_flawed_shuffles_are_what_croupier_shuffle_gives() -> None:
    import croupier

    for case in json.loads((VECTORS / "shuffle_flawed_v1.json").read_text())["cases"]:
        got = croupier.shuffle(range(case["n"]), method=case["method"], seed=case["seed"])
        assert got == case["result"], case["method"]


# -- the table of ids (croupier.algorithm_ids) --------------------------------------------
def _literal_ids(tree: ast.AST) -> list[tuple[int, str]]:
    """``(line, id)`` of every string in code that is an algorithm id and nothing else: a
    spelling of its own.  Prose that names ids (docstrings, an attribute's docstring,
    help texts, messages) is left out."""
    prose = {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
        and id(node) not in prose and ID.fullmatch(node.value)
    ]  # fmt: skip


def test_the_page_and_the_table_list_the_same_ids_in_the_same_order() -> None:
    table = [row.id for row in ALGORITHMS]
    assert [a for a in _rows() if a.startswith("croupier-")] == [
        a for a in table if a.startswith("croupier-")
    ]
    for row in ALGORITHMS:
        importlib.import_module(row.home)  # every home is a module
        assert row.status in ("current", "retired")
    assert {row.status for row in ALGORITHMS if row.home.startswith("croupier.legacy")} == {
        "retired"
    }


@pytest.mark.parametrize(
    "path",
    sorted(p for p in SRC.rglob("*.py") if p.name != "algorithm_ids.py"),
    ids=lambda p: str(p.relative_to(SRC)),
)
def test_an_id_is_spelled_in_the_table_alone(path: Path) -> None:
    """A module takes its id from :mod:`croupier.algorithm_ids`; prose may name ids."""
    found = _literal_ids(ast.parse(path.read_text(encoding="utf-8")))
    assert not found, f"{path.relative_to(SRC)} spells algorithm ids itself: {found}"


def test_the_literal_finder_skips_docstrings_only() -> None:
    tree = ast.parse(
        '"""croupier-deal/2"""\n'
        'X = "croupier-bulk/1"\n'
        '"""X: croupier-bulk/1, the bulk id"""\n'
        'def f():\n    """croupier-sample/1"""\n'
        '    return g("croupier-stack/2", "see croupier-stack/2")\n'
    )
    assert _literal_ids(tree) == [(2, "croupier-bulk/1"), (6, "croupier-stack/2")]
