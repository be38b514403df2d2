"""Smoke test of an installed croupier wheel, run outside the checkout by .ci/run.

It checks what packaging could lose: the compiled kernels, the fonts of the PDF hand
record, the verification page; and that the command line deals, shuffles (a list and a
file) and prints a hand record.  Usage: ``python smoke.py CHECKOUT`` (the checkout the
wheel must not come from).
"""

from __future__ import annotations

import subprocess
import sys
from importlib import resources
from pathlib import Path


def main() -> None:
    checkout = Path(sys.argv[1]).resolve()
    import croupier
    from croupier._core import deal_text

    installed = Path(croupier.__file__).resolve()
    assert checkout not in installed.parents, f"croupier came from the checkout: {installed}"
    assert Path(deal_text.__file__).suffix in (".so", ".pyd"), deal_text.__file__
    fonts = resources.files("croupier") / "fonts"
    assert (fonts / "DejaVuSans.ttf").is_file() and (fonts / "DejaVuSans-Bold.ttf").is_file()
    page = (resources.files("croupier") / "web" / "verify.html").read_bytes()
    assert page.lower().startswith(b"<!doctype html>"), page[:40]
    assert (resources.files("croupier") / "py.typed").is_file()

    deal = croupier.deal(seed="smoke")
    assert sum(len(hand) for hand in deal.hands) == 52
    assert sorted(croupier.shuffle(list(range(100)), seed="smoke")) == list(range(100))

    from croupier.formats.board_files import read_board_file, render_boards
    from croupier.tournament.verifiable import make_boards

    boards = make_boards(bytes(32), "Smoke", b"1", 1, range(1, 5))
    pbn = render_boards(boards, "pbn")
    assert len(read_board_file(pbn, "pbn").records) == 4
    exe = Path(sys.executable).with_name("croupier")
    record = subprocess.run(
        [str(exe), "handrecord", "-", "--from", "pbn", "--format", "html", "--event", "Smoke"],
        input=pbn,
        capture_output=True,
        check=True,
    ).stdout
    assert record.startswith(b"<!DOCTYPE html>") and b"Smoke" in record, record[:200]
    lines = b"".join(b"line %d\n" % i for i in range(20_000))  # the compiled file shuffle
    shuffled = subprocess.run(
        [str(exe), "shuffle", "--file", "-", "--seed", "smoke"],
        input=lines,
        capture_output=True,
        check=True,
    ).stdout
    assert shuffled != lines and sorted(shuffled.splitlines()) == sorted(lines.splitlines())
    print(f"smoke test of {installed.parent}: ok")


if __name__ == "__main__":
    main()
