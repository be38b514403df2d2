"""``croupier shuffle``."""

from __future__ import annotations

import hashlib
import io
import json
import math
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from croupier.cli.app import run
from croupier.cli.shuffle_cmd import LEHMER_MAX_ITEMS
from croupier.randomness import SeededSource, UniformSampler
from croupier.shuffling import (
    FLAWED_METHODS,
    LEHMER_ONE_DRAW_LIMIT,
    SHUFFLE_METHODS,
    fisher_yates,
    lehmer_shuffle,
    split_shuffle,
    unrank_permutation,
)
from tests.conftest import VECTORS, CliRunner


def _doc(out: str) -> dict[str, Any]:
    """The JSON envelope of ``croupier shuffle --json`` as one flat dict: its ``result``
    with the envelope's ``algorithm``, ``source``, ``reproducible`` and ``bits`` (as
    ``bits_used``), so each test reads the fields it checks wherever they are."""
    doc = json.loads(out)
    assert doc["command"] == "shuffle" and set(doc["result"]).isdisjoint(
        {"algorithm", "source", "reproducible", "bits_used"}
    )
    keys = {"bits_used": doc["bits"], "reproducible": doc["reproducible"]}
    return {**doc["result"], "algorithm": doc["algorithm"], "source": doc["source"], **keys}


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
    doc = _doc(r.out)
    assert doc["source"] == "seeded" and doc["method"] == "lehmer"
    assert doc["algorithm"] == "croupier-shuffle-lehmer/1"
    assert doc["sampler"] == "croupier-uniform/1" and doc["reproducible"] is True
    assert doc["bits_bound"] == round(math.lgamma(53) / math.log(2), 4)
    assert doc["bits_used"] >= doc["bits_bound"]
    # a 12-byte seed has at most 96 bits, but a shuffle is a simulation or a draw, whose
    # seed is meant to be known: no warning (boards warn: croupier deal -f pbn, bigdeal)
    assert doc["warnings"] == [] and "warning" not in r.err
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
    doc = _doc(r.out)
    rank = UniformSampler(SeededSource("croupier", "shuffle")).below(120)
    assert doc["items"] == ["abcde"[i] for i in unrank_permutation(rank, 5)]
    assert doc["items"] == ["c", "a", "d", "e", "b"]


def test_short_seed_is_not_warned_about(cli: CliRunner) -> None:
    r = cli(["shuffle", "--deck", "standard", "--seed", "42"])
    assert r.code == 0
    assert "warning" not in r.err and "only as secret as the seed" in r.err
    assert len(r.out.split()) == 52


def test_entropy_dice_enough_and_too_few(cli: CliRunner) -> None:
    r = cli(["shuffle", "a", "b", "c", "--entropy", "dice:4", "--json"])
    assert r.code == 0, r.err
    doc = _doc(r.out)
    assert doc["source"] == "entropy" and doc["bits_used"] == round(math.log2(6), 4)
    assert doc["items"] == ["abc"[i] for i in unrank_permutation(3, 3)]  # roll 4 -> rank 3
    r = cli(["shuffle", "--cards", "52", "--entropy", "dice:1,2,3"])
    assert r.code == 2
    assert r.err.startswith("error: entropy exhausted") and "need at least 85 more d6" in r.err


def test_entropy_coins_and_hex(cli: CliRunner) -> None:
    r = cli(["shuffle", "--cards", "4", "--entropy", "coins:HTHTH", "--json"])
    assert r.code == 0, r.err
    assert sorted(_doc(r.out)["items"]) == [1, 2, 3, 4]
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
        assert sorted(_doc(r.out)["items"]) == list(range(1, 9))
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
    # one; bytes that are not UTF-8 pass through; an empty file gives nothing.  (A named
    # method shuffles the lines as items; the file shuffle's twin is in test_shuffle_files.)
    path = tmp_path / "in.txt"
    path.write_bytes(data)
    args = ["shuffle", "--file", str(path), "--seed", "lines", "--method", "lehmer"]
    code, out = _run_bytes(args, monkeypatch)
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
    args = ["shuffle", "--file", str(path), "--seed", "b", "--method", "lehmer"]
    code, out = _run_bytes(args, monkeypatch)
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
    assert sorted(_doc(r.out)["items"]) == ["a", "b", "c"]  # endings are not text
    path.write_bytes(b"fine\nbad \xff\n")
    r = cli(["shuffle", "--file", str(path), "--json"])
    assert r.code == 2 and r.out == ""
    assert r.err == (
        f"error: --file {str(path)!r} line 2 is not UTF-8 (byte 0xff at column 5); --json "
        "needs text (without --json the bytes are shuffled as they are)\n"
    )
    path.write_bytes(b"")
    doc = _doc(cli(["shuffle", "--file", str(path), "--json"]).out)
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

    import croupier.files as files

    monkeypatch.setattr(files, "open", refuse, raising=False)
    r = cli(["shuffle", "--file", "secret.txt", "--method", "fisher-yates"])
    assert r.code == 2 and r.err == "error: cannot read --file 'secret.txt': permission denied\n"


def test_file_from_stdin_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    code, out = _run_bytes(
        ["shuffle", "--file", "-", "--seed", "s", "--method", "lehmer"],
        monkeypatch,
        stdin=b"1\r\n\xff\r\n3",
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
    doc = _doc(r.out)
    assert sorted(doc["items"]) == sorted(c.code for c in make_deck("standard"))
    assert doc["source"] == "os-csprng" and doc["reproducible"] is False


# -- the default method: auto = lehmer up to 2,048 items, split above (rule 2) ------------------

SHUFFLE_VECTORS = json.loads((VECTORS / "shuffle_cli_v1.json").read_text(encoding="utf-8"))
RULE_2_VECTORS = json.loads((VECTORS / "shuffle_cli_v2.json").read_text(encoding="utf-8"))
SEEDED = json.loads((VECTORS / "seeded_v1.json").read_text(encoding="utf-8"))


def _library(method: str, n: int, seed: str) -> list[int]:
    """``1..n`` shuffled by the library's ``method`` on the stream ``croupier shuffle`` uses."""
    chosen = {"lehmer": lehmer_shuffle, "fisher-yates": fisher_yates, "split": split_shuffle}[
        method
    ]
    return chosen(list(range(1, n + 1)), UniformSampler(SeededSource(seed, "shuffle")))


@pytest.mark.parametrize("case", SHUFFLE_VECTORS["cases"], ids=lambda c: " ".join(c["args"][1:]))
def test_rule_1_vectors_stay_reachable(cli: CliRunner, case: dict[str, Any]) -> None:
    # The first auto rule (fisher-yates above 2,048 items): its outputs are what the method
    # it chose gives when named, byte for byte.
    args = list(case["args"])
    n = int(args[args.index("--cards") + 1])
    forced = "--method" in args
    rule_1 = "lehmer" if forced or n <= LEHMER_ONE_DRAW_LIMIT else "fisher-yates"
    assert case["method"] == rule_1
    if not forced:
        args += ["--method", rule_1]
    text = cli(args)
    assert text.code == 0, text.err
    assert hashlib.sha256(text.out.encode("utf-8")).hexdigest() == case["stdout_sha256"]
    doc = _doc(cli([*args, "--json"]).out)
    assert doc["method"] == case["method"] and doc["algorithm"] == case["algorithm"]
    assert doc["bits_used"] == case["bits_used"]
    if "items" in case:
        assert doc["items"] == case["items"]
    assert doc["items"] == _library(rule_1, n, args[args.index("--seed") + 1])


@pytest.mark.parametrize("case", RULE_2_VECTORS["cases"], ids=lambda c: " ".join(c["args"][1:]))
def test_golden_vector_pins_the_size_rule(cli: CliRunner, case: dict[str, Any]) -> None:
    args = case["args"]
    n = int(args[args.index("--cards") + 1])
    text = cli(args)
    assert text.code == 0, text.err
    assert hashlib.sha256(text.out.encode("utf-8")).hexdigest() == case["stdout_sha256"]
    doc = _doc(cli([*args, "--json"]).out)
    assert doc["method"] == case["method"] and doc["algorithm"] == case["algorithm"]
    assert doc["bits_used"] == case["bits_used"]
    if "items" in case:
        assert doc["items"] == case["items"]
    # The rule itself: the output is the library method the vector names for that size ...
    rule = "lehmer" if n <= LEHMER_ONE_DRAW_LIMIT else "split"
    assert case["method"] == rule
    assert doc["items"] == _library(rule, n, args[args.index("--seed") + 1])
    assert doc["method_requested"] == "auto"
    # ... and stdout is those items on one line.
    assert text.out == " ".join(map(str, doc["items"])) + "\n"


def test_the_first_file_rule_stays_reachable_by_name(cli: CliRunner, tmp_path: Path) -> None:
    # croupier shuffle --file shuffled more than 2,048 lines with fisher-yates by default;
    # named, it still does: the lines 1..3000 come out in the order of the first rule's
    # 3,000-item vector.  (The default is now the file shuffle croupier-keyed-split/1.)
    case = SHUFFLE_VECTORS["cases"][0]
    assert case["method"] == "fisher-yates" and len(case["items"]) == 3000
    path = tmp_path / "lines.txt"
    path.write_text("".join(f"{i}\n" for i in range(1, 3001)), encoding="utf-8")
    args = ["shuffle", "--file", str(path), "--seed", "croupier", "--json"]
    named = _doc(cli([*args, "--method", "fisher-yates"]).out)
    doc = named.get("result", named)  # (the payload, inside the JSON envelope)
    assert doc["method"] == "fisher-yates" and doc["method_requested"] == "fisher-yates"
    assert doc["items"] == [str(i) for i in case["items"]]
    default = _doc(cli(args).out)
    assert default["algorithm"] == "croupier-keyed-split/1"
    items = default.get("result", default)["items"]
    assert sorted(items) == sorted(doc["items"]) != items


def test_forced_lehmer_above_the_boundary_is_the_seeded_lehmer_vector(cli: CliRunner) -> None:
    # docs/reproducibility.md's lehmer above 2,048 items (digits drawn in blocks), pinned
    # independently by seeded_v1.json on 0..2999; the CLI shuffles 1..3000.
    want = next(s for s in SEEDED["shuffles"] if s["method"] == "lehmer" and s["n"] == 3000)
    doc = _doc(
        cli(["shuffle", "--cards", "3000", "--seed", want["seed"], "-m", "lehmer", "--json"]).out
    )
    assert doc["items"] == [x + 1 for x in want["result"]]
    assert doc["bits_used"] == want["bits_used"]


def test_auto_says_which_side_of_the_rule_it_took(cli: CliRunner) -> None:
    small = cli(["shuffle", "-c", "2048", "--seed", "a long enough seed phrase"])
    assert "shuffled with lehmer (auto: up to 2,048 items)" in small.err
    big = cli(["shuffle", "-c", "2049", "--seed", "a long enough seed phrase", "-m", "auto"])
    assert "shuffled with split (auto: more than 2,048 items)" in big.err
    named = cli(["shuffle", "-c", "2049", "-m", "fisher-yates"])
    assert "shuffled with fisher-yates from" in named.err


def test_forced_lehmer_has_a_size_limit(cli: CliRunner) -> None:
    r = cli(["shuffle", "--cards", str(LEHMER_MAX_ITEMS + 1), "--method", "lehmer"])
    assert r.code == 2 and r.out == ""
    assert r.err == (
        "error: --method lehmer takes at most 100,000 items (its decoding takes time quadratic "
        "in their number), got 100,001; use --method auto or fisher-yates\n"
    )
    r = cli(["shuffle", "--cards", str(LEHMER_MAX_ITEMS + 1), "--json"])  # auto: fine
    assert r.code == 0 and _doc(r.out)["method"] == "split"


def test_help_states_the_rule_and_lists_the_registry(cli: CliRunner) -> None:
    out = re.sub(r"-\s+", "-", " ".join(cli(["shuffle", "--help"]).out.split()))
    assert "The default method, auto, is lehmer up to 2,048 items and split above" in out
    for name in [*SHUFFLE_METHODS, *FLAWED_METHODS]:
        assert name in out


def test_short_flags(cli: CliRunner) -> None:
    a = cli(["shuffle", "-c", "9", "-m", "fisher-yates", "--seed", "short flags", "--json"])
    b = cli(
        ["shuffle", "--cards", "9", "--method", "fisher-yates", "--seed", "short flags", "--json"]
    )
    assert a.code == 0 and a.out == b.out
    c = cli(["shuffle", "-c", "9", "-m", "fisher-yates", "-n", "4", "--seed", "short flags"])
    assert c.code == 0  # -n is --count (--head-count): the first K items of the shuffle
    assert [int(x) for x in c.out.split()] == _doc(a.out)["items"][:4]


def test_help_examples_run(cli: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "names.txt").write_text("ann\nbob\ncy\n", encoding="utf-8")
    help_text = cli(["shuffle", "--help"]).out
    examples = help_text.split("Examples:")[1].strip().split("\n\n")[0].splitlines()
    assert len(examples) >= 4
    for line in examples:
        words = shlex.split(line)
        assert words[0] == "croupier"
        r = cli(words[1:])
        assert r.code == 0, (line, r.err)


@pytest.mark.parametrize("deck", ["standard", "shoe:39", "shoe:40"])  # 52, 2,028 and 2,080 cards
def test_the_deck_class_follows_the_same_rule(cli: CliRunner, deck: str) -> None:
    from croupier.deck import Deck

    game_deck = Deck(deck, seed="one rule for both")
    game_deck.shuffle()
    doc = _doc(cli(["shuffle", "--deck", deck, "--seed", "one rule for both", "--json"]).out)
    assert doc["items"] == [c.code for c in game_deck]
    assert doc["method"] == ("lehmer" if len(game_deck) <= LEHMER_ONE_DRAW_LIMIT else "split")


def test_the_size_rule_has_one_home_in_the_shuffling_layer() -> None:
    import croupier.cli.shuffle_cmd as shuffle_cmd
    import croupier.deck
    import croupier.shuffling

    rule = croupier.shuffling.default_shuffle_method
    assert rule.__module__ == "croupier.shuffling.registry"
    assert "default_shuffle_method" not in croupier.deck.__all__
    assert shuffle_cmd.default_shuffle_method is rule
    assert croupier.deck.default_shuffle_method is rule  # imported by Deck.shuffle, not redefined
    assert croupier.shuffling.LEHMER_ONE_DRAW_LIMIT == 2048


def test_croupier_shuffle_starts_without_the_deck_module() -> None:
    code = (
        "import sys\n"
        "from croupier.cli.app import run\n"
        "assert run(['shuffle', '--deck', 'euchre', '--seed', 'startup check']) == 0\n"
        "print('croupier.deck' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.splitlines()[-1] == "False"


def test_top_level_shuffle_follows_the_same_rule() -> None:
    import croupier

    case = RULE_2_VECTORS["cases"][2]
    assert case["method"] == "split" and len(case["items"]) == 3000
    seed = case["args"][case["args"].index("--seed") + 1]
    assert croupier.shuffle(range(1, 3001), seed=seed) == case["items"]
    old = SHUFFLE_VECTORS["cases"][0]  # the first rule's output, by name
    assert croupier.shuffle(range(1, 3001), seed=seed, method="fisher-yates") == old["items"]
