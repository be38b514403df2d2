"""``--json`` on bigdeal and every squaredeal and boards command, in the documented shapes."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from croupier.formats.pbn_deal import format_pbn_deal
from croupier.tournament.bigdeal import bigdeal_boards, seed_from_entropy
from croupier.tournament.squaredeal import key_hash, parse_sqd
from croupier.tournament.verifiable import commitment, make_boards, parse_key
from tests.conftest import ROOT, VECTORS, CliRunner

SYN = VECTORS / "bigdeal"
DOC = (ROOT / "docs" / "tournament.md").read_text(encoding="utf-8")
BOARD_KEYS = {"board", "dealer", "vulnerable", "deal", "hands", "goedel"}


def _envelope(cli: CliRunner, args: list[str], code: int = 0) -> Any:
    r = cli([*args, "--json"])
    assert r.code == code, r.err
    doc = json.loads(r.out)
    command = "bigdeal" if args[0] == "bigdeal" else " ".join(args[:2])
    assert doc["command"] == command
    return doc


def _json(cli: CliRunner, args: list[str], code: int = 0) -> Any:
    """The result of the command's JSON envelope."""
    return _envelope(cli, args, code)["result"]


def _documented_keys(title: str) -> set[str]:
    """The keys the docs list for one JSON object (a line ``title: `key`, `key`, ...``)."""
    m = re.search(rf"^\* {re.escape(title)}: (.+)$", DOC, re.MULTILINE)
    assert m is not None, f"docs/tournament.md does not document the JSON of {title}"
    return set(re.findall(r"`([a-z_]+)`", m.group(1)))


def test_bigdeal_json(cli: CliRunner, tmp_path: Path) -> None:
    doc = _envelope(cli, ["bigdeal", "--owner", "test", "--entropy", "hello", "-b", "3-4"])
    assert (doc["algorithm"], doc["source"], doc["reproducible"]) == ("bigdeal/2", "keyed", True)
    obj = doc["result"]
    assert set(obj) == _documented_keys("`bigdeal`")
    expected = bigdeal_boards(seed_from_entropy(["hello"]), "test", range(3, 5))
    assert obj["seed"] == seed_from_entropy(["hello"]).hex() and obj["owner"] == "test"
    assert obj["file"] is None and obj["format"] is None
    assert [b["board"] for b in obj["boards"]] == [3, 4]
    for got, want in zip(obj["boards"], expected, strict=True):
        assert set(got) == BOARD_KEYS == _documented_keys("a board")
        assert got["deal"] == format_pbn_deal(want.hands)
        assert int(got["goedel"]) == want.goedel and isinstance(got["goedel"], str)
        assert (got["dealer"], got["vulnerable"]) == (want.dealer, want.vulnerable)
        assert [len(got["hands"][s]) for s in "NESW"] == [13] * 4
    out = tmp_path / "s.lin"
    obj = _json(cli, ["bigdeal", "--owner", "test", "--entropy", "hello", "-b", "2", "-f", "lin",
                      "-o", str(out)])  # fmt: skip
    assert obj["file"] == str(out) and obj["format"] == "lin" and out.read_text().count("\n") == 2


def test_squaredeal_json_workflow(cli: CliRunner, tmp_path: Path) -> None:
    sqd, sqk, sets = tmp_path / "EV.sqd", tmp_path / "EV.sqk", tmp_path / "sets"
    obj = _json(cli, ["squaredeal", "new", str(sqd), "--name", "Cup", "--phase", "2:3x2:C#:C #"])
    assert set(obj) == _documented_keys("`squaredeal new`")
    assert obj["event_file"] == str(sqd) and obj["name"] == "Cup" and obj["key_hash"] is None
    assert obj["phases"] == [
        {"sessions": 2, "boards": "1-2,3-4,5-6", "prefix": "C#", "description": "C #"}
    ]
    doc = _envelope(cli, ["squaredeal", "publish", str(sqd)])
    assert (doc["algorithm"], doc["source"], doc["reproducible"]) == (
        "squaredeal/2",
        "os-csprng",
        False,
    )
    obj = doc["result"]
    assert set(obj) == _documented_keys("`squaredeal publish`")
    assert obj == {
        "event_file": str(sqd),
        "key_file": str(sqk),
        "key_hash": key_hash(sqk.read_bytes()),
        "verify_page": None,
    }
    obj = _json(cli, ["squaredeal", "set-dv", str(sqd), "12,5"])
    assert set(obj) == _documented_keys("`squaredeal set-dv`")
    assert obj == {"event_file": str(sqd), "delayed_value": "12,5"}
    assert parse_sqd(sqd.read_text()).delayed_value == "12,5"
    doc = _envelope(cli, ["squaredeal", "make", str(sqd), "--keys", str(sqk), "-o", str(sets)])
    assert (doc["algorithm"], doc["source"], doc["reproducible"]) == ("squaredeal/2", "keyed", True)
    obj = doc["result"]
    assert set(obj) == _documented_keys("`squaredeal make`")
    assert obj["format"] == "pbn"
    assert [(f["file"], f["phase"], f["session"], f["reserve"]) for f in obj["files"]] == [
        (str(sets / "C1.pbn"), 1, 1, False),
        (str(sets / "C2.pbn"), 1, 2, False),
    ]
    assert [b["board"] for b in obj["files"][1]["boards"]] == [3, 4]
    obj = _json(cli, ["squaredeal", "verify", str(sqd), str(sqk), str(sets / "C2.pbn")])
    assert set(obj) == _documented_keys("a verification")
    assert obj["ok"] is True and obj["failures"] == 0 and obj["keys"]["ok"] is True
    (check,) = obj["files"]
    assert set(check) == _documented_keys("each file") | {"phase", "session", "reserve"}
    assert (check["file"], check["boards"], check["phase"], check["session"]) == ("C2.pbn", 2, 1, 2)
    assert check["ok"] is True and check["mismatches"] == []


def test_squaredeal_verify_json_failures(cli: CliRunner, tmp_path: Path) -> None:
    for name in ("SYN.sqd", "SYN.sqk"):
        shutil.copyfile(SYN / name, tmp_path / name)
    games = (SYN / "ONE.pbn").read_text().split("\n\n")
    (tmp_path / "ONE.pbn").write_text("\n\n".join(games[:-2]) + "\n\n")  # drop board 9
    args = ["squaredeal", "verify", str(tmp_path / "SYN.sqd"), str(tmp_path / "SYN.sqk")]
    obj = _json(cli, [*args, str(tmp_path / "ONE.pbn"), str(SYN / "TWO1.pbn")], code=1)
    assert obj["ok"] is False and obj["failures"] == 1
    assert [f["ok"] for f in obj["files"]] == [False, True]
    (m,) = obj["files"][0]["mismatches"]
    assert set(m) == _documented_keys("each mismatch")
    assert m == {"file": "ONE.pbn", "board": 9, "what": "missing", "expected": None,
                 "found": None, "message": "ONE.pbn board 9: missing from the file"}  # fmt: skip
    sqk = tmp_path / "SYN.sqk"
    sqk.write_bytes(sqk.read_bytes().replace(b"2,1:k2s1key", b"2,1:k2s1kez"))
    obj = _json(cli, [*args, str(SYN / "TWO1.pbn")], code=1)
    assert obj["ok"] is False and obj["files"] == [] and obj["keys"]["ok"] is False
    assert obj["keys"]["computed"] == key_hash(sqk.read_bytes())
    assert "key hash mismatch" in obj["keys"]["message"]


def test_boards_json(cli: CliRunner, tmp_path: Path) -> None:
    key_file, out = tmp_path / "k.key", tmp_path / "s.pbn"
    doc = _envelope(cli, ["boards", "new-key", "-e", "Cup", "--key-file", str(key_file)])
    assert (doc["algorithm"], doc["source"], doc["reproducible"]) == (
        "croupier-boards/1",
        "os-csprng",
        False,
    )
    obj = doc["result"]
    assert set(obj) == _documented_keys("`boards new-key`")
    key = parse_key(key_file.read_text())
    assert obj == {"key_file": str(key_file), "event": "Cup",
                   "plan": None, "commitment": commitment(key, "Cup"),
                   "verify_page": None}  # fmt: skip
    doc = _envelope(cli, ["boards", "commitment", "-e", "Cup", "--key-file", str(key_file)])
    assert doc["algorithm"] == "croupier-boards/1" and doc["reproducible"] is True
    obj = doc["result"]
    assert set(obj) == _documented_keys("`boards commitment`")
    assert obj == {
        "event": "Cup",
        "plan": None,
        "commitment": commitment(key, "Cup"),
    }
    base = ["-e", "Cup", "--key-file", str(key_file), "--dv", "7", "--session", "2"]
    obj = _json(cli, ["boards", "make", *base, "-b", "5-6"])
    assert set(obj) == _documented_keys("`boards make`")
    assert (obj["event"], obj["delayed_value"], obj["session"], obj["file"]) == (
        "Cup",
        "7",
        2,
        None,
    )
    want = make_boards(key, "Cup", b"7", 2, [5, 6])
    assert [int(b["goedel"]) for b in obj["boards"]] == [b.goedel for b in want]
    obj = _json(cli, ["boards", "make", *base, "-b", "5-6", "-o", str(out)])
    assert obj["file"] == str(out) and out.exists()
    verify = ["boards", "verify", *base, "--commitment", commitment(key, "Cup")]
    obj = _json(cli, [*verify, "-b", "5-7", str(out)], code=1)
    assert set(obj) == _documented_keys("a verification")
    assert obj["keys"]["ok"] is True and obj["failures"] == 1
    (check,) = obj["files"]
    assert set(check) == _documented_keys("each file") and check["boards"] == 3
    assert [(m["board"], m["what"]) for m in check["mismatches"]] == [(7, "missing")]
    assert obj["notes"] and "croupier-boards/1 commits to the key and event only" in obj["notes"][0]
    obj = _json(cli, [*verify[:-1], "00" * 32, "-b", "5-6", str(out)], code=1)
    assert obj["keys"]["ok"] is False and obj["keys"]["published"] == "00" * 32


@pytest.mark.parametrize("command", ["bigdeal", "boards make"])
def test_json_without_out_writes_no_board_file_to_stdout(
    cli: CliRunner, tmp_path: Path, command: str
) -> None:
    key_file = tmp_path / "k.key"
    key_file.write_text("00" * 32 + "\n")
    args = {
        "bigdeal": ["bigdeal", "--owner", "o", "--entropy", "x", "-b", "1"],
        "boards make": [
            "boards",
            "make",
            "-e",
            "E",
            "--key-file",
            str(key_file),
            "--dv",
            "1",
            "--session",
            "1",
            "-b",
            "1",
        ],
    }[command]
    r = cli([*args, "--json"])
    assert r.code == 0 and "[Deal" not in r.out
    json.loads(r.out)
