"""Big Deal 2.0 compatibility: every bigdealx run in the vectors, seeds, RIPEMD-160, CLI."""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from croupier.boards import parse_board_range
from croupier.errors import MissingExtraError, SeedError
from croupier.formats.pbn_deal import format_pbn_deal
from croupier.tournament import bigdeal as tb
from croupier.tournament.bigdeal import (
    BIGDEAL_DEFAULT_OWNER,
    BigDealStream,
    bigdeal_boards,
    ripemd160,
    seed_from_entropy,
    seed_from_hex,
)
from tests.conftest import VECTORS, CliRunner

DATA = json.loads((VECTORS / "bigdeal" / "vectors.json").read_text(encoding="utf-8"))
RUNS = DATA["bigdealx"]


def _seed_and_owner(run: dict[str, Any]) -> tuple[bytes, str]:
    seed = seed_from_hex(run["h"]) if run["h"] is not None else seed_from_entropy(run["e"])
    owner = run["W"] if run["W"] is not None else run["bigdealrc_owner"]
    return seed, owner


@pytest.mark.parametrize("run", RUNS, ids=lambda r: r["name"])
def test_bigdealx_runs(run: dict[str, Any]) -> None:
    seed, owner = _seed_and_owner(run)
    assert run["owner"] in (None, owner)  # the owner bigdealx reported, where it did
    assert seed.hex() == run["seed_random_hex"]
    stream = BigDealStream(seed, owner)
    assert stream.owner_hash.hex() == run["owner_hash_hex"]
    counters = []
    for _ in run["deals"]:
        stream.next_goedel()
        counters.append(stream.counter)
    assert counters == run["accepted_counters"]
    boards = bigdeal_boards(seed, owner, parse_board_range(run["n"]))
    assert len(boards) == len(run["deals"])
    for board, want in zip(boards, run["deals"], strict=True):
        assert board.number == want["board"]
        assert board.goedel == int(want["goedel"])
        assert format_pbn_deal(board.hands) == "N:" + want["deal"]
        assert (board.dealer, board.vulnerable) == (want["dealer"], want["vulnerable"])


def test_stream_matches_an_independent_reading_of_the_description() -> None:
    # Written from docs: h = RIPEMD160(LE32(k) || seed || RIPEMD160(owner)), first 12 bytes.
    seed, owner = bytes(range(20)), "owner"
    oh = hashlib.new("ripemd160", owner.encode()).digest()
    d = int(DATA["constants"]["D"])
    expected = []
    k = 0
    while len(expected) < 5:
        k += 1
        h = hashlib.new("ripemd160", k.to_bytes(4, "little") + seed + oh).digest()
        cand = int.from_bytes(h[:12], "big")
        if cand < d:
            expected.append(cand)
    stream = BigDealStream(seed, owner)
    assert [stream.next_goedel() for _ in range(5)] == expected


def test_board_numbers_do_not_enter_the_hash() -> None:
    seed = seed_from_entropy(["x"])
    low = bigdeal_boards(seed, "o", range(1, 17))
    high = bigdeal_boards(seed, "o", range(17, 33))
    assert [b.hands for b in low] == [b.hands for b in high]
    assert [b.number for b in high] == list(range(17, 33))


def _hide_ripemd_from_hashlib(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make hashlib behave like an OpenSSL built without RIPEMD-160."""
    real_new = hashlib.new

    def no_ripemd(name: str, *args: Any, **kwargs: Any) -> Any:
        if name.lower() == "ripemd160":
            raise ValueError("unsupported hash type ripemd160")
        return real_new(name, *args, **kwargs)

    monkeypatch.setattr(tb.hashlib, "new", no_ripemd)


def test_ripemd160_falls_back_to_pycryptodome(monkeypatch: pytest.MonkeyPatch) -> None:
    expected = ripemd160(b"abc")
    _hide_ripemd_from_hashlib(monkeypatch)
    assert ripemd160(b"abc") == expected
    assert expected.hex() == "8eb208f7e05d987a9b044a8e98c6b087f15a0bfc"  # published test vector


def test_ripemd160_missing_everywhere_names_the_extra(
    monkeypatch: pytest.MonkeyPatch, cli: CliRunner
) -> None:
    _hide_ripemd_from_hashlib(monkeypatch)
    monkeypatch.setitem(sys.modules, "Crypto", None)  # pycryptodome not installed
    monkeypatch.setitem(sys.modules, "Crypto.Hash", None)
    with pytest.raises(MissingExtraError, match=r"needs RIPEMD-160") as info:
        ripemd160(b"abc")
    assert str(info.value).endswith(": pip install 'croupier[ripemd]'")
    r = cli(["bigdeal", "--owner", "club", "--hash", "01" * 20, "--boards", "1"])
    assert r.code == 2 and r.out == ""
    assert r.err == f"error: {info.value}\n"


@pytest.mark.parametrize("bad", ["", "abc", "g" * 40, "0" * 39, "0" * 41])
def test_seed_from_hex_rejects(bad: str) -> None:
    with pytest.raises(SeedError):
        seed_from_hex(bad)


def test_default_owner_constant() -> None:
    assert DATA["constants"]["default_owner"] == BIGDEAL_DEFAULT_OWNER


def _expected_pbn(run: dict[str, Any]) -> str:
    # The layout of Big Deal's PBN files, as in the SquareDeal test files.
    lines = ["% PBN 2.1", "% EXPORT", "%", '[Generator "X"]']
    for d in run["deals"]:
        lines += ['[Event "?"]', '[Site "?"]', '[Date "?"]', f'[Board "{d["board"]}"]']
        lines += ['[West "?"]', '[North "?"]', '[East "?"]', '[South "?"]']
        lines += [f'[Dealer "{d["dealer"]}"]', f'[Vulnerable "{d["vulnerable"]}"]']
        lines += [f'[Deal "N:{d["deal"]}"]', '[Scoring "?"]', '[Declarer "?"]']
        lines += ['[Contract "?"]', '[Result "?"]', ""]
    return "\n".join(lines) + "\n"


def _strip_generator(text: str) -> str:
    return "\n".join(
        '[Generator "X"]' if line.startswith("[Generator ") else line for line in text.split("\n")
    )


@pytest.mark.parametrize("run", RUNS, ids=lambda r: r["name"])
def test_cli_bigdeal_pbn(cli: CliRunner, run: dict[str, Any]) -> None:
    _, owner = _seed_and_owner(run)
    args = ["bigdeal", "--owner", owner, "--boards", run["n"]]
    if run["h"] is not None:
        args += ["--hash", run["h"]]
    else:
        for part in run["e"]:
            args += [f"--entropy={part}"]
    r = cli([*args, "--lf"])  # Big Deal on Linux and macOS: LF
    assert r.code == 0, r.err
    assert _strip_generator(r.out) == _expected_pbn(run)
    assert r.out.splitlines()[3].startswith('[Generator "croupier ')
    crlf = cli(args)  # by default CRLF, as PBN 2.1 and Big Deal on Windows (text-mode files)
    assert crlf.code == 0 and crlf.out == r.out.replace("\n", "\r\n")


def test_cli_bigdeal_lines_and_out_file(cli: CliRunner, tmp_path: Path) -> None:
    run = RUNS[3]
    out = tmp_path / "deals.txt"
    r = cli(["bigdeal", "--owner", "test", "--entropy", "hello", "-b", "3", "-f", "lines", "-o",
             str(out)])  # fmt: skip
    assert r.code == 0, r.err
    assert out.read_text().splitlines() == [d["deal"] for d in run["deals"]]
    again = cli(["bigdeal", "--owner", "test", "--entropy", "hello", "-b", "3", "-o", str(out)])
    assert again.code == 2 and "already exists" in again.err


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--owner", "o", "--boards", "3"], "exactly one seed"),
        (
            ["--owner", "o", "--boards", "3", "--hash", "00" * 20, "--entropy", "x"],
            "exactly one seed",
        ),
        (["--owner", "o", "--boards", "3", "--hash", "xyz"], "40 hex digits"),
        (["--owner", "o", "--boards", "9-5", "--entropy", "x"], "first board"),
        (["--owner", "o", "--boards", "1-2000", "--entropy", "x"], "1..999"),
        (["--owner", "o", "--boards", "a-b", "--entropy", "x"], "bad board range"),
        (["--owner", "o", "--boards", "0", "--entropy", "x"], "1..999"),
    ],
)
def test_cli_bigdeal_bad_input(cli: CliRunner, args: list[str], needle: str) -> None:
    r = cli(["bigdeal", *args])
    assert r.code == 2
    assert r.err.startswith("error: ") and needle in r.err
    assert r.err.count("\n") == 1


def test_command_line_bytes_reach_the_hash_unchanged() -> None:
    # bigdealx hashes argv bytes as they are; Python hands undecodable ones over as surrogates.
    raw = b"caf\xe9"
    text = raw.decode("utf-8", "surrogateescape")
    assert seed_from_entropy([text]) == hashlib.new("ripemd160", raw).digest()
    assert BigDealStream(bytes(20), text).owner_hash == hashlib.new("ripemd160", raw).digest()
