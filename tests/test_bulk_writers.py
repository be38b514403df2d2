"""Bulk writers: every format read back (dealer, endplay, json, numpy) to the same deals."""

from __future__ import annotations

import io
import itertools
import json
import os
import re
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from endplay.parsers import lin as endplay_lin
from endplay.parsers import pbn as endplay_pbn

from croupier.boards import Board
from croupier.bulk import DealArray, deal_array
from croupier.bulk.writers import (
    BULK_FORMATS,
    BulkWriterError,
    JsonlWriter,
    LinWriter,
    NpyWriter,
    NpzWriter,
    OnelineWriter,
    PbnDealWriter,
    PbnWriter,
    UnknownBulkFormatError,
    jsonl_bytes,
    lin_bytes,
    npy_header,
    oneline_bytes,
    open_writer,
    parse_oneline,
    pbn_deal_bytes,
    pbn_game_bytes,
    write_npz,
)
from croupier.bulk.writers import text as text_module
from croupier.dealing.deal import Deal, deal_from_number
from croupier.dealing.layout import make_layout
from croupier.errors import FileFormatError
from croupier.formats.deal_json import deal_to_dict
from croupier.formats.deal_text import sorted_hand
from croupier.formats.lin import format_lin_board, format_lin_records
from croupier.formats.pbn import format_pbn_records
from croupier.formats.pbn_deal import format_pbn_deal, format_pbn_hand, parse_pbn_deal
from croupier.formats.records import BoardRecord

from .conftest import dealer_program

BRIDGE = make_layout("bridge")


def _run_dealer(tmp_path: Path, action: str, count: int, seed: int) -> str:
    dealer = dealer_program()
    script = tmp_path / "script.dl"
    script.write_text(f"produce {count}\naction {action}\n")
    done = subprocess.run(
        [dealer, "-s", str(seed), str(script)],
        capture_output=True,
        check=True,
        timeout=60,
    )
    return done.stdout.decode()


# -- oneline: dealer's printoneline, byte for byte ----------------------------------------


def test_oneline_is_dealers_printoneline_byte_for_byte(tmp_path: Path) -> None:
    out = _run_dealer(tmp_path, "printoneline", 500, 20261201)
    lines = [ln + "\n" for ln in out.splitlines() if ln.startswith("n ")]
    assert len(lines) == 500
    deals = parse_oneline(out)
    assert oneline_bytes(deals) == "".join(lines).encode()
    # the parser agrees with an independent reading of the same lines (hands by position)
    for line, deal in zip(lines[:50], deals, strict=False):
        words = line.split(" ")
        assert words[0::2][:4] == ["n", "e", "s", "w"]
        assert format_pbn_deal(deal.piles) == "N:" + " ".join(words[1:8:2])


_BOARD_TAGS = r'^\[(Board|Dealer|Vulnerable|Deal) "([^"]*)"\]\r?$'


def test_pbn_deals_and_games_match_dealers_printpbn(tmp_path: Path) -> None:
    deals = parse_oneline(_run_dealer(tmp_path, "printoneline", 40, 7))
    theirs = _run_dealer(tmp_path, "printpbn", 40, 7)  # the same seed: the same deals
    tags = re.findall(_BOARD_TAGS, theirs, re.M)
    ours = re.findall(_BOARD_TAGS, pbn_game_bytes(deals).decode(), re.M)
    # Board, Dealer and Vulnerable as dealer writes them; dealer's Deal starts with North's
    # hand, ours (PBN export format) with the dealer's: the same hands
    assert [t for t in ours if t[0] != "Deal"] == [t for t in tags if t[0] != "Deal"]
    ours_deals = [v for k, v in ours if k == "Deal"]
    their_deals = [v for k, v in tags if k == "Deal"]
    dealers = [v for k, v in tags if k == "Dealer"]
    assert [d[0] for d in ours_deals] == dealers
    assert [parse_pbn_deal(d) for d in ours_deals] == [parse_pbn_deal(d) for d in their_deals]
    assert pbn_deal_bytes(deals).decode() == "".join(d + "\n" for d in their_deals)


def test_parse_oneline_reads_hand_made_lines_and_refuses_bad_ones() -> None:
    # deal 0 of the canonical numbering: North all spades, East hearts, South diamonds, West clubs
    first = "n AKQJT98765432... e .AKQJT98765432.. s ..AKQJT98765432. w ...AKQJT98765432 \n"
    # North and East swap the ace of spades and the two of hearts (worked out by hand)
    swap = "n KQJT98765432.2.. e A.AKQJT9876543.. s ..AKQJT98765432. w ...AKQJT98765432 \n"
    deals = parse_oneline("Generated 2 hands\n" + first + swap)
    assert deals.suit_lengths()[1, 0].tolist() == [12, 1, 0, 0]
    assert deals[1].piles[1][0].code == "AS" and deals[0].number == 0
    for bad, why in (
        (first.replace("n AK", "n XK"), "bad hand"),
        (first.replace(" e ", " x "), "labelled"),
        (first.replace("...AKQ", "..AKQ"), "not a printoneline"),
        (first.replace("AKQJT98765432.. s", "AKQJT9876543A.. s"), "exactly once"),
    ):
        with pytest.raises(BulkWriterError, match=why) as info:
            parse_oneline(bad)
        assert "\n" not in str(info.value)


def test_oneline_of_other_layouts_lists_every_pile() -> None:
    for game in ("holdem", "euchre", "pinochle", "war"):
        deals = deal_array(60, game, seed="other layouts")
        lines = oneline_bytes(deals).decode().splitlines()
        for line, deal in zip(lines, deals, strict=True):
            expected = " | ".join(
                " ".join(
                    [
                        pile.name,
                        *(
                            c.code
                            for c in (
                                cards if pile.ordered else sorted_hand(cards, deal.layout.order)
                            )
                        ),
                    ]
                )
                for pile, cards in zip(deal.layout.piles, deal.piles, strict=True)
            )
            assert line == expected
        if deals.layout.ordered:  # the stacks are written top first, not sorted
            assert any(
                list(d.piles[p]) != sorted_hand(d.piles[p], d.layout.order)
                for d in deals
                for p in d.layout.stack_piles
            )


# -- PBN -----------------------------------------------------------------------------------


def _boards(deals: DealArray, first: int) -> list[Board]:
    return [Board.standard(first + i, tuple(d.piles)) for i, d in enumerate(deals)]  # type: ignore[arg-type]


_MANDATORY = ("Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer")
_MANDATORY += ("Vulnerable", "Deal", "Scoring", "Declarer", "Contract", "Result")


def _export_game(board: Board, generator: str, event: str = "?") -> str:
    """One game of a PBN 2.1 export file, written here from the standard's rules (LF ends).

    The seven-tag roster and the rest of the mandatory tags in their order, unknown
    values ``?``, the Deal from the dealer's hand clockwise, one tag a line, then the
    supplemental Generator tag and an empty line.
    """
    seats = "NESW"
    at = seats.index(board.dealer)
    hands = [board.hands[(at + k) % 4] for k in range(4)]
    deal = f"{board.dealer}:" + " ".join(format_pbn_hand(h) for h in hands)
    values = {"Event": event, "Board": str(board.number), "Dealer": board.dealer}
    values |= {"Vulnerable": board.vulnerable, "Deal": deal}
    lines = [f'[{tag} "{values.get(tag, "?")}"]' for tag in _MANDATORY]
    return "\n".join([*lines, f'[Generator "{generator}"]', "", ""])


def test_pbn_file_is_the_export_format_byte_for_byte_across_batches() -> None:
    deals = deal_array(300, seed="pbn games")
    for first, newline in ((1, "\r\n"), (650, "\r\n"), (3, "\n")):
        out = io.BytesIO()
        with PbnWriter(
            out, BRIDGE, first_board=first, generator="croupier test", newline=newline
        ) as w:
            for lo, hi in ((0, 7), (7, 7), (7, 200), (200, 300)):
                w.write(deals[lo:hi])
        games = "".join(_export_game(b, "croupier test") for b in _boards(deals, first))
        expected = ("% PBN 2.1\n% EXPORT\n" + games).replace("\n", newline)
        assert out.getvalue().decode() == expected
        # and the scalar writer of board records (croupier convert) writes the same bytes
        records = [BoardRecord.from_board(b) for b in _boards(deals, first)]
        scalar = format_pbn_records(records, generator="croupier test", newline=newline)
        assert out.getvalue().decode() == scalar
    out = io.BytesIO()
    with PbnWriter(out, BRIDGE, first_board=990, event="Cup", date="2026.12.01") as w:
        w.write(deals[:10])
    records = [BoardRecord.from_board(b) for b in _boards(deals[:10], 990)]
    assert out.getvalue().decode() == format_pbn_records(records, event="Cup", date="2026.12.01")
    assert b"\r" not in pbn_game_bytes(deals[:3], newline="\n")
    assert pbn_game_bytes(deals[:3]).count(b"\r\n") == 3 * 17  # 16 tags and an empty line


def test_pbn_comments_and_event_go_where_the_export_format_puts_them() -> None:
    out = io.BytesIO()
    with PbnWriter(out, BRIDGE, event='Club "A"', comments=["one", "two"], generator="g") as w:
        w.write(deal_array(1, seed="c"))
    lines = out.getvalue().decode().split("\r\n")
    assert lines[:5] == ["% PBN 2.1", "% EXPORT", "% one", "% two", '[Event "Club \\"A\\""]']
    assert lines[-3:] == ['[Generator "g"]', "", ""]
    with pytest.raises(FileFormatError, match="must be one line"):
        PbnWriter(io.BytesIO(), BRIDGE, comments=["two\nlines"])
    with pytest.raises(BulkWriterError, match="newline="):
        PbnWriter(io.BytesIO(), BRIDGE, newline="\r")


def test_pbn_file_parses_in_endplay_to_the_same_deals() -> None:
    deals = deal_array(120, seed="endplay")
    out = io.BytesIO()
    with PbnWriter(out, BRIDGE, first_board=5) as w:
        w.write(deals)
    parsed = endplay_pbn.load(io.StringIO(out.getvalue().decode(), newline=""))
    assert len(parsed) == 120
    seats = {"N": "north", "E": "east", "S": "south", "W": "west"}
    vuls = {"None": "none", "NS": "ns", "EW": "ew", "All": "both"}
    for i, (board, deal) in enumerate(zip(parsed, deals, strict=True)):
        ours = Board.standard(5 + i, tuple(deal.piles))  # type: ignore[arg-type]
        assert board.board_num == 5 + i
        assert board.dealer.name.lower() == seats[ours.dealer]
        assert board.vul.name.lower() == vuls[ours.vulnerable]
        assert board.deal.to_pbn() == format_pbn_deal(deal.piles)


def test_pbn_board_numbers_go_past_999_with_the_standard_cycles() -> None:
    text = pbn_game_bytes(deal_array(20, seed="far"), first_board=9990).decode()
    boards = [int(b) for b in re.findall(r'\[Board "(\d+)"\]', text)]
    assert boards == list(range(9990, 10010))
    # board b: dealer N E S W for b % 4 = 1 2 3 0; vulnerability by b % 16 (hand-written table)
    cycle = ["EW", "None", "NS", "EW", "All", "NS", "EW", "All"]
    cycle += ["None", "EW", "All", "None", "NS", "All", "None", "NS"]
    assert re.findall(r'\[Dealer "(.)"\]', text) == ["WNES"[b % 4] for b in boards]
    assert re.findall(r'\[Deal "(.):', text) == ["WNES"[b % 4] for b in boards]
    assert re.findall(r'\[Vulnerable "(\w+)"\]', text) == [cycle[b % 16] for b in boards]
    lin = lin_bytes(deal_array(20, seed="far"), first_board=9990).decode()
    assert re.findall(r"md\|(\d)", lin) == ["2341"[b % 4] for b in boards]  # 1 is South
    lin_vul = {"None": "o", "NS": "n", "EW": "e", "All": "b"}
    assert re.findall(r"\|sv\|(.)\|", lin) == [lin_vul[cycle[b % 16]] for b in boards]


# -- LIN -------------------------------------------------------------------------------------


def test_lin_is_the_scalar_writer_byte_for_byte_across_batches_and_chunks() -> None:
    deals = deal_array(text_module.CHUNK_ROWS + 300, seed="lin boards")
    for first, cuts in ((1, (0, 5, 5, 900)), (650, (0, 349))):
        out = io.BytesIO()
        with LinWriter(out, BRIDGE, first_board=first) as w:
            for lo, hi in itertools.pairwise(cuts):
                w.write(deals[lo:hi])
        expected = [format_lin_board(b) for b in _boards(deals[: cuts[-1]], first)]
        assert out.getvalue().decode().split("\n") == [*expected, ""]
        records = [BoardRecord.from_board(b) for b in _boards(deals[: cuts[-1]], first)]
        assert out.getvalue().decode() == format_lin_records(records)
    # one call past a chunk border, boards 1..999 over and over
    lines = lin_bytes(deals).decode().splitlines()
    picks = [0, 998, text_module.CHUNK_ROWS - 1, text_module.CHUNK_ROWS, len(deals) - 1]
    for i in picks:
        board = Board.standard(i % 999 + 1, tuple(deals[i].piles))  # type: ignore[arg-type]
        assert lines[i].replace(f"Board {i + 1}|", f"Board {i % 999 + 1}|") == format_lin_board(
            board
        )


def test_lin_reads_back_in_endplay_to_the_same_boards() -> None:
    deals = deal_array(200, seed="lin endplay")
    parsed = endplay_lin.loads(lin_bytes(deals, first_board=700).decode())
    assert len(parsed) == 200
    seats = ("north", "east", "south", "west")
    vuls = {"None": "none", "NS": "ns", "EW": "ew", "All": "both"}
    for i, (board, deal) in enumerate(zip(parsed, deals, strict=True)):
        number = 700 + i
        assert board.board_num == number
        assert board.dealer.name == seats[(number - 1) % 4]
        ours = Board.standard(number, tuple(deal.piles))  # type: ignore[arg-type]
        assert board.vul.name == vuls[ours.vulnerable]
        hands = parse_pbn_deal(board.deal.to_pbn())
        assert [list(h) for h in hands] == [list(p) for p in deal.piles]


def test_pbn_deal_strings_match_the_scalar_formatter_and_endplay() -> None:
    deals = deal_array(400, seed="pbn deals")
    lines = pbn_deal_bytes(deals).decode().splitlines()
    assert lines == [format_pbn_deal(d.piles) for d in deals]
    games = "".join(f'[Board "{i + 1}"]\n[Deal "{ln}"]\n\n' for i, ln in enumerate(lines[:50]))
    assert [b.deal.to_pbn() for b in endplay_pbn.load(io.StringIO(games))] == lines[:50]


def test_pbn_formats_refuse_other_layouts_in_one_line() -> None:
    for game in ("euchre", "holdem"):
        layout, deals = make_layout(game), deal_array(2, game, seed="x")
        for make in (
            lambda: PbnWriter(io.BytesIO(), layout),  # noqa: B023 (called in this iteration)
            lambda: PbnDealWriter(io.BytesIO(), layout),  # noqa: B023
            lambda: pbn_deal_bytes(deals),  # noqa: B023
            lambda: pbn_game_bytes(deals),  # noqa: B023
            lambda: open_writer("pbn", io.BytesIO(), layout),  # noqa: B023
            lambda: LinWriter(io.BytesIO(), layout),  # noqa: B023
            lambda: lin_bytes(deals),  # noqa: B023
        ):
            with pytest.raises(BulkWriterError, match=f"needs a bridge layout.*{game}") as info:
                make()
            assert "\n" not in str(info.value)


def test_bad_options_and_misuse_are_one_line_errors() -> None:
    with pytest.raises(BulkWriterError, match=r"first_board=0 must be"):
        PbnWriter(io.BytesIO(), BRIDGE, first_board=0)
    with pytest.raises(BulkWriterError, match=r"first_board=True must be"):
        LinWriter(io.BytesIO(), BRIDGE, first_board=True)
    with pytest.raises(FileFormatError, match="must be one line"):
        PbnWriter(io.BytesIO(), BRIDGE, event="two\nlines")
    with pytest.raises(UnknownBulkFormatError, match="'csv'; expected one of pbn, pbn-deal, "):
        open_writer("csv", io.BytesIO(), BRIDGE)
    w = OnelineWriter(io.BytesIO(), BRIDGE)
    with pytest.raises(BulkWriterError, match="layout 'euchre'"):
        w.write(deal_array(1, "euchre", seed="x"))
    w.close()
    with pytest.raises(BulkWriterError, match="after close"):
        w.write(deal_array(1, seed="x"))
    with pytest.raises(BulkWriterError, match="count=-1"):
        NpyWriter(io.BytesIO(), BRIDGE, count=-1)


# -- JSON lines ----------------------------------------------------------------------------

_JSON_KEYS = ("game", "hands", "piles", "remainder", "deal")


def _expected_json(deal: Deal, extra: dict[str, Any]) -> dict[str, Any]:
    full = deal_to_dict(deal)  # the scalar writer of `croupier deal --format jsonl`
    return {k: full[k] for k in _JSON_KEYS if k in full} | extra


def test_jsonl_matches_the_scalar_json_of_every_deal() -> None:
    for game in ("bridge", "holdem", "euchre", "pinochle"):
        deals = deal_array(80, game, seed="json lines")
        lines = jsonl_bytes(deals).decode().splitlines()
        assert [json.loads(ln) for ln in lines] == [_expected_json(d, {}) for d in deals]


def test_jsonl_bits_and_constant_fields() -> None:
    deals = deal_array(50, seed="bits")
    assert deals.bits is not None
    out = io.BytesIO()
    fields = {"algorithm": "croupier-bulk/1", "source": "seeded"}
    with JsonlWriter(out, BRIDGE, bits_used=True, fields=fields) as w:
        w.write(deals)
    objects = [json.loads(ln) for ln in out.getvalue().splitlines()]
    keys = ["bits_used", "algorithm", "source"]
    for obj, deal in zip(objects, deals, strict=True):
        full = deal_to_dict(deal)
        assert obj == _expected_json(deal, {k: full[k] for k in keys} | fields)
        assert list(obj)[-3:] == keys
    # rows dealt elsewhere carry no bits: the key is left out
    plain = DealArray(BRIDGE, deals.piles)
    assert "bits_used" not in json.loads(jsonl_bytes(plain, bits_used=True).splitlines()[0])


# -- npy / npz -----------------------------------------------------------------------------


class _Pipe(io.RawIOBase):
    """A write-only stream that cannot seek (like a pipe)."""

    def __init__(self) -> None:
        self.data = bytearray()

    def writable(self) -> bool:
        return True

    def write(self, b: Any) -> int:
        self.data += bytes(b)
        return len(bytes(b))


def test_npy_reads_back_in_every_streaming_mode() -> None:
    deals = deal_array(1000, seed="npy")
    batches = [deals[:1], deals[1:1], deals[1:600], deals[600:]]
    seekable = io.BytesIO(b"prefix")
    seekable.seek(6)
    w = NpyWriter(seekable, BRIDGE)
    for i, batch in enumerate(batches):
        w.write(batch)
        # valid after every batch, before close
        got = np.load(io.BytesIO(seekable.getvalue()[6:]))
        assert np.array_equal(got, DealArray.concatenate(batches[: i + 1]).piles)
    w.close()
    assert seekable.getvalue()[:6] == b"prefix"
    for count in (None, 1000):
        pipe = _Pipe()
        with NpyWriter(pipe, BRIDGE, count=count) as w:  # type: ignore[arg-type]
            for batch in batches:
                w.write(batch)
        assert np.array_equal(np.load(io.BytesIO(bytes(pipe.data))), deals.piles)
    short = NpyWriter(_Pipe(), BRIDGE, count=5)  # type: ignore[arg-type]
    short.write(deals[:1])
    with pytest.raises(BulkWriterError, match="count=5 rows were announced, but only 1"):
        short.close()
    with pytest.raises(BulkWriterError, match="count=1 rows were announced, but 2"):
        NpyWriter(_Pipe(), BRIDGE, count=1).write(deals[:2])  # type: ignore[arg-type]


def test_npy_header_is_numpys_own() -> None:
    buf = io.BytesIO()
    np.save(buf, np.zeros((123, 52), np.uint8))
    assert buf.getvalue()[: len(npy_header(123, 52))] == npy_header(123, 52)


def test_npz_holds_piles_and_metadata(tmp_path: Path) -> None:
    for game, compress in (("bridge", False), ("euchre", True)):
        deals = deal_array(300, game, seed="npz")
        path = tmp_path / f"{game}.npz"
        with (
            path.open("wb") as f,
            NpzWriter(
                f, deals.layout, algorithm="croupier-bulk/1", seed="npz", compress=compress
            ) as w,
        ):
            w.write(deals[:100])
            w.write(deals[100:])
        with np.load(path) as z:
            assert np.array_equal(z["piles"], deals.piles)
            meta = json.loads(str(z["meta"]))
        assert meta["rows"] == 300 and meta["algorithm"] == "croupier-bulk/1"
        assert meta["seed"] == "npz" and meta["layout"]["game"] == game
        assert meta["layout"]["cards"] == [c.code for c in deals.layout.deck]
        assert [p["size"] for p in meta["layout"]["piles"]] == list(deals.layout.sizes)
    pipe = _Pipe()
    write_npz(deals, pipe)  # type: ignore[arg-type]  # a zip can go down a pipe too
    with np.load(io.BytesIO(bytes(pipe.data))) as z:
        assert np.array_equal(z["piles"], deals.piles)
    with open(os.devnull, "wb") as sink:  # seekable, but tell() stays 0
        write_npz(deals, sink)


# -- streaming: empty input, interrupted batches, every format ------------------------------


def _read_back(fmt: str, data: bytes, layout: Any) -> np.ndarray[Any, Any]:
    """The piles array of a written file, read with each format's independent reader."""
    if fmt == "npy":
        return np.load(io.BytesIO(data))
    if fmt == "npz":
        with np.load(io.BytesIO(data)) as z:
            return np.asarray(z["piles"])
    if fmt == "oneline":
        return parse_oneline(data).piles
    if fmt == "pbn":
        boards = endplay_pbn.load(io.StringIO(data.decode()))
        # a file of no games is its header alone, which endplay reads as one empty board
        pbn = [b.deal.to_pbn() for b in boards if b.deal.to_pbn() != "N:... ... ... ..."]
    elif fmt == "lin":
        pbn = [b.deal.to_pbn() for b in endplay_lin.loads(data.decode())]
    elif fmt == "pbn-deal":
        pbn = data.decode().splitlines()
    else:
        pbn = [json.loads(ln)["deal"] for ln in data.splitlines()]
    order = {c: i for i, c in enumerate(layout.deck)}
    rows = np.zeros((len(pbn), 52), np.uint8)
    for r, deal in enumerate(pbn):
        for p, hand in enumerate(parse_pbn_deal(deal)):
            rows[r, [order[c] for c in hand]] = p
    return rows


def test_every_format_streams_batches_and_empty_input() -> None:
    deals = deal_array(70, seed="stream")
    empty = deals[:0]
    for fmt in BULK_FORMATS:
        out = io.BytesIO()
        w = open_writer(fmt, out, BRIDGE)
        w.write(empty)
        w.close()
        assert _read_back(fmt, out.getvalue(), BRIDGE).shape == (0, 52), fmt
        out = io.BytesIO()
        w = open_writer(fmt, out, BRIDGE)
        for lo, hi in ((0, 30), (30, 30), (30, 70)):
            w.write(deals[lo:hi])
        w.close()
        assert w.rows_written == 70
        assert np.array_equal(_read_back(fmt, out.getvalue(), BRIDGE), deals.piles), fmt


def test_an_interrupted_batch_writes_nothing_and_the_file_stays_valid(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    first = deal_array(10, seed="before")
    big = deal_array(text_module.CHUNK_ROWS + 5, seed="interrupted")
    real = text_module._bridge_hands
    calls = {"n": 0}

    def flaky(*args: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == 2:  # the second chunk of the big batch: Ctrl-C
            raise KeyboardInterrupt
        return real(*args)

    for fmt in ("pbn", "lin", "oneline", "jsonl"):
        out = io.BytesIO()
        w = open_writer(fmt, out, BRIDGE)
        w.write(first)
        monkeypatch.setattr(text_module, "_bridge_hands", flaky)
        calls["n"] = 0
        with pytest.raises(KeyboardInterrupt):
            w.write(big)
        monkeypatch.setattr(text_module, "_bridge_hands", real)
        w.close()
        assert w.rows_written == 10
        assert np.array_equal(_read_back(fmt, out.getvalue(), BRIDGE), first.piles), fmt


def test_holdem_and_euchre_stream_through_oneline_jsonl_and_npy() -> None:
    for game in ("holdem", "euchre"):
        deals = deal_array(40, game, seed="non-bridge")
        for fmt in ("oneline", "jsonl", "npy", "npz"):
            out = io.BytesIO()
            w = open_writer(fmt, out, deals.layout)
            w.write(deals[:15])
            w.write(deals[15:])
            w.close()
            data = out.getvalue()
            if fmt == "oneline":
                assert data == oneline_bytes(deals)
            elif fmt == "jsonl":
                got = [json.loads(ln) for ln in data.splitlines()]
                assert got == [_expected_json(d, {}) for d in deals]
            else:
                assert np.array_equal(_read_back(fmt, data, deals.layout), deals.piles)


def test_doc_example_deal_zero_in_every_text_format() -> None:
    zero = DealArray.from_deals([deal_from_number(BRIDGE, 0)])
    hands = ["AKQJT98765432...", ".AKQJT98765432..", "..AKQJT98765432.", "...AKQJT98765432"]
    assert pbn_deal_bytes(zero).decode() == "N:" + " ".join(hands) + "\n"
    assert (
        oneline_bytes(zero).decode()
        == "".join(f"{s} {h} " for s, h in zip("nesw", hands, strict=True)) + "\n"
    )
