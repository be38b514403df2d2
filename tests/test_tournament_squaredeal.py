"""SquareDeal 2.x: the made-up tournament regenerated file for file, workflow, tampering."""

from __future__ import annotations

import os
import re
import shutil
from fractions import Fraction
from pathlib import Path

import pytest

from croupier.formats.board_files import read_boards
from croupier.randomness import UniformSampler
from croupier.randomness.seeded import SeededSource
from croupier.randomness.walk import exact_distribution_bits
from croupier.tournament.squaredeal import (
    KEY_ALPHABET,
    KeyId,
    Phase,
    SquareDealError,
    SquareDealEvent,
    format_sqd,
    key_hash,
    make_keys,
    parse_session_spec,
    parse_sqd,
    parse_sqk,
    random_key,
    session_file_name,
)
from tests.conftest import VECTORS, CliRunner

SYN = VECTORS / "bigdeal"
SYN_FILES = ["VAR2.pbn", "VAR3.pbn", "TWO1.pbn", "TWO2.pbn", "ONE.pbn", "VAR4reserve.pbn"]


def _strip_generator(data: bytes) -> bytes:
    return re.sub(rb'\[Generator "[^"\n]*"\]', b'[Generator ""]', data)


@pytest.fixture
def syn(tmp_path: Path) -> Path:
    for name in ("SYN.sqd", "SYN.sqk"):
        shutil.copyfile(SYN / name, tmp_path / name)
    return tmp_path


def test_syn_key_hash_and_parse() -> None:
    event = parse_sqd((SYN / "SYN.sqd").read_text(encoding="utf-8"))
    assert event.name == "Synthetic test"
    assert event.delayed_value == "12,345.6 7"
    assert [p.sessions for p in event.phases] == [0, 2, 1]
    assert event.key_hash == key_hash((SYN / "SYN.sqk").read_bytes())
    keys = parse_sqk((SYN / "SYN.sqk").read_text(encoding="ascii"))
    assert list(keys.keys) == [KeyId(1, 0), KeyId(2, 1), KeyId(2, 2), KeyId(3, 1)]
    assert [k.format() for k in keys.keys] == ["1,0", "2,1", "2,2", "3,1"]


def _make(cli: CliRunner, folder: Path, out: Path, *args: str) -> None:
    """``squaredeal make`` of the SYN event in ``folder``, writing into ``out``; must succeed."""
    sqd, sqk = str(folder / "SYN.sqd"), str(folder / "SYN.sqk")
    r = cli(["squaredeal", "make", sqd, "--keys", sqk, "--out", str(out), *args])
    assert r.code == 0, r.err


def test_syn_regenerated_file_for_file(cli: CliRunner, syn: Path) -> None:
    # SquareDeal 2.7 on Linux: Event "?" and LF line ends; byte for byte but the Generator tag
    out = syn / "sets"
    as_squaredeal = ("--event", "?", "--lf")
    _make(cli, syn, out, "--sessions", "1/2-3;2/*;3/*", *as_squaredeal)
    _make(cli, syn, out, "--sessions", "1/4", "--reserve", *as_squaredeal)
    assert sorted(p.name for p in out.iterdir()) == sorted(SYN_FILES)
    for name in SYN_FILES:
        made = (out / name).read_bytes()
        assert _strip_generator(made) == _strip_generator((SYN / name).read_bytes()), name
        assert b'[Generator "croupier ' in made


def test_make_writes_the_event_name_and_crlf_by_default(cli: CliRunner, syn: Path) -> None:
    # By default the Event tag holds TN and lines end CRLF (PBN 2.1; SquareDeal on Windows);
    # nothing else differs from SquareDeal's own file.
    _make(cli, syn, syn / "default", "--sessions", "3/*")
    _make(cli, syn, syn / "named", "--sessions", "3/*", "--event", 'Club "Cup"')
    made = (syn / "default" / "ONE.pbn").read_bytes()
    theirs = (SYN / "ONE.pbn").read_bytes().replace(b"\n", b"\r\n")
    assert made.count(b"\r\n") == made.count(b"\n") == theirs.count(b"\r\n")
    expected = theirs.replace(b'[Event "?"]', b'[Event "Synthetic test"]')
    assert _strip_generator(made) == _strip_generator(expected)
    named = (syn / "named" / "ONE.pbn").read_bytes()
    assert named.count(b'[Event "Club \\"Cup\\""]') == 5 and b'[Event "?"]' not in named


def test_verify_accepts_squaredeals_own_files(cli: CliRunner) -> None:
    files = [str(SYN / n) for n in SYN_FILES]
    r = cli(["squaredeal", "verify", str(SYN / "SYN.sqd"), str(SYN / "SYN.sqk"), *files])
    assert r.code == 0, r.out + r.err
    assert "all 6 file(s) match" in r.out


def test_tampered_deal_names_file_and_board(cli: CliRunner, syn: Path) -> None:
    text = (SYN / "TWO2.pbn").read_text()
    # give North's hand to East and East's to North on board 3 (still a valid deal)
    deals = re.findall(r'\[Deal "(N:[^"]+)"\]', text)
    old = f'[Deal "{deals[2]}"]'
    north, east, south, west = deals[2][2:].split()
    new = f'[Deal "N:{east} {north} {south} {west}"]'
    tampered = syn / "TWO2.pbn"
    tampered.write_text(text.replace(old, new))
    r = cli(["squaredeal", "verify", str(syn / "SYN.sqd"), str(syn / "SYN.sqk"), str(tampered)])
    assert r.code == 1
    assert "FAIL TWO2.pbn board 3: deal differs" in r.out
    assert r.out.count("FAIL") == 1


def test_missing_and_extra_boards_are_reported(cli: CliRunner, syn: Path) -> None:
    text = (SYN / "ONE.pbn").read_text()
    games = text.split("\n\n")
    shortened = syn / "ONE.pbn"
    shortened.write_text("\n\n".join(games[:-2]) + "\n\n")  # drop board 9
    r = cli(["squaredeal", "verify", str(syn / "SYN.sqd"), str(syn / "SYN.sqk"), str(shortened)])
    assert r.code == 1 and "ONE.pbn board 9: missing from the file" in r.out


def test_tampered_key_file_fails_key_hash(cli: CliRunner, syn: Path) -> None:
    sqk = syn / "SYN.sqk"
    data = sqk.read_bytes()
    sqk.write_bytes(data.replace(b"2,1:k2s1key", b"2,1:k2s1kez"))
    r = cli(["squaredeal", "verify", str(syn / "SYN.sqd"), str(sqk), str(SYN / "TWO1.pbn")])
    assert r.code == 1
    assert "key hash mismatch" in r.out
    r = cli(["squaredeal", "make", str(syn / "SYN.sqd"), "--keys", str(sqk), "--out", str(syn)])
    assert r.code == 2 and "key hash mismatch" in r.err


def test_round_trip_workflow(cli: CliRunner, tmp_path: Path) -> None:
    sqd, sqk, out = tmp_path / "EV.sqd", tmp_path / "EV.sqk", tmp_path / "sets"
    r = cli(
        [
            "squaredeal", "new", str(sqd), "--name", "Club Cup", "--delayed-info", "DAX close",
            "--phase", "2:1-16,17-32:CUP#:Cup session #", "--phase", "0:3x4:V##:Var",
        ]
    )  # fmt: skip
    assert r.code == 0, r.err
    r = cli(["squaredeal", "make", str(sqd), "--keys", str(sqk)])
    assert r.code == 2  # no DV yet (checked before the keys)
    r = cli(["squaredeal", "set-dv", str(sqd), "1 234,5"])
    assert r.code == 2 and "publish the keys" in r.err
    r = cli(["squaredeal", "publish", str(sqd)])
    assert r.code == 0, r.err
    keys = parse_sqk(sqk.read_text(encoding="ascii"))
    assert sorted(keys.keys) == [KeyId(1, 1), KeyId(1, 2), KeyId(2, 0)]
    assert all(len(k) == 60 and set(k) <= set(KEY_ALPHABET) for k in keys.keys.values())
    assert sqk.read_bytes().count(b"\r\n") == 3
    assert parse_sqd(sqd.read_text()).key_hash == key_hash(sqk.read_bytes())
    assert cli(["squaredeal", "publish", str(sqd)]).code == 2  # only once
    r = cli(["squaredeal", "set-dv", str(sqd), "1 234,5"])
    assert r.code == 0, r.err
    assert "DV 1 234,5\n" in sqd.read_text()
    assert cli(["squaredeal", "set-dv", str(sqd), "999"]).code == 2  # only once
    r = cli(["squaredeal", "make", str(sqd), "--keys", str(sqk), "--out", str(out)])
    assert r.code == 0, r.err
    r = cli(
        ["squaredeal", "make", str(sqd), "--keys", str(sqk), "--sessions", "2/3", "--out", str(out)]
    )
    assert r.code == 0, r.err
    r = cli(["squaredeal", "make", str(sqd), "--keys", str(sqk), "--reserve", "--out", str(out)])
    assert r.code == 0, r.err
    names = sorted(p.name for p in out.iterdir())
    assert names == ["CUP1.pbn", "CUP1reserve.pbn", "CUP2.pbn", "CUP2reserve.pbn", "V03.pbn"]
    r = cli(["squaredeal", "verify", str(sqd), str(sqk), *(str(out / n) for n in names)])
    assert r.code == 0, r.out
    assert "V03.pbn: phase 2 session 3, 4 boards match" in r.out
    # reserve sets differ from the originals
    assert (out / "CUP1.pbn").read_text() != (out / "CUP1reserve.pbn").read_text()
    # never overwrite
    before = (out / "CUP1.pbn").read_bytes()
    r = cli(["squaredeal", "make", str(sqd), "--keys", str(sqk), "--out", str(out)])
    assert r.code == 2 and "already exists" in r.err
    assert (out / "CUP1.pbn").read_bytes() == before


def test_make_other_formats(cli: CliRunner, syn: Path) -> None:
    # VAR2 holds boards 9-16: files without board numbers (.txt) must be read as 9-16.
    for fmt in ("lin", "dup", "dlm", "csv", "lines", "html"):
        _make(cli, syn, syn, "--sessions", "1/2;2/1", "-f", fmt)
    exts = ("csv", "dlm", "dup", "html", "lin", "txt")
    for stem in ("TWO1", "VAR2"):
        names = sorted(p.name for p in syn.iterdir() if p.name.startswith(stem))
        assert names == [f"{stem}.{e}" for e in exts]
    files = [
        str(p)
        for p in sorted(syn.iterdir())
        if p.suffix in (".csv", ".dlm", ".dup", ".lin", ".txt")
    ]
    r = cli(["squaredeal", "verify", str(syn / "SYN.sqd"), str(syn / "SYN.sqk"), *files])
    assert r.code == 0, r.out
    assert "OK   VAR2.txt: phase 1 session 2, 8 boards match" in r.out
    # the text files read back as the very deals SquareDeal's PBN files hold
    pbn = read_boards((SYN / "VAR2.pbn").read_bytes(), "pbn")
    assert read_boards((syn / "VAR2.txt").read_bytes(), "lines", first_board=9) == pbn


@pytest.mark.parametrize(
    ("sqd_text", "needle"),
    [
        ("TN X\nZZ nope\nSN 1:5:A:A\n", "line 2: unknown line 'ZZ nope'"),
        ("TN X\nSN 1:5:A\n", "line 2: bad phase"),
        ("TN X\nSN two:5:A:A\n", "line 2: bad phase"),
        ("TN X\nSN 1:9-5:A:A\n", "line 2: bad phase"),
        ("TN X\nSN 1:5:A/B:A\n", "bad file prefix"),
        ("TN X\nSN 1:5:A#B#:A\n", "at most one run"),
        ("TN X\nKH 1234\nSN 1:5:A:A\n", "line 2: bad key hash"),
        ("SN 1:5:A:A\n", "no 'TN' line"),
        ("TN X\n", "no 'SN' line"),
        ("TN X\nDV 1\nDV 2\nSN 1:5:A:A\n", "line 3: a second DV line (the first is line 2)"),
        ("TN X\nTN Y\nSN 1:5:A:A\n", "line 2: a second TN line"),
        ("TN X\nSN \u0663:5:A:A\n", "line 2: bad phase"),
        ("TN X\nSN 1:\u0663:A:A\n", "line 2: bad phase"),
    ],
)
def test_malformed_sqd(cli: CliRunner, tmp_path: Path, sqd_text: str, needle: str) -> None:
    sqd = tmp_path / "bad.sqd"
    sqd.write_text(sqd_text, encoding="utf-8")
    r = cli(["squaredeal", "publish", str(sqd)])
    assert r.code == 2
    assert needle in r.err and r.err.startswith("error: bad.sqd") and r.err.count("\n") == 1


@pytest.mark.parametrize(
    ("sqk_text", "needle"),
    [
        ("1,0:abc\r\nnonsense\r\n", "line 2: bad key line (not shown"),
        ("1,0:abc-def\r\n", "line 1: bad key '1,0' (not shown"),
        ("1,0:abc\r\n1,0:abd\r\n", "line 2: key '1,0' appears twice"),
        ("1,0:" + "k" * 59 + "\r\n0,1:" + "s" * 60 + "\r\n", "line 2: bad key line (not shown"),
        ("1,0:" + "k" * 1001 + "\r\n", "line 1: bad key '1,0' (not shown"),
        ("1,0:abc\r\n" + "9" * 5000 + ",1:abc\r\n", "line 2: bad key line"),
        ("1,0:abc\r\n1,٣:abc\r\n", "line 2: bad key line"),
        ("1,0:abc\r\n1,10000:abc\r\n", "session 0..9999"),
        ("1,0:ab\u00e9c\r\n", "line 1: bad key '1,0'"),
    ],
)
def test_malformed_sqk(cli: CliRunner, tmp_path: Path, sqk_text: str, needle: str) -> None:
    sqk = tmp_path / "bad.sqk"
    sqk.write_bytes(sqk_text.encode())
    sqd = tmp_path / "ev.sqd"
    sqd.write_text(f"TN X\nDV 1\nSN 0:5:A#:A\nKH {key_hash(sqk.read_bytes())}\n")
    r = cli(["squaredeal", "make", str(sqd), "--keys", str(sqk), "--sessions", "1/1"])
    assert r.code == 2
    assert needle in r.err and r.err.count("\n") == 1
    # the key file's lines are never quoted back: they may hold secret keys
    assert "abc" not in r.err and "kkk" not in r.err and "sss" not in r.err
    assert len(r.err) < 200


def test_missing_dv_unknown_phase_and_bad_sessions(cli: CliRunner, syn: Path) -> None:
    sqd, sqk = syn / "SYN.sqd", str(syn / "SYN.sqk")
    base = ["squaredeal", "make", str(sqd), "--keys", sqk, "--out", str(syn)]
    for spec, needle in [
        ("4/1", "no phase 4"),
        ("2/3", "has no session 3"),
        ("1/*", "'*' cannot stand for the sessions of a variable phase"),
        ("2-1", "bad session spec"),
        ("2/x", "bad number list"),
    ]:
        r = cli([*base, "--sessions", spec])
        assert r.code == 2 and needle in r.err and r.err.count("\n") == 1, (spec, r.err)
    sqd.write_text(sqd.read_text().replace("DV 12,345.6 7\n", ""))
    r = cli(base)
    assert r.code == 2 and "no delayed value (DV)" in r.err
    r = cli(["squaredeal", "verify", str(sqd), sqk, str(SYN / "ONE.pbn")])
    assert r.code == 2 and "no delayed value (DV)" in r.err


def test_unknown_file_name_in_verify(cli: CliRunner, syn: Path) -> None:
    other = syn / "THREE1.pbn"
    shutil.copyfile(SYN / "TWO1.pbn", other)
    r = cli(["squaredeal", "verify", str(syn / "SYN.sqd"), str(syn / "SYN.sqk"), str(other)])
    assert r.code == 2 and "matches no session" in r.err


def test_new_rejects_bad_phases(cli: CliRunner, tmp_path: Path) -> None:
    for phase, needle in [
        ("1:5-x:A:A", "bad phase"),
        ("1:5", "bad phase"),
        ("-1:5:A:A", "bad phase"),
    ]:
        r = cli(["squaredeal", "new", str(tmp_path / "e.sqd"), "--name", "E", "--phase", phase])
        assert r.code == 2 and needle in r.err, r.err


def test_dv_is_byte_exact() -> None:
    event = parse_sqd("TN T\nDV 12,345.6 7   \nSN 1:5-9:ONE:One\n")
    assert event.dv_bytes() == b"12,345.6 7"
    event = parse_sqd(
        "TN T\nDV caf\xe9 \xff\nSN 1:5:A:A\n".encode("latin-1").decode("utf-8", "surrogateescape")
    )
    assert event.dv_bytes() == b"caf\xe9 \xff"
    assert parse_sqd(format_sqd(event)).dv_bytes() == b"caf\xe9 \xff"


def test_file_names() -> None:
    assert session_file_name("OPRR##", 1) == "OPRR01"
    assert session_file_name("OPRR##", 12) == "OPRR12"
    assert session_file_name("R16#", 1) == "R161"
    assert session_file_name("VAR#", 4, reserve=True) == "VAR4reserve"
    assert session_file_name("ONE", 1) == "ONE"


def test_phase_expansion_and_session_boards() -> None:
    phase = Phase.parse("3:3x7:R#:Round #")
    assert phase.boards.format() == "1-7,8-14,15-21"
    assert phase.boards.ranges == (range(1, 8), range(8, 15), range(15, 22))
    assert [phase.boards_for_session(s) for s in (1, 2, 3)] == [
        range(1, 8),
        range(8, 15),
        range(15, 22),
    ]
    var = Phase.parse("0:1-8,9-16:VAR#:Variable #")
    assert [var.boards_for_session(s) for s in (1, 2, 3, 4)] == [range(1, 9), range(9, 17)] * 2
    unknown = Phase.parse("1:?:Q:Q")
    with pytest.raises(SquareDealError, match="give the boards"):
        unknown.boards_for_session(1)


def test_session_spec_order() -> None:
    event = SquareDealEvent("T", phases=[Phase.parse("2:7:A#:A"), Phase.parse("3:7:B#:B")])
    refs = parse_session_spec(event, "2/3;1/*;2/1")
    assert [(r.phase, r.session) for r in refs] == [(1, 1), (1, 2), (2, 1), (2, 3)]


def test_key_symbols_are_exactly_uniform() -> None:
    # Every bit string up to 12 bits: each of the 62 symbols has exactly the same probability.
    done, unfinished = exact_distribution_bits(lambda s: random_key(UniformSampler(s), 1), 12)
    probabilities = {p for p, _ in done.values()}
    assert len(done) == 62 and len(probabilities) == 1
    assert sum((p for p, _ in done.values()), Fraction(0)) + unfinished == 1


def test_make_keys_reproducible_with_injected_source() -> None:
    event = SquareDealEvent("T", phases=[Phase.parse("2:7:A#:A")])
    a = make_keys(event, SeededSource("seed", "keys"))
    b = make_keys(event, SeededSource("seed", "keys"))
    assert a == b and a.keys[KeyId(1, 1)] != a.keys[KeyId(1, 2)]


def test_phase_with_boards_chosen_at_dealing_time(cli: CliRunner, tmp_path: Path) -> None:
    sqd, sqk, out = tmp_path / "Q.sqd", tmp_path / "Q.sqk", tmp_path / "sets"
    assert cli(["squaredeal", "new", str(sqd), "--name", "Q", "--phase", "1:?:ASK:Ask"]).code == 0
    assert "SN 1:?:ASK:Ask" in sqd.read_text()
    assert cli(["squaredeal", "publish", str(sqd)]).code == 0
    assert cli(["squaredeal", "set-dv", str(sqd), "42"]).code == 0
    r = cli(["squaredeal", "make", str(sqd), "--keys", str(sqk), "--out", str(out)])
    assert r.code == 2 and "--boards A-B" in r.err
    r = cli(
        ["squaredeal", "make", str(sqd), "--keys", str(sqk), "--out", str(out), "--boards", "1-0"]
    )
    assert r.code == 2 and "bad board range" in r.err
    r = cli(
        ["squaredeal", "make", str(sqd), "--keys", str(sqk), "--out", str(out), "--boards", "4-6"]
    )
    assert r.code == 0, r.err
    r = cli(["squaredeal", "verify", str(sqd), str(sqk), str(out / "ASK.pbn")])
    assert r.code == 2 and "chosen at dealing time ('?'): give --boards A-B" in r.err
    r = cli(["squaredeal", "verify", str(sqd), str(sqk), "--boards", "4-6", str(out / "ASK.pbn")])
    assert r.code == 0 and "3 boards match" in r.out
    assert "NOTE boards 4-6 of the phases whose boards are chosen at dealing time" in r.out
    # the last board dropped, or the range announced differently: the file no longer passes
    r = cli(["squaredeal", "verify", str(sqd), str(sqk), "--boards", "4-7", str(out / "ASK.pbn")])
    assert r.code == 1 and "FAIL ASK.pbn board 7: missing from the file" in r.out


def test_set_dv_refuses_surrounding_whitespace(cli: CliRunner, syn: Path) -> None:
    sqd = syn / "SYN.sqd"
    sqd.write_text(sqd.read_text().replace("DV 12,345.6 7\n", ""))
    before = sqd.read_bytes()
    for value in (" 12,345.6 7", "12,345.6 7 ", "1\n2"):
        r = cli(["squaredeal", "set-dv", str(sqd), value])
        assert r.code == 2 and "whitespace" in r.err and r.err.count("\n") == 1
    assert sqd.read_bytes() == before


def test_boards_option_only_for_question_mark_phases(cli: CliRunner, syn: Path) -> None:
    r = cli(["squaredeal", "make", str(syn / "SYN.sqd"), "--keys", str(syn / "SYN.sqk"),
             "--sessions", "3/1", "--boards", "1-5", "--out", str(syn)])  # fmt: skip
    assert r.code == 2 and "applies only to phases whose board spec is '?'" in r.err
    assert not (syn / "ONE.pbn").exists()


def test_session_spec_digits_are_ascii(cli: CliRunner, syn: Path) -> None:
    r = cli(["squaredeal", "make", str(syn / "SYN.sqd"), "--keys", str(syn / "SYN.sqk"),
             "--sessions", "\u0662/1"])  # fmt: skip
    assert r.code == 2 and "bad number list" in r.err


def test_verify_empty_file_of_a_question_mark_phase(cli: CliRunner, tmp_path: Path) -> None:
    sqd, sqk = tmp_path / "Q.sqd", tmp_path / "Q.sqk"
    assert cli(["squaredeal", "new", str(sqd), "--name", "Q", "--phase", "1:?:ASK:Ask"]).code == 0
    assert cli(["squaredeal", "publish", str(sqd)]).code == 0
    assert cli(["squaredeal", "set-dv", str(sqd), "42"]).code == 0
    (tmp_path / "ASK.pbn").write_text("% PBN 2.1\n")
    r = cli(["squaredeal", "verify", str(sqd), str(sqk), "-b", "1-2", str(tmp_path / "ASK.pbn")])
    assert r.code == 1 and "FAIL ASK.pbn: no boards in the file" in r.out


def test_make_out_must_be_a_folder(cli: CliRunner, syn: Path) -> None:
    target = syn / "taken"
    target.write_text("x")
    r = cli(["squaredeal", "make", str(syn / "SYN.sqd"), "--keys", str(syn / "SYN.sqk"),
             "--sessions", "3/1", "--out", str(target)])  # fmt: skip
    assert r.code == 2 and "is a file; give a folder" in r.err
    assert target.read_text() == "x"


def test_key_file_is_private_and_sets_are_not(cli: CliRunner, tmp_path: Path) -> None:
    sqd = tmp_path / "P.sqd"
    assert cli(["squaredeal", "new", str(sqd), "--name", "P", "--phase", "1:3:P:P"]).code == 0
    assert cli(["squaredeal", "publish", str(sqd)]).code == 0
    assert (tmp_path / "P.sqk").stat().st_mode & 0o777 == 0o600
    assert cli(["squaredeal", "set-dv", str(sqd), "1"]).code == 0
    r = cli(["squaredeal", "make", str(sqd), "--keys", str(tmp_path / "P.sqk"), "--out",
             str(tmp_path)])  # fmt: skip
    assert r.code == 0, r.err
    umask = os.umask(0)
    os.umask(umask)
    assert (tmp_path / "P.pbn").stat().st_mode & 0o777 == 0o666 & ~umask
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
