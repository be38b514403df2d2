"""The actions of dealer scripts: croupier's text is byte-identical to the real ``dealer``'s.

Two kinds of differential test:

* every deal of a sample is forced on ``dealer`` by predealing all four hands
  (``generate 1``, ``produce 1``) with every action at once, and croupier's
  :class:`ActionRunner` fed the same deal must print the same bytes;
* ``dealer`` deals several hands itself (a seed); the deals are read back
  from a ``printoneline`` run, and a second run with the same seed and many
  actions (numbering, PBN rotation, ``print(seats)`` pages, statistics over
  several deals) must equal croupier's output for those deals.

Only the lines dealer prints after the actions (``Generated ...``) are left
out of the comparison; they are checked separately against :func:`dealer_summary`.
"""

from __future__ import annotations

import io
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest

from croupier.bulk import DealArray, deal_array
from croupier.bulk.writers import parse_oneline
from croupier.dealing.deal import deal_from_number
from croupier.dealing.layout import make_layout
from croupier.simulate import parse_script
from croupier.simulate.actions import ActionError, ActionRunner, dealer_summary
from croupier.simulate.text_output import int_column
from tests.conftest import dealer_program

SUMMARY = re.compile(
    r"Generated (\d+) hands\nProduced (\d+) hands\nInitial random seed (\d+)\n"
    r"Time needed +([0-9.]+) sec\n$"
)

EVERY_ACTION = """action printall, printew, printpbn, print(west, north, west),
  printcompact(hcp(north) - hcp(south)), printcompact,
  printoneline(1000 * hcp(west) - 12345), printoneline,
  printes("hcp ", hcp(north), " ", \\n, "diff:", hcp(east) - hcp(west), \\n),
  average "north hcp" hcp(north), average hcp(south) - hcp(north),
  frequency "spades" (spades(north), 2, 4), frequency (hcp(east), 9, 11),
  frequency "joint" (spades(north), 3, 4, hcp(south), 8, 12)
"""


def _run_dealer(tmp_path: Path, text: str, seed: int = 1) -> str:
    path = tmp_path / "input.dl"
    path.write_text(text)
    done = subprocess.run(
        [dealer_program(), "-s", str(seed), str(path)],
        capture_output=True,
        check=True,
        timeout=30,
    )
    return done.stdout.decode()


def _predeal(deal: DealArray) -> str:
    """dealer's predeal statement for all four hands of a one-deal array."""
    hands = []
    text = deal_text(deal)
    for seat, hand in zip(("north", "east", "south", "west"), text, strict=True):
        suits = [f"{s}{h}" for s, h in zip("SHDC", hand.split("."), strict=True) if h]
        hands.append(f"predeal {seat} {', '.join(suits)}\n")
    return "".join(hands)


def deal_text(deal: DealArray) -> list[str]:
    """The four hands ``S.H.D.C``, read independently from the pile array."""
    ranks = "AKQJT98765432"
    piles = deal.piles[0]
    hands = []
    for seat in range(4):
        suits = []
        for suit in range(4):
            suits.append("".join(ranks[r] for r in range(13) if piles[13 * suit + r] == seat))
        hands.append(".".join(suits))
    return hands


def _croupier(
    text: str, deals: DealArray, filename: str, seed: int, date: str, *, summary: bool
) -> str:
    """croupier's output for the deals; ``summary``: whether dealer printed its summary."""
    script = parse_script(text, filename)
    out = io.StringIO()
    runner = ActionRunner(script, out, seed=seed, date=date)
    runner.feed(deals, 1)
    runner.finish()
    assert runner.dealer_shows_summary() == summary
    return out.getvalue()


def _split_summary(output: str) -> tuple[str, re.Match[str] | None]:
    match = SUMMARY.search(output)
    if match is None:
        return output, None
    return output[: match.start()], match


def _sample() -> list[DealArray]:
    bridge = make_layout("bridge")
    special = [0, 1, 53644737765488792839237440000 - 1]  # one suit per hand, and the last deal
    deals = [DealArray.from_deals([deal_from_number(bridge, n)]) for n in special]
    random = deal_array(17, seed="actions-differential")
    return deals + [random[i : i + 1] for i in range(len(random))]


@pytest.mark.parametrize("index", range(20))
def test_every_action_matches_dealer_on_a_predealt_deal(tmp_path: Path, index: int) -> None:
    deal = _sample()[index]
    text = "generate 1\nproduce 1\n" + _predeal(deal) + EVERY_ACTION
    expected = _run_dealer(tmp_path, text)
    path = str(tmp_path / "input.dl")
    date = re.search(r'\[Date "([^"]*)"\]', expected)
    assert date is not None
    expected_body, summary = _split_summary(expected)
    assert summary is None  # one printpbn deal: dealer's verbose flag flips off
    got = _croupier(text, deal, path, 1, date.group(1), summary=False)
    assert got == expected_body


def test_several_dealer_deals_interleave_number_and_rotate_as_dealer(tmp_path: Path) -> None:
    head = "produce 6\ncondition hcp(north) >= 8\n"
    listing = _run_dealer(tmp_path, head + "action printoneline\n", seed=77)
    deals = parse_oneline(listing)
    assert len(deals) == 6
    text = head + EVERY_ACTION.replace("print(west, north, west)", "print(east, south)")
    expected = _run_dealer(tmp_path, text, seed=77)
    date = re.search(r'\[Date "([^"]*)"\]', expected)
    assert date is not None
    body, summary = _split_summary(expected)
    assert summary is not None  # six PBN deals: the flag flipped back on
    path = str(tmp_path / "input.dl")
    assert _croupier(text, deals, path, 77, date.group(1), summary=True) == body


def test_pbn_uses_the_scripts_dealer_and_vulnerability(tmp_path: Path) -> None:
    head = "produce 5\ndealer west\nvulnerable ew\n"
    deals = parse_oneline(_run_dealer(tmp_path, head + "action printoneline\n", seed=9))
    text = head + "action printpbn, printall\n"
    expected = _run_dealer(tmp_path, text, seed=9)
    date = re.search(r'\[Date "([^"]*)"\]', expected)
    assert date is not None
    body, summary = _split_summary(expected)
    assert summary is None  # five PBN deals: odd, so dealer hides its summary
    path = str(tmp_path / "input.dl")
    assert _croupier(text, deals, path, 9, date.group(1), summary=False) == body
    assert set(re.findall(r'\[Dealer "(.)"\]', body)) == {"W"}


def test_default_action_is_printall_and_the_summary_matches(tmp_path: Path) -> None:
    text = "generate 50\nproduce 4\ncondition hcp(south) > 9\n"
    deals = parse_oneline(_run_dealer(tmp_path, text + "action printoneline\n", seed=3))
    expected = _run_dealer(tmp_path, text, seed=3)
    body, summary = _split_summary(expected)
    assert summary is not None
    assert _croupier(text, deals, "x", 3, "?", summary=True) == body
    generated, produced, seed, seconds = summary.groups()
    mine = dealer_summary(int(generated), int(produced), int(seed), float(seconds))
    assert mine == summary.group(0)


def test_statistics_without_deals_print_like_dealer(tmp_path: Path) -> None:
    text = (
        "generate 20\ncondition hcp(north) > 40\n"
        'action average "none" hcp(north), frequency (hcp(north), 0, 2),'
        " frequency (hcp(north), 0, 1, hcp(south), 5, 5), print(north)\n"
    )
    body, summary = _split_summary(_run_dealer(tmp_path, text))
    assert summary is not None and summary.group(2) == "0"
    out = io.StringIO()
    report = ActionRunner(parse_script(text), out).finish()
    assert out.getvalue() == body
    assert report.produced == 0


def test_chunked_feeding_prints_the_same_as_one_batch() -> None:
    script = parse_script(EVERY_ACTION)
    deals = deal_array(11, seed="chunks")
    whole, parts = io.StringIO(), io.StringIO()
    a = ActionRunner(script, whole, seed=1, date="d")
    a.feed(deals, 1)
    b = ActionRunner(script, parts, seed=1, date="d")
    b.feed(deals[:4], 1)
    b.feed(deals[4:5], 5)
    b.feed(deals[5:], 6)
    assert a.finish() == b.finish()
    assert whole.getvalue() == parts.getvalue()


def test_int_column_is_c_printf() -> None:
    values = np.array([0, 7, -7, 10, -10, 99999, -123456789012, 2**62])
    for width in (1, 4, 6):
        rows = int_column(values, width=width)
        got = [bytes(r[r != 0]).decode() for r in rows]
        assert got == ["%*d" % (width, v) for v in values.tolist()]  # noqa: UP031 (C printf)


def test_non_dealer_format_is_reproducible_and_reports_intervals() -> None:
    script = parse_script('action printpbn, print(east), average "n" hcp(north)')
    texts = []
    for _ in range(2):
        out = io.StringIO()
        runner = ActionRunner(script, out, dealer_format=False)
        runner.feed(deal_array(3, seed="nd"), 1)
        runner.finish()
        texts.append(out.getvalue())
    assert texts[0] == texts[1]
    text = texts[0]
    assert '[Event "?"]' in text and '[Date "?"]' in text and "East hands:" in text
    assert text.splitlines()[-1].startswith("n: mean ") and "95% CI" in text.splitlines()[-1]


def test_bad_input_is_refused() -> None:
    runner = ActionRunner(parse_script("action printall"), io.StringIO())
    with pytest.raises(ActionError, match="first_number=-1"):
        runner.feed(deal_array(1, seed="x"), -1)
    euchre = deal_array(1, "euchre", seed="x")
    with pytest.raises(ActionError, match="'euchre'"):
        runner.feed(euchre, 1)


def test_interleaved_records_are_the_slices_joined() -> None:
    # Deal by deal, each action's record in turn: against slices joined here, with empty
    # records, one action, and no deals.
    import random

    from croupier.simulate.text_output import Records, interleaved

    rng = random.Random(34)
    for actions, deals in ((3, 200), (1, 50), (4, 1), (2, 0)):
        texts = [
            [
                bytes(rng.randrange(256) for _ in range(rng.choice([0, 0, 1, 5, 40])))
                for _ in range(deals)
            ]
            for _ in range(actions)
        ]
        want = b"".join(texts[a][i] for i in range(deals) for a in range(actions))
        assert interleaved([Records.from_list(t) for t in texts]) == want
    assert interleaved([]) == b""
    with pytest.raises(ValueError, match="as many deals"):
        interleaved([Records.from_list([b"a"]), Records.from_list([b"a", b"b"])])


def test_records_from_rows_drop_every_pad_byte() -> None:
    # The compiled squeeze against numpy's mask: pads anywhere in a row, rows of pads only,
    # no rows, rows of no bytes.
    from croupier.bulk.writers.rows import PAD
    from croupier.simulate.text_output import Records

    rng = np.random.default_rng(34)
    for shape in ((300, 77), (5, 1), (0, 10), (4, 0)):
        rows = rng.integers(0, 4, shape).astype(np.uint8)  # PAD (0) a quarter of the bytes
        if shape[0] > 1 and shape[1]:
            rows[1] = PAD
        keep = rows != PAD
        got = Records.from_rows(rows)
        assert got.data == rows[keep].tobytes()
        assert got.ends.tolist() == np.cumsum(keep.sum(axis=1)).tolist()


def test_printes_records_are_what_percent_formatting_gives() -> None:
    # printes' rows (numbers right-aligned, pads dropped) against one % formatting of the
    # batch: signs, the int64 extremes, texts with %, non-ASCII letters, no deals, a NUL.
    from croupier.simulate.text_output import Records

    rng = np.random.default_rng(34)
    for n in (0, 1, 7, 500):
        big = rng.integers(-(2**63), 2**63 - 1, n, dtype=np.int64, endpoint=True)
        big[: min(n, 2)] = [-(2**63), 2**63 - 1][: min(n, 2)]
        small = rng.integers(-12, 40, n)
        for items in (
            [" hcp=", small, " %d é ", big, "\n"],
            [small],
            ["only text\n"],
            [small, small, "x\0y", big],
        ):
            got = Records.formatted(items, n)
            want = Records.formatted_reference(items, n)
            assert got.data == want.data
            assert got.ends.tolist() == want.ends.tolist()
    text = Records.formatted(["n=", np.array([3, -40])], 2)
    assert text.data == b"n=3n=-40"  # and each deal's text apart
    assert [text.record(0), text.record(1)] == [b"n=3", b"n=-40"]


def test_printpbn_records_are_the_deal_by_deal_text() -> None:
    # printpbn's rows against the plain loop: boards from 1 and from far on (the dealer's
    # and the vulnerability's cycles), a fixed dealer and vulnerability, texts with
    # non-ASCII letters and a NUL, one deal and none.
    from croupier.simulate.text_output import printpbn_records, printpbn_records_reference

    deals = deal_array(40, seed="printpbn")
    cases = [
        (deals, 1, {"event": "Hand simulated by dealer", "date": "2026.12.03"}),
        (deals, 9_999_983, {"event": "é", "date": "d"}),
        (deals[:1], 5, {"event": "e", "date": "d", "dealer": "W", "vulnerable": "All"}),
        (deals[:3], 2, {"event": "nul\0", "date": "d", "dealer": ""}),
        (deals[:0], 1, {"event": "e", "date": "d"}),
    ]
    for batch, first, tags in cases:
        got = printpbn_records(batch, first, **tags)
        want = printpbn_records_reference(batch, first, **tags)
        assert got.data == want.data
        assert got.ends.tolist() == want.ends.tolist()
