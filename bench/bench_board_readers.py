"""Benchmark: games read per second by every board-file reader, on generated files.

For each format croupier reads (PBN, LIN, DUP, DLM, CSV, one deal per line,
JSON) a file of ``--games`` uniformly random deals is rendered by croupier itself
(board numbers 1 … 999 and from 1 again; a DUP file of that many records
numbers them on past 999, and those are read and skipped like the others; a
DLM file holds 99 boards, so it is read again and again), then read by
:func:`croupier.formats.board_files.read_board_file` (as ``croupier convert``
reads).  A file of 999 boards (99 for DLM) is read by
:func:`~croupier.formats.board_files.read_boards` (as verification reads) as
many times.  The median of ``--rounds`` runs is printed in games per second of
wall time and of processor time (on a busy machine the second is the one to
compare), with the processor time of one run.

A second table reads files that are refused: one game more than
:data:`croupier.formats.records.MAX_FILE_GAMES`, in the formats whose games
fit in a board file of
:data:`~croupier.formats.board_files.MAX_BOARD_FILE_BYTES`; they are refused
before any game is parsed.

Run: ``.venv/bin/python bench/bench_board_readers.py [--games 20000] [--rounds 3]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from croupier.boards import Board
from croupier.errors import FileFormatError
from croupier.formats.board_files import (
    MAX_BOARD_FILE_BYTES,
    read_board_file,
    read_boards,
    render_boards,
)
from croupier.formats.records import MAX_FILE_GAMES
from croupier.ranking.bigdeal import GOEDEL_MAX, goedel_unrank

FORMATS = ["pbn", "lin", "dup", "dlm", "csv", "lines", "json"]
MOST_BOARDS = {"dlm": 99}  # a DLM file has 99 board slots; the other formats go to 999


def deals(count: int) -> list[Board]:
    """``count`` uniformly random deals (a fixed seed), numbered 1, 2, … and from 1 again
    after 999: every holding and hand as varied as in real files, so no reader gains from
    repeats that real files do not have."""
    rng = random.Random(2026)
    return [
        Board.standard(1 + i % 999, goedel_unrank(rng.randrange(GOEDEL_MAX))) for i in range(count)
    ]


def render(fmt: str, games: int) -> tuple[bytes, int]:
    """A file in ``fmt``, and how many times to read it for ``games`` games in all.

    DUP holds one set of consecutive boards: a file of ``games`` records has numbers past
    999, which are read (and skipped) like the others.  A DLM file holds 99 boards: it is
    read again and again.
    """
    most = MOST_BOARDS.get(fmt)
    if most is None:
        if fmt == "dup":
            one = render_boards(deals(999), fmt)
            return (one * (games // 999 + 1))[: games * len(one) // 999], 1
        return render_boards(deals(games), fmt), 1
    return render_boards(deals(most), fmt), max(1, games // most)


def timed(run: Callable[[], int], rounds: int) -> tuple[float, float, int]:
    """Median wall seconds, median processor seconds, and games of ``rounds`` runs of ``run``."""
    walls, cpus, games = [], [], 0
    for _ in range(rounds):
        wall, cpu = time.perf_counter(), time.process_time()
        games = run()
        cpus.append(time.process_time() - cpu)
        walls.append(time.perf_counter() - wall)
    return statistics.median(walls), statistics.median(cpus), games


def _records(data: bytes, fmt: str, times: int) -> Callable[[], int]:
    def run() -> int:
        games = 0
        for _ in range(times):
            contents = read_board_file(data, fmt, source="bench")
            games += len(contents.records) + sum(1 for s in contents.skipped if s.game)
        return games

    return run


def _boards(data: bytes, fmt: str, times: int) -> Callable[[], int]:
    return lambda: sum(len(read_boards(data, fmt, source="bench")) for _ in range(times))


def _refused(data: bytes, fmt: str) -> Callable[[], int]:
    def run() -> int:
        try:
            read_board_file(data, fmt, source="bench", partial=True)
        except FileFormatError as exc:
            assert "more than" in str(exc), exc
            return MAX_FILE_GAMES + 1
        raise AssertionError(f"{fmt}: a file of {MAX_FILE_GAMES + 1:,} games was read")

    return run


def row(name: str, fmt: str, size: int, result: tuple[float, float, int]) -> None:
    wall, cpu, games = result
    rate = games / wall if wall else float("inf")
    cpu_rate = games / cpu if cpu else float("inf")
    print(
        f"{name:<15} {fmt:<6} {games:>8,} games {size / 2**20:>6.2f} MiB "
        f"{rate:>10,.0f} games/s (wall) {cpu_rate:>10,.0f} games/s (cpu {cpu:.3f} s)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000, help="games of each file")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each reader (median)")
    args = parser.parse_args()
    print(f"files of {args.games:,} games; median of {args.rounds} runs")
    for fmt in FORMATS:
        data, times = render(fmt, args.games)
        row("read_board_file", fmt, len(data), timed(_records(data, fmt, times), args.rounds))
        small, times = render(fmt, 999)
        times = max(1, args.games // 999) if fmt not in MOST_BOARDS else times * 10
        row("read_boards", fmt, len(small), timed(_boards(small, fmt, times), args.rounds))
    print(f"\nfiles of {MAX_FILE_GAMES + 1:,} games (refused):")
    for fmt in FORMATS:
        if fmt in MOST_BOARDS:
            continue
        data = (
            render(fmt, MAX_FILE_GAMES + 1)[0]
            if fmt == "dup"
            else render_boards(deals(MAX_FILE_GAMES + 1), fmt)
        )
        if len(data) > MAX_BOARD_FILE_BYTES:
            print(f"{'refused':<15} {fmt:<6} {len(data) / 2**20:.1f} MiB: over the size limit")
            continue
        row("refused", fmt, len(data), timed(_refused(data, fmt), args.rounds))


if __name__ == "__main__":
    main()
