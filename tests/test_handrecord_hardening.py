"""Hand records and board files on hostile or unusual text, and the commands around them.

The PDF's font is read with fontTools (not with fpdf2, which draws the PDF): a
character is printable exactly when the shipped font maps it to a glyph.  What
a person sees is read back with poppler (pdftotext, pdfinfo); the HTML page is
checked character by character against Unicode's own categories.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import unicodedata
import warnings
from pathlib import Path

import pytest

from croupier.boards import Board
from croupier.formats import hand_record_pdf
from croupier.formats.board_files import render_boards
from croupier.formats.hand_record import (
    HandRecord,
    MissingGlyphsWarning,
    render_hand_record,
)
from croupier.formats.hand_record_pdf import missing_glyphs, printable, render_pdf
from croupier.ranking.bigdeal import goedel_unrank
from tests.conftest import ROOT, CliRunner

FONT = ROOT / "src" / "croupier" / "fonts" / "DejaVuSans.ttf"
BOARDS = [Board.standard(n, goedel_unrank(977 * n + 5)) for n in (1, 2, 3)]
#: The bidirectional controls that must never reach the page.
BIDI = [chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))]


def _font_cmap() -> set[int]:
    ttlib = pytest.importorskip("fontTools.ttLib")
    font = ttlib.TTFont(str(FONT))
    return set(font.getBestCmap())


def _poppler(program: str) -> str:
    found = shutil.which(program)
    if found is None:
        message = f"{program} is missing: install poppler-utils (apt-get install poppler-utils)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return found


def _pdf_text(path: Path) -> str:
    return subprocess.run(
        [_poppler("pdftotext"), "-layout", str(path), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def _pdf_title(path: Path) -> str:
    info = subprocess.run(
        [_poppler("pdfinfo"), str(path)], capture_output=True, text=True, check=True
    ).stdout
    return next(line for line in info.splitlines() if line.startswith("Title:"))[6:].strip()


def _quiet_render(record: HandRecord) -> bytes:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MissingGlyphsWarning)
        return render_hand_record(record, "pdf")


def _pbn(path: Path, event: str = "?", date: str = "?") -> Path:
    data = render_boards(BOARDS, "pbn").decode("utf-8")
    data = data.replace('[Event "?"]', f'[Event "{event}"]').replace(
        '[Date "?"]', f'[Date "{date}"]'
    )
    path.write_bytes(data.encode("utf-8"))
    return path


# -- PDF: every character the font has, a placeholder and a warning for the rest ---------------


def test_what_the_font_lacks_is_named_and_the_rest_printed(tmp_path: Path) -> None:
    cmap = _font_cmap()
    event = "Zürich Ελλάδα Москва Łódź 東京 القاهرة תל אביב Σ"
    expected = tuple(dict.fromkeys(ch for ch in event if ch != " " and ord(ch) not in cmap))
    assert "東" in expected and "ق" in expected and "ת" in expected  # the font has no CJK, ...
    assert not {"ü", "λ", "Ж", "ł"} & set(expected)  # ... but Latin, Greek and Cyrillic
    done = render_pdf(HandRecord.from_boards(BOARDS, event=event))
    assert done.replaced == expected
    path = tmp_path / "r.pdf"
    path.write_bytes(done.data)
    first_line = _pdf_text(path).splitlines()[0].strip()
    shown = "".join("?" if ch in expected else ch for ch in event)
    assert first_line == shown
    assert _pdf_title(path) == event  # the document's title keeps every character


def test_every_script_of_the_font_prints_as_itself(tmp_path: Path) -> None:
    cmap = _font_cmap()
    letters = [
        chr(c) for c in sorted(cmap) if unicodedata.category(chr(c)) in ("Lu", "Ll") and c > 0x7F
    ]
    scripts = {unicodedata.name(ch).split()[0] for ch in letters}
    assert {"LATIN", "GREEK", "CYRILLIC"} <= scripts
    event = "".join(letters[:: max(1, len(letters) // 60)])
    done = render_pdf(HandRecord.from_boards(BOARDS[:1], event=event))
    assert done.replaced == ()
    path = tmp_path / "r.pdf"
    path.write_bytes(done.data)
    assert event in _pdf_text(path).replace("\n", "")


def test_a_long_title_wraps_and_is_cut_leaving_room_for_the_boards(tmp_path: Path) -> None:
    boards = [Board.standard(n, goedel_unrank(31 * n)) for n in range(1, 9)]
    record = HandRecord.from_boards(boards, event="Cup " + "W" * 60_000, session="Session 2")
    path = tmp_path / "r.pdf"
    path.write_bytes(render_pdf(record).data)
    first, second = _pdf_text(path).split("\f")[:2]
    assert all(f"Board {n}" in first for n in range(1, 7))
    assert all(f"Board {n}" in second for n in (7, 8))
    assert 20 < first.count("W") < 200 and "…" in first  # wrapped over a few lines, then cut
    head = second.splitlines()[0].strip()
    assert head.startswith("Cup WWW") and head.endswith("…") and len(head) < 200


def test_one_placeholder_for_what_a_reader_sees_as_one_character() -> None:
    thumbs, flag, family = "👍🏽", "🇯🇵", "👨\u200d👩\u200d👧"
    assert printable(f"a {thumbs} b {flag} c {family} d") == "a ? b ? c ? d"
    assert missing_glyphs(family) == ("👨", "👩", "👧")  # the joiner is no character to name
    assert printable("Cafe\u0301 \u2660\ufe0f") == "Café ♠"  # composed; a variation selector
    assert missing_glyphs("Cafe\u0301 \u2660\ufe0f") == ()


def test_control_characters_print_as_the_replacement_character(tmp_path: Path) -> None:
    path = tmp_path / "r.pdf"
    path.write_bytes(_quiet_render(HandRecord.from_boards(BOARDS[:1], event="A\x1bB\u202eC")))
    assert _pdf_text(path).splitlines()[0].strip() == "A\ufffdB\ufffdC"


def test_render_hand_record_warns_with_the_characters() -> None:
    record = HandRecord.from_boards(BOARDS[:1], event="Cup 日本", date="🎉")
    with pytest.warns(MissingGlyphsWarning) as caught:
        render_hand_record(record, "pdf")
    assert len(caught) == 1
    found = caught[0].message
    assert isinstance(found, MissingGlyphsWarning)
    assert found.characters == ("日", "本", "🎉")
    assert str(found) == (
        "the PDF font has no glyph for '日本🎉' (U+65E5, U+672C, U+1F389); shown as '?'"
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        render_hand_record(HandRecord.from_boards(BOARDS[:1], event="Cup Ж"), "pdf")
        render_hand_record(record, "html")  # the page shows every character


def test_the_command_warns_once_in_one_bounded_line(cli: CliRunner, tmp_path: Path) -> None:
    source = _pbn(tmp_path / "s.pbn")
    out = tmp_path / "r.pdf"
    r = cli(["handrecord", str(source), "--event", "東京 Cup", "--out", str(out)])
    assert r.code == 0, r.err
    warned = [line for line in r.err.splitlines() if line.startswith("warning:")]
    assert warned == [
        "warning: the PDF font has no glyph for '東京' (U+6771, U+4EAC); shown as '?'"
    ]
    many = "".join(chr(0x4E00 + 7 * i) for i in range(100))
    r = cli(["handrecord", str(source), "--event", many, "--out", str(out), "--overwrite"])
    assert r.code == 0, r.err
    warned = [line for line in r.err.splitlines() if line.startswith("warning:")]
    assert len(warned) == 1 and len(warned[0]) < 300
    assert warned[0].endswith("and 90 more characters; shown as '?'")
    quiet = cli(
        ["handrecord", str(source), "--event", many, "-o", str(out), "--overwrite", "--quiet"]
    )
    assert quiet.code == 0 and quiet.err == ""
    html = cli(["handrecord", str(source), "--event", many, "-o", str(tmp_path / "r.html")])
    assert html.code == 0 and "warning" not in html.err
    assert many in (tmp_path / "r.html").read_text(encoding="utf-8")


def test_the_json_report_lists_the_replaced_characters(cli: CliRunner, tmp_path: Path) -> None:
    import json

    import jsonschema

    from croupier.cli.schemas import SCHEMAS

    source = _pbn(tmp_path / "s.pbn")
    out = tmp_path / "r.pdf"
    r = cli(["handrecord", str(source), "--event", "東京 Cup 東", "-o", str(out), "--json"])
    assert r.code == 0, r.err
    document = json.loads(r.out)
    jsonschema.validate(document, SCHEMAS["handrecord"])
    assert document["result"]["replaced"] == [
        {"character": "東", "code": "U+6771"},
        {"character": "京", "code": "U+4EAC"},
    ]
    assert "warning: the PDF font has no glyph for '東京'" in r.err  # still said on stderr
    html = cli(["handrecord", str(source), "--event", "東京", "-o", str(tmp_path / "r.html"),
                "--json"])  # fmt: skip
    assert json.loads(html.out)["result"]["replaced"] == []  # the page shows them all
    plain = cli(["handrecord", str(source), "--event", "Cup", "-o", str(out), "--overwrite",
                 "--json"])  # fmt: skip
    assert json.loads(plain.out)["result"]["replaced"] == []


def test_without_uharfbuzz_no_shaping_is_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    from fpdf import FPDF

    def refuse(self: FPDF, *args: object, **kwargs: object) -> None:
        raise AssertionError("set_text_shaping called")

    monkeypatch.setattr(hand_record_pdf, "text_shaping_available", lambda: False)
    monkeypatch.setattr(FPDF, "set_text_shaping", refuse)
    assert render_pdf(HandRecord.from_boards(BOARDS[:1], event="Cup")).data[:5] == b"%PDF-"


def test_a_broken_shaping_engine_prints_unshaped(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from fpdf import FPDF
    from fpdf.errors import FPDFException

    calls: list[object] = []

    def broken(self: FPDF, *args: object, **kwargs: object) -> None:
        calls.append(args)
        raise FPDFException("The uharfbuzz package could not be imported")

    monkeypatch.setattr(hand_record_pdf, "text_shaping_available", lambda: True)
    monkeypatch.setattr(FPDF, "set_text_shaping", broken)
    path = tmp_path / "r.pdf"
    path.write_bytes(render_pdf(HandRecord.from_boards(BOARDS[:1], event="Shaped Cup")).data)
    assert calls and "Shaped Cup" in _pdf_text(path)


def test_with_uharfbuzz_the_text_is_the_same(tmp_path: Path) -> None:
    pytest.importorskip("uharfbuzz")
    assert hand_record_pdf.text_shaping_available()
    event = "Office affinity AVAWAY Ελλάδα"
    path = tmp_path / "r.pdf"
    path.write_bytes(render_pdf(HandRecord.from_boards(BOARDS, event=event)).data)
    text = _pdf_text(path)
    assert event in text.replace("ﬃ", "ffi").replace("ﬁ", "fi")
    assert all(f"Board {n}" in text for n in (1, 2, 3))


# -- HTML: control characters and bidirectional overrides never reach the page ------------------


def _controls() -> list[str]:
    """Every C0 and C1 control but tab and the line ends, and the bidirectional controls."""
    cc = [chr(c) for c in range(0x100) if unicodedata.category(chr(c)) == "Cc"]
    return [c for c in cc if c not in "\t\n\r"] + BIDI


def test_html_replaces_every_control_and_bidi_override() -> None:
    hostile = "".join(f"{c}x" for c in _controls())
    record = HandRecord.from_boards(
        BOARDS[:1], event="E" + hostile, session="S" + hostile, date="D" + hostile
    )
    page = render_hand_record(record, "html").decode("utf-8")
    assert not set(page) & set(_controls())
    shown = "\ufffdx" * len(_controls())
    assert f"<title>E{shown} — S{shown}</title>" in page
    assert f"<h1>E{shown}</h1>" in page and f"<bdi>S{shown}</bdi>" in page
    assert f"<bdi>D{shown}</bdi>" in page


def test_html_keeps_right_to_left_text_in_its_own_box() -> None:
    event, date = "גביע המועדון", "יום שני"  # Hebrew: shown as it is, isolated from the rest
    record = HandRecord.from_boards(BOARDS, event=event, date=date)
    page = render_hand_record(record, "html").decode()
    assert f"<h1>{event}</h1>" in page
    assert f'<p class="details"><bdi>{date}</bdi> · Boards 1-3</p>' in page
    assert f'<p class="running"><bdi>{event}</bdi> · Boards 1-3</p>' in page


def test_pbn_tags_with_controls_are_shown_safely(cli: CliRunner, tmp_path: Path) -> None:
    source = _pbn(tmp_path / "s.pbn", event="Cup\x00\x1b[2J\u202eevil", date="2024\u2066.01")
    r = cli(["handrecord", str(source), "--out", str(tmp_path / "r.html")])
    assert r.code == 0, r.err
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert not set(page) & {"\x00", "\x1b", "\u202e", "\u2066"}
    assert "<h1>Cup\ufffd\ufffd[2J\ufffdevil</h1>" in page
    assert "<bdi>2024\ufffd.01</bdi>" in page


# -- no boards: an error, and nothing written ----------------------------------------------------


@pytest.mark.parametrize("target", ["r.html", "r.pdf"])
def test_handrecord_of_no_boards_is_an_error(cli: CliRunner, tmp_path: Path, target: str) -> None:
    empty = tmp_path / "empty.pbn"
    empty.write_bytes(b"")
    bad = tmp_path / "bad.pbn"
    bad.write_bytes(
        b'[Board "1"]\r\n[Deal "N:AK.. - - -x"]\r\n\r\n[Board "2"]\r\n[Deal "junk"]\r\n'
    )
    out = tmp_path / target
    r = cli(["handrecord", str(empty), "--out", str(out)])
    assert (r.code, r.out) == (2, "")
    assert r.err == f"error: no boards to print: {str(empty)!r} holds no games\n"
    assert not out.exists()
    r = cli(["handrecord", str(bad), str(empty), "--out", str(out)])
    lines = r.err.splitlines()
    assert r.code == 2 and not out.exists()
    assert len(lines) == 3 and all(line.startswith("warning: ") for line in lines[:2])
    assert lines[-1].startswith("error: no boards to print: 2 games skipped in ")
    r = cli(["handrecord", str(bad), "--out", str(out), "--quiet"])
    assert r.code == 2 and r.err.count("\n") == 1 and r.err.startswith("error: no boards to print")
    assert not out.exists()


def test_handrecord_of_no_boards_prints_nothing_on_standard_output(
    cli: CliRunner, tmp_path: Path
) -> None:
    empty = tmp_path / "empty.lin"
    empty.write_bytes(b"\n")
    r = cli(["handrecord", str(empty)])
    assert (r.code, r.out) == (2, "") and r.err.startswith("error: no boards to print: ")


@pytest.mark.parametrize(
    "target", ["x.pbn", "x.lin", "x.json", "x.csv", "x.txt", "x.html", "x.pdf"]
)
def test_convert_of_no_boards_is_an_error(cli: CliRunner, tmp_path: Path, target: str) -> None:
    empty = tmp_path / "empty.pbn"
    empty.write_bytes(b"% nothing here\r\n")
    out = tmp_path / target
    r = cli(["convert", str(empty), str(out)])
    assert (r.code, r.out) == (2, "")
    assert r.err == f"error: no boards to convert: {empty} holds no games\n"
    assert not out.exists()
    r = cli(["convert", str(empty), "--to", "json", "--quiet"])
    assert (r.code, r.out) == (2, "")


def test_convert_with_every_game_skipped_says_why(cli: CliRunner, tmp_path: Path) -> None:
    bad = tmp_path / "bad.pbn"
    bad.write_bytes(b'[Board "1"]\r\n[Deal "junk"]\r\n')
    r = cli(["convert", str(bad), str(tmp_path / "x.lin")])
    lines = r.err.splitlines()
    assert r.code == 2 and not (tmp_path / "x.lin").exists()
    assert lines[0].startswith(f"warning: {bad} line 1 (game 1) skipped")
    assert lines[1] == f"error: no boards to convert: 1 game skipped in {bad}, none read"
    r = cli(["convert", str(bad), str(tmp_path / "x.json"), "--json"])
    assert (r.code, r.out) == (2, "") and r.err.count("\n") == 1


# -- page verify: the line sha256sum -c reads -----------------------------------------------------


def _sha256sum() -> str:
    found = shutil.which("sha256sum")
    if found is None:
        pytest.skip("sha256sum (GNU coreutils) is missing")
    return found


def _checked(sha256sum: str, folder: Path, lines: list[str]) -> subprocess.CompletedProcess[bytes]:
    """``sha256sum -c`` of ``lines`` in ``folder``, which must pass."""
    (folder / "SUMS").write_bytes("".join(lines).encode("utf-8"))
    checked = subprocess.run(
        [sha256sum, "-c", "SUMS"], capture_output=True, cwd=folder, check=False
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    return checked


NAMES = ["plain.html", "new\nline.html", "back\\slash.html", "carriage\rreturn.html", "a\\n.html"]


def test_page_verify_prints_what_sha256sum_checks(
    cli: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sha256sum = _sha256sum()
    monkeypatch.chdir(tmp_path)
    lines = []
    for name in NAMES:
        r = cli(["page", "verify", "--out", name, "--quiet"])
        assert r.code == 0, r.err
        assert r.out.count("\n") == 1  # one line, whatever the name holds
        lines.append(r.out)
    checked = _checked(sha256sum, tmp_path, lines)
    assert checked.stdout.count(b": OK\n") == len(NAMES)
    ours = subprocess.run(
        [sha256sum, "--", *NAMES], capture_output=True, cwd=tmp_path, check=True
    ).stdout
    assert ours == "".join(lines).encode("utf-8")  # the very lines sha256sum prints
    assert lines[0].startswith(lines[0][:64]) and not lines[0].startswith("\\")


def test_publish_and_new_key_print_the_page_line_sha256sum_checks(
    cli: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sha256sum = _sha256sum()
    monkeypatch.chdir(tmp_path)
    lines = []
    for i, name in enumerate(NAMES):
        key = f"k{i}.key"
        r = cli(["boards", "new-key", "-e", "Cup", "--key-file", key, "--verify-page", name])
        assert r.code == 0, r.err
        assert r.out.count("\n" + "page") == 1
        page_line = r.out.split("\npage", 1)[1].lstrip(" ")
        assert page_line.count("\n") == 1  # one line, whatever the name holds
        lines.append(page_line)
        sqd = f"ev{i}.sqd"
        assert cli(["squaredeal", "new", sqd, "--name", "Cup", "--phase", "1:4:C#:C #"]).code == 0
        (tmp_path / f"pub{i}").mkdir()
        published = cli(["squaredeal", "publish", sqd, "--verify-page", f"pub{i}/{name}"])
        assert published.code == 0, published.err
        assert published.out.count("\n" + "page") == 1
        lines.append(published.out.split("\npage", 1)[1].lstrip(" "))
        assert lines[-1].count("\n") == 1
    checked = _checked(sha256sum, tmp_path, lines)
    assert checked.stdout.count(b": OK\n") == 2 * len(NAMES)


def test_a_changed_page_fails_the_check(
    cli: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sha256sum = shutil.which("sha256sum")
    if sha256sum is None:
        pytest.skip("sha256sum (GNU coreutils) is missing")
    monkeypatch.chdir(tmp_path)
    name = "usb\\copy\n.html"
    r = cli(["page", "verify", "--out", name, "--quiet"])
    assert r.code == 0
    (tmp_path / "SUMS").write_bytes(r.out.encode("utf-8"))
    with open(tmp_path / name, "ab") as page:
        page.write(b"<!-- changed -->")
    checked = subprocess.run([sha256sum, "-c", "SUMS"], capture_output=True, cwd=tmp_path)
    assert checked.returncode == 1 and b"FAILED" in checked.stdout


# -- errors name the flags, not the Python parameters -------------------------------------------


def test_bad_commitment_names_the_flag(cli: CliRunner, tmp_path: Path) -> None:
    source = _pbn(tmp_path / "s.pbn")
    base = ["handrecord", str(source), "--event", "Cup", "--session", "1"]
    out = ["--out", str(tmp_path / "r.html")]
    r = cli([*base, "--commitment", "zz", "--dv", "7", *out])
    assert r.code == 2 and r.err.count("\n") == 1
    assert r.err.startswith("error: --commitment must be the 64 hex digits")
    assert "commitment_hex" not in r.err
    r = cli([*base, "--commitment", "ab" * 32, "--dv", "7\udcff", *out])
    assert r.code == 2 and r.err.startswith("error: --dv is not valid text"), r.err
    assert "delayed_value" not in r.err
    assert not (tmp_path / "r.html").exists()


def test_page_verify_to_standard_output_is_the_page_alone(
    cli: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    page = (ROOT / "src" / "croupier" / "web" / "verify.html").read_bytes()
    r = cli(["page", "verify", "--out", "-"])
    assert r.code == 0 and r.out.encode("utf-8") == page and not (tmp_path / "-").exists()
    assert hashlib.sha256(page).hexdigest() in r.err
    r = cli(["page", "verify", "--out", "-", "--json"])
    assert (r.code, r.out) == (2, "") and r.err.startswith("error: --json prints a report")
