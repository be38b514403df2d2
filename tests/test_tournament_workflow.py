"""The SquareDeal and croupier-boards/1 workflows as library functions, and their types."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from croupier.boards import Board
from croupier.errors import CroupierError, VerificationError
from croupier.files import ExistingFileError
from croupier.randomness.seeded import SeededSource
from croupier.tournament.board_plan import BoardPlan
from croupier.tournament.squaredeal import (
    BoardSpec,
    KeyId,
    Phase,
    SessionRef,
    SquareDealError,
    SquareDealEvent,
    SquareDealKeys,
    format_sqd,
    format_sqk,
    parse_sqd,
    parse_sqk,
)
from croupier.tournament.squaredeal_workflow import (
    load_keys,
    make_sessions,
    new_event,
    publish_keys,
    set_delayed_value,
    verify_sessions,
)
from croupier.tournament.verifiable import commitment, make_boards, plan_commitment
from croupier.tournament.verifiable_workflow import new_key_file, read_key_file, verify_boards
from croupier.tournament.verification import Mismatch, MismatchKind, compare_boards
from tests.conftest import VECTORS, CliRunner

SYN = VECTORS / "bigdeal"


@pytest.fixture
def syn(tmp_path: Path) -> Path:
    for name in ("SYN.sqd", "SYN.sqk", "TWO2.pbn", "ONE.pbn"):
        shutil.copyfile(SYN / name, tmp_path / name)
    return tmp_path


# -- types at the file boundary -------------------------------------------------------------------
@pytest.mark.parametrize("text", ["?", "7", "5-9", "1-8,9-16", "1-7,8-14,15-21", "5 - 9"])
def test_board_spec_keeps_its_spelling(text: str) -> None:
    spec = BoardSpec.parse(text)
    assert spec.format() == text
    assert Phase.parse(f"1:{text}:A:A").format() == f"1:{text}:A:A"


def test_board_spec_chosen_at_dealing_is_explicit() -> None:
    spec = BoardSpec.parse(" ? ")
    assert spec is BoardSpec.CHOSEN_AT_DEALING and spec.chosen_at_dealing and spec.ranges == ()
    assert not BoardSpec.parse("7").chosen_at_dealing
    assert BoardSpec.parse("7").ranges == (range(1, 8),)
    # the same boards, spelled differently, are the same spec
    assert BoardSpec.parse("7") == BoardSpec((range(1, 8),)) == BoardSpec.parse("1-7")
    assert BoardSpec((range(17, 33), range(1, 17))).format() == "17-32,1-16"
    with pytest.raises(SquareDealError, match="BoardSpec"):
        Phase(1, "1-7", "A", "A")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="bad board range"):
        BoardSpec((range(0, 5),))


def test_key_ids_are_typed() -> None:
    assert KeyId.parse("12,0") == KeyId(12, 0) == (12, 0)
    assert KeyId(3, 4).format() == "3,4"
    with pytest.raises(SquareDealError, match="bad key name"):
        KeyId.parse("1;2")
    event = SquareDealEvent("T", phases=[Phase.parse("2:7:A#:A"), Phase.parse("0:5:B#:B")])
    assert event.phases[0].key_id(1, 2) == KeyId(1, 2)
    assert event.phases[1].key_id(2, 9) == KeyId(2, 0)  # one key for a variable phase
    keys = SquareDealKeys({KeyId(1, 1): "abc"})
    with pytest.raises(SquareDealError, match="no key '1,2'"):
        keys.key_for(event, 1, 2)


def test_squaredeal_files_round_trip_byte_for_byte() -> None:
    sqk = (SYN / "SYN.sqk").read_bytes()
    assert format_sqk(parse_sqk(sqk.decode("ascii"))) == sqk
    event = parse_sqd((SYN / "SYN.sqd").read_text(encoding="utf-8"))
    assert [p.boards.format() for p in event.phases] == ["1-8,9-16", "7", "5-9"]
    lines = format_sqd(event).splitlines()
    assert [line for line in lines if line.startswith("SN ")] == [
        "SN 0:1-8,9-16:VAR#:Variable #",
        "SN 2:7:TWO#:Two #/2",
        "SN 1:5-9:ONE:One",
    ]
    assert parse_sqd(format_sqd(event)) == event


# -- the SquareDeal steps -------------------------------------------------------------------------
def test_steps_return_what_they_did(tmp_path: Path) -> None:
    sqd = tmp_path / "EV.sqd"
    event = new_event(sqd, "Cup", ["2:1-4,5-8:C#:Cup #", "1:?:ASK:Ask"], "DAX close")
    assert [p.boards for p in event.phases] == [
        BoardSpec((range(1, 5), range(5, 9))),
        BoardSpec.CHOSEN_AT_DEALING,
    ]
    assert parse_sqd(sqd.read_text()) == event
    published = publish_keys(sqd, source=SeededSource("workflow", "keys"))
    assert published.key_file == tmp_path / "EV.sqk" and published.event_file == sqd
    assert parse_sqd(sqd.read_text()).key_hash == published.key_hash
    assert set(parse_sqk(published.key_file.read_text()).keys) == {(1, 1), (1, 2), (2, 1)}
    with pytest.raises(SquareDealError, match="already has a key hash"):
        publish_keys(sqd)
    updated = set_delayed_value(sqd, "1 234,5")
    assert updated.delayed_value == "1 234,5" and parse_sqd(sqd.read_text()) == updated
    with pytest.raises(SquareDealError, match="set once"):
        set_delayed_value(sqd, "2")
    made = make_sessions(sqd, published.key_file, "1/*;2/1", boards=range(3, 5), out=tmp_path)
    assert [(m.path.name, m.session, [b.number for b in m.boards]) for m in made] == [
        ("C1.pbn", SessionRef(1, 1), [1, 2, 3, 4]),
        ("C2.pbn", SessionRef(1, 2), [5, 6, 7, 8]),
        ("ASK.pbn", SessionRef(2, 1), [3, 4]),
    ]
    with pytest.raises(SquareDealError, match=r"chosen at dealing time \('\?'\): give boards="):
        verify_sessions(sqd, published.key_file, [m.path for m in made])
    report = verify_sessions(sqd, published.key_file, [m.path for m in made], boards=range(3, 5))
    assert report.ok and report.keys.ok and report.failures == 0
    assert [n.split(" ", 1)[0] for n in report.notes] == ["KH", "boards"]
    assert "boards 3-4 of the phases whose boards are chosen at dealing time" in report.notes[1]
    assert [(f.file, f.boards, f.session) for f in report.files] == [
        ("C1.pbn", 4, SessionRef(1, 1)),
        ("C2.pbn", 4, SessionRef(1, 2)),
        ("ASK.pbn", 2, SessionRef(2, 1)),
    ]


def test_library_errors_name_parameters_not_flags(tmp_path: Path, syn: Path) -> None:
    with pytest.raises(SquareDealError, match=r"^name= \(the event name\) must not be empty$"):
        new_event(tmp_path / "E.sqd", "  ", ["1:5:A:A"])
    with pytest.raises(SquareDealError, match=r"^boards='1-5' applies only"):
        make_sessions(syn / "SYN.sqd", syn / "SYN.sqk", "3/1", boards=range(1, 6), out=syn)
    with pytest.raises(ExistingFileError, match=r"or overwrite= to replace it\)$") as info:
        make_sessions(syn / "SYN.sqd", syn / "SYN.sqk", "3/1", out=syn)
    assert "--" not in str(info.value)
    sqd = tmp_path / "Q.sqd"
    new_event(sqd, "Q", ["1:?:ASK:Ask"])
    publish_keys(sqd)
    set_delayed_value(sqd, "1")
    with pytest.raises(SquareDealError, match=r"\(boards=A-B\)$"):
        make_sessions(sqd, tmp_path / "Q.sqk", out=tmp_path)


def test_cli_shows_the_flags_for_library_parameters(cli: CliRunner, syn: Path) -> None:
    base = ["squaredeal", "make", str(syn / "SYN.sqd"), "--keys", str(syn / "SYN.sqk")]
    r = cli([*base, "--sessions", "3/1", "--out", str(syn)])
    assert r.code == 2 and "(choose another name, or --overwrite to replace it)" in r.err
    r = cli([*base, "--sessions", "3/1", "-b", "1-5", "-o", str(syn)])
    assert r.code == 2 and r.err.startswith("error: --boards '1-5' applies only")
    r = cli(["squaredeal", "new", str(syn / "N.sqd"), "--name", " ", "--phase", "1:5:A:A"])
    assert r.code == 2 and r.err == "error: --name (the event name) must not be empty\n"


def test_verify_report_names_file_board_and_what(syn: Path) -> None:
    text = (SYN / "TWO2.pbn").read_text()
    text = text.replace('[Dealer "E"]', '[Dealer "S"]', 1)  # board 2 (TWO2 holds 1-7)
    (syn / "TWO2.pbn").write_text(text)
    games = (SYN / "ONE.pbn").read_text().split("\n\n")
    (syn / "ONE.pbn").write_text("\n\n".join(games[:-2]) + "\n\n")  # drop board 9
    report = verify_sessions(syn / "SYN.sqd", syn / "SYN.sqk", [syn / "TWO2.pbn", syn / "ONE.pbn"])
    assert not report.ok and report.keys.ok and report.failures == 2
    assert report.mismatches == (
        Mismatch("TWO2.pbn", 2, MismatchKind.DEALER, "E", "S"),
        Mismatch("ONE.pbn", 9, MismatchKind.MISSING),
    )
    assert [m.describe() for m in report.mismatches] == [
        "TWO2.pbn board 2: dealer S, expected E",
        "ONE.pbn board 9: missing from the file",
    ]


def test_verify_report_on_a_wrong_key_file(syn: Path) -> None:
    sqk = syn / "SYN.sqk"
    sqk.write_bytes(sqk.read_bytes().replace(b"2,1:k2s1key", b"2,1:k2s1kez"))
    report = verify_sessions(syn / "SYN.sqd", sqk, [syn / "ONE.pbn"])
    assert not report.ok and report.files == ()
    assert report.keys.published == parse_sqd((syn / "SYN.sqd").read_text()).key_hash
    assert report.keys.computed != report.keys.published
    assert report.keys.message.startswith("key hash mismatch: SYN.sqk hashes to ")
    event = parse_sqd((syn / "SYN.sqd").read_text())
    with pytest.raises(VerificationError, match="key hash mismatch"):
        load_keys(event, sqk, "SYN.sqd")


def test_compare_boards_every_kind() -> None:
    made = make_boards(bytes(32), "E", b"1", 1, [1, 2, 3])
    swapped = Board(1, made[1].hands, made[0].dealer, "All")  # board 1 with board 2's deal
    found = [swapped, made[2], made[2], Board.standard(4, made[0].hands)]
    kinds = [(m.board, m.what) for m in compare_boards(made, found, "f.pbn")]
    assert kinds == [
        (3, MismatchKind.DUPLICATE),
        (1, MismatchKind.DEAL),
        (1, MismatchKind.VULNERABILITY),
        (2, MismatchKind.MISSING),
        (4, MismatchKind.EXTRA),
    ]


def test_compare_boards_reports_boards_out_of_order() -> None:
    made = make_boards(bytes(32), "E", b"1", 1, [1, 2, 3, 4])
    found = [made[0], made[2], made[1], made[3]]  # boards 2 and 3 swapped, each intact
    assert compare_boards(made, found, "f.pbn") == [
        Mismatch("f.pbn", 2, MismatchKind.ORDER, None, "3")
    ]
    assert Mismatch("f.pbn", 2, MismatchKind.ORDER, None, "3").describe() == (
        "f.pbn board 2: out of order (it comes after board 3 in the file)"
    )
    assert compare_boards(made, made, "f.pbn") == []


@pytest.mark.parametrize(
    ("old", "new", "needle"),
    [
        ("SN 2:7:TWO#:Two #/2", "SN 1:7:TWO#:Two #/2", "the keys include '2,2' but phase 2"),
        ("SN 2:7:TWO#:Two #/2", "SN 3:7:TWO#:Two #/2", "phase 2 session 3 of the .sqd has no key"),
        ("SN 1:5-9:ONE:One\n", "", "the keys include '3,1' but the .sqd has 2 phase(s)"),
        ("SN 0:1-8,9-16:VAR#", "SN 1:1-8,9-16:VAR#", "the keys include '1,0' but phase 1"),
    ],
)
def test_sqd_phases_edited_after_kh_fail_the_key_check(
    syn: Path, old: str, new: str, needle: str
) -> None:
    sqd = syn / "SYN.sqd"
    text = sqd.read_text()
    assert old in text
    sqd.write_text(text.replace(old, new))
    report = verify_sessions(sqd, syn / "SYN.sqk", [syn / "TWO1.pbn"])
    assert not report.ok and not report.keys.ok and report.files == ()
    assert (
        needle in report.keys.message and "changed after the keys were made" in report.keys.message
    )


def test_squaredeal_notes_say_what_kh_does_not_cover(syn: Path) -> None:
    sqd = syn / "SYN.sqd"
    sqd.write_text(sqd.read_text().replace("TN Synthetic test", "TN Another name"))
    report = verify_sessions(sqd, syn / "SYN.sqk", [syn / "ONE.pbn"])
    # the event name is no input of SquareDeal's deals: the edit cannot be detected ...
    assert report.ok
    # ... and the report says so, and what commits to it instead
    (note,) = report.notes
    assert "the event name (TN) and the board numbers (SN) in SYN.sqd are not committed" in note
    assert "croupier boards --plan (croupier-boards/2)" in note


# -- croupier-boards/1 and /2 ----------------------------------------------------------------------
def test_boards_workflow_report(tmp_path: Path) -> None:
    key_file = tmp_path / "k.key"
    made = new_key_file(key_file, "Cup", source=SeededSource("workflow", "key"))
    assert made.algorithm == "croupier-boards/1" and re.fullmatch(r"[0-9a-f]{64}", made.commitment)
    assert key_file.stat().st_mode & 0o777 == 0o600
    with pytest.raises(ExistingFileError, match=r"choose another key_file=\)$"):
        new_key_file(key_file, "Cup")
    key = read_key_file(key_file)
    from croupier.formats.board_files import render_boards

    (tmp_path / "s.pbn").write_bytes(render_boards(make_boards(key, "Cup", b"x", 1, [1, 2]), "pbn"))
    (tmp_path / "empty.pbn").write_text("% PBN 2.1\n")
    files = [tmp_path / "s.pbn", tmp_path / "empty.pbn"]
    with pytest.raises(CroupierError, match=r"^give exactly one of plan= .* or boards= "):
        verify_boards(key_file, "Cup", made.commitment, "x", 1, files)
    report = verify_boards(key_file, "Cup", made.commitment, "x", 1, files, range(1, 3))
    assert report.keys.ok and [f.ok for f in report.files] == [True, False]
    assert report.mismatches == (Mismatch("empty.pbn", None, MismatchKind.NO_BOARDS),)
    assert len(report.notes) == 1 and "boards 1-2 are the ones the verifier gave" in report.notes[0]
    report = verify_boards(key_file, "Cup", made.commitment, "x", 1, files[:1], range(1, 4))
    assert report.mismatches == (Mismatch("s.pbn", 3, MismatchKind.MISSING),)
    report = verify_boards(key_file, "Cup", "00" * 32, "x", 1, files, range(1, 3))
    assert not report.ok and not report.keys.ok and report.files == ()
    assert report.keys.computed == made.commitment


def test_boards_plan_workflow(tmp_path: Path) -> None:
    from croupier.formats.board_files import render_boards

    plan = BoardPlan.parse("1:1-3;2:4-5")
    key_file = tmp_path / "k.key"
    made = new_key_file(key_file, "Cup", plan, source=SeededSource("workflow", "plan"))
    key = read_key_file(key_file)
    assert made.algorithm == "croupier-boards/2" and made.plan == plan
    assert made.commitment == plan_commitment(key, "Cup", plan) != commitment(key, "Cup")
    (tmp_path / "s2.pbn").write_bytes(
        render_boards(make_boards(key, "Cup", b"x", 2, [4, 5]), "pbn")
    )
    files = [tmp_path / "s2.pbn"]
    report = verify_boards(key_file, "Cup", made.commitment, "x", 2, files, plan=plan)
    assert report.ok and report.notes == () and report.files[0].boards == 2
    assert "croupier-boards/2 commitment (event and board plan 1:1-3;2:4-5) matches" in (
        report.keys.message
    )
    # a plan edited after the commitment (session 2 shortened) fails the key check
    edited = BoardPlan.parse("1:1-3;2:4")
    report = verify_boards(key_file, "Cup", made.commitment, "x", 2, files, plan=edited)
    assert not report.ok and not report.keys.ok and report.files == ()
    # a /2 commitment checked as /1 fails and says a plan is needed
    report = verify_boards(key_file, "Cup", made.commitment, "x", 2, files, range(4, 6))
    assert not report.keys.ok and "is checked with its board plan" in report.keys.message
    with pytest.raises(CroupierError, match=r"^session=3 is not in the board plan '1:1-3;2:4-5'"):
        verify_boards(key_file, "Cup", made.commitment, "x", 3, files, plan=plan)
    with pytest.raises(CroupierError, match="give exactly one of plan="):
        verify_boards(key_file, "Cup", made.commitment, "x", 2, files, range(4, 6), plan=plan)


def test_verify_sessions_boards_only_for_question_mark_phases(syn: Path) -> None:
    with pytest.raises(SquareDealError, match=r"^boards=1-5 applies only to files of phases whose"):
        verify_sessions(syn / "SYN.sqd", syn / "SYN.sqk", [syn / "ONE.pbn"], boards=range(1, 6))


def test_dlm_board_numbers_are_bounded_before_conversion() -> None:
    from croupier.errors import FileFormatError
    from croupier.formats.dlm import parse_dlm_file

    line = "Board " + "7" * 5000 + "=jlifaelnecgmoldfjmcflinlap023"
    with pytest.raises(FileFormatError, match=r"bad board line 'Board ") as info:
        parse_dlm_file("[Document]\n" + line + "\n", source="s.dlm")
    assert len(str(info.value)) < 200
    for value in ("1000", "0", "\u0661", "7" * 5000):
        with pytest.raises(FileFormatError, match=r"s\.dlm line 2: bad From Board value"):
            parse_dlm_file(f"[Document]\nFrom Board={value}\nTo Board=1\n", source="s.dlm")
    with pytest.raises(FileFormatError, match=r"line 3: a second To Board line"):
        parse_dlm_file("[Document]\nTo Board=1\nTo Board=1\n", source="s.dlm")
