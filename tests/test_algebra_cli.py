"""``croupier apply | order | elmsley | group`` end to end."""

from __future__ import annotations

import json
import math
import sys

import pytest
import sympy

from croupier.moves import faro_perm
from croupier.perm import Permutation
from croupier.ranking.partitions import decimal, parse_decimal
from tests.conftest import CliRunner


def _json(cli: CliRunner, args: list[str]) -> dict[str, object]:
    r = cli(args)
    assert r.code == 0, r.err
    doc = json.loads(r.out)
    assert doc["command"] == args[0] and doc["reproducible"] is True, doc
    data = doc["result"]
    assert isinstance(data, dict)
    return data


# ------------------------------------------------------------------- apply


def test_apply_dealers_move_worked_examples(cli: CliRunner) -> None:
    r = cli(["apply", "dealers-move:2", "1", "2", "3", "4", "5", "6"])
    assert r.code == 0 and r.out.strip() == "3 6 4 1 5 2"
    r = cli(
        ["apply", "dealers-move:2,dealers-move:5", "1", "2", "3", "4", "5", "6", "7", "9", "10"]
    )
    assert r.out.strip() == "10 3 6 7 1 4 2 9 5"
    r = cli(["apply", "cut:3", "Red", "Green", "Blue", "Black", "White"])
    assert r.out.strip() == "Black White Red Green Blue"


def test_apply_json_keeps_items_as_given_and_numbers_as_numbers(cli: CliRunner) -> None:
    data = _json(cli, ["apply", "riffle", "1", "2", "3", "4", "5", "--json"])
    assert data["items"] == [1, 3, 2, 4, 5]
    data = _json(cli, ["apply", "reverse", "--json", "--", "AS", "007", "x y", "-3"])
    assert data["items"] == [-3, "x y", "007", "AS"]
    data = _json(cli, ["apply", "riffle", "--cards", "6", "--json"])
    assert data["items"] == [1, 4, 2, 5, 3, 6]


def test_apply_cards_and_deck(cli: CliRunner) -> None:
    r = cli(["apply", "faro-out*8", "--cards", "52"])
    assert r.out.split() == [str(i) for i in range(1, 53)]
    r = cli(["apply", "faro-out", "--deck", "standard"])
    assert r.code == 0, r.err
    from croupier.decks import make_deck

    codes = [c.code for c in make_deck("standard")]
    assert r.out.split() == faro_perm(52, "out").apply(codes)
    data = _json(cli, ["apply", "identity", "--deck", "standard", "--json"])
    assert data["items"] == codes


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["apply", "rifle", "1", "2"], "'rifle'"),
        (["apply", "cut:3,,riffle", "1"], "','"),
        (["apply", "riffle"], "exactly one"),
        (["apply", "riffle", "1", "--cards", "3"], "exactly one"),
        (["apply", "riffle", "--deck", "tarot"], "tarot"),
        (["apply", "riffle", "--cards", "many"], "'many'"),
        (["order", "monge,milk", "--cards", "10^12"], "too many"),
        (["order", "faro-out*q", "--cards", "52"], "'q'"),
        (["elmsley", "--cards", "52", "--to", "60"], "60"),
        (["group", "riffle", "--cards", "-3"], "-3"),
    ],
)
def test_bad_input_gives_one_line_error_and_exit_2(
    cli: CliRunner, args: list[str], needle: str
) -> None:
    r = cli(args)
    assert r.code == 2
    lines = r.err.strip().splitlines()
    assert len(lines) == 1 or r.err.startswith("Usage") or "Usage" in r.err
    assert needle in r.err
    assert "Traceback" not in r.err


# ------------------------------------------------------------------- order


def test_order_52_with_trace(cli: CliRunner) -> None:
    r = cli(["order", "faro-out", "--cards", "52", "--trace"])
    assert r.code == 0
    assert "order:       8" in r.out
    trace = [line for line in r.out.splitlines() if line.endswith(("true", "false"))]
    assert len(trace) == 16
    assert [line.endswith("true") for line in trace] == [False] * 7 + [True] + [False] * 7 + [True]
    data = _json(cli, ["order", "faro-out", "--cards", "52", "--trace", "--json"])
    assert data["order"] == 8
    assert data["cycle_type"] == [[8, 6], [2, 1], [1, 2]]
    assert data["trace"] == [False] * 7 + [True] + [False] * 7 + [True]
    assert data["modulus"] == 51


def test_order_json_matches_decomposition(cli: CliRunner) -> None:
    for spec, n in (("cut:1,riffle", 20), ("monge", 52), ("pile:4,milk*3", 30)):
        from croupier.spec import parse_spec

        p = parse_spec(spec).permutation(n)
        data = _json(cli, ["order", spec, "--cards", str(n), "--json"])
        assert data["order"] == p.order()
        assert data["cycle_type"] == [[k, v] for k, v in p.cycle_counts().items()]


def test_order_for_10_to_18_cards(cli: CliRunner) -> None:
    data = _json(cli, ["order", "faro-in", "--cards", "10^18", "--json"])
    assert data["cards"] == 10**18
    assert data["order"] == sympy.n_order(2, 10**18 + 1)
    counts = data["cycle_type"]
    assert isinstance(counts, list)
    assert sum(k * v for k, v in counts) == 10**18
    r = cli(["order", "faro-out", "--cards", "10**18"])
    assert r.code == 0 and str(sympy.n_order(2, 10**18 - 1)) in r.out


# ----------------------------------------------------------------- elmsley


def test_elmsley(cli: CliRunner) -> None:
    r = cli(["elmsley", "--cards", "52", "--to", "5"])
    assert r.code == 0 and r.out.split()[:3] == ["in", "out", "in"]
    data = _json(cli, ["elmsley", "--cards", "52", "--to", "0", "--from", "51", "--json"])
    moves = data["moves"]
    assert isinstance(moves, list)
    p = Permutation.identity(52)
    for how in moves:
        p = p * faro_perm(52, how)
    assert p.apply(list(range(52)))[0] == 51
    data = _json(cli, ["elmsley", "--cards", "10^18", "--to", "6", "--json"])
    assert data["moves"] == ["in", "in", "out"] and data["verified"] is True


# ------------------------------------------------------------------- group


def test_group(cli: CliRunner) -> None:
    data = _json(cli, ["group", "cut:1", "riffle", "--cards", "9", "--json"])
    assert data["order"] == math.factorial(9) // 2
    assert data["is_alternating"] is True and data["is_symmetric"] is False
    data = _json(cli, ["group", "faro-in", "faro-out", "--cards", "8", "--json"])
    assert data["order"] == 24
    r = cli(["group", "cut:1", "riffle", "--cards", "6"])
    assert r.code == 0 and "symmetric" in r.out


def test_help_shows_examples(cli: CliRunner) -> None:
    for cmd in ("apply", "order", "elmsley", "group"):
        r = cli([cmd, "--help"])
        assert r.code == 0 and "Examples" in r.out


def test_apply_json_numbers_are_those_json_writes_exactly_as_given(cli: CliRunner) -> None:
    given = ["2.5", "-0", "1e3", "NaN", "1.50", "0.1", "true", "12345678901234567890123"]
    data = _json(cli, ["apply", "identity", "--json", "--", *given])
    assert data["items"] == [2.5, "-0", "1e3", "NaN", "1.50", 0.1, "true", 12345678901234567890123]
    r = cli(["apply", "identity", "--json", "--", *given])
    result = r.out.split('"result": ')[1].split('"bits": ')[0]
    # every item is written back with the very characters it was given with
    assert result.count('"') == 2 * 5 + 2 * 3  # 5 strings, plus the keys "spec"/"items" and value
    for token in given:
        assert token in result


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["apply", "cut:" + "9" * 5000, "a", "b"], "1000 digits"),
        (["apply", "(" * 3000 + "riffle" + ")" * 3000, "a"], "nest"),
        (["apply", "riffle", "--cards", "9" * 5000], "bad number"),
        (["order", "faro-out", "--cards", "10^4096"], "too large"),
        (["order", "faro-out", "--cards", "10^300"], "cannot factor"),
        (["apply", "pile:999999999999", "--cards", "5", "--json"], None),
    ],
)
def test_huge_inputs_fail_cleanly_or_work(
    cli: CliRunner, args: list[str], needle: str | None
) -> None:
    r = cli(args)
    assert "Traceback" not in r.err
    if needle is None:
        assert r.code == 0 and json.loads(r.out)["result"]["items"] == [1, 2, 3, 4, 5]
    else:
        assert r.code == 2 and needle in r.err and len(r.err.strip().splitlines()) == 1


def test_group_with_orders_beyond_4300_digits(
    cli: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(limit: int) -> None:
        raise AssertionError("the process-wide int/str digit limit was changed")

    # Neither the CLI nor this test lifts the guard: the answers are read back digit-safely.
    monkeypatch.setattr(sys, "set_int_max_str_digits", refuse)
    r = cli(["group", "cut:1", "faro-out", "--cards", "2000", "--json"])
    assert r.code == 0, r.err
    data = json.loads(r.out, parse_int=parse_decimal)["result"]
    assert data["order"] == math.factorial(2000) and data["is_symmetric"] is True
    assert data["index"] == 1
    r = cli(["group", "cut:1", "riffle", "--cards", "2001"])
    assert r.code == 0 and "alternating" in r.out
    assert decimal(math.factorial(2001) // 2) in r.out


def test_order_times_implies_trace(cli: CliRunner) -> None:
    data = _json(cli, ["order", "faro-out", "--cards", "52", "--times", "9", "--json"])
    assert data["trace"] == [False] * 7 + [True, False]
    r = cli(["order", "faro-in", "--cards", "52", "--times", "3"])
    assert r.code == 0 and r.out.splitlines()[-3:] == ["1st: false", "2nd: false", "3rd: false"]


def test_cards_has_the_short_flag_c_in_every_command(cli: CliRunner) -> None:
    assert cli(["apply", "riffle", "-c", "5"]).out.split() == ["1", "3", "2", "4", "5"]
    assert _json(cli, ["order", "faro-out", "-c", "52", "--json"])["order"] == 8
    assert _json(cli, ["elmsley", "-c", "52", "--to", "5", "--json"])["moves"] == [
        "in",
        "out",
        "in",
    ]
    assert _json(cli, ["group", "faro-in", "faro-out", "-c", "8", "--json"])["order"] == 24
    r = cli(["order", "faro-out", "-n", "52"])  # -n is --count everywhere, and order has none
    assert r.code == 2 and len(r.err.splitlines()) == 1 and "-n" in r.err


def test_help_lists_the_moves_and_decks_of_the_registries(cli: CliRunner) -> None:
    from croupier.decks import DECK_PRESETS
    from croupier.spec import MOVES

    text = " ".join(cli(["apply", "--help"]).out.split())
    for move in MOVES.values():
        assert (f"{move.name}:{move.arg}" if move.arg else move.name) in text
    for name in DECK_PRESETS:
        assert name in text


def test_huge_numbers_never_lift_the_process_wide_digit_guard(
    cli: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(limit: int) -> None:
        raise AssertionError("the process-wide int/str digit limit was changed")

    monkeypatch.setattr(sys, "set_int_max_str_digits", refuse)
    r = cli(["group", "cut:1", "riffle", "--cards", "2001", "--json"])
    assert r.code == 0, r.err
    head = r.out.split('"order": ')[1]
    digits = head[: head.index(",")]
    # 2001!/2 has 5,742 digits: more than Python's default limit of 4,300
    assert len(digits) > 4300 and digits.isdigit()
    assert int(digits[:6]) == int(str(math.factorial(2001) // 2 // 10 ** (len(digits) - 6)))


def test_apply_json_keeps_non_ascii_items_as_written(cli: CliRunner) -> None:
    r = cli(["apply", "reverse", "--json", "A♠", "10♥", "Kö"])
    assert r.code == 0 and '"items": [\n      "Kö",\n      "10♥",\n      "A♠"\n    ]' in r.out
