"""Hostile sizes and numbers outside tournament files: limits checked first, one-line errors.

Every input that once ate memory or time runs in a child process limited to
1 GiB of address space and a timeout, so a regression fails the test instead
of taking the machine down.  The limits themselves are listed in
``docs/limits.md``; these tests check that each is enforced before any work.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from croupier.analysis.mixing import (
    MAX_MIXING_WORK,
    riffle_mixing,
    riffle_mixing_curve,
    riffles_needed,
)
from croupier.analysis.run import MAX_BITS_CARDS, bits_profile
from croupier.cli import shuffle_cmd
from croupier.dealing import make_layout
from croupier.dealing.layout import MAX_LAYOUT_CARDS
from croupier.decks import deck_size, make_deck, shoe
from croupier.errors import CroupierError, LayoutError, RangeError
from croupier.formats.deal_csv import format_deals_csv
from croupier.formats.deal_json import deal_to_dict
from croupier.moves import cut_perm, faro_perm
from croupier.perm import MAX_PERMUTATION_SIZE, Permutation, PermutationError
from croupier.randomness.entropy import MAX_DICE_SIDES, EntropySource, EntropySpecError
from croupier.runs.measure import MAX_ENTROPY_DEALS, MAX_ENTROPY_WORK
from croupier.runs.request import MAX_BULK_COUNT, MAX_DEAL_COUNT
from croupier.spec import parse_spec
from tests.conftest import MEMORY_GUARD, ROOT, CliRunner, guarded_cli

_ENV = {**os.environ, "PYTHONPATH": str(ROOT / "src")}


def _guarded_python(code: str, timeout: float = 60) -> str:
    """Run ``code`` in a child process with 1 GiB of memory; its standard output."""
    done = subprocess.run(
        [sys.executable, "-c", MEMORY_GUARD + textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=_ENV,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def _one_line_error(code: int, err: str, *needles: str) -> None:
    assert code == 2, err
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err and len(err) < 400, err
    for needle in needles:
        assert needle in err, err


HUGE = str(10**400)
DIGITS_5000 = "9" * 5000


# -- sizes that used to allocate gigabytes or run for ever ---------------------------------


def test_hostile_sizes_fail_fast_under_a_memory_limit() -> None:
    runs = [
        ["deal", "--deck", "shoe:10000", "--hands", "260000,260000"],  # was worse than quadratic
        ["deal", "--count", str(10**12), "--format", "json"],  # was buffered without bound
        ["deal", "--count", HUGE],  # was an OverflowError
        ["shuffle", "--cards", str(10**8)],  # was one uninterruptible 10**8 list
        ["shuffle", "--cards", "99999999999999999999"],  # was an OverflowError
        ["shuffle", "--cards", DIGITS_5000],
        ["entropy", "--deals", str(10**12)],  # never ended
        ["entropy", "--deck", "shoe:100", "--hands", "2600,2600", "--deals", "2"],
        ["analyze", "lehmer", "--bits", "--cards", HUGE],  # was an OverflowError
        ["mixing", "riffle", "--packets", str(10**20), "--json"],
        ["mixing", "riffle", "--cards", "2000", "--max", "200"],
        ["apply", "reverse", "--cards", str(10**12)],
        ["order", "(riffle,cut:1)", "--cards", str(10**9)],
        ["group", "--cards", "2192", "pile:4", "faro-out*8"],  # Schreier-Sims took minutes
        ["group", "--cards", "100", "faro-in", "faro-out"],
    ]
    results = guarded_cli(runs)  # 1 GiB and a timeout that catches a hang, not a benchmark
    for args, (code, err) in zip(runs, results, strict=True):
        assert code == 2, (args, err)
        assert err.startswith("error: ") and err.count("\n") == 1, (args, err)
        assert "Traceback" not in err and len(err) < 400, (args, err)


def test_permutation_sizes_are_checked_before_allocating() -> None:
    out = _guarded_python(
        """
        from croupier.perm import Permutation, PermutationError
        from croupier.errors import RangeError
        from croupier.moves import cut_perm
        for make in (
            lambda: Permutation.parse("(1000000000)"),
            lambda: Permutation.parse("()", n=10**9),
            lambda: Permutation.identity(10**9),
            lambda: Permutation.from_cycles([(0, 1)], n=10**12),
            lambda: cut_perm(10**12, 1),
        ):
            try:
                make()
            except (PermutationError, RangeError) as exc:
                print(type(exc).__name__, exc)
        """
    )
    lines = out.splitlines()
    assert len(lines) == 5 and all("too large" in line for line in lines), out
    assert str(MAX_PERMUTATION_SIZE) in lines[0]


def test_permutation_limit_is_inclusive() -> None:
    with pytest.raises(PermutationError, match="1000000001 is too large"):
        Permutation.parse("(1000000000)")
    assert len(Permutation.parse(f"({MAX_PERMUTATION_SIZE - 1})")) == MAX_PERMUTATION_SIZE
    with pytest.raises(PermutationError, match="too large"):
        Permutation.parse(f"({MAX_PERMUTATION_SIZE})")
    with pytest.raises(RangeError, match="too large"):
        faro_perm(MAX_PERMUTATION_SIZE + 2)
    assert len(cut_perm(10, 3)) == 10


def test_dealing_layouts_stop_at_the_documented_size() -> None:
    assert MAX_LAYOUT_CARDS == 5200 == deck_size("shoe:100")
    half = MAX_LAYOUT_CARDS // 2
    assert len(make_layout(hands=[half, half], deck="shoe:100").deck) == MAX_LAYOUT_CARDS
    with pytest.raises(LayoutError, match="5252 cards; a layout deals at most 5200"):
        make_layout(hands=[half, half], deck="shoe:101")
    with pytest.raises(LayoutError, match="at most 5200"):
        make_layout(hands=[1, 1], deck=shoe(101))
    with pytest.raises(LayoutError, match="hand size 260000 is too large"):
        make_layout(hands="260000,260000", deck="shoe:10000")
    with pytest.raises(LayoutError, match="at most 5200 piles"):
        make_layout(hands=",".join(["0"] * 5201))


def test_deck_size_does_not_build_a_shoe() -> None:
    assert deck_size("shoe:10000") == 52 * 10_000
    assert [deck_size(n) for n in ("standard", "pinochle", "stripped:AK")] == [
        len(make_deck(n)) for n in ("standard", "pinochle", "stripped:AK")
    ]
    with pytest.raises(CroupierError, match="for a shoe"):
        deck_size("shoe:10001")


def test_deal_count_and_entropy_deals_limits(cli: CliRunner) -> None:
    _one_line_error(
        *_run(cli, ["deal", "--engine", "deal", "--count", str(MAX_DEAL_COUNT + 1)]),
        "1,000,000,000, got 1000000001",
    )
    _one_line_error(*_run(cli, ["deal", "--count", str(MAX_BULK_COUNT + 1)]), "10,000,000,000, got")
    _one_line_error(*_run(cli, ["deal", "--count", HUGE]), "(401 digits)")
    _one_line_error(*_run(cli, ["entropy", "--deals", str(MAX_ENTROPY_DEALS + 1)]), "10,000")
    # --deals x cards² is bounded: 208 cards allow 693 deals, 694 is refused before dealing.
    most = MAX_ENTROPY_WORK // 208**2
    assert most == 693
    shoe4 = ["entropy", "--deck", "shoe:4", "--hands", "52,52"]
    _one_line_error(*_run(cli, [*shoe4, "--deals", str(most + 1)]), "at most 693 deals")
    r = cli([*shoe4, "--deals", "2", "--json"])
    assert r.code == 0 and json.loads(r.out)["result"]["measured_over"] == 2


def _run(cli: CliRunner, args: list[str]) -> tuple[int, str]:
    r = cli(args)
    return r.code, r.err


# -- streaming output ----------------------------------------------------------------------


@pytest.mark.parametrize("count", [1, 2, 5])
def test_json_document_is_streamed_as_the_whole_document(cli: CliRunner, count: int) -> None:
    from croupier.dealing import deal_many
    from croupier.formats.envelope import envelope
    from croupier.randomness import make_source

    lay = make_layout("euchre")
    want = list(deal_many(lay, count, source=make_source(seed="stream", purpose="deal")))
    args = ["deal", "euchre", "--seed", "stream", "-n", str(count), "--engine", "deal"]
    got = json.loads(cli([*args, "--format", "json"]).out)
    whole = envelope(
        "deal",
        [deal_to_dict(d) for d in want],
        algorithm="croupier-deal/3",  # the euchre kitty is a stack
        source="seeded",
        reproducible=True,
        bits=round(sum(d.bits_used for d in want), 6),
    )
    assert got == whole
    csv = cli([*args, "--format", "csv"])
    assert csv.out == format_deals_csv(want)


def test_a_huge_json_run_streams_in_bounded_memory_and_stops_on_ctrl_c() -> None:
    child = subprocess.Popen(
        [
            sys.executable,
            "-c",
            MEMORY_GUARD + "from croupier.cli.entry import main; main()",
            "deal",
            "--count",
            str(MAX_DEAL_COUNT),
            "--format",
            "json",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_ENV,
    )
    try:
        assert child.stdout is not None
        head = child.stdout.read(20_000)  # deals arrive long before the run could end
        assert head.startswith(b'{\n  "croupier": ') and b'"result": [\n    {' in head
        child.send_signal(signal.SIGINT)
        _rest, err = child.communicate(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == 130, err[-2000:]
    assert b"Traceback" not in err


# -- numbers in text: ASCII digits only, bounded, never a traceback ------------------------


@pytest.mark.parametrize(
    "args,needle",
    [
        (["deal", "--entropy", f"d{DIGITS_5000}:1"], "(5003 characters)"),
        (["deal", "--entropy", "d6:²"], "bad d6 roll '²'"),
        (["deal", "--entropy", "d20:٣"], "bad d20 roll '٣'"),
        (["deal", "--entropy", "hex:٣"], "bad hex digit '٣'"),
        (["deal", "--entropy", f"d{MAX_DICE_SIDES + 1}:1"], "2 to 1000000000 sides"),
        (["deal", "--entropy", "x" * 5000], "(5000 characters)"),
        (["deal", "--hands", "7,٣"], "bad hand sizes"),
        (["deal", "--hands", f"7,{DIGITS_5000}"], "bad hand sizes"),
        (["deal", "--deck", "shoe:٣"], "bad shoe"),
        (["order", "riffle", "--cards", "٣"], "bad number"),
        (["apply", "cut:٣", "1", "2", "3"], "bad token"),
        (["analyze", "deal:open-players", "--cards", "8", "--hands", "٣"], "--hands"),
        (["mixing", "riffle", "--max", HUGE], "out of range"),
        (["deal", "go-fish", "--players", HUGE], "not a 1329-bit number"),
        (["cards", "AS#" + "9" * 300], "(303 characters)"),
        (["elmsley", "--cards", "10^1000", "--to", "5", "--from", "7"], "a 3322-bit number"),
        (["mixing", "riffle", "--cards", HUGE], "out of range"),
    ],
)
def test_hostile_numbers_are_one_line_errors(cli: CliRunner, args: list[str], needle: str) -> None:
    r = cli(args)
    _one_line_error(r.code, r.err, needle)


@pytest.mark.parametrize("number", ["9" * 1000 + "^9999", "2^4097", "3*7^9999+1"])
def test_a_huge_power_is_refused_before_it_is_computed(number: str) -> None:
    import tracemalloc

    from croupier.cli.algebra_cmd import parse_count

    tracemalloc.start()
    try:
        with pytest.raises(RangeError, match="too large"):
            parse_count(number)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # 1000 nines to the 9999th power has 33 million bits (4 MiB, 18 s to compute): the
    # refusal comes from the sizes alone, so no number of even 1 MiB is ever built
    assert peak < 1 << 20, peak


def test_the_largest_number_still_reads() -> None:
    from croupier.cli.algebra_cmd import MAX_COUNT_BITS, parse_count

    assert parse_count(f"2^{MAX_COUNT_BITS - 1}") == 2 ** (MAX_COUNT_BITS - 1)
    assert parse_count(f"3^{MAX_COUNT_BITS // 2 - 100}*1") == 3 ** (MAX_COUNT_BITS // 2 - 100)


def test_entropy_specs_read_ascii_digits_only() -> None:
    assert EntropySource.parse("d20:20,1").digits == (19, 0)
    assert EntropySource.parse("hex:aF").digits == (1, 0, 1, 0, 1, 1, 1, 1)
    assert EntropySource.parse(f"d{MAX_DICE_SIDES}:{MAX_DICE_SIDES}").digits == (
        MAX_DICE_SIDES - 1,
    )
    for bad in ["d6:²", "d٣:1", "hex:٣", "d6:١", f"d{DIGITS_5000}:1", "d1:1", "d0:1"]:
        with pytest.raises(EntropySpecError) as info:
            EntropySource.parse(bad)
        assert len(str(info.value)) < 200


def test_apply_keeps_unicode_digits_as_text(cli: CliRunner) -> None:
    r = cli(["apply", "reverse", "7٣", "5", "--json"])
    assert r.code == 0, r.err
    assert json.loads(r.out)["result"]["items"] == [5, "7٣"]
    assert cli(["apply", "reverse", "7٣", "5"]).out == "5 7٣\n"


def test_perm_and_spec_numbers_are_ascii() -> None:
    with pytest.raises(PermutationError):
        Permutation.parse("(٣ 1)")
    with pytest.raises(PermutationError):
        Permutation.parse("2 0 ١")
    with pytest.raises(CroupierError, match="bad token"):
        parse_spec("faro-out*٨")
    message = ""
    try:
        Permutation.parse("(" + "1 " * 5000 + "x)")
    except PermutationError as exc:
        message = str(exc)
    assert "characters)" in message and len(message) < 200


# -- analysis sizes ------------------------------------------------------------------------


def test_mixing_work_is_checked_first() -> None:
    assert MAX_MIXING_WORK == 2 * 10**9
    assert len(riffle_mixing_curve(300, 20)) == 20  # ordinary curves still run
    with pytest.raises(RangeError, match="packets per riffle"):
        riffle_mixing(52, 1, 10**20)
    for n, k, base in [(2000, 200, 2), (2000, 23, 2), (300, 150, 2), (52, 200, 10**6)]:
        with pytest.raises(RangeError, match="too much work"):
            riffle_mixing_curve(n, k, base)
    with pytest.raises(RangeError, match="too much work"):
        riffle_mixing(2000, 23)
    with pytest.raises(RangeError, match="too much work"):
        riffles_needed(200, threshold=2.0**-1000)  # a tiny threshold cannot run away


def test_bits_profile_sizes_are_bounded() -> None:
    with pytest.raises(RangeError, match=r"0\.\.10000 cards"):
        bits_profile(["lehmer"], [MAX_BITS_CARDS + 1], 1, "s")


# -- shuffle --file ------------------------------------------------------------------------


def test_shuffle_file_size_and_lines_are_bounded(
    cli: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A named in-memory method reads the file whole: its size and line count are bounded
    (the default file shuffle streams through buckets and has no such bound)."""
    big = tmp_path / "big.txt"
    big.write_bytes(b"a\n" * 600)
    in_memory = ["shuffle", "--file", str(big), "--method", "fisher-yates"]
    monkeypatch.setattr(shuffle_cmd, "MAX_SHUFFLE_FILE_BYTES", 1000)
    _one_line_error(*_run(cli, in_memory), "larger than")
    monkeypatch.setattr(shuffle_cmd, "MAX_SHUFFLE_FILE_BYTES", 2000)
    monkeypatch.setattr(shuffle_cmd, "MAX_SHUFFLE_ITEMS", 500)
    _one_line_error(*_run(cli, in_memory), "more than 500 lines")
    monkeypatch.setattr(shuffle_cmd, "MAX_SHUFFLE_ITEMS", 600)
    r = cli(in_memory)
    assert r.code == 0 and r.out == "a\n" * 600
    monkeypatch.setattr(shuffle_cmd, "MAX_SHUFFLE_FILE_BYTES", 1000)
    r = cli(["shuffle", "--file", str(big), "--seed", "s"])
    assert r.code == 0 and r.out == "a\n" * 600
