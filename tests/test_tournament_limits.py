"""Tournament files under hostile input and failing disks: limits, short errors, all or nothing.

Inputs that once exhausted memory run in a child process limited to 1 GiB of
address space and a timeout, so a regression fails the test instead of
taking the machine down.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from croupier import files
from croupier.boards import Board, consecutive_numbers
from croupier.errors import CroupierError
from croupier.ranking.bigdeal import goedel_unrank
from croupier.tournament.bigdeal import BigDealStream, entropy_warning
from croupier.tournament.squaredeal import (
    MAX_DEAL_BOARDS,
    MAX_EVENT_FILE_BYTES,
    MAX_EVENT_SESSIONS,
    MAX_PHASES,
    MAX_SESSIONS,
    KeyId,
    Phase,
    SquareDealError,
    SquareDealEvent,
    match_session_file,
    parse_session_spec,
    parse_sqd,
)
from croupier.tournament.verifiable import make_board, make_boards, parse_key
from tests.conftest import VECTORS, CliRunner, guarded_cli

SYN = VECTORS / "bigdeal"


@pytest.fixture
def syn(tmp_path: Path) -> Path:
    for name in ("SYN.sqd", "SYN.sqk"):
        shutil.copyfile(SYN / name, tmp_path / name)
    return tmp_path


def _one_line(err: str) -> bool:
    return err.startswith("error: ") and err.count("\n") == 1 and len(err) < 400


# ------------------------------------------------------------------------ denial of service
def test_hostile_sizes_fail_fast_under_a_memory_limit(syn: Path) -> None:
    (syn / "h.sqd").write_text("TN x\nSN 2:2147483648x1:CUP#:Cup session #\n")
    (syn / "many.sqd").write_text("TN x\nSN 9999:1:A#:A\nSN 2:1:B#:B\n")
    (syn / "wide.sqd").write_text("TN x\nSN 0:1-999:V#:V\n")
    (syn / "phases.sqd").write_text("TN x\n" + "SN 1:1:A:A\n" * (MAX_PHASES + 1))
    (syn / "big.sqd").write_bytes(b"TN x\nSN 1:1:A:A\n" + b"#" * MAX_EVENT_FILE_BYTES)
    sqd, sqk = "SYN.sqd", "SYN.sqk"
    runs: dict[str, tuple[list[str], str]] = {
        "NxM": (["squaredeal", "verify", "h.sqd", sqk, "CUP1.pbn"], "N*M <= 999"),
        "NxM new": (
            ["squaredeal", "new", "n.sqd", "--name", "N", "--phase", "2:2147483648x1:C#:C"],
            "N*M <= 999",
        ),
        "sessions range": (
            ["squaredeal", "make", sqd, "--keys", sqk, "--sessions", "1/1-999999999999"],
            "B <= 9999",
        ),
        "sessions digits": (
            ["squaredeal", "make", sqd, "--keys", sqk, "--sessions", "1/" + "9" * 5000],
            "... (5000 characters)",
        ),
        "sessions total": (
            ["squaredeal", "make", sqd, "--keys", sqk, "--sessions", "1/1-9999;1/2-9999;2/*"],
            f"more than {MAX_EVENT_SESSIONS} sessions",
        ),
        "event sessions": (["squaredeal", "publish", "many.sqd"], "10001 sessions in all"),
        "phases": (["squaredeal", "publish", "phases.sqd"], f"more than {MAX_PHASES} SN lines"),
        "file size": (
            ["squaredeal", "publish", "big.sqd"],
            f"more than {MAX_EVENT_FILE_BYTES:,} bytes",
        ),
        "bigdeal boards": (
            ["bigdeal", "--owner", "o", "--entropy", "e" * 40, "--boards", "1-" + "9" * 5000],
            "bad board range",
        ),
        "make boards": (
            ["squaredeal", "make", sqd, "--keys", sqk, "--sessions", "2/1", "-b", "9" * 5000],
            "bad board range",
        ),
    }
    results = guarded_cli([args for args, _ in runs.values()], cwd=syn)
    for (name, (_, needle)), (code, err) in zip(runs.items(), results, strict=True):
        assert code == 2 and _one_line(err) and needle in err, (name, err)
    assert not (syn / "n.sqd").exists()


def test_boards_per_run_are_counted_before_dealing(syn: Path) -> None:
    (syn / "W.sqd").write_text(f"TN W\nDV 1\nSN 0:1-999:V#:V\nKH {'0' * 64}\n")
    sessions = MAX_DEAL_BOARDS // 999 + 1
    [(code, err)] = guarded_cli(
        [["squaredeal", "make", "W.sqd", "--keys", "SYN.sqk", "--sessions", f"1/1-{sessions}"]],
        cwd=syn,
    )
    # refused for its size, before the key file is even compared with KH
    assert code == 2 and f"at most {MAX_DEAL_BOARDS}" in err, err


# ------------------------------------------------------------------- parsers: limits, digits
def test_phase_limits_and_digits() -> None:
    assert Phase.parse("1\x1f:1:A:A").sessions == 1  # the stripped text is checked and converted
    assert Phase.parse(f"{MAX_SESSIONS}:1:A#:A").sessions == MAX_SESSIONS
    for bad in (
        f"{MAX_SESSIONS + 1}:1:A#:A",
        "\u0661:1:A:A",
        "\u00b2:1:A:A",
        "9" * 5000 + ":1:A:A",
        "1:" + "9" * 5000 + "x1:A:A",
        "1:1000x1:A:A",
        "1:0x5:A:A",
        "1:" + "1," * 10_000 + "1:A:A",
    ):
        with pytest.raises(SquareDealError) as caught:
            Phase.parse(bad)
        assert len(str(caught.value)) < 400, bad
    with pytest.raises(SquareDealError, match="out of range"):
        Phase(MAX_SESSIONS + 1, Phase.parse("1:1:A:A").boards, "A", "A")


def test_event_limits() -> None:
    phase = Phase.parse("1:1:A:A")
    SquareDealEvent("T", phases=[phase] * MAX_PHASES)
    with pytest.raises(SquareDealError, match=f"at most {MAX_PHASES}"):
        SquareDealEvent("T", phases=[phase] * (MAX_PHASES + 1))
    big = Phase.parse(f"{MAX_SESSIONS}:1:A#:A")
    with pytest.raises(SquareDealError, match=f"at most {MAX_EVENT_SESSIONS}"):
        SquareDealEvent("T", phases=[big, big])
    with pytest.raises(SquareDealError, match=r"^e.sqd: the phases have"):
        parse_sqd(f"TN T\nSN {MAX_SESSIONS}:1:A#:A\nSN 2:1:B#:B\n", source="e.sqd")


def test_session_specs_and_names_are_bounded() -> None:
    event = SquareDealEvent("T", phases=[Phase.parse("0:8:V#:V"), Phase.parse("2:8:F#:F")])
    assert len(parse_session_spec(event, f"1/1-{MAX_SESSIONS}")) == MAX_SESSIONS
    for spec in (f"1/{MAX_SESSIONS + 1}", "1/1-" + "9" * 5000, "1/\u0663", "1/" + "1," * 20_000):
        with pytest.raises(SquareDealError) as caught:
            parse_session_spec(event, spec)
        assert len(str(caught.value)) < 400
    with pytest.raises(SquareDealError, match="selects more than"):
        parse_session_spec(event, ";".join(["1/1-9999"] * 3))
    with pytest.raises(SquareDealError, match="matches no session") as caught:
        match_session_file(event, "V" + "1" * 5000 + ".pbn")
    assert len(str(caught.value)) < 400
    for bad in ("0,1", "101,1", "1,10000", "1," + "9" * 5000, "\u0661,1"):
        with pytest.raises(SquareDealError):
            KeyId.parse(bad)


# ----------------------------------------------------------------------- secrets never echoed
def test_key_files_are_never_quoted(cli: CliRunner, tmp_path: Path) -> None:
    secret = "ab" * 31 + "c"  # one digit short
    (tmp_path / "short.key").write_text(secret + "\n")
    (tmp_path / "binary.key").write_bytes(bytes(range(256)) * 16)
    base = ["boards", "make", "--event", "E", "--dv", "1", "--session", "1", "--boards", "2"]
    for name in ("short.key", "binary.key"):
        r = cli([*base, "--key-file", str(tmp_path / name)])
        assert r.code == 2 and _one_line(r.err) and "not shown" in r.err, r.err
        assert "abab" not in r.err and "\\x" not in r.err
    with pytest.raises(CroupierError) as caught:
        parse_key(secret)
    assert secret[:8] not in str(caught.value)


def test_bigdeal_seeds_are_never_quoted(cli: CliRunner) -> None:
    secret = "0123456789abcdef0123456789abcdef0123456"  # 39 hex digits
    r = cli(["bigdeal", "--owner", "o", "--hash", secret, "--boards", "2"])
    assert r.code == 2 and _one_line(r.err) and "not shown" in r.err and secret[:8] not in r.err
    with pytest.raises(CroupierError, match="got 19 bytes") as caught:
        BigDealStream(bytes(range(19)), "o")
    assert "\\x01" not in str(caught.value)


def test_board_values_are_shown_short() -> None:
    hands = goedel_unrank(0)
    with pytest.raises(CroupierError, match="board number of 16610 bits") as caught:
        Board.standard(10**5000, hands)  # repr() alone would raise past 4,300 digits
    assert len(str(caught.value)) < 100
    with pytest.raises(CroupierError, match=r"\.\.\. \(10000 characters\)"):
        Board(1, Board.standard(1, hands).hands, "N" * 10_000, "None")  # type: ignore[arg-type]
    with pytest.raises(CroupierError, match="board 5 follows board 3"):
        consecutive_numbers([Board.standard(n, hands) for n in (2, 3, 5)], "DUP")


# ------------------------------------------------------------------------------------ seeds
def test_empty_or_blank_delayed_value_is_refused(cli: CliRunner, tmp_path: Path) -> None:
    key_file = tmp_path / "k.key"
    key_file.write_text("00" * 32 + "\n")
    for dv in ("", "   ", "\t"):
        r = cli(["boards", "make", "--event", "E", "--key-file", str(key_file), "--dv", dv,
                 "--session", "1", "--boards", "2"])  # fmt: skip
        assert r.code == 2 and _one_line(r.err) and "--dv is empty or blank" in r.err, r.err
        with pytest.raises(CroupierError, match="delayed_value= is empty or blank"):
            make_boards(bytes(32), "E", dv.encode(), 1, [1])
    # the scheme itself still computes any value (a specification vector uses an empty one)
    assert make_board(bytes(32), "E", b"", 1, 1).number == 1


def test_weak_bigdeal_entropy_is_warned(cli: CliRunner) -> None:
    base = ["bigdeal", "--owner", "o", "--boards", "2"]
    r = cli([*base, "--entropy", ""])
    assert r.code == 0 and "warning: the entropy is empty" in r.err
    r2 = cli([*base, "--entropy", "", "--entropy", ""])
    assert r2.out == r.out  # the same boards every time: hence the warning
    for weak in ("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "1234567890123", "hello"):
        r = cli([*base, "--entropy", weak, "--json"])
        assert r.code == 0 and "warning: the entropy strings are guessable" in r.err, weak
        warnings = json.loads(r.out)["result"]["warnings"]
        assert warnings[0].startswith("the entropy strings are guessable")
    strong = "q8Zr2LwX5vN1tB7yK3mC9pH4sD6fJ0gR"
    r = cli([*base, "--entropy", strong[:16], "--entropy", strong[16:], "--json"])
    assert r.code == 0 and r.err == "" and json.loads(r.out)["result"]["warnings"] == []
    r = cli([*base, "--hash", "0" * 40])
    assert r.code == 0 and "warning" not in r.err
    assert entropy_warning(["ab" * 100]) is not None  # two symbols, however long


# ------------------------------------------------------------------------ all or nothing
def _fail_nth(n: int, real: Callable[..., Any]) -> Callable[..., Any]:
    """``real``, except that its ``n``-th call raises ENOSPC (a disk that fills up)."""
    calls = [0]

    def failing(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        if calls[0] == n:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(*args, **kwargs)

    return failing


def _fail_moving_to(name: str, real: Callable[..., Any]) -> Callable[..., Any]:
    """``real`` (a link or rename), except that moving a file to ``name`` raises ENOSPC."""

    def failing(src: Any, dst: Any, *args: Any, **kwargs: Any) -> Any:
        if os.path.basename(dst) == name:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(src, dst, *args, **kwargs)

    return failing


def _listing(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


@pytest.mark.parametrize("failing", ["write", "move"])
def test_make_is_all_or_nothing_and_can_be_run_again(
    cli: CliRunner, syn: Path, monkeypatch: pytest.MonkeyPatch, failing: str
) -> None:
    out = syn / "sets"
    out.mkdir()
    args = ["squaredeal", "make", str(syn / "SYN.sqd"), "--keys", str(syn / "SYN.sqk"),
            "--sessions", "2/*", "--out", str(out)]  # fmt: skip
    # the second file fails while being written, or while being moved into place
    if failing == "write":
        monkeypatch.setattr(files.os, "fsync", _fail_nth(2, os.fsync))
    else:
        for move in ("link", "replace", "rename"):
            monkeypatch.setattr(files.os, move, _fail_moving_to("TWO2.pbn", getattr(os, move)))
    r = cli(args)
    assert r.code == 2 and _one_line(r.err) and "no space left" in r.err.lower(), r.err
    assert list(out.iterdir()) == []  # no TWO1.pbn, no temporary
    monkeypatch.undo()
    r = cli(args)
    assert r.code == 0, r.err
    assert sorted(_listing(out)) == ["TWO1.pbn", "TWO2.pbn"]
    r = cli(["squaredeal", "verify", str(syn / "SYN.sqd"), str(syn / "SYN.sqk"),
             str(out / "TWO1.pbn"), str(out / "TWO2.pbn")])  # fmt: skip
    assert r.code == 0, r.out


@pytest.mark.parametrize("failing", ["write", "move"])
def test_publish_is_all_or_nothing_and_can_be_run_again(
    cli: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failing: str
) -> None:
    sqd = tmp_path / "EV.sqd"
    assert cli(["squaredeal", "new", str(sqd), "--name", "Cup", "--phase", "2:4:C#:C"]).code == 0
    before = _listing(tmp_path)
    # the .sqd rewrite fails after the key file was written, or after it was moved into place
    if failing == "write":
        monkeypatch.setattr(files.os, "fsync", _fail_nth(2, os.fsync))
    else:
        for move in ("link", "replace", "rename"):
            monkeypatch.setattr(files.os, move, _fail_moving_to("EV.sqd", getattr(os, move)))
    r = cli(["squaredeal", "publish", str(sqd)])
    assert r.code == 2 and _one_line(r.err) and "no space left" in r.err.lower(), r.err
    assert _listing(tmp_path) == before  # no EV.sqk, the .sqd unchanged, no temporary
    monkeypatch.undo()
    r = cli(["squaredeal", "publish", str(sqd)])
    assert r.code == 0, r.err
    assert parse_sqd(sqd.read_text()).key_hash is not None and (tmp_path / "EV.sqk").exists()


def test_publish_explains_a_key_file_left_behind(cli: CliRunner, tmp_path: Path) -> None:
    sqd = tmp_path / "EV.sqd"
    assert cli(["squaredeal", "new", str(sqd), "--name", "Cup", "--phase", "1:4:C:C"]).code == 0
    (tmp_path / "EV.sqk").write_text("1,1:abc\r\n")
    r = cli(["squaredeal", "publish", str(sqd)])
    assert r.code == 2 and _one_line(r.err) and "has no key hash (KH)" in r.err, r.err
    assert (tmp_path / "EV.sqk").read_bytes() == b"1,1:abc\r\n"  # never replaced


def test_read_only_sqd_stays_read_only(cli: CliRunner, syn: Path) -> None:
    sqd = syn / "SYN.sqd"
    sqd.write_text(sqd.read_text().replace("DV 12,345.6 7\n", ""))
    sqd.chmod(0o444)
    before = sqd.read_bytes()
    r = cli(["squaredeal", "set-dv", str(sqd), "7"])
    assert r.code == 2 and _one_line(r.err) and "read-only" in r.err, r.err
    assert sqd.read_bytes() == before and stat.S_IMODE(sqd.stat().st_mode) == 0o444
    new = syn / "N.sqd"
    assert cli(["squaredeal", "new", str(new), "--name", "N", "--phase", "1:4:C:C"]).code == 0
    new.chmod(0o444)
    r = cli(["squaredeal", "publish", str(new)])
    assert r.code == 2 and "read-only" in r.err
    assert not (syn / "N.sqk").exists() and stat.S_IMODE(new.stat().st_mode) == 0o444
    sqd.chmod(0o644)
    assert cli(["squaredeal", "set-dv", str(sqd), "7"]).code == 0
