"""The records of a plain LIN file (one board a line) are exactly those of the general reader.

``read_lin_records`` reads a file of one board a line, its pairs in the usual order, with
one regular expression; every file here is also read by the general reader (which knows
every rule: boards across lines, repeated labels, free text) and the two must agree in
every record and every skipped game, line and room included.
"""

from __future__ import annotations

import random

import pytest

from croupier.formats import lin
from croupier.formats.records import BoardFileContents, SkippedGame
from tests.reader_checks import agree, every_field, lin_hands


def general(text: str, partial: bool) -> BoardFileContents:
    """What the general reader gives (boards, then one record a board)."""
    records, skipped = [], []
    for game, board in enumerate(lin._Reader(text, "s").boards(), start=1):
        result = lin._record(board, game, partial)
        if isinstance(result, str):
            skipped.append(SkippedGame(game, board.line, result))
        else:
            records.append(result)
    return BoardFileContents(records, skipped, "s")


def an_md(rng: random.Random) -> str:
    parts = lin_hands(rng)
    dealer = rng.choice(["1", "2", "3", "4", "", "5"])
    kind = rng.random()
    if kind < 0.15:
        parts[3] = ""  # the last hand left out (completed)
    elif kind < 0.2:
        parts = parts[:2]  # a partial deal
    elif kind < 0.24:
        parts[0] = parts[0].lower()
    elif kind < 0.27:
        parts[1] = parts[0]  # cards twice
    elif kind < 0.3:
        parts[2] = "S" + parts[2][1:][::-1]  # ranks out of order
    return dealer + ",".join(parts)


QX = ["o1", "c12", "O 7", "x", "", "c1000"]
AH = ["Board 1", "Board 42", "board 999", "Board 1000", "", "no number", "12b"]
SV = ["o", "n", "e", "b", "0", "-", "", "q", "B"]


def a_line(rng: random.Random) -> str:
    pairs = []
    if rng.random() < 0.3:
        pairs.append(f"qx|{rng.choice(QX)}|")
    if rng.random() < 0.7:
        pairs.append(f"pn|{rng.choice(['', ',,,', 'a,b,c,d'])}|")
    if rng.random() < 0.7:
        pairs.append("st||")
    pairs.append(f"md|{an_md(rng)}|")
    if rng.random() < 0.7:
        pairs.append("rh||")
    if rng.random() < 0.85:
        pairs.append(f"ah|{rng.choice(AH)}|")
    if rng.random() < 0.85:
        pairs.append(f"sv|{rng.choice(SV)}|")
    if rng.random() < 0.7:
        pairs.append("pg||")
    return "".join(pairs)


def a_file(rng: random.Random) -> str:
    text = "\n".join(a_line(rng) for _ in range(rng.randrange(1, 25)))
    if rng.random() < 0.5:
        text += "\n"
    if rng.random() < 0.3:
        text = text.replace("\n", "\r\n")
    return text


@pytest.mark.parametrize("seed", range(40))
def test_plain_files_give_the_records_of_the_general_reader(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(10):
        text = a_file(rng)
        for partial in (False, True):
            plain = lin._plain_records(text, "s", partial)
            agree(
                plain,
                general(text, partial),
                lin.read_lin_records(text, source="s", partial=partial),
                text,
            )


@pytest.mark.parametrize(
    "text",
    [
        "md|3SA,,,|\n\nmd|3SK,,,|\n",  # an empty line
        "md|3SA,,,|ah|Board 1|ah|Board 2|",  # a repeated label starts a board
        "ah|Board 5|\nmd|3SA,,,|",  # a label before the deal, on its own line
        "MD|3SA,,,|",  # upper-case tag
        "md|3SA,,,|mb|p|pc|SA|",  # the play
        "md|3SA,,,\nah|Board 1|",  # a value broken over lines
        "md|3SA,,,|\rah|x|",
        "",
    ],
)
def test_other_files_go_the_general_way(text: str) -> None:
    assert lin._plain_records(text, "s", True) is None
    if text:
        read = lin.read_lin_records(text, source="s", partial=True)
        assert every_field(read) == every_field(general(text, True))


def test_a_plain_file_is_read_without_the_general_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_reader(*args: object) -> object:
        raise AssertionError("the general reader read a plain file")

    monkeypatch.setattr(lin, "_Reader", no_reader)
    contents = lin.read_lin_records(a_file(random.Random(5)), source="s", partial=True)
    assert contents.records or contents.skipped


def test_too_many_boards_are_refused_before_any_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    from croupier.formats.records import MAX_FILE_GAMES

    def no_record(*args: object) -> object:
        raise AssertionError("a board was read")

    monkeypatch.setattr(lin, "_values_record", no_record)
    text = "md|3SA,,,|\n" * (MAX_FILE_GAMES + 1)
    with pytest.raises(lin.FileFormatError, match="more than 100,000 games"):
        lin.read_lin_records(text, source="s")
