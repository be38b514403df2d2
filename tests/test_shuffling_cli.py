"""``croupier shuffle``."""

from __future__ import annotations

import io
import json
import math
import sys
from pathlib import Path

import pytest

from croupier.cli.app import run
from croupier.randomness import SeededSource, UniformSampler
from croupier.shuffling import lehmer_shuffle, unrank_permutation
from tests.conftest import CliRunner


def _run_bytes(
    args: list[str], monkeypatch: pytest.MonkeyPatch, stdin: bytes = b""
) -> tuple[int, bytes]:
    """Run croupier with byte-level stdin/stdout (the cli fixture decodes output as UTF-8)."""
    out = io.BytesIO()
    monkeypatch.setattr("sys.stdout", io.TextIOWrapper(out, encoding="utf-8"))
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
    code = run(args)
    sys.stdout.flush()
    return code, out.getvalue()


def _expected_order(lines: list[bytes], seed: str) -> list[bytes]:
    """The lehmer order for a seed, computed from the rank (independent of the file code)."""
    rank = UniformSampler(SeededSource(seed, "shuffle")).below(math.factorial(len(lines)))
    return [lines[i] for i in unrank_permutation(rank, len(lines))]


def test_cards_from_os_csprng(cli: CliRunner) -> None:
    r = cli(["shuffle", "--cards", "10", "--bits"])
    assert r.code == 0, r.err
    first, bits_line = r.out.splitlines()
    assert sorted(map(int, first.split())) == list(range(1, 11))
    assert "log2(10!) = 21.79" in bits_line
    assert "OS CSPRNG" in r.err


def test_json_fields_and_reproducible_seed(cli: CliRunner) -> None:
    r = cli(["shuffle", "--cards", "52", "--seed", "club night 7", "--json"])
    assert r.code == 0, r.err
    doc = json.loads(r.out)
    assert doc["source"] == "seeded" and doc["method"] == "lehmer"
    assert doc["algorithm"] == "croupier-shuffle-lehmer/1"
    assert doc["sampler"] == "croupier-uniform/1" and doc["reproducible"] is True
    assert doc["bits_bound"] == round(math.lgamma(53) / math.log(2), 4)
    assert doc["bits_used"] >= doc["bits_bound"]
    # a 12-byte seed has at most 96 bits: it is labelled as unable to reach all 52! orders
    assert len(doc["warnings"]) == 1 and "at most 96 bits" in doc["warnings"][0]
    expected = lehmer_shuffle(
        list(range(1, 53)), UniformSampler(SeededSource("club night 7", "shuffle"))
    )
    assert doc["items"] == expected
    again = cli(["shuffle", "--cards", "52", "--seed", "club night 7", "--json"])
    assert again.out == r.out
    assert "reproducible" in r.err and "only as secret as the seed" in r.err


def test_seed_golden_vector(cli: CliRunner) -> None:
    # Pinned once; cross-checked: the rank drawn below 5! decodes to this order.
    r = cli(["shuffle", "a", "b", "c", "d", "e", "--seed", "croupier", "--json"])
    doc = json.loads(r.out)
    rank = UniformSampler(SeededSource("croupier", "shuffle")).below(120)
    assert doc["items"] == ["abcde"[i] for i in unrank_permutation(rank, 5)]
    assert doc["items"] == ["c", "a", "d", "e", "b"]


def test_short_seed_is_labelled(cli: CliRunner) -> None:
    r = cli(["shuffle", "--deck", "standard", "--seed", "42"])
    assert r.code == 0
    assert "at most 16 bits" in r.err and "2^16" in r.err
    assert len(r.out.split()) == 52


def test_entropy_dice_enough_and_too_few(cli: CliRunner) -> None:
    r = cli(["shuffle", "a", "b", "c", "--entropy", "dice:4", "--json"])
    assert r.code == 0, r.err
    doc = json.loads(r.out)
    assert doc["source"] == "entropy" and doc["bits_used"] == round(math.log2(6), 4)
    assert doc["items"] == ["abc"[i] for i in unrank_permutation(3, 3)]  # roll 4 -> rank 3
    r = cli(["shuffle", "--cards", "52", "--entropy", "dice:1,2,3"])
    assert r.code == 2
    assert r.err.startswith("error: entropy exhausted") and "need at least 85 more d6" in r.err


def test_entropy_coins_and_hex(cli: CliRunner) -> None:
    r = cli(["shuffle", "--cards", "4", "--entropy", "coins:HTHTH", "--json"])
    assert r.code == 0, r.err
    assert sorted(json.loads(r.out)["items"]) == [1, 2, 3, 4]
    r = cli(["shuffle", "--cards", "4", "--entropy", "hex:00"])
    assert r.code == 0, r.err
    r = cli(["shuffle", "--cards", "4", "--entropy", "hex:zz"])
    assert r.code == 2 and "bad hex digit 'z'" in r.err
    r = cli(["shuffle", "--cards", "52", "--entropy", "hex:" + "ab" * 28])  # 224 < 225.58 bits
    assert r.code == 2
    assert "need at least 2 more bit(s) (1 more hex digit(s))" in r.err
    assert r.err.count("\n") == 1 and r.out == ""


def test_file_lines_exactly_as_they_are(cli: CliRunner, tmp_path: Path) -> None:
    lines = ["  indented", "tab\there", "", "ünïcode ♠", "trailing  "]
    path = tmp_path / "in.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    r = cli(["shuffle", "--file", str(path), "--seed", "f"])
    assert r.code == 0, r.err
    assert sorted(r.out.split("\n")[:-1]) == sorted(lines)
    assert path.read_text(encoding="utf-8") == "\n".join(lines) + "\n"  # input untouched


def test_methods_and_flawed_label(cli: CliRunner) -> None:
    for method in ("fisher-yates", "rao-sandelius", "merge-shuffle", "riffle", "overhand"):
        r = cli(["shuffle", "--cards", "8", "--method", method, "--json"])
        assert r.code == 0, r.err
        assert sorted(json.loads(r.out)["items"]) == list(range(1, 9))
    r = cli(["shuffle", "--cards", "8", "--method", "swap-any"])
    assert r.code == 0 and "not uniform" in r.err
    r = cli(["shuffle", "--cards", "8", "--method", "bogo"])
    assert r.code == 2 and "unknown shuffle method 'bogo'" in r.err


def test_bad_input(cli: CliRunner) -> None:
    assert cli(["shuffle"]).code == 2
    r = cli(["shuffle", "a", "--cards", "3"])
    assert r.code == 2 and "exactly one" in r.err
    r = cli(["shuffle", "--cards", "3", "--seed", "x", "--entropy", "dice:1"])
    assert r.code == 2 and "not both" in r.err
    r = cli(["shuffle", "--file", "/nonexistent/file.txt"])
    assert r.code == 2
    assert r.err == "error: cannot read --file '/nonexistent/file.txt': no such file\n"
    r = cli(["shuffle", "--deck", "tarot-xyz"])
    assert r.code == 2


def test_help_has_examples(cli: CliRunner) -> None:
    r = cli(["shuffle", "--help"])
    assert r.code == 0 and "Examples" in r.out and "--entropy" in r.out


@pytest.mark.parametrize(
    ("data", "lines", "ending"),
    [
        (b"a\r\nb\r\nc", [b"a\r\n", b"b\r\n", b"c\r\n"], False),  # CRLF, no final newline
        (b"a\r\nb\r\nc\r\n", [b"a\r\n", b"b\r\n", b"c\r\n"], True),
        (b"one\ntwo\nthree", [b"one\n", b"two\n", b"three\n"], False),
        (b"  x \n\t\n\n\xc3\xbc\xe2\x99\xa0\n", [b"  x \n", b"\t\n", b"\n", "ü♠\n".encode()], True),
        (b"ok\n\xff\xfe bytes\n\x80\n", [b"ok\n", b"\xff\xfe bytes\n", b"\x80\n"], True),
        (b"\n", [b"\n"], True),
        (b"", [], True),
    ],
)
def test_file_lines_byte_for_byte(
    data: bytes,
    lines: list[bytes],
    ending: bool,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Each line keeps its own ending; a file without a final newline gives output without
    # one; bytes that are not UTF-8 pass through; an empty file gives nothing.
    path = tmp_path / "in.txt"
    path.write_bytes(data)
    code, out = _run_bytes(["shuffle", "--file", str(path), "--seed", "lines"], monkeypatch)
    assert code == 0
    expected = b"".join(_expected_order(lines, "lines"))
    if not ending:  # the output ends without a newline, as the input did
        expected = expected[:-2] if expected.endswith(b"\r\n") else expected[:-1]
    assert out == expected
    assert len(out) == len(data)
    assert path.read_bytes() == data  # the input is never modified


def test_file_every_line_can_end_up_last_without_newline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "in.txt"
    path.write_bytes(b"a\r\nb\r\nc")
    outs = set()
    for seed in range(12):
        code, out = _run_bytes(["shuffle", "--file", str(path), "--seed", str(seed)], monkeypatch)
        assert code == 0 and not out.endswith(b"\n")
        assert sorted(out.split(b"\r\n")) == [b"a", b"b", b"c"]
        outs.add(out)
    assert {o[-1:] for o in outs} == {b"a", b"b", b"c"}


def test_file_byte_order_mark_stays_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbfone\ntwo\nthree\n")
    code, out = _run_bytes(["shuffle", "--file", str(path), "--seed", "b"], monkeypatch)
    assert code == 0
    assert out == b"\xef\xbb\xbf" + b"".join(_expected_order([b"one\n", b"two\n", b"three\n"], "b"))


def test_file_bits_line_starts_on_its_own_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "in.txt"
    path.write_bytes(b"x\ny")
    code, out = _run_bytes(["shuffle", "--file", str(path), "--bits"], monkeypatch)
    assert code == 0
    body, bits_line = out.rsplit(b"\n", 1)[0].rsplit(b"\n", 1)
    assert sorted(body.split(b"\n")) == [b"x", b"y"]
    assert bits_line.startswith(b"bits used: ")


def test_file_json_text_and_non_utf8_error(cli: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "in.txt"
    path.write_bytes(b"a\r\nb\nc")
    r = cli(["shuffle", "--file", str(path), "--json"])
    assert r.code == 0, r.err
    assert sorted(json.loads(r.out)["items"]) == ["a", "b", "c"]  # endings are not text
    path.write_bytes(b"fine\nbad \xff\n")
    r = cli(["shuffle", "--file", str(path), "--json"])
    assert r.code == 2 and r.out == ""
    assert r.err == (
        f"error: --file {str(path)!r} line 2 is not UTF-8 (byte 0xff at column 5); --json "
        "needs text (without --json the bytes are shuffled as they are)\n"
    )
    path.write_bytes(b"")
    doc = json.loads(cli(["shuffle", "--file", str(path), "--json"]).out)
    assert doc["items"] == [] and doc["bits_used"] == 0 and doc["bits_bound"] == 0


def test_file_read_errors_name_the_file_and_why(
    cli: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    r = cli(["shuffle", "--file", str(tmp_path)])
    assert r.code == 2
    assert r.err == f"error: cannot read --file {str(tmp_path)!r}: it is a folder, not a file\n"
    r = cli(["shuffle", "--file", ""])
    assert r.code == 2 and r.err == "error: cannot read --file '': no such file\n"

    def refuse(path: str, mode: str = "r") -> object:
        raise PermissionError(13, "Permission denied", path)

    import croupier.cli.shuffle_cmd as shuffle_cmd

    monkeypatch.setattr(shuffle_cmd, "open", refuse, raising=False)
    r = cli(["shuffle", "--file", "secret.txt"])
    assert r.code == 2 and r.err == "error: cannot read --file 'secret.txt': permission denied\n"


def test_file_from_stdin_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    code, out = _run_bytes(
        ["shuffle", "--file", "-", "--seed", "s"], monkeypatch, stdin=b"1\r\n\xff\r\n3"
    )
    assert code == 0
    assert out == b"".join(_expected_order([b"1\r\n", b"\xff\r\n", b"3\r\n"], "s"))[:-2]


def test_file_from_stdin(cli: CliRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("one\ntwo\nthree\n"))
    r = cli(["shuffle", "--file", "-", "--seed", "s"])
    assert r.code == 0, r.err
    assert sorted(r.out.splitlines()) == ["one", "three", "two"]


def test_deck_json_items_are_card_codes(cli: CliRunner) -> None:
    from croupier.decks import make_deck

    r = cli(["shuffle", "--deck", "standard", "--json"])
    assert r.code == 0, r.err
    doc = json.loads(r.out)
    assert sorted(doc["items"]) == sorted(c.code for c in make_deck("standard"))
    assert doc["source"] == "os-csprng" and doc["reproducible"] is False
