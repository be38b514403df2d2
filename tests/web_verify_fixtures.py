"""The Python side of the verification page's tests: cases run through croupier, as JSON.

The page (``web/verify``) re-implements verification in JavaScript.  This module
builds its test fixture from the Python implementation: board files in every
format the page reads, read by croupier's readers, and whole verification cases
— genuine sets and tampered ones, SquareDeal and croupier-boards — each with the
exact lines (or the exit status 2) that ``croupier … verify`` gives.  The Node
tests (``web/verify/test/``) check that the page gives the same boards and the
same lines; ``tests/test_web_verify.py`` checks that the committed fixture is
what this module builds now, so neither side can drift.

Regenerate the fixture after a deliberate change::

    .venv/bin/python -m tests.web_verify_fixtures
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import io
import json
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from croupier.boards import Board
from croupier.cli.app import run
from croupier.errors import CroupierError
from croupier.formats.board_files import read_boards, render_boards
from croupier.formats.pbn_deal import format_pbn_deal
from croupier.randomness.seeded import SeededSource
from croupier.tournament.board_plan import BoardPlan
from croupier.tournament.squaredeal_workflow import (
    make_sessions,
    new_event,
    publish_keys,
    set_delayed_value,
)
from croupier.tournament.verifiable import commitment, make_boards, plan_commitment

ROOT = Path(__file__).resolve().parent.parent
SQUAREDEAL = ROOT / "tests" / "vectors" / "bigdeal"
FIXTURE = ROOT / "web" / "verify" / "test" / "fixtures" / "python.json"

KEY = hashlib.sha256(b"croupier verification page fixture").digest()
EVENT = "Club Cup — Été"
PLAN = "1:1-6;2:7-10"
DV = "15 234,56"
SESSION_FILES = ("VAR2.pbn", "VAR3.pbn", "VAR4reserve.pbn", "TWO1.pbn", "TWO2.pbn", "ONE.pbn")

Files = dict[str, bytes]
Change = Callable[[list[Board]], list[Board]]
#: A deal with North's hand left out ("-"), as PBN allows: the reader completes it.
DEAL = b"AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. -"


# ----------------------------------------------------------------------------- files
def _boards(name: str, data: bytes) -> list[Board]:
    return read_boards(data, name.rsplit(".", 1)[1].replace("txt", "lines"), source=name)


def _render(boards: Sequence[Board], fmt: str) -> bytes:
    style = "bigdeal" if fmt == "pbn" else "export"
    return render_boards(boards, fmt, generator="croupier", pbn_style=style)


def _swap_cards(board: Board, a: int = 0, b: int = 1) -> Board:
    """The board with the first card of hand ``a`` and the last card of hand ``b`` swapped."""
    hands = [list(h) for h in board.hands]
    hands[a][0], hands[b][-1] = hands[b][-1], hands[a][0]
    return replace(board, hands=(hands[0], hands[1], hands[2], hands[3]))


def _edit(files: Files, name: str, change: Change, *, to: str = "") -> Files:
    """``files`` with ``name`` read, changed and written again (as ``to`` if given)."""
    out = dict(files)
    boards = change(_boards(name, out.pop(name)))
    target = to or name
    out[target] = _render(boards, target.rsplit(".", 1)[1].replace("txt", "lines"))
    return out


def _convert(files: Files, name: str, ext: str) -> Files:
    return _edit(files, name, lambda b: b, to=name.rsplit(".", 1)[0] + "." + ext)


def _squaredeal_files() -> Files:
    names = ("SYN.sqd", "SYN.sqk", *SESSION_FILES)
    return {name: (SQUAREDEAL / name).read_bytes() for name in names}


def _chosen_boards_files() -> Files:
    """A SquareDeal event whose phase deals boards chosen when dealing ('?'): boards 3-6."""
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        new_event(folder / "ASK.sqd", "Ask cup", ["2:?:ASK#:Ask #"], "a public value")
        publish_keys(folder / "ASK.sqd", source=SeededSource("web fixture", "keys"))
        set_delayed_value(folder / "ASK.sqd", "4711.2")
        made = make_sessions(folder / "ASK.sqd", folder / "ASK.sqk", boards=range(3, 7), out=folder)
        names = ["ASK.sqd", "ASK.sqk", *(m.path.name for m in made)]
        return {n: (folder / n).read_bytes() for n in names}


def _replace_text(files: Files, name: str, old: bytes, new: bytes) -> Files:
    assert files[name].count(old) == 1, (name, old)
    return {**files, name: files[name].replace(old, new)}


def _boards_files(key: bytes, session: int, numbers: range, formats: Sequence[str]) -> Files:
    made = make_boards(key, EVENT, DV.encode("utf-8"), session, numbers)
    ext = {"lines": "txt"}
    return {f"cup-s{session}.{ext.get(f, f)}": _render(made, f) for f in formats}


# ----------------------------------------------------------------------------- cases
_BLOBS: dict[str, str] = {}


def _blob(data: bytes) -> str:
    """Keep ``data`` once in the fixture's blob table; its SHA-256 names it."""
    name = hashlib.sha256(data).hexdigest()
    _BLOBS[name] = base64.b64encode(data).decode("ascii")
    return name


def _case(name: str, scheme: str, files: Files, inputs: dict[str, Any]) -> dict[str, Any]:
    """Run ``croupier … verify`` on the case; record its exit status and output lines."""
    with tempfile.TemporaryDirectory() as folder:
        paths: dict[str, str] = {}
        for file_name, data in files.items():
            (Path(folder) / file_name).write_bytes(data)
            paths[file_name] = str(Path(folder) / file_name)
        if scheme == "squaredeal":
            sqd = next(n for n in files if n.endswith(".sqd"))
            sqk = next(n for n in files if n.endswith(".sqk"))
            sessions = [paths[n] for n in files if n not in (sqd, sqk)]
            args = ["squaredeal", "verify", paths[sqd], paths[sqk], *sessions]
            if inputs.get("boards"):
                args += ["--boards", inputs["boards"]]
        else:
            args = ["boards", "verify", "--event", inputs["event"], "--dv", inputs["dv"]]
            args += ["--commitment", inputs["commitment"], "--session", inputs["session"]]
            args += ["--plan", inputs["plan"]] if inputs.get("plan") else []
            args += ["--boards", inputs["boards"]] if inputs.get("boards") else []
            args += ["--key", inputs["key"]] if inputs.get("key") else []
            key_files = [n for n in files if n.endswith(".key")]
            args += ["--key-file", paths[key_files[0]]] if key_files else []
            args += [paths[n] for n in files if not n.endswith(".key")]
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = run(args)
    if code == 2:
        assert err.getvalue().startswith("error: "), err.getvalue()
    return {
        "name": name,
        "scheme": scheme,
        "files": [{"name": n, "sha256": _blob(d)} for n, d in files.items()],
        "inputs": inputs,
        "exit": code,
        "lines": out.getvalue().splitlines() if code != 2 else [],
    }  # fmt: skip


def squaredeal_cases() -> list[dict[str, Any]]:
    """SquareDeal 2.7's own files for a made-up event, genuine and tampered with."""
    genuine = _squaredeal_files()
    formats = _convert(genuine, "TWO1.pbn", "lin")
    formats = _convert(formats, "TWO2.pbn", "dlm")
    formats = _convert(formats, "ONE.pbn", "dup")
    formats = _convert(formats, "VAR2.pbn", "txt")
    formats = _convert(formats, "VAR4reserve.pbn", "lin")

    def board(number: int, change: Callable[[Board], Board]) -> Change:
        return lambda boards: [change(b) if b.number == number else b for b in boards]

    def swap_order(boards: list[Board]) -> list[Board]:
        return [boards[1], boards[0], *boards[2:]]

    def all_vulnerable(b: Board) -> Board:
        return replace(b, vulnerable="All")

    tn = b"TN Synthetic test"
    dv = b"DV 12,345.6 7"
    sn = b"SN 2:7:TWO#:Two #/2"
    lf_keys = {**genuine, "SYN.sqk": genuine["SYN.sqk"].replace(b"\r\n", b"\n")}
    bad_key = bytearray(genuine["SYN.sqk"])
    bad_key[10] = ord("B") if bad_key[10] != ord("B") else ord("C")
    bad_dlm = _convert(genuine, "TWO2.pbn", "dlm")
    bad_dlm["TWO2.dlm"] = bad_dlm["TWO2.dlm"].replace(b"Board 03=", b"Board 03=b", 1)
    cases = [
        ("sq-genuine-pbn", genuine),
        ("sq-genuine-formats", formats),
        ("sq-keys-with-lf", lf_keys),
        ("sq-swap-cards", _edit(genuine, "TWO2.pbn", board(3, _swap_cards))),
        ("sq-swap-cards-dup", _edit(formats, "ONE.dup", board(6, lambda b: _swap_cards(b, 2, 3)))),
        ("sq-renumbered", _edit(genuine, "ONE.pbn", board(7, lambda b: replace(b, number=10)))),
        ("sq-missing-board", _edit(genuine, "TWO1.pbn", lambda b: b[:-1])),
        ("sq-duplicate-board", _edit(genuine, "TWO1.pbn", lambda b: [b[0], *b])),
        ("sq-reordered", _edit(genuine, "VAR2.pbn", swap_order)),
        ("sq-dealer", _edit(genuine, "ONE.pbn", board(5, lambda b: replace(b, dealer="E")))),
        ("sq-vulnerability", _edit(genuine, "TWO1.pbn", board(2, all_vulnerable))),
        ("sq-wrong-dv", _replace_text(genuine, "SYN.sqd", dv, b"DV 123456 7")),
        ("sq-wrong-keys", {**genuine, "SYN.sqk": bytes(bad_key)}),
        ("sq-sessions-changed", _replace_text(genuine, "SYN.sqd", sn, b"SN 3:7:TWO#:Two #/2")),
        ("sq-boards-changed", _replace_text(genuine, "SYN.sqd", sn, b"SN 2:6:TWO#:Two #/2")),
        ("sq-name-changed", _replace_text(genuine, "SYN.sqd", tn, b"TN Another name")),
        ("sq-no-dv", _replace_text(genuine, "SYN.sqd", dv + b"\n", b"")),
        ("sq-unknown-file", {**genuine, "XYZ1.pbn": genuine["ONE.pbn"]}),
        ("sq-corrupt-dlm", bad_dlm),
    ]  # fmt: skip
    found = [_case(name, "squaredeal", files, {}) for name, files in cases]
    chosen = _chosen_boards_files()
    found += [
        _case("sq-chosen-boards", "squaredeal", chosen, {"boards": "3-6"}),
        _case("sq-chosen-boards-differ", "squaredeal", chosen, {"boards": "3-7"}),
        _case("sq-chosen-boards-not-given", "squaredeal", chosen, {}),
    ]
    return found


def boards_cases() -> list[dict[str, Any]]:
    """croupier-boards/2 and /1 sets in every format, genuine and tampered with."""
    plan = BoardPlan.parse(PLAN)
    key_file = {"cup.key": (KEY.hex() + "\n").encode("ascii")}
    published = plan_commitment(KEY, EVENT, plan)
    s1 = _boards_files(KEY, 1, plan.boards_for(1), ["pbn", "lin", "dlm", "dup", "lines"])
    s2 = _boards_files(KEY, 2, plan.boards_for(2), ["pbn"])
    base = {"event": EVENT, "plan": PLAN, "commitment": published, "dv": DV, "session": "1"}

    def swap(boards: list[Board]) -> list[Board]:
        return [_swap_cards(b, 1, 3) if b.number == 4 else b for b in boards]

    def extra(boards: list[Board]) -> list[Board]:
        more = make_boards(KEY, EVENT, DV.encode("utf-8"), 2, [7])
        return [*boards, *more]

    other_key = hashlib.sha256(b"another key").digest()
    cases: list[tuple[str, Files, dict[str, Any]]] = [
        ("b2-genuine", {**key_file, **s1}, base),
        ("b2-key-given", s1, {**base, "key": KEY.hex().upper()}),
        ("b2-session-2", {**key_file, **s2}, {**base, "session": "2"}),
        ("b2-plan-other-spelling", {**key_file, **s1}, {**base, "plan": " 2:7-10 ; 1:6"}),
        ("b2-event-differs", {**key_file, **s1}, {**base, "event": "Club cup — Été"}),
        ("b2-event-space", {**key_file, **s1}, {**base, "event": EVENT + " "}),
        ("b2-plan-differs", {**key_file, **s1}, {**base, "plan": "1:1-5;2:7-10"}),
        ("b2-wrong-key", {"cup.key": (other_key.hex() + "\n").encode()} | s1, base),
        ("b2-wrong-dv", {**key_file, **s1}, {**base, "dv": "15234,56"}),
        ("b2-swap-cards", _edit({**key_file, **s1}, "cup-s1.lin", swap), base),
        ("b2-extra-board", _edit({**key_file, **s1}, "cup-s1.pbn", extra), base),
        ("b2-wrong-session", {**key_file, **s1}, {**base, "session": "2"}),
        ("b2-blank-dv", {**key_file, **s1}, {**base, "dv": " "}),
        ("b2-bad-commitment", {**key_file, **s1}, {**base, "commitment": "c0ffee"}),
        ("b2-session-not-in-plan", {**key_file, **s1}, {**base, "session": "3"}),
        ("b1-genuine", {**key_file, **s1},
         {**base, "plan": "", "boards": "1-6", "commitment": commitment(KEY, EVENT)}),
        ("b1-event-differs", {**key_file, **s1},
         {**base, "plan": "", "boards": "1-6", "commitment": commitment(KEY, EVENT + "!")}),
        ("b1-boards-differ", {**key_file, **s1},
         {**base, "plan": "", "boards": "2-6", "commitment": commitment(KEY, EVENT)}),
    ]  # fmt: skip
    return [_case(name, "boards", files, inputs) for name, files, inputs in cases]


# --------------------------------------------------------------------------- readers
_READER_FILES: dict[str, bytes] = {
    "comments.pbn": (
        b"% a hand-made file\n; a comment\n{ a [bracket] in a comment }\n"
        b'[Event "Club"]\n[Board "3"]\n[Deal "W:Q632.QT876.84.T7 A5.AK.AKQ5.AKQ93 '
        b'94.9543.92.J6542 kjt87.j2.jt763.8"]\n[Dealer "South"]\n[Vulnerable "Both"]\n'
        b'[Auction "S"]\n1S Pass 2S Pass\n{ a note }\n\n'
        b'[Event "#"]\n[Board "4"]\n[Deal "N:' + DEAL.lower() + b'"]\n'
    ),
    "no-numbers.pbn": (
        b'[Deal "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"]\n\n'
        b'[Deal "E:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"]\n'
    ),
    "run-on.pbn": (
        b'[Board "1"]\n[Deal "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. -"]\n'
        b'[Board "2"]\n[Deal "S:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. -"]\n'
    ),
    "crlf-bom.pbn": (
        '\ufeff[Board "7"]\r\n[Dealer "?"]\r\n[Vulnerable ""]\r\n'
        '[Deal "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. -"]\r\n'.encode()
    ),
    "latin1.pbn": (
        '[Event "Coupe d\'été"]\n[Board "2"]\n'
        '[Deal "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. -"]\n'.encode("latin-1")
    ),
    "partial.pbn": b'[Board "1"]\n[Deal "N:AK... - - -"]\n',
    "bad-dealer.pbn": b'[Board "1"]\n[Dealer "X"]\n[Deal "N:' + DEAL + b'"]\n',
    "twice.pbn": b'[Board "1"]\n[Deal "N:' + DEAL.replace(b" -", b" .A..") + b'"]\n',
    "not-pbn.pbn": b"<html>hello</html>\n",
    "bbo.lin": (
        b"qx|o4|md|4SAKQJT98765432HDC,SHAKQJT98765432DC,SHDAKQJT98765432C,|sv|B|pg||\n"
        b"qx|c4|md|4SAKQJT98765432HDC,SHAKQJT98765432DC,SHDAKQJT98765432C,|sv|b|pg||\n"
    ),
    "vugraph.lin": (
        b"vg|Match,,I,1,32,A,0,B,0|\nrs|,,|\npn|a,b,c,d|\n"
        b"md|1S2345678910JQKAHDC,S\nHAKQJT98765432DC,SHDAKQJT98765432C,|ah|Board 9|sv|-|\npg||\n"
    ),
    "lin-no-number.lin": b"md|3SAKQJT98765432HDC,SHAKQJT98765432DC,SHDAKQJT98765432C|\n",
    "lin-bad-sv.lin": b"md|3SAKQJT98765432HDC,SHAKQJT98765432DC,SHDAKQJT98765432C|sv|x|\n",
    "not-lin.lin": b"<html>\n",
    "lines.txt": (
        b"AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432\n\n"
        b"W:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. -\n"
    ),
    "bad-lines.txt": b"AKQ... .AKQ.. - -\n",
    "empty.pbn": b"",
}


def _reader_files() -> dict[str, tuple[bytes, int]]:
    files = {name: (data, 1) for name, data in _READER_FILES.items()}
    boards = make_boards(KEY, EVENT, b"7", 1, range(11, 15))
    dlm = render_boards(boards, "dlm")
    files["set.dlm"] = (dlm, 1)
    files["set-lf.dlm"] = (dlm.replace(b"\r\n", b"\n").replace(b"From board", b"From  Board"), 1)
    files["no-range.dlm"] = (b"\n".join(ln for ln in dlm.splitlines() if b" board=" not in ln), 1)
    files["bad-checksum.dlm"] = (dlm.replace(b"Checksum=", b"Checksum=1"), 1)
    files["missing.dlm"] = (dlm.replace(b"Board 12=", b"Bored 12="), 1)
    files["set.dup"] = (render_boards(boards, "dup"), 1)
    blind = bytearray(render_boards(boards, "dup"))
    blind[78:146] = b" " * 68
    files["blind.dup"] = (bytes(blind), 1)
    files["short.dup"] = (render_boards(boards, "dup")[:-3], 1)
    files["set.txt"] = (render_boards(boards, "lines"), 11)
    files["set.lin"] = (render_boards(boards, "lin"), 1)
    files["set.pbn"] = (render_boards(boards, "pbn"), 1)
    return files


def reader_cases() -> list[dict[str, Any]]:
    """Board files as croupier's readers see them (or refuse them, for ``error``)."""
    cases = []
    for name, (data, first) in _reader_files().items():
        case: dict[str, Any] = {"name": name, "sha256": _blob(data)}
        case["first_board"] = first
        try:
            fmt = name.rsplit(".", 1)[1].replace("txt", "lines")
            boards = read_boards(data, fmt, source=name, first_board=first)
        except CroupierError:
            case["error"] = True
        else:
            case["boards"] = [
                {"number": b.number, "dealer": b.dealer, "vulnerable": b.vulnerable,
                 "deal": format_pbn_deal(b.hands, first="N")}
                for b in boards
            ]  # fmt: skip
        cases.append(case)
    return cases


def build_fixtures() -> dict[str, Any]:
    """The whole fixture: verification cases, reader cases and the files they use (base64,
    by SHA-256)."""
    _BLOBS.clear()
    cases = squaredeal_cases() + boards_cases()
    readers = reader_cases()
    return {
        "about": "Generated by tests/web_verify_fixtures.py from croupier's Python implementation;"
        " do not edit (run: .venv/bin/python -m tests.web_verify_fixtures).",
        "cases": cases,
        "readers": readers,
        "blobs": dict(sorted(_BLOBS.items())),
    }


def fixture_text() -> str:
    """The fixture as the committed file holds it."""
    return json.dumps(build_fixtures(), ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def main() -> None:
    """Write the fixture file (``python -m tests.web_verify_fixtures``)."""
    FIXTURE.parent.mkdir(parents=True, exist_ok=True)
    FIXTURE.write_text(fixture_text(), encoding="utf-8")
    print(f"wrote {FIXTURE.relative_to(ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
