"""A key file read as a board file by mistake is refused without quoting the key.

``croupier convert cup.key x.pbn --from lin`` once printed 20 hex digits of the
key, and ``convert EV.sqk x.pbn --from pbn`` 36 characters of a session key.
Here a key file (64 hex digits, as ``croupier boards`` writes it; the same in
capitals and base64; SquareDeal's ``.sqk`` sample) goes to every reader, to
``read_boards`` and to ``croupier convert`` with every ``--from``: the answer
is one line, and no 8 characters in a row of any key appear in it, nor in
anything else printed.
"""

from __future__ import annotations

import base64
import hashlib
from pathlib import Path

import pytest

from croupier.cli.convert_cmd import CONVERT_FORMATS
from croupier.errors import CroupierError
from croupier.formats.board_files import read_board_file, read_boards
from croupier.tournament.squaredeal import parse_sqd
from tests.conftest import CliRunner

SQK = (Path(__file__).resolve().parent / "vectors" / "bigdeal" / "SYN.sqk").read_text("utf-8")
_SECRET = hashlib.sha256(b"croupier test key").digest()
HEX = _SECRET.hex()
KEY_FILES = {
    "hex.key": HEX + "\n",
    "hex-capitals.key": HEX.upper() + "\r\n",
    "base64.key": base64.b64encode(_SECRET + b"\xfb\xff").decode("ascii") + "\n",
    "EV.sqk": SQK,
}


def _keys(text: str) -> list[str]:
    """The key material in a key file: each key of a ``.sqk`` line, else the whole file."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return [line.split(":", 1)[1] if ":" in line else line for line in lines]


def _pieces(text: str) -> set[str]:
    """Every 8 characters in a row of every key in ``text`` (lower case)."""
    return {key[i : i + 8].lower() for key in _keys(text) for i in range(len(key) - 7)}


def _check(printed: str, key_file: str) -> None:
    found = [piece for piece in _pieces(key_file) if piece in printed.lower()]
    assert not found, f"key material {found[:3]} in {printed[:300]!r}"


def test_the_keys_are_what_the_checks_look_for() -> None:
    assert all(len(_keys(text)[0]) >= 44 for text in KEY_FILES.values())
    assert len(_keys(SQK)) == 4 and "k2s1keyk" in _pieces(SQK)


@pytest.mark.parametrize("name", KEY_FILES)
@pytest.mark.parametrize("fmt", ["pbn", "lin", "dup", "dlm", "csv", "json", "lines"])
def test_every_reader_refuses_a_key_file_without_quoting_it(name: str, fmt: str) -> None:
    data = KEY_FILES[name].encode("ascii")
    printed: list[str] = []
    for partial in (False, True):
        try:
            contents = read_board_file(data, fmt, source=name, partial=partial)
        except CroupierError as exc:
            printed.append(str(exc))
        else:
            assert contents.records == []  # nothing was read as a deal
            printed += [skip.reason for skip in contents.skipped]
    with pytest.raises(CroupierError) as caught:
        read_boards(data, fmt, source=name)
    printed.append(str(caught.value))
    for message in printed:
        assert "\n" not in message and len(message) < 400, message
        _check(message, KEY_FILES[name])


@pytest.mark.parametrize("name", KEY_FILES)
def test_the_event_reader_refuses_a_key_file_without_quoting_it(name: str) -> None:
    with pytest.raises(CroupierError) as caught:
        parse_sqd(KEY_FILES[name], source=name)
    _check(str(caught.value), KEY_FILES[name])


@pytest.mark.parametrize("name", KEY_FILES)
@pytest.mark.parametrize("fmt", CONVERT_FORMATS)
def test_convert_refuses_a_key_file_without_quoting_it(
    cli: CliRunner, tmp_path: Path, name: str, fmt: str
) -> None:
    path = tmp_path / name
    path.write_text(KEY_FILES[name], encoding="ascii", newline="")
    for extra in ([], ["--strict"], ["--json"]):
        result = cli(["convert", str(path), str(tmp_path / "x.json"), "--from", fmt, *extra])
        assert result.code == 2, (result.out, result.err)
        assert result.err.startswith("error: ") and result.err.count("\n") == 1, result.err
        _check(result.out + result.err, KEY_FILES[name])
    assert not (tmp_path / "x.json").exists()
