"""Every board-file reader stays within its memory bound on hostile input, and refuses early.

The bound (docs/limits.md): reading a board file of ``n`` bytes takes at most
``20 n + 100 MB`` of memory above what the interpreter held before, the bytes
of the file included.  What is measured: a child process imports croupier and
every reader, resets its peak resident memory (``/proc/self/clear_refs``),
then reads the file from disk and parses it (``read_board_file``, as
``croupier convert`` does, or ``read_boards``, as verification does); the
growth is its peak resident memory (``VmHWM``) less its resident memory just
before reading.  The child also runs under an address-space limit of twice
the bound, so a regression fails with a ``MemoryError`` instead of taking
gigabytes from the machine.

Work is bounded by counts, never by a clock: the child counts the games each
reader parses (its per-game function is wrapped), and a file of more than
100,000 games must be refused before a single game is parsed.  (Only a
generous timeout catches a child that hangs.)

The inputs are built here, in the shapes that once cost hundreds of times
their size: one huge tag or line, millions of tiny games, fields, rows or
lines, deep or unbalanced braces and brackets, comments.  The PBN case the
issue reported (one ``[Event "xxx…"]`` tag of 15 MB, which took 2.99 GB) is
read at full size; a few shapes are read at a few megabytes, where they
show the same behaviour.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from croupier.boards import Board
from croupier.formats.board_files import render_boards
from croupier.ranking.bigdeal import goedel_unrank

ROOT = Path(__file__).resolve().parent.parent
MB = 1 << 20
FACTOR = 20
"""Memory may grow by this many times the size of the file ..."""
CONSTANT = 100 * MB
""" ... plus this much."""
WALL_SECONDS = 300
"""A child still running after this has hung (a generous bound: the machine may be busy)."""
TOO_MANY = "more than 100,000 games"
"""The refusal of a file of too many games: made before any game is parsed."""

CLEAR_REFS = Path("/proc/self/clear_refs")
pytestmark = pytest.mark.skipif(
    not CLEAR_REFS.exists(), reason="needs Linux /proc to reset and read peak memory"
)

CHILD = r"""
import functools, gc, json, resource, sys
from pathlib import Path
from croupier.errors import CroupierError
from croupier.formats import board_csv, board_files, board_json, dlm, dup, lin, pbn  # loaded now

parsed = [0]  # games handed to a per-game parser


def counted(module, name):
    real = getattr(module, name)

    @functools.wraps(real)
    def wrapper(*args, **kwargs):
        parsed[0] += 1
        return real(*args, **kwargs)

    setattr(module, name, wrapper)


for module, name in [
    (pbn, "_record"), (lin, "_record"), (board_csv, "_csv_record"),
    (board_csv, "parse_record_deal"), (board_json, "_json_record"), (dlm, "_board"),
    (dup, "_bri_hands"),
]:
    counted(module, name)

def status(key):
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1]) * 1024
    raise KeyError(key)

path, fmt, entry, headroom = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
gc.collect()
Path("/proc/self/clear_refs").write_text("5")  # the peak resident memory is reset to now
before = status("VmRSS")
hard = resource.getrlimit(resource.RLIMIT_AS)[1]
resource.setrlimit(resource.RLIMIT_AS, (status("VmSize") + headroom, hard))
try:
    data = Path(path).read_bytes()
    if entry == "records":
        contents = board_files.read_board_file(data, fmt, source="hostile", partial=True)
        outcome = f"read {len(contents.records)} records, {len(contents.skipped)} skipped"
    else:
        outcome = f"read {len(board_files.read_boards(data, fmt, source='hostile'))} boards"
except CroupierError as exc:
    outcome = f"error: {exc}"
except MemoryError:
    outcome = "MemoryError"
print(json.dumps({"growth": status("VmHWM") - before, "parsed": parsed[0], "outcome": outcome}))
"""


def _deals(count: int) -> list[Board]:
    return [Board.standard(1 + i % 999, goedel_unrank(7919 * i * i + 13)) for i in range(count)]


def _repeat(unit: bytes, size: int, head: bytes = b"", tail: bytes = b"") -> bytes:
    """``head``, then ``unit`` as often as fits in ``size`` bytes in all, then ``tail``."""
    return head + unit * ((size - len(head) - len(tail)) // len(unit)) + tail


def _lines_file(size: int) -> bytes:
    one = render_boards(_deals(1), "lines")
    return _repeat(one, size)


def _dup_file(size: int) -> bytes:
    record = render_boards(_deals(1), "dup")
    blank_trailer = record[:146] + bytes(10)  # no board numbers: every record is read
    return _repeat(blank_trailer, size)


def _json_objects(size: int) -> bytes:
    return _repeat(b"{},", size, b'{"boards": [', b"{}]}")


@dataclass(frozen=True)
class Case:
    name: str
    fmt: str
    size: int
    build: Callable[[int], bytes]
    expect: str = ""  # a piece of the outcome line ("error: ..." or "read ...")
    entry: str = "records"  # "records": read_board_file; "boards": read_boards


CASES = [
    # PBN ------------------------------------------------------------------------------
    Case(
        "pbn-event-tag-15mb",  # the reported case: 2.99 GB
        "pbn",
        15 * MB,
        lambda n: _repeat(b"x", n, b'[Event "', b'"]\n'),
        "read 0 records",
    ),
    Case(
        "pbn-event-tag-escapes",
        "pbn",
        15 * MB,
        lambda n: _repeat(b'\\"', n, b'[Event "', b'"]\n'),
        "read 0 records",
    ),
    Case("pbn-one-line", "pbn", 15 * MB, lambda n: _repeat(b"x", n), "not a PBN file"),
    Case("pbn-open-braces", "pbn", 15 * MB, lambda n: _repeat(b"{", n), "read 0 records"),
    Case("pbn-close-braces", "pbn", 15 * MB, lambda n: _repeat(b"}", n), "not a PBN file"),
    Case(
        "pbn-comment-never-closed",
        "pbn",
        15 * MB,
        lambda n: _repeat(b"[x\n", n, b'[Board "1"]\n{'),
        "read 0 records, 1 skipped",
    ),
    Case("pbn-percent-lines", "pbn", 15 * MB, lambda n: _repeat(b"%x\n", n), "read 0 records"),
    Case(
        "pbn-semicolon-lines",
        "pbn",
        15 * MB,
        lambda n: _repeat(b"; [x]\n", n, b'[Board "1"]\n'),
        "read 0 records",
    ),
    Case("pbn-empty-lines", "pbn", 15 * MB, lambda n: _repeat(b"\n", n), "read 0 records"),
    Case(
        "pbn-one-game-of-tiny-tags",
        "pbn",
        15 * MB,
        lambda n: _repeat(b'[Board "1"]\n', n),
        "read 0 records",
    ),
    Case(
        "pbn-tiny-games",
        "pbn",
        15 * MB,
        lambda n: _repeat(b'[Deal "?"]\n\n', n),
        "more than 100,000 games",
    ),
    Case(
        "pbn-malformed-tags",
        "pbn",
        15 * MB,
        lambda n: _repeat(b"[]", n),
        "not a PBN file: line 1: malformed tag '[]'",
    ),
    Case(
        "pbn-deal-of-a-million-hands",
        "pbn",
        15 * MB,
        lambda n: _repeat(b"A ", n, b'[Deal "N:', b'"]\n'),
        "read 0 records, 1 skipped",
    ),
    Case(
        "pbn-tag-names",
        "pbn",
        4 * MB,
        lambda n: b"".join(b'[T%07d ""]\n' % i for i in range(n // 14)),
        "more than 10,000 different tag names",
    ),
    # LIN ------------------------------------------------------------------------------
    Case(
        "lin-one-field",
        "lin",
        15 * MB,
        lambda n: _repeat(b"S", n, b"md|", b"|"),
        "read 0 records, 1 skipped",
    ),
    Case("lin-bars", "lin", 15 * MB, lambda n: _repeat(b"|", n), "not a LIN file"),
    Case("lin-tiny-pairs", "lin", 15 * MB, lambda n: _repeat(b"pn||", n), "read 0 records"),
    Case(
        "lin-tiny-deals", "lin", 15 * MB, lambda n: _repeat(b"md||", n), "more than 100,000 games"
    ),
    Case(
        "lin-md-of-a-million-hands",
        "lin",
        15 * MB,
        lambda n: _repeat(b",", n, b"md|3", b"x|"),
        "read 0 records, 1 skipped",
    ),
    # CSV ------------------------------------------------------------------------------
    Case(
        "csv-one-field",
        "csv",
        15 * MB,
        lambda n: _repeat(b"x", n, b"north,east,south,west\n"),
        "bad CSV: field larger",
    ),
    Case(
        "csv-tiny-rows",
        "csv",
        15 * MB,
        lambda n: _repeat(b"x\n", n, b"north,east,south,west\n"),
        "more than 100,000 games",
    ),
    Case(
        "csv-row-of-a-million-fields",
        "csv",
        15 * MB,
        lambda n: _repeat(b"a,", n, b"north,east,south,west\n"),
        "read 0 records, 1 skipped",
    ),
    Case(
        "csv-empty-rows",
        "csv",
        15 * MB,
        lambda n: _repeat(b',"",\n', n, b"north,east,south,west\n"),
        "read 0 records",
    ),
    Case(
        "csv-unknown-deals",
        "csv",
        15 * MB,
        lambda n: _repeat(b"-,-,-,-\n", n, b"north,east,south,west\n"),
        "more than 100,000 games",
    ),
    # JSON -----------------------------------------------------------------------------
    Case("json-deep", "json", 15 * MB, lambda n: _repeat(b"[", n), "not a JSON board file"),
    Case(
        "json-deep-within-the-bracket-limit",
        "json",
        1_900_000,
        lambda n: b'{"boards": ' + b"[" * (n // 2 - 6) + b"]" * (n // 2 - 6) + b"}",
        "nested too deeply",
    ),
    Case("json-tiny-objects", "json", 15 * MB, _json_objects, "not a JSON board file"),
    Case(
        "json-tiny-objects-within-the-limit",
        "json",
        2_800_000,
        _json_objects,
        "more than 100,000 games",
    ),
    Case(
        "json-tiny-arrays",
        "json",
        2_400_000,
        lambda n: _repeat(b"[[]],", n, b'{"x": [', b'[]], "boards": []}'),
        "read 0 records",
    ),
    Case(
        "json-tiny-strings",
        "json",
        15 * MB,
        lambda n: _repeat(b'"ab",', n, b'{"x": [', b'""], "boards": []}'),
        "read 0 records",
    ),
    Case(
        "json-object-of-a-million-keys",
        "json",
        15 * MB,
        lambda n: b"{" + b"".join(b'"%07d":0,' % i for i in range(n // 12 - 2)) + b'"boards":[]}',
        "read 0 records",
    ),
    # one deal per line ----------------------------------------------------------------
    Case("lines-empty-lines", "lines", 15 * MB, lambda n: _repeat(b" \n", n), "read 0 records"),
    Case(
        "lines-unknown-deals",
        "lines",
        15 * MB,
        lambda n: _repeat(b"- - - -\n", n),
        "more than 100,000 games",
    ),
    Case("lines-deals", "lines", 15 * MB, _lines_file, "more than 100,000 games"),
    # DUP and DLM ----------------------------------------------------------------------
    Case("dup-records", "dup", 15 * MB, _dup_file, "more than 100,000 games"),
    Case("dup-records-within-the-limit", "dup", 14 * MB, _dup_file, "records, 0 skipped"),
    Case(
        "dlm-board-lines",
        "dlm",
        15 * MB,
        lambda n: _repeat(b"Board 01=aaaaaabffffffkkkkkklpppppp015\r\n", n, b"[Document]\r\n"),
        "more than 100,000 games",
    ),
    Case(
        "dlm-other-lines",
        "dlm",
        15 * MB,
        lambda n: _repeat(b"x\r\n", n, b"[Document]\r\n"),
        "read 0 records",
    ),
    Case(
        "dlm-sections",
        "dlm",
        15 * MB,
        lambda n: _repeat(b"[x]\n", n, b"[Document]\n"),
        "read 0 records",
    ),
    # the strict readers (verification) ------------------------------------------------
    Case(
        "pbn-event-tag-15mb-strict",
        "pbn",
        15 * MB,
        lambda n: _repeat(b"x", n, b'[Event "', b'"]\n'),
        "read 0 boards",
        "boards",
    ),
    Case(
        "csv-empty-rows-strict",
        "csv",
        15 * MB,
        lambda n: _repeat(b",,,,\n", n, b"board,north,east,south,west\n"),
        "more than 100,000 games",
        "boards",
    ),
    Case("lines-deals-strict", "lines", 15 * MB, _lines_file, TOO_MANY, "boards"),  # counted first
]


def measure(path: Path, fmt: str, entry: str, headroom: int) -> dict[str, object]:
    """Read ``path`` in a child process; its memory growth (bytes), games parsed, outcome."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    command = [sys.executable, "-c", CHILD, str(path), fmt, entry, str(headroom)]
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, env=env, timeout=WALL_SECONDS, check=False
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"reading took longer than {WALL_SECONDS} s")
    assert done.returncode == 0 and done.stdout, done.stderr[-2000:]
    result: dict[str, object] = json.loads(done.stdout.splitlines()[-1])
    return result


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_reader_memory_is_bounded(case: Case, tmp_path: Path) -> None:
    data = case.build(case.size)
    assert abs(len(data) - case.size) < 1000, len(data)
    path = tmp_path / f"hostile.{case.fmt}"
    path.write_bytes(data)
    bound = FACTOR * len(data) + CONSTANT
    result = measure(path, case.fmt, case.entry, 2 * bound)
    size = len(data)
    del data
    outcome = str(result["outcome"])
    growth = int(str(result["growth"]))
    parsed = int(str(result["parsed"]))
    summary = f"{growth / MB:.1f} MB ({growth / size:.1f} x), {parsed} parsed, {outcome[:300]}"
    assert outcome != "MemoryError", summary
    assert growth <= bound, summary
    assert case.expect in outcome, summary
    if TOO_MANY in case.expect:  # refused before any game was parsed
        assert parsed == 0, summary
    assert "\n" not in outcome and len(outcome) < 400, summary
