"""Every tampering of a verified board set fails, naming the file and the board.

One table of tamperings (a card changed; the first, a middle or the last board
dropped; a genuine board added; a board twice; two boards swapped; a board
renumbered) is applied to session files in PBN, LIN and DLM and checked by
every verify path: ``boards verify`` with a committed plan (croupier-boards/2)
and with ``--boards`` (croupier-boards/1), ``squaredeal verify`` for a phase
with fixed boards and for one whose boards are chosen at dealing time.  Edits
of what was published (event name, delayed value, board plan) are checked per
path: they fail where the commitment covers them, and where SquareDeal's KH
cannot cover them the untouched verification says so in a NOTE line.

Exit status: 1 for a negative verification (``FAIL`` lines), 2 for a file
that cannot be read as it claims (a ``.dlm`` whose ``From``/``To Board``
lines or check numbers do not fit its boards) — both name file and board.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from croupier.boards import Board
from croupier.cards import Card
from croupier.formats.board_files import render_boards
from croupier.formats.dlm import dlm_board_value
from croupier.randomness.seeded import SeededSource
from croupier.tournament.board_plan import BoardPlan
from croupier.tournament.squaredeal import SessionRef, session_boards
from croupier.tournament.squaredeal_workflow import (
    load_event,
    load_keys,
    new_event,
    publish_keys,
    set_delayed_value,
)
from croupier.tournament.verifiable import make_boards, plan_commitment
from tests.conftest import CliRunner

KEY = bytes(range(7, 39))
EVENT, DV, PLAN = "Tamper Cup", "4 321,0", "1:1-16;2:17-32"
BOARDS = range(1, 17)  # session 1 of the plan; also the SquareDeal sessions used below
FORMATS = ("pbn", "lin", "dlm")


# -- the tamperings ------------------------------------------------------------------------------
def _swap_card(board: Board) -> Board:
    """Board with North's first card and East's first card exchanged (still a valid deal)."""
    n, e, s, w = (list(h) for h in board.hands)
    n[0], e[0] = e[0], n[0]
    hands: tuple[tuple[Card, ...], ...] = (tuple(n), tuple(e), tuple(s), tuple(w))
    return Board(board.number, hands, board.dealer, board.vulnerable)


def _renumber(board: Board, number: int) -> Board:
    return Board.standard(number, board.hands)


@dataclass(frozen=True)
class Tampering:
    """One change to a session's boards, the board a verifier must name, and whether a
    ``.dlm`` reader already refuses it (its ``From``/``To Board`` lines no longer fit)."""

    name: str
    change: Callable[[list[Board], Board], list[Board]]  # (boards, genuine next board)
    board: int
    dlm_unreadable: bool


TAMPERINGS = [
    Tampering("change a card", lambda b, _: [*b[:4], _swap_card(b[4]), *b[5:]], 5, False),
    Tampering("drop the first board", lambda b, _: b[1:], 1, False),
    Tampering("drop a middle board", lambda b, _: [*b[:7], *b[8:]], 8, True),
    Tampering("drop the last board", lambda b, _: b[:-1], 16, False),
    Tampering("add a genuine board", lambda b, extra: [*b, extra], 17, False),
    Tampering("duplicate a board", lambda b, _: [*b[:5], b[4], *b[5:]], 5, True),
    Tampering("reorder two boards", lambda b, _: [*b[:2], b[3], b[2], *b[4:]], 3, False),
    Tampering("renumber a board", lambda b, _: [*b[:8], _renumber(b[8], 99), *b[9:]], 9, True),
]


def _write(path: Path, boards: list[Board], fmt: str) -> None:
    """The board file a tamperer would leave: a DLM header edited to span the boards written.

    (Slots outside ``From Board``..``To Board`` are unused, not boards: a board added there
    without editing the header would never be dealt.)
    """
    if fmt == "dlm":
        numbers = [b.number for b in boards]
        lines = ["[Document]", f"From Board={min(numbers)}", f"To Board={max(numbers)}"]
        lines += [f"Board {b.number:02d}={dlm_board_value(b.hands, b.number)}" for b in boards]
        path.write_text("\r\n".join(lines) + "\r\n")
    else:
        path.write_bytes(render_boards(boards, fmt))


def _named(text: str, file: str, board: int) -> bool:
    """True when one line of ``text`` names ``file`` and ``board``."""
    pattern = rf"{re.escape(file)}(:| line \d+:)? board {board}\b"
    return any(re.search(pattern, line) for line in text.splitlines())


def _expect_failure(r_code: int, out: str, err: str, file: str, t: Tampering, fmt: str) -> None:
    unreadable = fmt == "dlm" and t.dlm_unreadable
    assert r_code == (2 if unreadable else 1), (t.name, fmt, out, err)
    text = err if unreadable else out
    assert _named(text, file, t.board), (t.name, fmt, text)
    if not unreadable:
        assert f"FAIL {file} board {t.board}" in out


# -- croupier boards verify ----------------------------------------------------------------------
@pytest.fixture
def boards_setup(tmp_path: Path) -> tuple[Path, list[str]]:
    key_file = tmp_path / "cup.key"
    key_file.write_text(KEY.hex() + "\n")
    base = ["boards", "verify", "--event", EVENT, "--key-file", str(key_file), "--dv", DV]
    return tmp_path, [*base, "--session", "1"]


def _mode_args(mode: str, event: str = EVENT, plan: str = PLAN) -> list[str]:
    if mode == "plan":
        return ["--plan", plan, "--commitment", plan_commitment(KEY, event, BoardPlan.parse(plan))]
    from croupier.tournament.verifiable import commitment

    return ["--boards", "1-16", "--commitment", commitment(KEY, event)]


def _genuine() -> tuple[list[Board], Board]:
    made = make_boards(KEY, EVENT, DV.encode(), 1, range(1, 18))
    return made[:16], made[16]


@pytest.mark.parametrize("mode", ["plan", "boards"])
@pytest.mark.parametrize("fmt", FORMATS)
def test_boards_verify_untampered_passes(
    cli: CliRunner, boards_setup: tuple[Path, list[str]], fmt: str, mode: str
) -> None:
    folder, verify = boards_setup
    boards, _ = _genuine()
    _write(folder / f"s1.{fmt}", boards, fmt)
    r = cli([*verify, *_mode_args(mode), str(folder / f"s1.{fmt}")])
    assert r.code == 0, r.out + r.err
    assert "OK   s1." in r.out and "16 boards match" in r.out
    assert ("NOTE" in r.out) == (mode == "boards")


@pytest.mark.parametrize("mode", ["plan", "boards"])
@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("t", TAMPERINGS, ids=lambda t: t.name)
def test_boards_verify_catches_every_tampering(
    cli: CliRunner, boards_setup: tuple[Path, list[str]], t: Tampering, fmt: str, mode: str
) -> None:
    folder, verify = boards_setup
    boards, extra = _genuine()
    name = f"s1.{fmt}"
    _write(folder / name, t.change(boards, extra), fmt)
    r = cli([*verify, *_mode_args(mode), str(folder / name)])
    _expect_failure(r.code, r.out, r.err, name, t, fmt)


@pytest.mark.parametrize(
    ("edit", "kept"),
    [
        ("event name", range(1, 17)),
        ("plan: board 16 taken out of session 1", range(1, 16)),
        ("plan: board 17 added to session 1", range(1, 18)),
        ("plan: a session added", range(1, 17)),
    ],
)
def test_boards_verify_catches_edits_of_the_published_plan_and_event(
    cli: CliRunner, boards_setup: tuple[Path, list[str]], edit: str, kept: range
) -> None:
    folder, verify = boards_setup
    # the file matches the edited plan exactly: only the commitment can tell
    boards = make_boards(KEY, EVENT, DV.encode(), 1, kept)
    _write(folder / "s1.pbn", boards, "pbn")
    published = plan_commitment(KEY, EVENT, BoardPlan.parse(PLAN))
    event, plan = EVENT, PLAN
    if edit == "event name":
        event = "Tamper Cup 2"
    elif "16 taken out" in edit:
        plan = "1:1-15;2:17-32"
    elif "17 added" in edit:
        plan = "1:1-17;2:17-32"
    else:
        plan = PLAN + ";3:1-16"
    args = [a if a != EVENT else event for a in verify]
    r = cli([*args, "--plan", plan, "--commitment", published, str(folder / "s1.pbn")])
    assert r.code == 1, r.out + r.err
    assert "FAIL the key in cup.key does not match the croupier-boards/2 commitment" in r.out


def test_dlm_specific_tampering(cli: CliRunner, boards_setup: tuple[Path, list[str]]) -> None:
    folder, verify = boards_setup
    boards, _ = _genuine()
    path = folder / "s1.dlm"
    _write(path, boards, "dlm")
    genuine = path.read_bytes().decode("ascii")
    # the last board dropped and the header edited to match: the file reads, verify names it
    path.write_text(genuine.replace("To Board=16", "To Board=15").replace(
        genuine.splitlines()[-1] + "\r\n", ""))  # fmt: skip
    r = cli([*verify, *_mode_args("plan"), str(path)])
    assert r.code == 1 and "FAIL s1.dlm board 16: missing from the file" in r.out
    # a corrupted check number is refused, naming file, line and board
    line7 = genuine.splitlines()[6]
    corrupted = line7[:-3] + f"{(int(line7[-3:]) + 1) % 1000:03d}"
    path.write_text(genuine.replace(line7, corrupted))
    r = cli([*verify, *_mode_args("plan"), str(path)])
    assert r.code == 2 and r.err.startswith("error: s1.dlm line 7: board 4 has check number")
    # only one of the two
    # a From/To pair that leaves a board out: its slot is unused, so the board is missing
    path.write_text(genuine.replace("From Board=1", "From Board=2"))
    r = cli([*verify, *_mode_args("plan"), str(path)])
    assert r.code == 1 and "FAIL s1.dlm board 1: missing from the file" in r.out
    path.write_text(genuine.replace("To Board=16\r\n", ""))
    r = cli([*verify, *_mode_args("plan"), str(path)])
    assert r.code == 2 and "s1.dlm: has a From Board line but no To Board line" in r.err


# -- croupier squaredeal verify ------------------------------------------------------------------
@pytest.fixture
def sqd_setup(tmp_path: Path) -> Path:
    sqd = tmp_path / "EV.sqd"
    new_event(sqd, EVENT, ["2:1-16,17-32:CUP#:Cup #", "1:?:ASK:Ask"])
    publish_keys(sqd, source=SeededSource("tampering", "keys"))
    set_delayed_value(sqd, DV)
    return tmp_path


def _session(folder: Path, ref: SessionRef, numbers: range) -> list[Board]:
    event = load_event(folder / "EV.sqd")
    keys = load_keys(event, folder / "EV.sqk", "EV.sqd")
    return session_boards(event, keys, ref, numbers)


SQD_PHASES = {
    "fixed": ("CUP1", SessionRef(1, 1), []),
    "chosen": ("ASK", SessionRef(2, 1), ["-b", "1-16"]),
}


def _sqd_verify(folder: Path, extra: list[str], name: str) -> list[str]:
    return ["squaredeal", "verify", str(folder / "EV.sqd"), str(folder / "EV.sqk"), *extra,
            str(folder / name)]  # fmt: skip


@pytest.mark.parametrize("phase", ["fixed", "chosen"])
@pytest.mark.parametrize("fmt", FORMATS)
def test_squaredeal_verify_untampered_passes(
    cli: CliRunner, sqd_setup: Path, fmt: str, phase: str
) -> None:
    stem, ref, extra = SQD_PHASES[phase]
    _write(sqd_setup / f"{stem}.{fmt}", _session(sqd_setup, ref, BOARDS), fmt)
    r = cli(_sqd_verify(sqd_setup, extra, f"{stem}.{fmt}"))
    assert r.code == 0, r.out + r.err
    assert "16 boards match" in r.out and "NOTE KH commits to the keys only" in r.out
    assert ("NOTE boards 1-16 of the phases whose boards are chosen" in r.out) == (
        phase == "chosen"
    )


@pytest.mark.parametrize("phase", ["fixed", "chosen"])
@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("t", TAMPERINGS, ids=lambda t: t.name)
def test_squaredeal_verify_catches_every_tampering(
    cli: CliRunner, sqd_setup: Path, t: Tampering, fmt: str, phase: str
) -> None:
    stem, ref, extra = SQD_PHASES[phase]
    made = _session(sqd_setup, ref, range(1, 18))
    name = f"{stem}.{fmt}"
    _write(sqd_setup / name, t.change(made[:16], made[16]), fmt)
    r = cli(_sqd_verify(sqd_setup, extra, name))
    _expect_failure(r.code, r.out, r.err, name, t, fmt)


def test_squaredeal_verify_catches_detectable_sqd_edits(cli: CliRunner, sqd_setup: Path) -> None:
    sqd = sqd_setup / "EV.sqd"
    _write(sqd_setup / "CUP1.pbn", _session(sqd_setup, SessionRef(1, 1), BOARDS), "pbn")
    genuine = sqd.read_text()
    # the delayed value is an input of every deal
    sqd.write_text(genuine.replace(f"DV {DV}", "DV 4 321,1"))
    r = cli(_sqd_verify(sqd_setup, [], "CUP1.pbn"))
    assert r.code == 1 and "FAIL CUP1.pbn board 1: deal differs" in r.out
    # the number of sessions is fixed by the committed keys
    sqd.write_text(genuine.replace("SN 2:1-16,17-32", "SN 1:1-16,17-32"))
    r = cli(_sqd_verify(sqd_setup, [], "CUP1.pbn"))
    assert r.code == 1 and "FAIL EV.sqd does not fit the keys KH commits to" in r.out
    # a ? phase without the announced boards is refused, not guessed from the file
    _write(sqd_setup / "ASK.pbn", _session(sqd_setup, SessionRef(2, 1), BOARDS)[:-1], "pbn")
    sqd.write_text(genuine)
    r = cli(_sqd_verify(sqd_setup, [], "ASK.pbn"))
    assert r.code == 2 and "whose boards are chosen at dealing time ('?'): give --boards" in r.err


@pytest.mark.parametrize("edit", ["event name", "board range and last board"])
def test_squaredeal_limits_of_kh_are_stated(cli: CliRunner, sqd_setup: Path, edit: str) -> None:
    """What KH cannot cover (SquareDeal 2.x compatibility) passes — and the output says so."""
    sqd = sqd_setup / "EV.sqd"
    genuine = sqd.read_text()
    boards = _session(sqd_setup, SessionRef(1, 1), BOARDS)
    if edit == "event name":
        sqd.write_text(genuine.replace(f"TN {EVENT}", "TN Another Cup"))
    else:
        sqd.write_text(genuine.replace("SN 2:1-16,17-32", "SN 2:1-15,17-32"))
        boards = boards[:-1]
    _write(sqd_setup / "CUP1.pbn", boards, "pbn")
    r = cli(_sqd_verify(sqd_setup, [], "CUP1.pbn"))
    assert r.code == 0, r.out + r.err
    assert (
        "NOTE KH commits to the keys only (and so to the number of phases and sessions): the "
        "event name (TN) and the board numbers (SN) in EV.sqd are not committed" in r.out
    )
    assert "croupier boards --plan (croupier-boards/2)" in r.out
