"""`croupier page verify`, `--verify-page` on publish and new-key, and `boards verify --key`."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from croupier.formats.board_files import render_boards
from croupier.tournament.board_plan import BoardPlan
from croupier.tournament.verifiable import make_boards, plan_commitment
from croupier.tournament.verification import Mismatch, MismatchKind
from croupier.tournament.verify_page import verify_page
from tests.conftest import ROOT, CliRunner

PAGE = ROOT / "src" / "croupier" / "web" / "verify.html"
KEY = bytes(range(32))
PLAN = "1:1-4;2:5-8"


def test_page_verify_writes_the_packaged_page(cli: CliRunner, tmp_path: Path) -> None:
    out = tmp_path / "verify.html"
    r = cli(["page", "verify", "--out", str(out)])
    assert r.code == 0, r.err
    assert out.read_bytes() == PAGE.read_bytes() == verify_page()
    assert r.out == f"{hashlib.sha256(out.read_bytes()).hexdigest()}  {out}\n"  # as sha256sum
    assert r.err.startswith(f"wrote {out} (")
    quiet = cli(["page", "verify", "--out", str(out), "--overwrite", "--quiet"])
    assert quiet.code == 0 and quiet.out == r.out and quiet.err == ""
    assert (
        b'id="result"' in out.read_bytes()
        and b'type="file" id="files" multiple' in out.read_bytes()
    )


def test_page_verify_never_overwrites_unless_asked(cli: CliRunner, tmp_path: Path) -> None:
    out = tmp_path / "verify.html"
    out.write_text("mine")
    r = cli(["page", "verify", "--out", str(out)])
    assert r.code == 2 and r.err.startswith("error: ") and r.err.count("\n") == 1
    assert "--overwrite" in r.err and out.read_text() == "mine"
    r = cli(["page", "verify", "-o", str(out), "--overwrite", "--json"])
    assert r.code == 0, r.err
    doc = json.loads(r.out)
    assert doc["command"] == "page verify" and doc["source"] is None
    assert doc["result"] == {
        "page": "verify",
        "file": str(out),
        "bytes": len(PAGE.read_bytes()),
        "sha256": hashlib.sha256(PAGE.read_bytes()).hexdigest(),
    }
    assert out.read_bytes() == PAGE.read_bytes()


def test_page_verify_refuses_a_missing_folder(cli: CliRunner, tmp_path: Path) -> None:
    r = cli(["page", "verify", "--out", str(tmp_path / "nowhere" / "verify.html")])
    assert r.code == 2 and "does not exist" in r.err


def test_squaredeal_publish_writes_the_page_beside(cli: CliRunner, tmp_path: Path) -> None:
    sqd, page = tmp_path / "EV.sqd", tmp_path / "verify.html"
    assert cli(["squaredeal", "new", str(sqd), "--name", "Cup", "--phase", "1:4:C#:C #"]).code == 0
    r = cli(["squaredeal", "publish", str(sqd), "--verify-page", str(page), "--json"])
    assert r.code == 0, r.err
    obj = json.loads(r.out)["result"]
    assert obj["verify_page"]["file"] == str(page) and page.read_bytes() == PAGE.read_bytes()
    assert obj["verify_page"]["sha256"] == hashlib.sha256(PAGE.read_bytes()).hexdigest()


def test_an_existing_page_stops_publish_before_any_key(cli: CliRunner, tmp_path: Path) -> None:
    sqd, page = tmp_path / "EV.sqd", tmp_path / "verify.html"
    page.write_text("mine")
    assert cli(["squaredeal", "new", str(sqd), "--name", "Cup", "--phase", "1:4:C#:C #"]).code == 0
    r = cli(["squaredeal", "publish", str(sqd), "--verify-page", str(page)])
    assert r.code == 2 and "--verify-page" in r.err and "already exists" in r.err
    assert not (tmp_path / "EV.sqk").exists() and "\nKH " not in sqd.read_text()
    assert page.read_text() == "mine"
    r = cli(["boards", "new-key", "-e", "Cup", "--key-file", str(tmp_path / "k.key"),
             "--verify-page", str(page)])  # fmt: skip
    assert r.code == 2 and not (tmp_path / "k.key").exists()


def test_boards_new_key_writes_the_page(cli: CliRunner, tmp_path: Path) -> None:
    page = tmp_path / "verify.html"
    r = cli(["boards", "new-key", "-e", "Cup", "--plan", PLAN, "--key-file",
             str(tmp_path / "k.key"), "--verify-page", str(page)])  # fmt: skip
    assert r.code == 0, r.err
    assert page.read_bytes() == PAGE.read_bytes() and "verification page" in r.err
    sha256 = hashlib.sha256(PAGE.read_bytes()).hexdigest()
    assert r.out.splitlines()[-1] == f"page       {sha256}  {page}"
    r = cli(["boards", "new-key", "-e", "Cup", "--key-file", str(tmp_path / "k2.key"), "--json"])
    assert json.loads(r.out)["result"]["verify_page"] is None


@pytest.fixture
def session_file(tmp_path: Path) -> Path:
    path = tmp_path / "cup1.pbn"
    path.write_bytes(render_boards(make_boards(KEY, "Cup", b"7", 1, range(1, 5)), "pbn"))
    return path


def _verify(*extra: str, event: str = "Cup", plan: str = PLAN) -> list[str]:
    published = plan_commitment(KEY, "Cup", BoardPlan.parse(PLAN))
    return ["boards", "verify", "-e", event, "--plan", plan, "--commitment", published,
            "--dv", "7", "--session", "1", *extra]  # fmt: skip


def test_boards_verify_takes_the_key_as_hex(cli: CliRunner, session_file: Path) -> None:
    r = cli(_verify("--key", KEY.hex().upper(), str(session_file)))
    assert r.code == 0, r.err + r.out
    assert "OK   cup1.pbn: 4 boards match" in r.out
    r = cli(_verify("--key", "ff" * 32, str(session_file)))
    assert r.code == 1 and r.out.startswith("FAIL the key given does not match")
    r = cli(_verify("--key", KEY.hex(), "--json", str(session_file)))
    assert json.loads(r.out)["result"]["keys"]["key_file"] == "(key given)"


@pytest.mark.parametrize(
    "extra",
    [[], ["--key", "00" * 32, "--key-file", "k.key"]],
    ids=["neither", "both"],
)
def test_boards_verify_needs_the_key_once(
    cli: CliRunner, session_file: Path, extra: list[str]
) -> None:
    r = cli(_verify(*extra, str(session_file)))
    assert r.code == 2 and r.err.count("\n") == 1
    assert "--key-file" in r.err and "--key " in r.err


def test_a_bad_hex_key_is_an_error_that_never_shows_it(cli: CliRunner, session_file: Path) -> None:
    r = cli(_verify("--key", "abcdef" * 5, str(session_file)))
    assert r.code == 2 and "abcdef" not in r.err and "not shown" in r.err


@pytest.mark.parametrize(
    ("event", "plan"),
    [("Cup ", PLAN), ("cup", PLAN), ("Cup", "1:1-4;2:5-7")],
    ids=["trailing space", "case", "plan"],
)
def test_event_or_plan_text_that_differs_says_it_must_match_exactly(
    cli: CliRunner, session_file: Path, event: str, plan: str
) -> None:
    r = cli(_verify("--key", KEY.hex(), str(session_file), event=event, plan=plan))
    assert r.code == 1
    assert "the event name and the board plan must match exactly the text published" in r.out


def test_a_deal_that_differs_names_the_hands() -> None:
    want = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
    got = "N:KQJT98765432.A.. A.KQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
    line = Mismatch("s.pbn", 3, MismatchKind.DEAL, want, got).describe()
    assert line.startswith("s.pbn board 3: deal differs in the hands of North and East (")
    three = "N:..AKQJT98765432. AKQJT98765432... .AKQJT98765432.. ...AKQJT98765432"
    line = Mismatch("s.pbn", 3, MismatchKind.DEAL, want, three).describe()
    assert "in the hands of North, East and South (" in line
