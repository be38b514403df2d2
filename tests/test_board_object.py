"""One JSON object of a board (croupier.formats.records.board_object): the tournament
commands, handrecord --json and the JSON board file of convert print the same keys, in the
same order, with the same values for the same boards, and each validates against the one
schema (croupier.cli.schemas.BOARD_KEYS)."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema

from croupier.cli.schemas import BOARD_KEYS
from tests.conftest import CliRunner

CORE = list(BOARD_KEYS)
ARGS = ["bigdeal", "--owner", "object test", "--entropy", "board object", "-b", "4"]


def _core(board: dict[str, object]) -> dict[str, object]:
    assert list(board)[: len(CORE)] == CORE  # the board object's keys first, in its order
    return {k: board[k] for k in CORE}


def test_every_command_prints_the_one_board_object(cli: CliRunner, tmp_path: Path) -> None:
    printed = cli([*ARGS, "--json"])
    assert printed.code == 0, printed.err
    boards = json.loads(printed.out)["result"]["boards"]
    pbn = tmp_path / "set.pbn"
    pbn.write_text(cli([*ARGS, "--format", "pbn"]).out, encoding="utf-8")
    converted = cli(["convert", str(pbn), "-", "--to", "json"])
    assert converted.code == 0, converted.err
    record = cli(
        ["handrecord", str(pbn), "--json", "--format", "html", "--out", str(tmp_path / "r.html")]
    )
    assert record.code == 0, record.err
    printers = {
        "bigdeal": boards,
        "convert": json.loads(converted.out)["boards"],
        "handrecord": json.loads(record.out)["result"]["boards"],
    }
    schema = {"type": "object", "properties": BOARD_KEYS, "required": CORE}
    want = [_core(b) for b in boards]
    assert len(want) == 4
    for name, printed_boards in printers.items():
        assert [_core(b) for b in printed_boards] == want, name
        for board in printed_boards:
            jsonschema.validate(board, schema)
    for board in want:  # hands and deal say the same, spelled two ways
        hands = board["hands"]
        assert isinstance(hands, dict) and isinstance(board["deal"], str)
        for seat, text in zip("NESW", board["deal"].removeprefix("N:").split(" "), strict=True):
            spelled = [
                r + s for s, ranks in zip("SHDC", text.split("."), strict=True) for r in ranks
            ]
            assert hands[seat] == spelled
