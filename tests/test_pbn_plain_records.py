"""The records of a plain PBN file, read by position in the text, are exactly the records
the scanner's games give.

``read_pbn_records`` reads a plain file (one tag a line, no escapes, no inheritance, no
comments among the games) without building each game's tag dictionary; every file here is
also read the general way (the scanner, then one record a game) and the two must agree in
every record and every skipped game, reason and line included.
"""

from __future__ import annotations

import random

import pytest

from croupier.formats import pbn
from croupier.formats.pbn_deal import format_pbn_deal
from croupier.formats.records import BoardFileContents, SkippedGame
from croupier.ranking.bigdeal import GOEDEL_MAX, goedel_unrank
from tests.reader_checks import agree, every_field


def general(text: str, partial: bool) -> BoardFileContents:
    """The records the scanner's games give (the way any PBN file is read)."""
    records, skipped = [], []
    for index, game in enumerate(pbn._scanned_games(pbn._lf_text(text), "s"), start=1):
        if "Deal" not in game.tags and not game.errors:
            continue
        try:
            records.append(pbn._record(game, index, partial))
        except pbn._Unreadable as exc:
            skipped.append(SkippedGame(index, game.line, str(exc)))
    return BoardFileContents(records, skipped, "s")


BOARDS = ["1", "7", "999", "0", "?", "", " 12 ", "1000", "x", "007", "+3"]
DEALERS = ["N", "E", "s", "West", "?", "", "Q", "north "]
VULNERABLE = ["None", "NS", "EW", "All", "Love", "-", "Both", "?", "", "ns", "Sometimes"]
ROOMS = ["Open", "closed", " IMP ", "", "open "]
EXTRA = ["Event", "Site", "Date", "West", "North", "East", "South", "Scoring", "Result", "MyTag"]


def a_deal(rng: random.Random) -> str:
    hands = goedel_unrank(rng.randrange(GOEDEL_MAX))
    deal = format_pbn_deal(hands, first=rng.choice("NESW"))
    kind = rng.random()
    if kind < 0.08:  # a hand left out
        parts = deal.split(" ")
        parts[rng.randrange(1, 4)] = "-"
        return " ".join(parts)
    if kind < 0.12:
        return deal.replace("A", "K", 1)  # a card twice
    if kind < 0.15:
        return deal.lower()  # not the plain way: read by the general deal parser
    if kind < 0.17:
        return "N:- - - -"
    if kind < 0.19:
        return "?"
    return deal


def a_game(rng: random.Random) -> list[str]:
    tags = []
    for name in rng.sample(EXTRA, rng.randrange(0, 4)):
        tags.append(f'[{name} "{rng.choice(["?", "x", "Cup 1", ""])}"]')
    if rng.random() < 0.9:
        tags.append(f'[Board "{rng.choice(BOARDS)}"]')
    if rng.random() < 0.9:
        tags.append(f'[Dealer "{rng.choice(DEALERS)}"]')
    if rng.random() < 0.9:
        tags.append(f'[Vulnerable "{rng.choice(VULNERABLE)}"]')
    if rng.random() < 0.3:
        tags.append(f'[Room "{rng.choice(ROOMS)}"]')
    if rng.random() < 0.92:
        tags.append(f'[Deal "{a_deal(rng)}"]')
    others = [t for t in tags if not t.startswith("[Deal ")]
    if rng.random() < 0.15 and others:  # a tag repeated (not the deal): its first value counts
        tags.append(rng.choice(others).replace(' "', ' "2', 1))
    rng.shuffle(tags)
    return tags


def a_file(rng: random.Random) -> str:
    head = "".join(f"% line {i}\n" for i in range(rng.randrange(0, 3)))
    games = ["\n".join(a_game(rng)) for _ in range(rng.randrange(1, 30))]
    games = [g for g in games if g] or ['[Board "1"]']
    gaps = [("\n" * rng.randrange(2, 5)) for _ in games]
    body = "".join(g + gap for g, gap in zip(games, gaps, strict=True))
    if rng.random() < 0.3:
        body = body.rstrip("\n")
    if rng.random() < 0.2:
        body = "\n" * rng.randrange(1, 3) + body
    if rng.random() < 0.3:
        body = body.replace("\n", "\r\n")
    return head + body


@pytest.mark.parametrize("seed", range(40))
def test_plain_files_give_the_records_of_the_scanner(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(10):
        text = a_file(rng)
        for partial in (False, True):
            plain = pbn._plain_records(pbn._lf_text(text), "s", partial)
            agree(
                plain,
                general(text, partial),
                pbn.read_pbn_records(text, source="s", partial=partial),
                text,
            )


@pytest.mark.parametrize(
    "text",
    [
        '[Board "1"]\n[Deal "N:- - - -"]\n[Board "2"]\n[Deal "N:- - - -"]\n',  # no empty line
        '[Board "1"]\n{a comment}\n[Deal "N:- - - -"]\n',
        '[Board "1"]\n\n% a comment between games\n[Board "2"]\n',
        '[Event "#"]\n[Deal "N:- - - -"]\n',
        '[Event "a \\" quote"]\n[Deal "N:- - - -"]\n',
        '[Board "1"] [Dealer "N"]\n[Deal "N:- - - -"]\n',
        "",
        "% only a comment\n",
    ],
)
def test_other_files_go_the_general_way(text: str) -> None:
    assert pbn._plain_records(pbn._lf_text(text), "s", True) is None
    read = pbn.read_pbn_records(text, source="s", partial=True)
    assert every_field(read) == every_field(general(text, True))


def test_a_plain_file_is_read_without_the_scanner(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_scanner(*args: object) -> object:
        raise AssertionError("the scanner read a plain file")

    monkeypatch.setattr(pbn, "_scanned_games", no_scanner)
    monkeypatch.setattr(pbn, "_plain_games", no_scanner)
    text = a_file(random.Random(99))
    contents = pbn.read_pbn_records(text, source="s")
    assert contents.records or contents.skipped


def test_many_different_tag_names_go_to_the_scanner_which_refuses_them() -> None:
    tags = "".join(f'[T{i} "x"]\n' for i in range(pbn.MAX_PBN_TAG_NAMES + 1))
    text = tags + '[Deal "N:- - - -"]\n'
    assert pbn._plain_records(text, "s", True) is None
    with pytest.raises(pbn.FileFormatError, match="different tag names"):
        pbn.read_pbn_records(text, source="s", partial=True)
