"""One row per format (croupier.formats.registry): every list of formats in the package and
the docs' tables follow it, and every row's readers and writers exist and agree."""

from __future__ import annotations

import io
import re

import pytest

from croupier.boards import Board
from croupier.bulk import deal_array
from croupier.bulk.chunk_files import CHUNK_FORMATS, file_name
from croupier.bulk.writers import BULK_FORMATS, open_writer
from croupier.bulk.writers.formats import UnknownBulkFormatError
from croupier.cli.convert_cmd import CONVERT_FORMATS
from croupier.errors import FileFormatError
from croupier.formats.board_files import (
    BOARD_FORMATS,
    EXTENSIONS,
    BoardFormat,
    format_for_path,
    read_board_file,
    read_boards,
    render_boards,
    render_records,
)
from croupier.formats.records import BoardRecord
from croupier.formats.registry import (
    FORMATS,
    array_formats,
    board_codec,
    board_file_formats,
    chunk_formats,
    run_formats,
)
from croupier.ranking.bigdeal import goedel_unrank
from croupier.runs.writers import FORMATS as RUN_FORMATS
from tests.conftest import ROOT

DOCS = ROOT / "docs"


def _table(text: str, header: str) -> list[list[str]]:
    """The rows of the markdown table whose header line starts with ``header``."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header))
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def _name(cell: str) -> str:
    found = re.fullmatch(r"`([a-z0-9-]+)`", cell)
    assert found, cell
    return found.group(1)


def test_every_list_of_formats_is_the_registrys() -> None:
    assert [f.value for f in BoardFormat] == list(BOARD_FORMATS) == list(board_file_formats())
    assert board_file_formats(readable=True) == CONVERT_FORMATS
    assert "html" in BOARD_FORMATS and "html" not in CONVERT_FORMATS
    assert tuple(RUN_FORMATS) == run_formats()
    assert array_formats() == BULK_FORMATS
    assert chunk_formats() == CHUNK_FORMATS
    for name, info in RUN_FORMATS.items():
        row = FORMATS[name]
        assert row.run is not None and info.summary == row.summary
        assert (info.takes, info.binary, info.boards) == (
            row.run.takes,
            row.run.binary,
            row.run.boards,
        )


def test_each_board_format_is_found_by_each_of_its_extensions() -> None:
    for name in BOARD_FORMATS:
        assert EXTENSIONS[BoardFormat(name)] == FORMATS[name].extensions[0]
        for ext in FORMATS[name].extensions:
            assert format_for_path(f"x{ext.upper()}") == name


def test_every_array_format_has_a_writer_and_no_other() -> None:
    deals = deal_array(3, "bridge", seed="registry")
    for name in FORMATS:
        stream = io.BytesIO()
        if name in array_formats():
            with open_writer(name, stream, deals.layout) as writer:
                writer.write(deals)
            assert stream.getvalue()
        else:
            with pytest.raises(UnknownBulkFormatError):
                open_writer(name, stream, deals.layout)
    for name in CHUNK_FORMATS:
        assert file_name(0, name).endswith(FORMATS[name].extensions[0])


BOARDS = [Board.standard(n, goedel_unrank(n * 7919)) for n in range(1, 5)]


@pytest.mark.parametrize("name", board_file_formats())
def test_each_board_codec_writes_what_it_reads(name: str) -> None:
    data = render_boards(BOARDS, name)
    assert data
    codec = board_codec(name)
    if not codec.reads:
        with pytest.raises(FileFormatError, match="cannot be read"):
            read_boards(data, name)
        return
    back = read_boards(data, name)
    assert [b.hands for b in back] == [b.hands for b in BOARDS]
    records = read_board_file(data, name).records
    assert [r.hands for r in records] == [b.hands for b in BOARDS]
    again = render_records([BoardRecord.from_board(b) for b in BOARDS], name)
    assert [b.hands for b in read_boards(again, name)] == [b.hands for b in BOARDS]


TEXT_FORMATS = [n for n in board_file_formats(readable=True) if not board_codec(n).binary]


def test_a_binary_format_is_read_as_bytes() -> None:
    assert [n for n in board_file_formats() if board_codec(n).binary] == ["dup"]
    data = render_boards(BOARDS, "dup")
    assert [b.hands for b in read_boards(data, "dup")] == [b.hands for b in BOARDS]


@pytest.mark.parametrize("name", TEXT_FORMATS)
def test_text_that_is_not_utf8_is_read_as_latin1_only_where_the_format_allows(name: str) -> None:
    codec = board_codec(name)
    data = render_boards(BOARDS[:1], name)
    if name == "json":
        broken = data.replace(b'"boards"', b'"boards\xe9"', 1)
    else:
        broken = b"\xe9" + data if name in ("csv", "lines", "dlm") else data + b"%\xe9\r\n"
    if codec.latin1:
        assert [b.hands for b in read_boards(broken, name)] == [BOARDS[0].hands]
    else:
        with pytest.raises(FileFormatError, match="not UTF-8 text"):
            read_boards(broken, name)


def test_the_docs_tables_are_the_registrys() -> None:
    files = (DOCS / "file-formats.md").read_text(encoding="utf-8")
    rows = _table(files, "| format | extension | read | write |")
    assert [_name(r[0]) for r in rows] == list(board_file_formats())
    for cells in rows:
        name = _name(cells[0])
        assert cells[1] == f"`{FORMATS[name].extensions[0]}`"
        assert cells[2] == ("yes" if board_codec(name).reads else "no")
        assert cells[3] == "yes"
    writers = _table(files, "| name | class | layouts | content |")
    assert [_name(r[0]) for r in writers] == list(array_formats())
    convert = _table((DOCS / "convert.md").read_text(encoding="utf-8"), "| name | extension |")
    assert [_name(r[0]) for r in convert] == list(board_file_formats(readable=True))
    for cells in convert:
        assert cells[1] == f"`{FORMATS[_name(cells[0])].extensions[0]}`"
