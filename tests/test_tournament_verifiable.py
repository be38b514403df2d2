"""croupier-boards/1 and /2: the vectors of docs/verifiable-dealing.md, checked by an independent
implementation written from that page, plus random access, commitments and the CLI."""

from __future__ import annotations

import hashlib
import json
import re
from math import comb
from pathlib import Path
from typing import Any

import pytest

from croupier.errors import SeedError
from croupier.formats.pbn_deal import format_pbn_deal
from croupier.ranking.bigdeal import GOEDEL_MAX, goedel_unrank
from croupier.tournament.board_plan import BoardPlan, BoardPlanError
from croupier.tournament.verifiable import (
    board_goedel,
    commitment,
    encode_board_message,
    make_board,
    make_boards,
    parse_key,
    plan_commitment,
    verify_commitment,
    verify_plan_commitment,
)
from tests.conftest import ROOT, CliRunner

DOC = (ROOT / "docs" / "verifiable-dealing.md").read_text(encoding="utf-8")
_BLOCK = re.search(r"<!-- croupier-boards/1 vectors -->\n```json\n(.*?)\n```", DOC, re.DOTALL)
assert _BLOCK is not None, "docs/verifiable-dealing.md lost its vector block"
VECTORS_DOC: dict[str, Any] = json.loads(_BLOCK.group(1))
_BLOCK2 = re.search(r"<!-- croupier-boards/2 vectors -->\n```json\n(.*?)\n```", DOC, re.DOTALL)
assert _BLOCK2 is not None, "docs/verifiable-dealing.md lost its croupier-boards/2 vector block"
VECTORS_DOC2: dict[str, Any] = json.loads(_BLOCK2.group(1))
D = 53644737765488792839237440000  # as printed in the specification


# -- independent implementation, from the specification page only ------------------------------
def _field(x: bytes) -> bytes:
    return len(x).to_bytes(4, "big") + x


def _spec_message(key: bytes, event: str, dv: str, s: int, b: int) -> bytes:
    return (
        _field(b"croupier-boards/1")
        + _field(key)
        + _field(event.encode())
        + _field(dv.encode())
        + s.to_bytes(4, "big")
        + b.to_bytes(4, "big")
    )


def _spec_goedel(message: bytes) -> tuple[int, int]:
    stream = hashlib.shake_256(message).digest(12 * 40)
    for i in range(40):
        cand = int.from_bytes(stream[12 * i : 12 * i + 12], "big")
        if cand < D:
            return cand, i
    raise AssertionError("no candidate accepted in 40 tries")


def _spec_unrank_subset(r: int, n: int) -> list[int]:
    # §4 step 3: for slot j, try q upward from just after the previous pick; q accounts for
    # C(n-1-q, 12-j) subsets; subtract while r is at least the count.
    picks, q = [], 0
    for j in range(13):
        while r >= comb(n - 1 - q, 12 - j):
            r -= comb(n - 1 - q, 12 - j)
            q += 1
        picks.append(q)
        q += 1
    return picks


def _spec_deal(g: int) -> str:
    # §4 steps 1-3, then the PBN Deal string (hands N E S W, suits S.H.D.C, ranks AKQJT98765432).
    cards = [s + r for s in "SHDC" for r in "AKQJT98765432"]
    r_s = g % comb(26, 13)
    r_e = g // comb(26, 13) % comb(39, 13)
    r_n = g // (comb(26, 13) * comb(39, 13))
    hands = []
    for rank, n in ((r_n, 52), (r_e, 39), (r_s, 26)):
        picks = _spec_unrank_subset(rank, n)
        hands.append([cards[i] for i in picks])
        cards = [c for i, c in enumerate(cards) if i not in picks]
    hands.append(cards)
    text = [".".join("".join(c[1] for c in h if c[0] == suit) for suit in "SHDC") for h in hands]
    return "N:" + " ".join(text)


def _spec_commitment(key: bytes, event: str) -> str:
    data = _field(b"croupier-boards/1 commit") + _field(key) + _field(event.encode())
    return hashlib.sha256(data).hexdigest()


def _spec_plan(text: str) -> bytes:
    # §3.1: items SESSION:BOARDS (N or A-B) separated by ';', sessions ascending, u32 each
    items = []
    for item in text.split(";"):
        session, boards = item.split(":")
        first, _, last = boards.partition("-")
        items.append((int(session), int(first) if last else 1, int(last or first)))
    items.sort()
    data = len(items).to_bytes(4, "big")
    for values in items:
        data += b"".join(v.to_bytes(4, "big") for v in values)
    return data


def _spec_commitment2(key: bytes, event: str, plan: bytes) -> tuple[str, bytes]:
    data = _field(b"croupier-boards/2 commit") + _field(key) + _field(event.encode())
    data += _field(plan)
    return hashlib.sha256(data).hexdigest(), data


# -- the vectors ---------------------------------------------------------------------------------
def test_doc_constant_and_algorithm() -> None:
    assert D == GOEDEL_MAX
    assert VECTORS_DOC["algorithm"] == "croupier-boards/1"


@pytest.mark.parametrize("vec", VECTORS_DOC["commitments"], ids=lambda v: v["event"])
def test_commitment_vectors(vec: dict[str, str]) -> None:
    key = bytes.fromhex(vec["key"])
    assert _spec_commitment(key, vec["event"]) == vec["commitment"]
    assert commitment(key, vec["event"]) == vec["commitment"]
    assert verify_commitment(key, vec["event"], vec["commitment"].upper())
    assert not verify_commitment(key, vec["event"] + " ", vec["commitment"])


@pytest.mark.parametrize(
    "vec", VECTORS_DOC["boards"], ids=lambda v: f"{v['event']}-{v['session']}-{v['board']}"
)
def test_board_vectors(vec: dict[str, Any]) -> None:
    key = bytes.fromhex(vec["key"])
    args = (vec["event"], vec["delayed_value"], vec["session"], vec["board"])
    message = _spec_message(key, *args)
    goedel, rejected = _spec_goedel(message)
    assert str(goedel) == vec["goedel"] and rejected == vec["rejected_candidates"]
    if "message_hex" in vec:
        assert message.hex() == vec["message_hex"]
        assert hashlib.shake_256(message).digest(12).hex() == vec["first_12_bytes_hex"]
    dv = vec["delayed_value"].encode()
    assert encode_board_message(key, vec["event"], dv, vec["session"], vec["board"]) == message
    board = make_board(key, vec["event"], dv, vec["session"], vec["board"])
    assert board.goedel == goedel
    assert format_pbn_deal(board.hands) == vec["deal"]
    assert format_pbn_deal(goedel_unrank(goedel)) == vec["deal"]
    assert _spec_deal(goedel) == vec["deal"]
    assert (board.dealer, board.vulnerable) == (vec["dealer"], vec["vulnerable"])


@pytest.mark.parametrize("vec", VECTORS_DOC2["commitments"], ids=lambda v: v["plan"])
def test_plan_commitment_vectors(vec: dict[str, str]) -> None:
    assert VECTORS_DOC2["algorithm"] == "croupier-boards/2"
    key, plan_bytes = bytes.fromhex(vec["key"]), _spec_plan(vec["plan"])
    assert plan_bytes.hex() == vec["plan_hex"]
    value, data = _spec_commitment2(key, vec["event"], plan_bytes)
    assert value == vec["commitment"]
    if "sha256_input_hex" in vec:
        assert data.hex() == vec["sha256_input_hex"]
    plan = BoardPlan.parse(vec["plan"])
    assert plan.format() == vec["plan"] and plan.encode() == plan_bytes
    assert plan_commitment(key, vec["event"], plan) == vec["commitment"]
    assert verify_plan_commitment(key, vec["event"], plan, vec["commitment"].upper())
    assert not verify_plan_commitment(key, vec["event"] + " ", plan, vec["commitment"])
    # a /2 commitment is never the /1 commitment of the same key and event
    assert commitment(key, vec["event"]) != vec["commitment"]


def test_plan_vectors_differ_by_one_board() -> None:
    first, second = VECTORS_DOC2["commitments"][:2]
    assert (first["key"], first["event"]) == (second["key"], second["event"])
    assert first["plan"].replace("17-32", "17-31") == second["plan"]
    assert first["commitment"] != second["commitment"]


def test_plan_order_is_canonical_and_errors() -> None:
    assert BoardPlan.parse("2:17-32;1:16") == BoardPlan.parse(" 1:1-16 ; 2:17-32 ")
    for bad, needle in [
        ("", "is not SESSION:BOARDS"),
        ("1:1-16;1:17-32", "session 1 is listed twice"),
        ("0:1-16", "must be a number 1..4294967295"),
        ("4294967296:1", "must be a number 1..4294967295"),
        ("1:0-3", "boards are numbered 1..999"),
        ("\u0661:1-3", "must be a number"),
        ("1:" + "7" * 5000, "is not SESSION:BOARDS"),
        (";".join(f"{i}:1" for i in range(1, 1002)), "at most 1000 sessions"),
    ]:
        with pytest.raises(BoardPlanError, match=re.escape(needle)) as info:
            BoardPlan.parse(bad)
        assert len(str(info.value)) < 300


def test_vectors_exercise_rejection() -> None:
    assert {v["rejected_candidates"] for v in VECTORS_DOC["boards"]} >= {0, 1, 2}


# -- properties -----------------------------------------------------------------------------------
KEY = bytes(range(32))


def test_random_access_matches_a_full_run() -> None:
    full = make_boards(KEY, "E", b"dv", 3, range(1, 33))
    assert make_board(KEY, "E", b"dv", 3, 27) == full[26]
    assert [b.goedel for b in make_boards(KEY, "E", b"dv", 3, [32, 5])] == [
        full[31].goedel,
        full[4].goedel,
    ]


def test_every_input_changes_the_deal() -> None:
    base = board_goedel(KEY, "E", b"dv", 1, 1)
    variants = [
        board_goedel(bytes(32), "E", b"dv", 1, 1),
        board_goedel(KEY, "F", b"dv", 1, 1),
        board_goedel(KEY, "E", b"dw", 1, 1),
        board_goedel(KEY, "E", b"dv", 2, 1),
        board_goedel(KEY, "E", b"dv", 1, 2),
        # length prefixes: moving a byte between event and delayed value changes the message
        board_goedel(KEY, "Ed", b"v", 1, 1),
    ]
    assert len({base, *variants}) == 7


def test_input_errors() -> None:
    with pytest.raises(SeedError):
        board_goedel(b"short", "E", b"", 1, 1)
    with pytest.raises(SeedError):
        board_goedel(KEY, "E", b"", 0, 1)
    with pytest.raises(SeedError):
        board_goedel(KEY, "E", b"", 1, 1000)
    with pytest.raises(SeedError, match="64 hex digits"):
        parse_key("zz" * 32)


def test_acceptance_is_exactly_candidate_below_d() -> None:
    # Over many boards, the first candidate is accepted exactly when it is below D.
    for b in range(1, 200):
        message = encode_board_message(KEY, "E", b"", 1, b)
        first = int.from_bytes(hashlib.shake_256(message).digest(12), "big")
        g = board_goedel(KEY, "E", b"", 1, b)
        assert (g == first) == (first < D)


# -- command line --------------------------------------------------------------------------------
def test_cli_workflow_and_tampering(cli: CliRunner, tmp_path: Path) -> None:
    key_file, out = tmp_path / "cup.key", tmp_path / "cup1.pbn"
    r = cli(["boards", "new-key", "--event", "Cup", "--key-file", str(key_file)])
    assert r.code == 0, r.err
    published = r.out.split("commitment ")[1].split()[0]
    key = parse_key(key_file.read_text())
    assert published == commitment(key, "Cup")
    assert cli(["boards", "new-key", "--event", "Cup", "--key-file", str(key_file)]).code == 2
    r = cli(["boards", "commitment", "--event", "Cup", "--key-file", str(key_file)])
    assert r.out.strip() == published
    base = ["--event", "Cup", "--key-file", str(key_file), "--dv", "1 234", "--session", "2"]
    r = cli(["boards", "make", *base, "--boards", "1-8", "--out", str(out)])
    assert r.code == 0, r.err
    generator = [line for line in out.read_text().splitlines() if line.startswith("[Generator ")]
    assert len(generator) == 8 and "croupier-boards/1" in generator[0]
    verify = ["boards", "verify", *base, "--commitment", published, "-b", "1-8", str(out)]
    r = cli(verify)
    assert r.code == 0, r.out
    assert "NOTE croupier-boards/1 commits to the key and event only: boards 1-8" in r.out
    # the verifier must say which boards the file must hold
    r = cli(["boards", "verify", *base, "--commitment", published, str(out)])
    assert r.code == 2 and r.err.startswith("error: give exactly one of --plan")
    text = out.read_text()
    first = re.search(r'\[Deal "N:(\S+) (\S+) ', text)
    assert first is not None
    out.write_text(text.replace(first.group(0), f'[Deal "N:{first.group(2)} {first.group(1)} ', 1))
    r = cli(verify)
    assert r.code == 1 and "FAIL cup1.pbn board 1: deal differs" in r.out
    r = cli(["boards", "verify", *base, "--commitment", "00" * 32, "-b", "8", str(out)])
    assert r.code == 1 and "does not match the croupier-boards/1 commitment" in r.out
    # not a commitment at all (non-hex, non-ASCII): bad input, exit 2, quoted short
    r = cli(["boards", "verify", *base, "--commitment", "é" * 64, "-b", "8", str(out)])
    assert r.code == 2 and r.err.startswith("error: --commitment must be the 64 hex digits")
    assert len(r.err.splitlines()) == 1 and "é" * 64 not in r.err


def test_cli_lines_output_matches_library(cli: CliRunner, tmp_path: Path) -> None:
    key_file = tmp_path / "k.key"
    key_file.write_text(KEY.hex() + "\n")
    r = cli(["boards", "make", "--event", "E", "--key-file", str(key_file), "--dv", "x",
             "--session", "1", "--boards", "3", "-f", "lines"])  # fmt: skip
    assert r.code == 0, r.err
    expected = [format_pbn_deal(b.hands)[2:] for b in make_boards(KEY, "E", b"x", 1, [1, 2, 3])]
    assert r.out.splitlines() == expected
    key_file.write_text("not a key\n")
    r = cli(["boards", "make", "--event", "E", "--key-file", str(key_file), "--dv", "x",
             "--session", "1", "--boards", "3"])  # fmt: skip
    assert r.code == 2 and "64 hex digits" in r.err


def test_cli_verify_with_a_board_plan(cli: CliRunner, tmp_path: Path) -> None:
    key_file = tmp_path / "k.key"
    key_file.write_text(KEY.hex() + "\n")
    base = ["--event", "E", "--key-file", str(key_file), "--dv", "x", "--session", "1"]
    for fmt, name in (("lines", "s.txt"), ("pbn", "s.pbn")):
        r = cli(
            ["boards", "make", *base, "--boards", "17-20", "-f", fmt, "-o", str(tmp_path / name)]
        )
        assert r.code == 0, r.err
    verify = ["boards", "verify", *base, "--commitment", commitment(KEY, "E")]
    # a .txt file has no board numbers: the plan numbers it
    r = cli([*verify, "--boards", "17-20", str(tmp_path / "s.txt"), str(tmp_path / "s.pbn")])
    assert r.code == 0, r.out
    # with a plan, boards left out of a file are reported
    r = cli([*verify, "--boards", "17-21", str(tmp_path / "s.pbn")])
    assert r.code == 1 and "FAIL s.pbn board 21: missing from the file" in r.out
    # a file without boards never passes
    (tmp_path / "empty.pbn").write_text("% PBN 2.1\n")
    r = cli([*verify, "-b", "17-20", str(tmp_path / "empty.pbn")])
    assert r.code == 1 and "FAIL empty.pbn: no boards in the file" in r.out
    r = cli([*verify, "--boards", "0-3", str(tmp_path / "s.pbn")])
    assert r.code == 2 and "bad board range" in r.err


def test_cli_plan_workflow(cli: CliRunner, tmp_path: Path) -> None:
    key_file, out = tmp_path / "cup.key", tmp_path / "cup2.pbn"
    plan = ["--plan", "2:9-12;1:1-8"]
    r = cli(["boards", "new-key", "--event", "Cup", *plan, "--key-file", str(key_file)])
    assert r.code == 0, r.err
    assert "algorithm  croupier-boards/2" in r.out and "plan       1:1-8;2:9-12" in r.out
    published = r.out.split("commitment ")[1].split()[0]
    key = parse_key(key_file.read_text())
    assert published == plan_commitment(key, "Cup", BoardPlan.parse("1:1-8;2:9-12"))
    r = cli(["boards", "commitment", "--event", "Cup", *plan, "--key-file", str(key_file)])
    assert r.out.strip() == published
    base = ["--event", "Cup", "--key-file", str(key_file), "--dv", "7", "--session", "2"]
    r = cli(["boards", "make", *base, *plan, "--out", str(out)])
    assert r.code == 0, r.err
    assert [int(n) for n in re.findall(r'\[Board "(\d+)"\]', out.read_text())] == [9, 10, 11, 12]
    assert "croupier-boards/2" in out.read_text()
    r = cli(["boards", "make", *base, *plan, "-b", "9-12"])
    assert r.code == 2 and "give exactly one of --plan" in r.err
    r = cli(["boards", "make", *base])
    assert r.code == 2 and r.err.startswith("error: give exactly one of --plan")
    verify = ["boards", "verify", *base, "--commitment", published]
    r = cli([*verify, *plan, str(out)])
    assert r.code == 0 and "NOTE" not in r.out, r.out
    # the plan edited after the commitment: session 2 without board 12
    r = cli([*verify, "--plan", "1:1-8;2:9-11", str(out)])
    assert r.code == 1 and "does not match the croupier-boards/2 commitment" in r.out
    r = cli([*verify, *plan, "-b", "9-12", str(out)])
    assert r.code == 2 and r.err.startswith("error: give exactly one of --plan")
    r = cli([*verify, "--plan", "1:1-8", str(out)])
    assert r.code == 2 and "--session 2 is not in the board plan '1:1-8'" in r.err
    r = cli([*verify, "--plan", "1:1-8;x", str(out)])
    assert r.code == 2 and r.err.startswith("error: bad board plan '1:1-8;x'")
