"""Board-set files are written atomically and never replace a file by accident."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from croupier import files
from croupier.errors import FileFormatError
from croupier.files import ExistingFileError, check_new_files, write_file
from tests.conftest import CliRunner


def test_new_file_then_refusal_then_overwrite(tmp_path: Path) -> None:
    target = tmp_path / "a.pbn"
    write_file(target, b"one")
    with pytest.raises(ExistingFileError, match="already exists"):
        write_file(target, b"two")
    assert target.read_bytes() == b"one"
    write_file(target, b"two", overwrite=True)
    assert target.read_bytes() == b"two"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.pbn"]  # no temporary files left


def test_a_file_appearing_during_the_write_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Someone creates the target after the up-front check: the final step must not replace it.
    target = tmp_path / "a.pbn"
    real_check = files.inspect_target

    def check_then_race(path: Path, *, overwrite: bool = False) -> files.Target:
        found = real_check(path, overwrite=overwrite)
        target.write_bytes(b"theirs")
        return found

    monkeypatch.setattr(files, "inspect_target", check_then_race)
    with pytest.raises(ExistingFileError):
        write_file(target, b"ours")
    assert target.read_bytes() == b"theirs"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.pbn"]


def test_failed_write_leaves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken_link(src: str, dst: Path) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(files.os, "link", broken_link)
    with pytest.raises(KeyboardInterrupt):
        write_file(tmp_path / "a.pbn", b"data")
    assert list(tmp_path.iterdir()) == []


def test_permissions(tmp_path: Path) -> None:
    umask = os.umask(0)
    os.umask(umask)
    write_file(tmp_path / "set.pbn", b"x")
    write_file(tmp_path / "keys.sqk", b"x", private=True)
    assert (tmp_path / "set.pbn").stat().st_mode & 0o777 == 0o666 & ~umask
    assert (tmp_path / "keys.sqk").stat().st_mode & 0o777 == 0o600


def test_folders_are_refused(tmp_path: Path) -> None:
    with pytest.raises(FileFormatError, match="it is a folder"):
        check_new_files([tmp_path], overwrite=True)
    with pytest.raises(FileFormatError, match="does not exist"):
        write_file(tmp_path / "missing" / "a.pbn", b"x")


@pytest.mark.parametrize(
    ("where", "needle"),
    [("missing/x.pbn", "folder"), (".", "it is a folder")],
)
def test_cli_out_errors_are_one_line(
    cli: CliRunner, tmp_path: Path, where: str, needle: str
) -> None:
    r = cli(["bigdeal", "--owner", "o", "--entropy", "x", "-b", "2", "-o", str(tmp_path / where)])
    assert r.code == 2 and needle in r.err and r.err.count("\n") == 1
    assert ".tmp" not in r.err


def test_cli_reading_a_folder_is_a_one_line_error(cli: CliRunner, tmp_path: Path) -> None:
    folder = tmp_path / "EV.sqd"
    folder.mkdir()
    r = cli(["squaredeal", "publish", str(folder)])
    assert r.code == 2 and "is a folder; give a file" in r.err and r.err.count("\n") == 1


def test_overwrite_can_name_the_files_that_may_be_replaced(tmp_path: Path) -> None:
    # One step that rewrites one file and creates another (as publishing keys does) must still
    # never replace the file meant to be new.
    old, new = tmp_path / "EV.sqd", tmp_path / "EV.sqk"
    old.write_bytes(b"old")
    new.write_bytes(b"someone else's")
    with pytest.raises(ExistingFileError, match=r"EV\.sqk"):
        files.write_files_atomically([(new, b"keys"), (old, b"event")], overwrite=[old])
    assert old.read_bytes() == b"old" and new.read_bytes() == b"someone else's"
    new.unlink()
    files.write_files_atomically([(new, b"keys"), (old, b"event")], overwrite=[old])
    assert old.read_bytes() == b"event" and new.read_bytes() == b"keys"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["EV.sqd", "EV.sqk"]
