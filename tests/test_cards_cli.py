"""``croupier cards`` and ``croupier deck``: output, --json, exit codes."""

from __future__ import annotations

import json

import pytest

from croupier.cards import Card, Rank, Suit, parse_cards
from croupier.cli.cards_cmd import card_json, card_json_lines
from croupier.decks import DECK_PRESETS, make_deck, shoe
from tests.conftest import CliRunner


def test_cards_long_style_one_per_line(cli: CliRunner) -> None:
    r = cli(["cards", "AS kh 10d", "--style", "long"])
    assert r.code == 0, r.err
    assert r.out == "Ace of Spades\nKing of Hearts\n10 of Diamonds\n"


@pytest.mark.parametrize(
    "style,expected",
    [("short", "AS KH TD JK"), ("symbol", "A♠ K♥ 10♦ JK"), ("glyph", "🂡 🂾 🃊 🃏")],
)
def test_cards_styles(cli: CliRunner, style: str, expected: str) -> None:
    r = cli(["cards", "As,Kh 10d joker", "--style", style])
    assert r.code == 0, r.err
    assert r.out == expected + "\n"
    assert parse_cards(r.out) == parse_cards("AS KH TD JK")


def test_cards_default_style_is_short(cli: CliRunner) -> None:
    assert cli(["cards", "AsKh"]).out == "AS KH\n"


def test_style_names_are_case_insensitive_like_cards(cli: CliRunner) -> None:
    r = cli(["cards", "AS", "--style", "GLYPH"])
    assert r.code == 0 and r.out == "🂡\n"


@pytest.mark.parametrize("text", ["AS#" + "9" * 5000, "AS#²", "AS KH ♠"])
def test_odd_card_text_is_one_error_line(cli: CliRunner, text: str) -> None:
    r = cli(["cards", text])
    assert r.code == 2 and r.out == ""
    assert r.err.startswith("error: ") and len(r.err.splitlines()) == 1


def test_cards_sort(cli: CliRunner) -> None:
    r = cli(["cards", "2c As Td Kh", "--sort", "bridge", "--descending", "-s", "symbol"])
    assert r.code == 0 and r.out == "A♠ K♥ 10♦ 2♣\n"
    assert cli(["cards", "2c As Td Kh", "--sort", "suit-ace-low"]).out == "2C TD KH AS\n"
    assert cli(["cards", "KS 2H KH", "--sort", "poker"]).out == "2H KS KH\n"  # stable ties
    assert cli(["cards", "KS AS", "--sort", "custom:KA:S"]).out == "AS KS\n"


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_cards_sort_by_the_former_order_name_still_works(cli: CliRunner) -> None:
    new = cli(["cards", "2c As Td Kh", "--sort", "suit-ace-low", "--descending"])
    old = cli(["cards", "2c As Td Kh", "--sort", "seed", "--descending"])
    assert new.code == old.code == 0 and new.out == old.out == "AS KH TD 2C\n"
    # --descending alone sorts by suit-ace-low
    assert cli(["cards", "2c As Td Kh", "--descending"]).out == new.out


def test_cards_json(cli: CliRunner) -> None:
    r = cli(["cards", "AS 10h jk AS#2", "--json"])
    assert r.code == 0, r.err
    doc = json.loads(r.out)
    assert doc["command"] == "cards" and doc["reproducible"] is True and doc["source"] is None
    data = doc["result"]
    assert [d["code"] for d in data] == ["AS", "TH", "JK", "AS#2"]
    assert data[0] == {
        "rank": "A",
        "suit": "S",
        "code": "AS",
        "symbol": "A♠",
        "long": "Ace of Spades",
        "glyph": "🂡",
        "copy": 0,
        "index": 39,
    }
    assert data[2]["suit"] is None and data[2]["rank"] == "JK"
    assert data[3]["copy"] == 1
    for d, card in zip(data, parse_cards("AS TH JK AS#2"), strict=True):
        assert Card.parse(d["code"]) == card == Card.parse(d["long"]) == Card.parse(d["glyph"])


def test_cards_bad_token_exits_2_with_one_line(cli: CliRunner) -> None:
    r = cli(["cards", "AS XZ"])
    assert r.code == 2
    assert r.out == ""
    lines = r.err.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("error: bad card 'XZ' at position 2")
    assert "'AS'" in lines[0] and "'10h'" in lines[0]  # what would be valid
    assert "Traceback" not in r.err


def test_cards_bad_order_and_style(cli: CliRunner) -> None:
    r = cli(["cards", "AS", "--sort", "whist"])
    assert r.code == 2 and "unknown order 'whist'" in r.err and "bridge" in r.err
    r = cli(["cards", "AS", "--style", "fancy"])
    assert r.code == 2 and "fancy" in r.err
    assert cli(["cards"]).code == 2


def test_deck_lists_presets(cli: CliRunner) -> None:
    r = cli(["deck"])
    assert r.code == 0
    rows = {line.split()[0]: line.split()[1] for line in r.out.splitlines()}
    for name, preset in DECK_PRESETS.items():
        assert rows[name] == str(preset.size)
    assert "shoe:K" in rows and "stripped:RANKS" in rows
    data = json.loads(cli(["deck", "--json"]).out)["result"]["presets"]
    assert [d["name"] for d in data] == list(DECK_PRESETS)
    assert all(d["cards"] == len(make_deck(d["name"])) and d["description"] for d in data)


def test_deck_prints_a_deck(cli: CliRunner) -> None:
    r = cli(["deck", "standard"])
    assert r.code == 0
    lines = r.out.splitlines()
    assert lines[0] == "AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC"
    assert len(lines) == 4
    assert parse_cards(r.out) == make_deck("standard")
    long = cli(["deck", "euchre", "--style", "long"]).out.splitlines()
    assert long[0] == "Ace of Clubs" and len(long) == 24


@pytest.mark.parametrize("name", [*DECK_PRESETS, "shoe:2", "stripped:AKQ"])
def test_deck_json_round_trips(cli: CliRunner, name: str) -> None:
    r = cli(["deck", name, "--json"])
    assert r.code == 0, r.err
    result = json.loads(r.out)["result"]
    assert result["deck"] == name
    assert [Card.parse(d["code"]) for d in result["cards"]] == make_deck(name)


@pytest.mark.parametrize(
    "cards",
    [
        shoe(3),
        shoe(2, base="pinochle"),
        shoe(4, base="jokers2"),
        [Card.joker(7), Card.parse("TH").with_copy(41), Card.parse("AS")],
    ],
    ids=["shoe", "pinochle-shoe", "jokers-shoe", "odd"],
)
def test_the_fast_json_lines_are_card_json(cards: list[Card]) -> None:
    lines = list(card_json_lines(cards))
    assert [json.loads(line) for line in lines] == [card_json(c) for c in cards]


def test_a_big_shoe_as_json(cli: CliRunner) -> None:
    r = cli(["deck", "shoe:300", "--json"])
    data = json.loads(r.out)["result"]["cards"]
    assert len(data) == 300 * 52 and data[-1] == card_json(shoe(300)[-1])
    assert data[52]["code"] == "AC#2" and data[52]["long"] == "Ace of Clubs #2"


def test_deck_sorted(cli: CliRunner) -> None:
    r = cli(["deck", "piquet", "--sort", "bridge", "--descending", "--json"])
    data = json.loads(r.out)["result"]["cards"]
    assert data[0]["code"] == "AS" and data[-1]["code"] == "7C"
    assert Card.parse(data[1]["code"]) == Card(Rank.KING, Suit.SPADES)


def test_deck_unknown_exits_2(cli: CliRunner) -> None:
    r = cli(["deck", "tarot"])
    assert r.code == 2
    assert r.err.startswith("error: unknown deck 'tarot'") and "pinochle" in r.err
    for bad in (["deck", "shoe:²"], ["deck", "shoe:" + "9" * 5000], ["deck", "stripped:AX"]):
        r = cli(bad)
        assert r.code == 2 and r.err.startswith("error: ") and len(r.err.splitlines()) == 1


@pytest.mark.parametrize("option", [["--sort", "bridge"], ["--descending"]])
def test_deck_sort_without_a_name_is_an_error_not_ignored(
    cli: CliRunner, option: list[str]
) -> None:
    r = cli(["deck", *option])
    assert r.code == 2 and r.out == ""
    assert r.err.startswith("error: --sort and --descending need a deck NAME")


@pytest.mark.parametrize("command", ["cards", "deck"])
def test_help_has_examples(cli: CliRunner, command: str) -> None:
    r = cli([command, "--help"])
    assert r.code == 0
    assert "Examples:" in r.out and f"croupier {command}" in r.out
