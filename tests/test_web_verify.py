"""The verification page (``web/verify``): its JavaScript tests, its build, its fixture.

* The Node tests (``web/verify/test/*.test.mjs``, ``node --test``) check the page's
  JavaScript against the golden vectors (Big Deal runs, SquareDeal's own files, the
  ``croupier-boards`` vectors of docs/verifiable-dealing.md) and against every case of
  the fixture that :mod:`tests.web_verify_fixtures` builds from the Python code.
* The committed page ``src/croupier/web/verify.html`` must equal a fresh build of the
  sources, and the committed fixture what the Python code gives now, so neither goes stale.

The packages come from ``npm ci`` (the versions of ``package-lock.json``), run once and
kept in ``web/verify/node_modules``.  Without Node.js these tests skip, except under CI
(``CI`` set), where they fail.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.web_verify_fixtures import FIXTURE, fixture_text

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "web" / "verify"
PAGE = ROOT / "src" / "croupier" / "web" / "verify.html"
STAMP = WEB / "node_modules" / ".croupier-lock-sha256"


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        message = f"{name} (Node.js) is not installed: the verification page cannot be tested"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return found


@pytest.fixture(scope="module")
def node_modules() -> str:
    """``npm ci`` once for the locked packages (again only when the lockfile changes)."""
    node, npm = _tool("node"), _tool("npm")
    lock = hashlib.sha256((WEB / "package-lock.json").read_bytes()).hexdigest()
    if not STAMP.is_file() or STAMP.read_text().strip() != lock:
        done = subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"],
            cwd=WEB,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        STAMP.write_text(lock + "\n")
    return node


def test_node_tests_pass(node_modules: str) -> None:
    tests = sorted(str(p.relative_to(WEB)) for p in (WEB / "test").glob("*.test.mjs"))
    assert len(tests) >= 6
    done = subprocess.run(
        [node_modules, "--test", *tests], cwd=WEB, capture_output=True, text=True, timeout=600
    )
    summary = "\n".join(line for line in done.stdout.splitlines() if line.startswith("# "))
    assert done.returncode == 0, done.stdout[-20000:] + done.stderr
    counts = dict(re.findall(r"^# (pass|fail) (\d+)$", done.stdout, re.MULTILINE))
    assert counts.get("fail") == "0" and int(counts.get("pass", "0")) >= 80, summary


def test_committed_page_is_a_fresh_build(node_modules: str, tmp_path: Path) -> None:
    out = tmp_path / "verify.html"
    done = subprocess.run(
        [node_modules, "build.mjs", str(out)], cwd=WEB, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert out.read_bytes() == PAGE.read_bytes(), (
        "src/croupier/web/verify.html is not the build of web/verify: run "
        "'cd web/verify && npm ci && npm run build' and commit the page"
    )


def test_committed_fixture_is_what_the_python_code_gives() -> None:
    assert FIXTURE.read_text(encoding="utf-8") == fixture_text(), (
        "web/verify/test/fixtures/python.json is stale: run "
        "'.venv/bin/python -m tests.web_verify_fixtures' and check the differences"
    )


def test_page_is_one_self_contained_file() -> None:
    html = PAGE.read_text(encoding="utf-8")
    assert html.startswith("<!doctype html>")
    assert len(re.findall(r"<input\b[^>]*\btype=\"file\"", html)) == 1
    assert re.search(r"<input\b[^>]*\btype=\"file\"[^>]*\bmultiple\b", html)
    assert 'id="result"' in html
    # nothing is loaded from anywhere: no src= or href= (inline script and style only),
    # and the content security policy forbids every connection
    assert not re.search(r"\b(src|href)\s*=", html, re.IGNORECASE)
    assert "default-src 'none'" in html
    assert not re.search(r"\b(fetch|XMLHttpRequest|WebSocket|sendBeacon)\s*\(", html)
    assert "/*SCRIPT*/" not in html and "/*STYLE*/" not in html


# Pieces the mutations below insert: what board files are made of, and what breaks them.
_PIECES = [
    b"\n", b"\r\n", b" ", b"\t", b"[", b"]", b'"', b"{", b"}", b";", b"%", b"#", b"|", b",",
    b"=", b".", b"-", b":", b"0", b"1", b"9", b"A", b"K", b"T", b"x", b"S", b"H", b"D", b"C",
    b"N", b"E", b"W", b"\xff", b"\xc3\xa9", b"\x00", b'[Board "5"]', b'[Deal "', b"md|3",
    b"ah|Board 7|", b"sv|b|", b"qx|o2|", b"Board 02=", b"From board=", b"[Document]",
    b'[Vulnerable "Both"]', b'[Dealer "#"]', b"\n\n", b"\n%x\n", b"{c}", b"\xef\xbb\xbf",
]  # fmt: skip


def _mutants(seed: int, count: int) -> dict[str, bytes]:
    """Board files of every format, each changed a little, deterministically."""
    import random

    from croupier.formats.board_files import render_boards
    from croupier.tournament.verifiable import make_boards

    boards = make_boards(bytes(32), "Cup", b"7", 1, range(1, 4))
    bases = {f: render_boards(boards, f) for f in ("pbn", "lin", "dlm", "dup", "lines")}
    bases["pbn2"] = (ROOT / "tests" / "vectors" / "bigdeal" / "TWO1.pbn").read_bytes()
    ext = {"lines": "txt", "pbn2": "pbn"}
    rng = random.Random(seed)
    files = {}
    for i in range(count):
        fmt = rng.choice(sorted(bases))
        data = bytearray(bases[fmt])
        for _ in range(rng.choice((1, 1, 2, 3))):
            at = rng.randrange(len(data) + 1)
            how = rng.randrange(4)
            if how == 0 and data:  # delete a short run
                del data[at : at + rng.randint(1, 3)]
            elif how == 1:  # insert a piece
                data[at:at] = rng.choice(_PIECES)
            elif how == 2 and at < len(data):  # replace one byte
                data[at] = rng.choice(_PIECES)[0]
            else:  # duplicate or drop a line
                lines = bytes(data).split(b"\n")
                j = rng.randrange(len(lines))
                if rng.random() < 0.5:
                    lines.insert(j, lines[j])
                else:
                    del lines[j]
                data = bytearray(b"\n".join(lines))
        files[f"m{i:04d}.{ext.get(fmt, fmt)}"] = bytes(data)
    return files


def test_readers_agree_with_croupier_on_damaged_files(node_modules: str, tmp_path: Path) -> None:
    """Hundreds of slightly damaged board files: the page reads each as croupier does."""
    import json

    from croupier.errors import CroupierError
    from croupier.formats.board_files import format_for_path, read_boards
    from croupier.formats.pbn_deal import format_pbn_deal

    files = _mutants(26, 600)
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    done = subprocess.run(
        [node_modules, "test/read-files.mjs", str(tmp_path), "4"],
        cwd=WEB, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-5000:]
    page = json.loads(done.stdout)
    differ = []
    for name, data in files.items():
        try:
            found = read_boards(data, format_for_path(name), source=name, first_board=4)
            python: object = [
                [b.number, b.dealer, b.vulnerable, format_pbn_deal(b.hands, first="N")]
                for b in found
            ]
        except CroupierError:
            python = "error"
        if page[name] != python:
            differ.append(f"{name}: croupier {str(python)[:150]}, page {str(page[name])[:150]}")
    readable = sum(1 for v in page.values() if v != "error")
    assert 50 <= readable <= len(files) - 50  # both outcomes are well represented
    assert differ == [], f"{len(differ)} files read differently:\n" + "\n".join(differ[:10])
