"""`croupier deal` with the bulk engine: formats, engine rule, --out, progress, Ctrl-C."""

from __future__ import annotations

import csv
import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from croupier.bulk import BULK_ALGORITHM_ID, BulkDealer, deal_array
from croupier.cli.running import PROGRESS_MIN_DEALS, progress_wanted
from croupier.dealing import ALGORITHM_ID, Deal, deal_many, make_layout
from croupier.files import AtomicFile, ExistingFileError, FileWriteError
from croupier.formats.pbn_deal import format_pbn_deal, parse_pbn_deal
from croupier.randomness import make_source
from tests.conftest import MEMORY_GUARD, ROOT, CliRunner

# The labels of seeded output, spelled out here (they never quote the seed).
SEEDED_LABEL = (
    "seeded: reproducible from its seed (croupier-seeded/1), so only as secret as the seed"
)
BULK_SEEDED_LABEL = (
    "seeded: reproducible from its seed (croupier-bulk/1), so only as secret as the seed"
)

BRIDGE = make_layout("bridge")


def bulk(count: int, seed: str, game: str = "bridge") -> list[Deal]:
    """The first ``count`` deals of the seeded bulk stream, by the plain-Python rule."""
    return list(BulkDealer(make_layout(game), seed=seed, engine="python").deal(count))


def oneline_of(deal: Deal) -> str:
    """dealer's printoneline line of a bridge deal, built from its PBN string."""
    hands = format_pbn_deal(deal.piles)[2:].split(" ")
    return (
        "".join(f"{seat} {hand} " for seat, hand in zip("nesw", hands, strict=True)).rstrip(" ")
        + " "
    )


def same_cards(a: Deal, b: Deal) -> bool:
    return [set(p) for p in a.piles] == [set(p) for p in b.piles]


# -- the engine rule: one default (bulk), never chosen by format or count ------------------


def test_every_format_is_a_run_format() -> None:
    from croupier.bulk.writers import BULK_FORMATS
    from croupier.cli.deal_cmd import FORMAT_NAMES
    from croupier.runs import FORMATS

    assert set(FORMAT_NAMES) == set(FORMATS) | {"pbn-games"}
    # every bulk writer is reachable from the command line under its own name
    assert set(BULK_FORMATS) <= set(FORMATS)


@pytest.mark.parametrize("fmt", ["text", "json", "jsonl", "pbn", "pbn-deal", "lin", "csv"])
def test_every_format_defaults_to_the_bulk_engine(cli: CliRunner, fmt: str) -> None:
    plain = cli(["deal", "--seed", "published", "-n", "2", "-f", fmt])
    explicit = cli(["deal", "--seed", "published", "-n", "2", "-f", fmt, "--engine", "bulk"])
    assert plain.code == explicit.code == 0 and plain.out == explicit.out
    assert plain.err.splitlines()[-1].startswith("dealt 2 deals with croupier-bulk/1 (seeded")


@pytest.mark.parametrize("fmt", ["text", "json", "pbn", "pbn-deal", "lin", "csv"])
def test_the_deal_engine_is_an_explicit_choice(cli: CliRunner, fmt: str) -> None:
    old = cli(["deal", "--seed", "published", "-n", "2", "-f", fmt, "--engine", "deal"])
    new = cli(["deal", "--seed", "published", "-n", "2", "-f", fmt])
    assert old.code == new.code == 0 and old.out != new.out
    assert old.err.splitlines()[-1].startswith("dealt 2 deals with optimal from the seed")
    by_method = cli(["deal", "--seed", "published", "-n", "2", "-f", fmt, "--method", "optimal"])
    assert by_method.out == old.out  # asking for a deal method asks for the deal engine


def test_bulk_only_formats_default_to_bulk_for_any_count(cli: CliRunner) -> None:
    for count in ("1", "3"):
        r = cli(["deal", "--seed", "s", "-n", count, "-f", "oneline", "--quiet"])
        assert r.code == 0
        assert r.out.splitlines() == [oneline_of(d) for d in bulk(int(count), "s")]


def test_oneline_is_dealers_layout_read_by_an_independent_parser(cli: CliRunner) -> None:
    r = cli(["deal", "-n", "40", "-f", "oneline", "--seed", "parse me"])
    assert r.code == 0
    deals = [line for line in r.out.splitlines() if line.startswith("n ")]
    assert len(deals) == 40
    for line, expected in zip(deals, bulk(40, "parse me"), strict=True):
        words = line.split(" ")
        assert words[0::2][:4] == ["n", "e", "s", "w"] and line.endswith(" ")
        hands = parse_pbn_deal("N:" + " ".join(words[1:8:2]))
        assert [set(h) for h in hands] == [set(p) for p in expected.piles]


def test_bulk_pbn_deal_is_one_deal_string_per_line_like_the_deal_engine(cli: CliRunner) -> None:
    r = cli(["deal", "--engine", "bulk", "-n", "5", "-f", "pbn-deal", "--seed", "pbn"])
    assert r.code == 0
    lines = r.out.splitlines()
    assert lines == [format_pbn_deal(d.piles) for d in bulk(5, "pbn")]
    # the deal engine's pbn-deal from the same seed: same layout of lines, other deals
    old = cli(["deal", "-n", "5", "-f", "pbn-deal", "--seed", "pbn", "--engine", "deal"])
    old_lines = old.out.splitlines()
    assert len(old_lines) == 5 and all(x.startswith("N:") for x in old_lines)
    assert old_lines != lines
    assert BULK_SEEDED_LABEL not in r.out and SEEDED_LABEL not in old.out


@pytest.mark.parametrize("fmt", ["pbn-games", "pbn"])
def test_bulk_pbn_games_number_the_boards_and_carry_the_label_after_the_header(
    cli: CliRunner, fmt: str
) -> None:
    r = cli(["deal", "-n", "17", "-f", fmt, "--engine", "bulk", "--seed", "games"])
    assert r.code == 0
    lines = r.out.split("\r\n")
    assert lines[:3] == ["% PBN 2.1", "% EXPORT", f"% {BULK_SEEDED_LABEL}"]
    boards = [ln for ln in lines if ln.startswith("[Board ")]
    assert boards[0] == '[Board "1"]' and boards[-1] == '[Board "17"]'
    # board 17 starts the cycles again: dealer North, nobody vulnerable (board 1's)
    last = lines[lines.index('[Board "17"]') :]
    assert '[Dealer "N"]' in last and '[Vulnerable "None"]' in last
    deals = [ln[len('[Deal "') : -2] for ln in lines if ln.startswith("[Deal ")]
    assert [d[0] for d in deals] == list("NESW" * 4 + "N")  # from the dealer's hand
    expected = [[set(p) for p in d.piles] for d in bulk(17, "games")]
    assert [[set(h) for h in parse_pbn_deal(d)] for d in deals] == expected


def test_bulk_jsonl_objects(cli: CliRunner) -> None:
    r = cli(["deal", "euchre", "--engine", "bulk", "-n", "3", "-f", "jsonl", "--seed", "j"])
    assert r.code == 0
    objs = [json.loads(line) for line in r.out.splitlines()]
    assert [o["algorithm"] for o in objs] == ["croupier-bulk/2"] * 3  # the kitty is a stack
    assert {o["source"] for o in objs} == {"seeded"}
    for obj, deal in zip(objs, bulk(3, "j", "euchre"), strict=True):
        assert list(obj["hands"]) == ["N", "E", "S", "W"]
        assert [set(cards) for cards in obj["hands"].values()] == [
            {c.code for c in p} for p in deal.piles[:4]
        ]
        assert set(obj["remainder"]) == {c.code for c in deal.piles[4]}
        assert obj["bits_used"] >= 1


@pytest.mark.parametrize("fmt", ["text", "json", "csv"])
def test_bulk_engine_writes_the_per_deal_formats_too(cli: CliRunner, fmt: str) -> None:
    r = cli(["deal", "--engine", "bulk", "-n", "3", "-f", fmt, "--seed", "x y z"])
    assert r.code == 0, r.err
    expected = bulk(3, "x y z")
    numbers = [str(deal_number(d)) for d in expected]
    if fmt == "json":
        doc = json.loads(r.out)
        assert [d["number"] for d in doc["result"]] == numbers
        assert {d["algorithm"] for d in doc["result"]} == {BULK_ALGORITHM_ID}
        assert {d["source"] for d in doc["result"]} == {"seeded"}
        assert (doc["command"], doc["algorithm"], doc["source"]) == (
            "deal",
            BULK_ALGORITHM_ID,
            "seeded",
        )
        assert doc["reproducible"] is True and doc["bits"] > 3 * 95
    elif fmt == "csv":
        rows = list(csv.DictReader(io.StringIO(r.out)))
        assert [row["number"] for row in rows] == numbers
    else:
        assert r.out.startswith("bridge deal ") and BULK_SEEDED_LABEL not in r.out
        assert all(n in r.out for n in numbers)


def deal_number(deal: Deal) -> int:
    """The ``croupier``-scheme number of a deal, by the scalar ranking code."""
    return deal.number_in("croupier")


def test_json_flag_is_format_json_with_the_bulk_engine(cli: CliRunner) -> None:
    a = cli(["deal", "--engine", "bulk", "-n", "2", "--json", "--seed", "j"])
    b = cli(["deal", "--engine", "bulk", "-n", "2", "-f", "json", "--seed", "j"])
    assert a.code == b.code == 0 and a.out == b.out
    assert len(json.loads(a.out)["result"]) == 2
    r = cli(["deal", "-f", "oneline", "--json"])
    assert r.code == 2 and "--json is --format json" in r.err


def test_prefix_stability_through_the_cli(cli: CliRunner) -> None:
    """The first K deals of --count N are the same for every N >= K, across batch borders."""
    runs = {
        n: cli(["deal", "--engine", "bulk", "-f", "pbn-deal", "-n", str(n), "--seed", "prefix"])
        for n in (1, 7, 70_000)
    }
    lines = {n: r.out.splitlines() for n, r in runs.items()}
    assert [len(v) for v in lines.values()] == [1, 7, 70_000]
    assert lines[7][:1] == lines[1] and lines[70_000][:7] == lines[7]
    # rows after the first batch of 65,536 are those the library gives by index
    tail = BulkDealer(BRIDGE, seed="prefix").rows(65_530, 65_540)
    assert lines[70_000][65_530:65_540] == [format_pbn_deal(d.piles) for d in tail]


# -- incompatible options: one line, exit 2, saying what works ---------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--engine", "bulk", "--entropy", "dice:1,2,3"], "user entropy works with --engine deal"),
        (["--engine", "bulk", "-m", "block"], "the deal methods (optimal, ...) use --engine deal"),
        (["--where", "hcp(north) > 10", "--engine", "deal"], "leave out --engine deal"),
        (["--strategy", "stacking"], "give --where too"),
        (["-f", "npy"], "give a file: --out FILE.npy"),
        (["-f", "npz", "--engine", "bulk"], "never written to standard output"),
        (["-f", "oneline", "-n", str(10**10 + 1)], "at most 10,000,000,000"),
        (["--engine", "deal", "-n", str(10**9 + 1)], "the bulk engine deals up to 10,000,000,000"),
        (["euchre", "-f", "pbn"], "PBN games need four hands"),
        (["euchre", "-f", "pbn-deal"], "PBN deals need four hands"),
        (["euchre", "-f", "lin"], "LIN boards need four hands"),
        (["euchre", "--where", "hcp(north) > 10"], "is not a bridge layout"),
    ],
)
def test_incompatible_options_are_one_line_errors(
    cli: CliRunner, args: list[str], message: str
) -> None:
    r = cli(["deal", *args])
    assert r.code == 2 and r.out == ""
    assert len(r.err.splitlines()) == 1 and r.err.startswith("error: ")
    assert message in r.err


# -- binary files, --out, --overwrite ---------------------------------------------------------


def test_npy_and_npz_hold_the_seeded_deals(cli: CliRunner, tmp_path: Path) -> None:
    npy, npz = tmp_path / "d.npy", tmp_path / "d.npz"
    assert cli(["deal", "-n", "1000", "-f", "npy", "-o", str(npy), "--seed", "b"]).code == 0
    assert cli(["deal", "-n", "1000", "-f", "npz", "-o", str(npz), "--seed", "b"]).code == 0
    expected = deal_array(1000, "bridge", seed="b").piles
    assert np.array_equal(np.load(npy), expected)
    with np.load(npz) as z:
        assert np.array_equal(z["piles"], expected)
        meta = json.loads(str(z["meta"]))
    assert meta["algorithm"] == f"{BULK_ALGORITHM_ID}, seeded stream" and meta["seed"] is None
    assert meta["rows"] == 1000 and meta["layout"]["game"] == "bridge"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.npy", "d.npz"]  # no temporaries


def test_out_never_overwrites_unless_asked(cli: CliRunner, tmp_path: Path) -> None:
    target = tmp_path / "deals.txt"
    target.write_text("keep me")
    r = cli(["deal", "-f", "oneline", "-o", str(target)])
    assert r.code == 2 and "--overwrite" in r.err and "overwrite=" not in r.err
    assert target.read_text() == "keep me"
    r = cli(["deal", "-f", "oneline", "-o", str(target), "--overwrite", "--seed", "o", "-n", "2"])
    assert r.code == 0
    assert target.read_text().splitlines() == [oneline_of(d) for d in bulk(2, "o")]
    assert [p.name for p in tmp_path.iterdir()] == ["deals.txt"]


@pytest.mark.parametrize("fmt", ["text", "json", "csv", "pbn", "pbn-deal", "lin", "jsonl"])
def test_out_holds_exactly_what_stdout_shows(cli: CliRunner, tmp_path: Path, fmt: str) -> None:
    target = tmp_path / f"deals.{fmt}"
    shown = cli(["deal", "-n", "3", "-f", fmt, "--seed", "same bytes"])
    saved = cli(["deal", "-n", "3", "-f", fmt, "--seed", "same bytes", "-o", str(target)])
    assert shown.code == saved.code == 0 and saved.out == ""
    assert target.read_bytes() == shown.out.encode("utf-8")
    assert saved.err == shown.err


def test_a_failed_run_leaves_no_file(cli: CliRunner, tmp_path: Path) -> None:
    target = tmp_path / "short.txt"
    r = cli(
        [
            "deal",
            "-n",
            "2",
            "-f",
            "text",
            "-o",
            str(target),
            "--entropy",
            "dice:" + ",".join("6" * 74),
        ]
    )
    # six after six is rejected: the rolls pass the check up front and run out while dealing
    assert r.code == 2 and "entropy exhausted" in r.err
    assert list(tmp_path.iterdir()) == []


# -- what the run says: notes, --quiet, --bits -------------------------------------------------


def test_note_names_the_bulk_algorithm_and_the_stream(cli: CliRunner) -> None:
    r = cli(["deal", "-n", "2", "-f", "oneline"])
    assert r.code == 0
    assert r.err.splitlines() == [
        f"dealt 2 deals with {BULK_ALGORITHM_ID} (os-csprng stream) "
        "from the OS CSPRNG (not reproducible)"
    ]
    assert not r.out.startswith("seeded")
    seeded = cli(["deal", "-n", "2", "-f", "oneline", "--seed", "hex:" + "a5c3" * 16])
    assert seeded.err.splitlines()[-1] == (
        f"dealt 2 deals with {BULK_ALGORITHM_ID} (seeded stream) from the seed: reproducible, "
        "and only as secret as the seed"
    )


def test_quiet_means_quiet(cli: CliRunner) -> None:
    assert cli(["deal", "-n", "2", "-f", "oneline", "--quiet"]).err == ""
    assert cli(["deal", "-n", "2", "--quiet", "--engine", "deal"]).err == ""  # the deal engine too
    assert cli(["deal", "-n", "2", "-f", "pbn", "--quiet", "--seed", "42"]).err == ""


@pytest.mark.parametrize("fmt", ["pbn", "lin"])
def test_weak_seeds_are_warned_about_where_the_deals_are_secret(cli: CliRunner, fmt: str) -> None:
    r = cli(["deal", "-n", "2", "-f", fmt, "--seed", "42"])
    assert r.err.startswith("warning: the seed has at most 16 bits")
    for other in ("oneline", "text", "json"):  # a simulation's seed is for reproducing it
        assert "warning" not in cli(["deal", "-n", "2", "-f", other, "--seed", "42"]).err


def test_bits_reports_total_and_per_deal(cli: CliRunner) -> None:
    r = cli(["deal", "-n", "20", "-f", "jsonl", "--engine", "bulk", "--bits", "--seed", "bits"])
    assert r.code == 0
    per_deal = [json.loads(line)["bits_used"] for line in r.out.splitlines()]
    total = int(sum(per_deal))
    line = r.err.splitlines()[-1]
    assert line == f"bits used: {total:,} in all, {total / 20:.2f} per deal (log2 M = 95.44)"
    assert 20 * 95.44 <= total <= 20 * 128 + 64  # the bound: at most 128 bits a deal


def test_help_states_the_engine_rule(cli: CliRunner) -> None:
    text = " ".join(cli(["deal", "--help"]).out.split())
    assert "--engine" in text and ALGORITHM_ID in text and BULK_ALGORITHM_ID in text
    assert "never depends on --format or --count" in text
    from croupier.runs import FORMATS

    for fmt in FORMATS:
        assert fmt in text


# -- progress bar ------------------------------------------------------------------------------


def test_progress_is_only_for_long_runs_watched_on_a_terminal() -> None:
    bulk_long, deal_long = PROGRESS_MIN_DEALS["bulk"], PROGRESS_MIN_DEALS["deal"]
    assert deal_long < bulk_long  # the deal engine is slower: a bar for fewer deals
    cases = {
        (bulk_long, "bulk", False, True, False): True,
        (bulk_long - 1, "bulk", False, True, False): False,  # a short run
        (deal_long, "deal", False, True, False): True,
        (deal_long - 1, "deal", False, True, False): False,
        (bulk_long, "bulk", True, True, False): False,  # --quiet
        (bulk_long, "bulk", False, False, False): False,  # stderr is a pipe or file
        (bulk_long, "bulk", False, True, True): False,  # the deals scroll on that terminal
    }
    for (count, engine, quiet, err_tty, out_tty), expected in cases.items():
        got = progress_wanted(
            count,
            engine,  # type: ignore[arg-type]
            quiet=quiet,
            stderr_is_terminal=err_tty,
            output_is_terminal=out_tty,
        )
        assert got is expected, (count, engine, quiet, err_tty, out_tty)


def _croupier(args: list[str], **kwargs: object) -> subprocess.Popen[bytes]:
    """``croupier ARGS`` through the real entry point, in a child with 1 GiB of memory."""
    code = MEMORY_GUARD + "from croupier.cli.entry import main\nmain()\n"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    child: subprocess.Popen[bytes] = subprocess.Popen(
        [sys.executable, "-c", code, *args],
        env=env,
        **kwargs,  # type: ignore[call-overload]
    )
    return child


def test_no_progress_output_when_stderr_is_not_a_terminal(tmp_path: Path) -> None:
    out = tmp_path / "d.npy"
    count = PROGRESS_MIN_DEALS["bulk"]
    child = _croupier(
        ["deal", "-n", str(count), "-f", "npy", "-o", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    stdout, stderr = child.communicate(timeout=120)
    assert child.returncode == 0, stderr
    assert stdout == b""
    assert stderr.decode().splitlines() == [
        f"dealt {count} deals with {BULK_ALGORITHM_ID} (os-csprng stream) "
        "from the OS CSPRNG (not reproducible)"
    ]
    assert np.load(out, mmap_mode="r").shape == (count, 52)


def _on_a_terminal(args: list[str], stdout: Path) -> str:
    """Run ``croupier ARGS`` with stderr on a pseudo-terminal and stdout to a file; the
    terminal's text."""
    import pty

    main, side = pty.openpty()
    with stdout.open("wb") as out:
        child = _croupier(args, stdout=out, stderr=side)
    os.close(side)
    seen = b""
    while True:
        try:
            chunk = os.read(main, 65536)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        seen += chunk
    os.close(main)
    text = seen.decode(errors="replace")
    assert child.wait(timeout=120) == 0, text[-2000:]
    return text


@pytest.mark.parametrize("engine", ["deal", "bulk"])
def test_progress_bar_on_a_terminal_and_the_deals_on_stdout(tmp_path: Path, engine: str) -> None:
    count = PROGRESS_MIN_DEALS[engine]
    out = tmp_path / "deals.txt"
    fmt = "pbn-deal"
    args = ["deal", "-n", str(count), "-f", fmt, "--engine", engine, "--seed", "bar"]
    text = _on_a_terminal(args, out)
    assert f"/{count}" in text, text[-2000:]  # rich's M/N column
    # the bar is cleared when the run ends; the note follows it
    assert f"dealt {count} deals with" in text.rstrip().splitlines()[-1]
    lines = out.read_text().splitlines()
    if engine == "deal":
        source = make_source(seed="bar", purpose="deal")
        first = [format_pbn_deal(d.piles) for d in deal_many(BRIDGE, 2, source=source)]
    else:
        first = [format_pbn_deal(d.piles) for d in bulk(2, "bar")]
    assert len(lines) == count and lines[:2] == first  # the deals, nothing else
    assert first[0][2:20] not in text  # no deal went to the terminal, above the bar or else


# -- Ctrl-C ------------------------------------------------------------------------------------


def _interrupt_when_written(
    child: subprocess.Popen[bytes], folder: Path, least: int, settle: float = 0.0
) -> None:
    """Send Ctrl-C (SIGINT) ``settle`` seconds after the child's output in ``folder`` holds
    ``least`` bytes."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        sizes = [p.stat().st_size for p in folder.iterdir() if p.is_file()]
        if sizes and max(sizes) >= least:
            break
        if child.poll() is not None:
            err = child.stderr.read().decode() if child.stderr else ""
            pytest.fail(f"the run ended before it could be interrupted: {err[-2000:]}")
        time.sleep(0.02)
    time.sleep(settle)
    child.send_signal(signal.SIGINT)


def test_ctrl_c_leaves_a_valid_npy_file(tmp_path: Path) -> None:
    folder = tmp_path / "out"
    folder.mkdir()
    target = folder / "big.npy"
    args = ["deal", "-n", str(10**9), "-f", "npy", "-o", str(target), "--seed", "stop me"]
    child = _croupier(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _interrupt_when_written(child, folder, 52 * 65_536 + 128)  # at least one whole batch
    _, err = child.communicate(timeout=60)
    assert child.returncode == 130, err
    text = err.decode()
    assert "Traceback" not in text
    warning = next(line for line in text.splitlines() if line.startswith("warning: interrupted"))
    written = np.load(target, mmap_mode="r")
    n = written.shape[0]
    assert n > 0 and written.shape == (n, 52)
    assert f"wrote {n:,} of 1,000,000,000 deals to {str(target)!r}" in warning
    assert (np.asarray(written[-1000:]) == 0).sum(axis=1).tolist() == [13] * 1000
    assert np.array_equal(written[-3:], BulkDealer(BRIDGE, seed="stop me").rows(n - 3, n).piles)
    assert [p.name for p in folder.iterdir()] == ["big.npy"]


def test_ctrl_c_on_stdout_ends_after_whole_deals(tmp_path: Path) -> None:
    folder = tmp_path / "out"
    folder.mkdir()
    target = folder / "deals.json"
    with target.open("wb") as stdout:
        args = ["deal", "-n", str(10**6), "-f", "json", "--seed", "json stop"]
        child = _croupier(args, stdout=stdout, stderr=subprocess.PIPE)
        _interrupt_when_written(child, folder, 20_000)
        _, err = child.communicate(timeout=60)
    assert child.returncode == 130, err
    assert "Traceback" not in err.decode()
    doc = json.loads(target.read_text())  # the JSON document is closed validly
    n = len(doc["result"])
    assert n > 1 and f"wrote {n:,} of 1,000,000 deals to standard output" in err.decode()
    expected = bulk(2, "json stop")
    assert [d["deal"] for d in doc["result"][:2]] == [format_pbn_deal(d.piles) for d in expected]


# -- the atomic streaming file ------------------------------------------------------------------


def test_atomic_file_appears_only_when_committed(tmp_path: Path) -> None:
    target = tmp_path / "stream.bin"
    with AtomicFile(target) as out:
        out.write(b"abc")
        out.file.seek(0)
        out.write(b"X")  # a writer may go back and fill in a header
        assert not target.exists() and len(list(tmp_path.iterdir())) == 1
    assert target.read_bytes() == b"Xbc"
    with pytest.raises(ExistingFileError):
        AtomicFile(target)
    with AtomicFile(target, overwrite=True) as out:
        out.write(b"new")
    assert target.read_bytes() == b"new"


def test_atomic_file_is_discarded_on_error(tmp_path: Path) -> None:
    target = tmp_path / "broken.bin"
    with pytest.raises(RuntimeError), AtomicFile(target) as out:
        out.write(b"half")
        raise RuntimeError("stop")
    assert list(tmp_path.iterdir()) == []

    out = AtomicFile(target)

    def full_disk(data: bytes) -> int:
        raise OSError(28, "No space left on device")

    out.file.write = full_disk  # type: ignore[method-assign,assignment]
    with pytest.raises(FileWriteError, match="no space left on device"):
        out.write(b"more")
    assert list(tmp_path.iterdir()) == []


def test_a_second_ctrl_c_stops_at_once_and_keeps_no_file(tmp_path: Path) -> None:
    # 5,200-card deals take the bulk engine long: the first Ctrl-C waits for the batch,
    # the second one does not.
    folder = tmp_path / "out"
    folder.mkdir()
    target = folder / "huge.npy"
    layout = ["--deck", "shoe:100", "--hands", "2600,2600"]
    args = ["deal", *layout, "-n", str(10**9), "-f", "npy", "-o", str(target)]
    child = _croupier(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _interrupt_when_written(child, folder, 0, settle=1.0)  # the file is open: dealing begins
    time.sleep(0.3)
    child.send_signal(signal.SIGINT)
    _, err = child.communicate(timeout=30)
    assert child.returncode == 130, err
    assert b"Traceback" not in err
    assert list(folder.iterdir()) == []
