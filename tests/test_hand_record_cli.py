"""``croupier handrecord``, ``convert --to html|pdf``, and the PBN fixes of the tournament commands.

The commitment header is checked by running the verify command it prints: a hand
record that tells players how to check the boards must tell them something that
works.  Line ends are checked on the bytes every PBN-writing command produces.
"""

from __future__ import annotations

import html
import json
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from croupier.formats.board_files import read_boards
from croupier.formats.pbn_deal import format_pbn_deal
from croupier.tournament.board_plan import BoardPlan
from croupier.tournament.verifiable import commitment, make_boards, plan_commitment
from tests.conftest import VECTORS, CliRunner

SYN = VECTORS / "bigdeal"
KEY = bytes(range(32))
EVENT = "Tuesday Pairs"
PLAN = "1:1-8;2:9-16"


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tp.key").write_text(KEY.hex() + "\n")
    return tmp_path


def _ok(cli: CliRunner, args: list[str]) -> str:
    r = cli(args)
    assert r.code == 0, r.err
    return r.out


def _make_session(cli: CliRunner, *extra: str) -> None:
    _ok(
        cli,
        [
            "boards",
            "make",
            "--event",
            EVENT,
            "--plan",
            PLAN,
            "--key-file",
            "tp.key",
            "--dv",
            "15234.56",
            "--session",
            "1",
            *extra,
        ],
    )


def _pdftotext(path: Path) -> str:
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext is missing (poppler-utils)")
    return subprocess.run(
        ["pdftotext", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout


# -- the Event tag and line ends of PBN files -----------------------------------------------


def test_boards_make_writes_the_event_name(cli: CliRunner, folder: Path) -> None:
    _make_session(cli, "--out", "tp1.pbn")
    data = (folder / "tp1.pbn").read_bytes()
    assert data.count(b'[Event "Tuesday Pairs"]\r\n') == 8 and b'[Event "?"]' not in data


def test_bigdeal_event(cli: CliRunner, folder: Path) -> None:
    base = ["bigdeal", "--owner", "o", "--entropy", "a long secret text nobody knows", "-b", "3"]
    named = _ok(cli, [*base, "-e", "Club Cup"])
    plain = _ok(cli, base)
    assert named.count('[Event "Club Cup"]\r\n') == 3 and plain.count('[Event "?"]\r\n') == 3
    assert named.replace("Club Cup", "?") == plain
    obj = json.loads(_ok(cli, [*base, "--event", "Club Cup", "--json"]))
    assert obj["result"]["event"] == "Club Cup"


def test_squaredeal_make_writes_the_event_name(cli: CliRunner, folder: Path) -> None:
    for name in ("SYN.sqd", "SYN.sqk"):
        shutil.copyfile(SYN / name, folder / name)
    _ok(cli, ["squaredeal", "make", "SYN.sqd", "--keys", "SYN.sqk", "--sessions", "3/*"])
    data = (folder / "ONE.pbn").read_bytes()
    assert data.count(b'[Event "Synthetic test"]\r\n') == 5


PBN_WRITERS = {
    "deal": ["deal", "bridge", "-n", "3", "--seed", "x", "--format", "pbn"],
    "convert": ["convert", str(SYN / "ONE.pbn"), "--to", "pbn"],
    "boards make": [
        "boards",
        "make",
        "--event",
        EVENT,
        "--plan",
        PLAN,
        "--key-file",
        "tp.key",
        "--dv",
        "1",
        "--session",
        "2",
    ],
    "bigdeal": ["bigdeal", "--owner", "o", "--hash", "ab" * 20, "-b", "5"],
    "squaredeal make": [],  # writes files: below
}


@pytest.mark.parametrize("command", sorted(PBN_WRITERS))
def test_every_pbn_writer_ends_lines_with_crlf_and_lf_on_request(
    cli: CliRunner, folder: Path, command: str
) -> None:
    def written(*extra: str) -> bytes:
        if command != "squaredeal make":
            r = cli([*PBN_WRITERS[command], *extra])
            assert r.code == 0, r.err
            return r.out.encode("utf-8")
        for name in ("SYN.sqd", "SYN.sqk"):
            shutil.copyfile(SYN / name, folder / name)
        out = folder / f"sets{len(extra)}"
        _ok(
            cli,
            [
                "squaredeal",
                "make",
                "SYN.sqd",
                "--keys",
                "SYN.sqk",
                "--sessions",
                "3/*",
                "--out",
                str(out),
                *extra,
            ],
        )
        return (out / "ONE.pbn").read_bytes()

    crlf, lf = written(), written("--lf")
    assert crlf.startswith(b"% PBN 2.1\r\n% EXPORT\r\n")
    assert crlf.count(b"\n") == crlf.count(b"\r\n") > 20
    assert b"\r" not in lf and lf == crlf.replace(b"\r\n", b"\n")


def test_big_deal_files_match_byte_for_byte_with_lf(cli: CliRunner, folder: Path) -> None:
    for name in ("SYN.sqd", "SYN.sqk"):
        shutil.copyfile(SYN / name, folder / name)
    _ok(
        cli,
        [
            "squaredeal",
            "make",
            "SYN.sqd",
            "--keys",
            "SYN.sqk",
            "--sessions",
            "2/*;3/*",
            "--event",
            "?",
            "--lf",
        ],
    )
    for name in ("TWO1.pbn", "TWO2.pbn", "ONE.pbn"):
        ours = re.sub(rb'\[Generator "[^"]*"\]', b"", (folder / name).read_bytes())
        theirs = re.sub(rb'\[Generator "[^"]*"\]', b"", (SYN / name).read_bytes())
        assert ours == theirs, name


# -- handrecord -------------------------------------------------------------------------------


def test_handrecord_reads_every_format_to_the_same_record(cli: CliRunner, folder: Path) -> None:
    _make_session(cli, "--out", "s.pbn")
    pages = {}
    for fmt, ext in [
        ("pbn", "pbn"),
        ("lin", "lin"),
        ("dup", "dup"),
        ("dlm", "dlm"),
        ("csv", "csv"),
        ("json", "json"),
        ("lines", "txt"),
    ]:
        if fmt != "pbn":
            _ok(cli, ["convert", "s.pbn", f"s.{ext}", "--quiet"])
        _ok(cli, ["handrecord", f"s.{ext}", "--event", "X", "--out", f"{fmt}.html"])
        pages[fmt] = (folder / f"{fmt}.html").read_text(encoding="utf-8")
    assert len(set(pages.values())) == 1
    assert pages["pbn"].count('<section class="board"') == 8


def test_handrecord_takes_event_and_date_from_pbn_tags(cli: CliRunner, folder: Path) -> None:
    _make_session(cli, "--out", "s.pbn")
    page = _ok(cli, ["handrecord", "s.pbn"])
    assert "<title>Tuesday Pairs</title>" in page and "<h1>Tuesday Pairs</h1>" in page
    page = _ok(cli, ["handrecord", "s.pbn", "-e", "Other", "--date", "2024-05-07"])
    assert "<h1>Other</h1>" in page and "<bdi>2024-05-07</bdi> · Boards 1-8" in page


def _verify_line(text: str) -> list[str]:
    """The verify command a hand record prints, as an argument list (after ``croupier``)."""
    found = re.search(r"To verify[^:<]*: ([^<\n]*)", text)
    assert found is not None, "no verify line"
    words = shlex.split(html.unescape(found.group(1)))
    assert words[0] == "croupier"
    return words[1:]


def test_the_printed_verify_command_verifies(cli: CliRunner, folder: Path) -> None:
    _make_session(cli, "--out", "tp1.pbn")
    value = plan_commitment(KEY, EVENT, BoardPlan.parse(PLAN))
    args = [
        "handrecord",
        "tp1.pbn",
        "--plan",
        PLAN,
        "--commitment",
        value,
        "--dv",
        "15234.56",
        "--session",
        "1",
    ]
    made = cli([*args, "--out", "tp1.html"])
    assert made.code == 0 and made.out == ""  # what was written is a note on stderr
    assert made.err.startswith("wrote tp1.html (8 boards, 2 pages of A4)")
    html = (folder / "tp1.html").read_text(encoding="utf-8")
    assert f"Commitment (croupier-boards/2): {value}" in html
    assert "Delayed value: 15234.56" in html and "croupier page verify" in html
    assert KEY.hex() not in html
    verify = [KEY.hex() if w == "KEY" else w for w in _verify_line(html)]
    assert verify[:2] == ["boards", "verify"] and verify[-1] == "tp1.pbn"
    r = cli(verify)
    assert r.code == 0 and "all 1 file(s) match" in r.out, r.out + r.err
    # the same header in the PDF; the words of the command wrap over lines there
    _ok(cli, [*args, "--out", "tp1.pdf"])
    text = " ".join(_pdftotext(folder / "tp1.pdf").split())
    assert value in text.replace(" ", "") and "--session 1 --key KEY tp1.pbn" in text


def test_a_croupier_boards_1_record_names_the_boards(cli: CliRunner, folder: Path) -> None:
    _ok(
        cli,
        [
            "boards",
            "make",
            "--event",
            "Cup",
            "--key-file",
            "tp.key",
            "--dv",
            "7",
            "--session",
            "2",
            "--boards",
            "5-8",
            "--out",
            "c2.pbn",
        ],
    )
    html = _ok(
        cli,
        [
            "handrecord",
            "c2.pbn",
            "--commitment",
            commitment(KEY, "Cup"),
            "--dv",
            "7",
            "--session",
            "2",
        ],
    )
    verify = [KEY.hex() if w == "KEY" else w for w in _verify_line(html)]
    assert "--boards" in verify and verify[verify.index("--boards") + 1] == "5-8"
    assert cli(verify).code == 0


def test_squaredeal_record_and_its_verify_command(cli: CliRunner, folder: Path) -> None:
    for name in ("SYN.sqd", "SYN.sqk"):
        shutil.copyfile(SYN / name, folder / name)
    _ok(cli, ["squaredeal", "make", "SYN.sqd", "--keys", "SYN.sqk", "--sessions", "2/*"])
    html = _ok(cli, ["handrecord", "TWO1.pbn", "--sqd", "SYN.sqd", "--session", "1"])
    kh = (folder / "SYN.sqd").read_text().split("KH ")[1].split()[0]
    assert f"Key hash KH (SquareDeal): {kh}" in html and "Delayed value: 12,345.6 7" in html
    assert "<h1>Synthetic test</h1>" in html  # the Event tag squaredeal make wrote
    verify = _verify_line(html)
    assert verify == ["squaredeal", "verify", "SYN.sqd", "SYN.sqk", "TWO1.pbn"]
    assert cli(verify).code == 0


def test_make_with_format_html_carries_the_commitment(cli: CliRunner, folder: Path) -> None:
    _make_session(cli, "--format", "html", "--out", "tp1.html")
    html = (folder / "tp1.html").read_text(encoding="utf-8")
    value = plan_commitment(KEY, EVENT, BoardPlan.parse(PLAN))
    assert value in html and "Tuesday Pairs — Session 1" in html and KEY.hex() not in html
    for name in ("SYN.sqd", "SYN.sqk"):
        shutil.copyfile(SYN / name, folder / name)
    _ok(
        cli,
        [
            "squaredeal",
            "make",
            "SYN.sqd",
            "--keys",
            "SYN.sqk",
            "--sessions",
            "2/2",
            "--format",
            "html",
        ],
    )
    html = (folder / "TWO2.html").read_text(encoding="utf-8")
    assert "Synthetic test — Two 2/2" in html and "Key hash KH (SquareDeal)" in html
    assert "squaredeal verify SYN.sqd SYN.sqk TWO2.pbn" in html  # the session's board file
    assert html.count('<section class="board"') == 7


def test_handrecord_json_with_double_dummy(cli: CliRunner, folder: Path) -> None:
    boards = make_boards(KEY, EVENT, b"1", 1, range(1, 3))
    from croupier.formats.board_files import render_boards

    (folder / "two.pbn").write_bytes(render_boards(boards, "pbn"))
    doc = json.loads(_ok(cli, ["handrecord", "two.pbn", "--dd", "--out", "two.pdf", "--json"]))
    assert doc["command"] == "handrecord" and doc["reproducible"] is True
    obj = doc["result"]
    assert obj["file"] == "two.pdf" and obj["format"] == "pdf" and obj["pages"] == 1
    assert obj["per_page"] == 6 and obj["paper"] == "a4" and obj["provenance"] is None
    first = obj["boards"][0]
    assert first["board"] == 1 and first["deal"] == format_pbn_deal(boards[0].hands)
    assert read_boards((folder / "two.pbn").read_bytes(), "pbn") == boards
    assert set(first["double_dummy"]) == {"tricks", "par_score", "par_contracts"}
    assert set(first["double_dummy"]["tricks"]) == set("NESW")
    assert (folder / "two.pdf").read_bytes().startswith(b"%PDF-")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["s.pbn", "--out", "x.pbn"], "cannot tell the format of 'x.pbn'"),
        (["s.pbn", "--json"], "--json prints a report"),
        (["s.pbn", "--commitment", "00" * 32], "--commitment needs --dv and --session"),
        (["s.pbn", "--dv", "1"], "--dv and --plan go with --commitment"),
        (["s.pbn", "--sqd", "x.sqd", "--commitment", "00" * 32], "either --sqd"),
        (["s.pbn", "--commitment", "xyz", "--dv", "1", "--session", "1"], "64 hex digits"),
        (["s.pbn", "--per-page", "13"], "--per-page"),
        (["s.pbn", "--paper", "a5"], "--paper"),
        (["missing.pbn"], "cannot read 'missing.pbn': no such file"),
        (["s.pbn", "--from", "html"], "unknown format 'html' for --from"),
        (["page.html"], "is an HTML page"),
        (["partial.pbn", "--dd"], "board 1 is a partial deal"),
        (["s.pbn", "--out", "s.pbn", "-f", "html"], "also an input file"),
        (["s.pbn", "--out", "exists.html"], "already exists"),
    ],
)
def test_handrecord_bad_input_is_one_line(
    cli: CliRunner, folder: Path, args: list[str], message: str
) -> None:
    _make_session(cli, "--out", "s.pbn")
    (folder / "page.html").write_text("<html></html>")
    (folder / "exists.html").write_text("keep me")
    (folder / "partial.pbn").write_text('[Board "1"]\n[Deal "N:AKQJ.AKQ.AKQ.AKQ - - -"]\n')
    r = cli(["handrecord", *args])
    assert r.code == 2 and r.out == ""
    assert r.err.startswith("error: ") and r.err.count("\n") == 1 and message in r.err, r.err
    assert (folder / "exists.html").read_text() == "keep me"


def test_handrecord_reports_skipped_games(cli: CliRunner, folder: Path) -> None:
    bad = '[Board "1"]\n[Deal "N:AKQJ.AKQ.AKQ.AKQ AKQJ.AKQ.AKQ.AKQ - -"]\n\n'
    good = _ok(cli, ["convert", str(SYN / "ONE.pbn"), "--to", "pbn"])
    (folder / "mixed.pbn").write_text(bad + good)
    r = cli(["handrecord", "mixed.pbn", "--out", "m.html"])
    assert r.code == 0 and r.err.startswith("warning: mixed.pbn line 1 (game 1) skipped: ")
    assert (folder / "m.html").read_text().count('<section class="board"') == 5
    strict = cli(["handrecord", "mixed.pbn", "--out", "n.html", "--strict"])
    assert strict.code == 2 and not (folder / "n.html").exists()


# -- convert --to html|pdf -----------------------------------------------------------------------


def test_convert_to_a_hand_record(cli: CliRunner, folder: Path) -> None:
    r = cli(["convert", str(SYN / "ONE.pbn"), "one.pdf"])
    assert r.code == 0 and r.err.endswith("wrote one.pdf\n"), r.err
    text = _pdftotext(folder / "one.pdf")
    assert all(f"Board {n}" in text for n in range(5, 10))
    page = _ok(cli, ["convert", str(SYN / "ONE.pbn"), "--to", "html", "--quiet"])
    expected = _ok(cli, ["handrecord", str(SYN / "ONE.pbn"), "--event", ""])
    assert page == expected and page.count('<section class="board"') == 5
    obj = json.loads(_ok(cli, ["convert", str(SYN / "ONE.pbn"), "one.html", "--json"]))["result"]
    assert obj["to"] == "html" and obj["written"] == 5
    r = cli(["convert", str(SYN / "ONE.pbn"), "--to", "doc"])
    assert r.code == 2 and "unknown format 'doc' for --to" in r.err
