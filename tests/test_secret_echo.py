"""A secret key given to any argument of any command is never echoed back.

A key pasted into the wrong argument (a croupier-boards key as ``--commitment``, a Big Deal
hash as a card, a ``.sqk`` line as a file name) must not end up on a terminal or in a log:
every error and warning line hides it (:func:`croupier.cli.secrets_mask.mask_secrets`).
The test walks the whole command line (:func:`croupier.cli.app.leaf_commands`), gives
each key format croupier reads to every option and argument that takes a value, on top of
a small working invocation of the command, and searches standard output and standard error
for any 32-character window of the key.
"""

from __future__ import annotations

import hashlib
import math
import random
import re
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer import _click as click
from typer.core import TyperArgument

from croupier.cli.app import leaf_commands, run
from croupier.cli.failures import MESSAGE_LIMIT, one_line
from croupier.cli.secrets_mask import mask_secrets
from croupier.tournament.squaredeal import KEY_ALPHABET, KEY_LENGTH
from croupier.tournament.verifiable import commitment, parse_key

WINDOW = 32
"""This many characters of a key in a row are a leak (128 bits of a hex key)."""


def _hex(label: str, digits: int) -> str:
    return hashlib.sha256(label.encode()).hexdigest()[:digits]


def _squaredeal_key(label: str) -> str:
    chooser = random.Random(label)  # a fixed test key, not a secret
    return "".join(chooser.choice(KEY_ALPHABET) for _ in range(KEY_LENGTH))


@dataclass(frozen=True)
class Secret:
    """One key format croupier reads: the text given, and the secret part of it."""

    name: str
    given: str
    secret: str


def _secrets() -> tuple[Secret, ...]:
    boards_key = _hex("croupier-boards key pasted by mistake", 64)
    big_deal = _hex("Big Deal hash pasted by mistake", 40).upper()
    sqk = _squaredeal_key("SquareDeal key pasted by mistake")
    sqk_line = _squaredeal_key("SquareDeal .sqk line pasted by mistake")
    seed = _hex("hex: seed pasted by mistake", 64)
    return (
        Secret("boards-key", boards_key, boards_key),  # croupier-boards key file: 64 hex digits
        Secret("bigdeal-hash", big_deal, big_deal),  # bigdealx -h / --hash: 40 hex digits
        Secret("sqk-key", sqk, sqk),  # a SquareDeal key: 60 of A-Z a-z 0-9
        Secret("sqk-line", f"1,1:{sqk_line}", sqk_line),  # a line of a .sqk key file
        Secret("hex-seed", f"hex:{seed}", seed),  # a --seed given as raw bytes
    )


SECRETS = _secrets()

#: (command, parameter) pairs whose value is, by design, part of what the command prints on
#: standard output or in a note: there the key may show (the user asked for it), but an
#: ``error:`` or ``warning:`` line still never shows it.  Every other parameter of every
#: command must not echo a key anywhere.
ALLOWED: dict[tuple[str, str], str] = {
    # the data itself is the output
    ("shuffle", "items"): "croupier shuffle a b KEY prints its items, shuffled",
    ("apply", "items"): "croupier apply SPEC a b KEY prints its items, rearranged",
    ("squaredeal set-dv", "value"): "the delayed value is public: set-dv prints it back (DV ...)",
    # the event name is published text, printed in every board file and report
    ("deal", "--event"): "the PBN Event tag",
    ("bigdeal", "--event"): "the PBN Event tag",
    ("boards make", "--event"): "the PBN Event tag",
    ("boards new-key", "--event"): "the event the commitment covers, to publish with it",
    # the name of a file the command wrote: the note (and sha256sum's line) names it
    ("squaredeal new", "sqd"): "wrote EVENT.sqd; next: croupier squaredeal publish EVENT.sqd",
    ("squaredeal publish", "--keys"): "wrote KEYFILE (keep it secret ...)",
    ("squaredeal publish", "--verify-page"): "SHA-256 and name of the page written",
    ("squaredeal make", "--out"): "wrote DIR/CUP1.pbn",
    ("boards new-key", "--key-file"): "wrote KEYFILE (keep it secret ...)",
    ("boards new-key", "--verify-page"): "SHA-256 and name of the page written",
    ("page verify", "--out"): "SHA-256 and name of the page written",
    ("convert", "target_path"): "read N boards from SOURCE; wrote TARGET",
}

# -- the files a working invocation needs -------------------------------------------------
FIXTURE_KEY = "0f" * 32
EVENT = "Secret Echo Cup"


@dataclass(frozen=True)
class Files:
    """Files made once: a key and its boards, a SquareDeal event at each step, a script."""

    root: Path
    key: Path = field(init=False)
    boards: Path = field(init=False)
    lines: Path = field(init=False)
    script: Path = field(init=False)

    def __post_init__(self) -> None:
        for name in ("key", "boards", "lines", "script"):
            object.__setattr__(self, name, self.root / _FILE_NAMES[name])

    @property
    def commitment(self) -> str:
        return commitment(parse_key(FIXTURE_KEY), EVENT)

    def copy(self, name: str, into: Path) -> str:
        """A private copy of fixture file ``name`` in ``into`` (for commands that change it)."""
        target = into / name
        shutil.copyfile(self.root / name, target)
        return str(target)


_FILE_NAMES = {
    "key": "cup.key",
    "boards": "cup1.pbn",
    "lines": "lines.txt",
    "script": "notrump.dlr",
}


def _must(args: list[str]) -> None:
    code = run(args)
    assert code == 0, args


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Files:
    root = tmp_path_factory.mktemp("secret-echo")
    made = Files(root)
    made.key.write_text(FIXTURE_KEY + "\n", encoding="ascii")
    made.lines.write_text("one\ntwo\nthree\n", encoding="utf-8")
    made.script.write_text("produce 1\ncondition hcp(north) >= 10\naction printall\n", "utf-8")
    board_args = ["--event", EVENT, "--key-file", str(made.key), "--dv", "7", "--session", "1"]
    _must(["boards", "make", *board_args, "--boards", "1-2", "--out", str(made.boards)])
    _must(["squaredeal", "new", str(root / "new.sqd"), "--name", EVENT, "--phase", _PHASE])
    shutil.copyfile(root / "new.sqd", root / "ev.sqd")
    _must(["squaredeal", "publish", str(root / "ev.sqd"), "--keys", str(root / "ev.sqk")])
    shutil.copyfile(root / "ev.sqd", root / "published.sqd")
    _must(["squaredeal", "set-dv", str(root / "ev.sqd"), "1234"])
    event = ["squaredeal", "make", str(root / "ev.sqd"), "--keys", str(root / "ev.sqk")]
    _must([*event, "--out", str(root)])
    return made


_PHASE = "1:1-2:CUP#:Cup session #"


# -- a small working invocation of every command ------------------------------------------
@dataclass
class Invocation:
    """A command's arguments (by parameter name) and options (by long flag)."""

    arguments: dict[str, list[str]]
    options: dict[str, list[str]]


Base = Callable[[Files, Path], Invocation]


def _inv(arguments: dict[str, list[str]] | None = None, **options: list[str] | str) -> Invocation:
    opts = {
        "--" + name.rstrip("_").replace("_", "-"): [value] if isinstance(value, str) else value
        for name, value in options.items()
    }
    return Invocation(dict(arguments or {}), opts)


_DEAL = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"

BASES: dict[str, Base] = {
    "deal": lambda f, w: _inv(count="1", seed="s"),
    "rank": lambda f, w: _inv({"game": ["bridge"], "deal_text": [_DEAL]}),
    "unrank": lambda f, w: _inv({"game": ["bridge"], "number": ["1"]}),
    "entropy": lambda f, w: _inv({"game": ["bridge"]}),
    "dealer": lambda f, w: _inv({"script_path": [str(f.script)]}, produce="1", seed="s"),
    "shuffle": lambda f, w: _inv(file=str(f.lines), seed="s"),
    "cards": lambda f, w: _inv({"text": ["AS"]}),
    "deck": lambda f, w: _inv({"name": ["standard"]}),
    "apply": lambda f, w: _inv({"spec": ["cut:3"], "items": ["a", "b", "c", "d"]}),
    "order": lambda f, w: _inv({"spec": ["faro-out"]}, cards="8"),
    "elmsley": lambda f, w: _inv(cards="8", to="1"),
    "group": lambda f, w: _inv({"specs": ["faro-in"]}, cards="6"),
    "bigdeal": lambda f, w: _inv(owner="club", boards="1-2", hash="01" * 20),
    "squaredeal new": lambda f, w: _inv({"sqd": [str(w / "new.sqd")]}, name=EVENT, phase=_PHASE),
    "squaredeal publish": lambda f, w: _inv({"sqd": [f.copy("new.sqd", w)]}),
    "squaredeal set-dv": lambda f, w: _inv({"sqd": [f.copy("published.sqd", w)], "value": ["9"]}),
    "squaredeal make": lambda f, w: _inv(
        {"sqd": [f.copy("ev.sqd", w)]}, keys=str(f.root / "ev.sqk"), out=str(w)
    ),
    "squaredeal verify": lambda f, w: _inv(
        {
            "sqd": [str(f.root / "ev.sqd")],
            "sqk": [str(f.root / "ev.sqk")],
            "files": [str(f.root / "CUP1.pbn")],
        }
    ),
    "boards new-key": lambda f, w: _inv(event=EVENT, key_file=str(w / "new.key")),
    "boards commitment": lambda f, w: _inv(event=EVENT, key_file=str(f.key)),
    "boards make": lambda f, w: _inv(
        event=EVENT, key_file=str(f.key), dv="7", session="1", boards="1-2"
    ),
    "boards verify": lambda f, w: _inv(
        {"files": [str(f.boards)]},
        event=EVENT,
        commitment=f.commitment,
        dv="7",
        session="1",
        boards="1-2",
        key_file=str(f.key),
    ),
    "page verify": lambda f, w: _inv(out=str(w / "verify.html")),
    "convert": lambda f, w: _inv({"source_path": [str(f.boards)]}, to="lin"),
    "handrecord": lambda f, w: _inv(
        {"files": [str(f.boards)]},
        out=str(w / "record.html"),
        event=EVENT,
        session="1",
        commitment=f.commitment,
        dv="7",
    ),
    "analyze": lambda f, w: _inv({"method": ["cut"]}, cards="3"),
    "mixing riffle": lambda f, w: _inv(cards="4", max="2"),
    "poker eval": lambda f, w: _inv({"cards": ["AsKsQsJsTs"]}),
    "poker equity": lambda f, w: _inv({"hands": ["AsAh", "KsKh"]}, board="2c3d4h5s"),
}


#: A working invocation for a parameter that the command's own one leaves no room for (a
#: seed where ``--entropy`` goes, ``--file`` where ``--deck`` goes, ...).
OVERRIDES: dict[tuple[str, str], Base] = {
    ("deal", "--entropy"): lambda f, w: _inv(count="1", entropy="hex:" + "5a" * 16),
    ("deal", "--event"): lambda f, w: _inv(count="1", seed="s", format="pbn"),
    ("deal", "--scheduler"): lambda f, w: _inv(
        count="2", seed="s", format="oneline", out=str(w / "chunks")
    ),
    ("shuffle", "items"): lambda f, w: _inv({"items": ["a", "b"]}, seed="s"),
    ("shuffle", "--deck"): lambda f, w: _inv(deck="standard", seed="s"),
    ("shuffle", "--cards"): lambda f, w: _inv(cards="5", seed="s"),
    ("shuffle", "--entropy"): lambda f, w: _inv({"items": ["a", "b"]}, entropy="coins:H"),
    ("apply", "--cards"): lambda f, w: _inv({"spec": ["cut:3"]}, cards="5"),
    ("apply", "--deck"): lambda f, w: _inv({"spec": ["cut:3"]}, deck="standard"),
    ("bigdeal", "--entropy"): lambda f, w: _inv(owner="club", boards="1-2", entropy="x" * 40),
    ("boards verify", "--key"): lambda f, w: _inv(
        {"files": [str(f.boards)]},
        event=EVENT,
        commitment=f.commitment,
        dv="7",
        session="1",
        boards="1-2",
        key=FIXTURE_KEY,
    ),
    ("handrecord", "--sqd"): lambda f, w: _inv(
        {"files": [str(f.root / "CUP1.pbn")]},
        out=str(w / "record.html"),
        sqd=str(f.root / "ev.sqd"),
    ),
}


# -- every parameter that takes a value ---------------------------------------------------
@dataclass(frozen=True)
class Case:
    """One parameter of one command: where a key goes."""

    command: str
    parameter: str  # the long flag of an option, the name of an argument
    is_argument: bool
    params: tuple[click.Parameter, ...]

    @property
    def id(self) -> str:
        return f"{self.command} {self.parameter}"


def _flag(param: click.Parameter) -> str:
    longs = [o for o in param.opts if o.startswith("--")]
    return (longs or list(param.opts))[0]


def _takes_value(param: click.Parameter) -> bool:
    if isinstance(param, TyperArgument):
        return True
    return not (getattr(param, "is_flag", False) or getattr(param, "count", False))


def _cases() -> Iterator[Case]:
    for path, command in leaf_commands():
        name = " ".join(path)
        params = tuple(command.params)
        for param in params:
            if not _takes_value(param):
                continue
            argument = isinstance(param, TyperArgument)
            yield Case(name, param.name if argument else _flag(param), argument, params)


CASES = list(_cases())


def _argv(case: Case, invocation: Invocation, value: str | None) -> list[str]:
    """``croupier COMMAND ...`` of ``invocation``, with ``value`` in the case's parameter."""
    arguments = {k: list(v) for k, v in invocation.arguments.items()}
    options = {k: list(v) for k, v in invocation.options.items()}
    if value is not None and case.is_argument:
        given = arguments.get(case.parameter, [])
        arguments[case.parameter] = [*given[:-1], value]  # a list keeps its other items
    elif value is not None:
        options[case.parameter] = [value]
    argv = case.command.split()
    for param in case.params:
        if isinstance(param, TyperArgument) and param.name in arguments:
            argv += arguments.pop(param.name)
    assert not arguments, f"{case.id}: no such arguments {sorted(arguments)}"
    for flag, values in options.items():
        for item in values:
            argv += [flag, item]
    return argv


def _base(case: Case) -> Base:
    return OVERRIDES.get((case.command, case.parameter), BASES[case.command])


def _windows(secret: str) -> re.Pattern[str]:
    """Any :data:`WINDOW` characters of ``secret`` in a row, in any case."""
    pieces = {re.escape(secret[i : i + WINDOW]) for i in range(len(secret) - WINDOW + 1)}
    return re.compile("|".join(sorted(pieces)), re.IGNORECASE)


def _is_message(line: str) -> bool:
    return line.startswith(("error:", "warning:"))


def test_every_working_invocation_works(
    files: Files,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Each invocation succeeds as it is, so a key put into it reaches the parameter."""
    commands = {case.command for case in CASES}
    assert commands == set(BASES)
    assert {case for case, _ in OVERRIDES.items()} <= {(c.command, c.parameter) for c in CASES}
    assert set(ALLOWED) <= {(c.command, c.parameter) for c in CASES}
    runs = [(next(c for c in CASES if c.command == name), BASES[name]) for name in commands]
    runs += [
        (next(c for c in CASES if (c.command, c.parameter) == k), b) for k, b in OVERRIDES.items()
    ]
    for number, (case, base) in enumerate(runs):
        work = tmp_path / str(number)
        work.mkdir()
        monkeypatch.chdir(work)
        argv = _argv(case, base(files, work), None)
        code = run(argv)
        captured = capsys.readouterr()
        assert code == 0, f"{argv}: {captured.err}"


def _run(argv: list[str]) -> tuple[int | str, str]:
    """Exit code (or the exception a traceback would show) and a description of it."""
    try:
        return run(argv), ""
    except Exception as exc:  # a traceback would print the message: search it too
        return type(exc).__name__, f"{type(exc).__name__}: {exc}"


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_no_key_is_echoed(
    case: Case,
    files: Files,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    allowed = (case.command, case.parameter) in ALLOWED
    leaks: list[str] = []
    for secret in SECRETS:
        work = tmp_path / secret.name
        work.mkdir()
        monkeypatch.chdir(work)
        argv = _argv(case, _base(case)(files, work), secret.given)
        capsys.readouterr()
        code, raised = _run(argv)
        captured = capsys.readouterr()
        found = _windows(secret.secret)
        streams = (("stdout", captured.out), ("stderr", captured.err), ("traceback", raised))
        for stream, text in streams:
            for line in text.splitlines():
                if found.search(line) and not (allowed and not _is_message(line)):
                    leaks.append(f"{secret.name} (exit {code}) on {stream}: {line[:300]}")
    assert not leaks, "\n".join(leaks)


# -- usage errors and warnings that name no parameter ---------------------------------------
def _leaks(secret: Secret, *texts: str) -> list[str]:
    found = _windows(secret.secret)
    return [line for text in texts for line in text.splitlines() if found.search(line)]


@pytest.mark.parametrize("secret", SECRETS, ids=[s.name for s in SECRETS])
@pytest.mark.parametrize(
    "argv",
    [
        ["{}"],  # No such command
        ["boards", "{}"],  # No such command of a group
        ["deal", "--{}"],  # No such option
        ["dealer", "--{}"],  # ... on a quick path's command
        ["shuffle", "--file", "-", "--{}"],
        ["elmsley", "--cards", "8", "--to", "1", "{}"],  # Got unexpected extra argument
        ["deal", "--count", "1", "--seed", "s", "--{}=1"],
    ],
    ids=["command", "group-command", "option", "dealer-option", "shuffle-option", "extra", "eq"],
)
def test_usage_errors_hide_a_key(
    argv: list[str],
    secret: Secret,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    code = run([a.format(secret.given) for a in argv])
    captured = capsys.readouterr()
    assert code == 2
    assert captured.err.startswith("error: ") and len(captured.err.splitlines()) == 1
    assert not _leaks(secret, captured.out, captured.err)
    assert "hidden>" in captured.err


@pytest.mark.parametrize("secret", SECRETS[:3], ids=[s.name for s in SECRETS[:3]])
@pytest.mark.parametrize(
    "command", [["convert", "--to", "lin"], ["handrecord", "--out", "record.html"]]
)
def test_warnings_hide_a_key_in_a_file_name(
    command: list[str],
    secret: Secret,
    files: Files,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A board file named like a key, with a game that is skipped: the warning names it."""
    monkeypatch.chdir(tmp_path)
    board_file = tmp_path / secret.given
    bad_game = '\n[Board "3"]\n[Deal "N:bad"]\n\n'
    board_file.write_text(files.boards.read_text(encoding="utf-8") + bad_game, encoding="utf-8")
    code = run([command[0], secret.given, "--from", "pbn", *command[1:]])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    warnings = [line for line in captured.err.splitlines() if line.startswith("warning:")]
    assert warnings and all("skipped" in line for line in warnings)
    assert not _leaks(secret, *warnings)


# -- the rule itself ----------------------------------------------------------------------
@pytest.mark.parametrize("secret", SECRETS, ids=[s.name for s in SECRETS])
def test_the_rule_hides_every_key_format(secret: Secret) -> None:
    for text in (secret.given, f"bad card '{secret.given}'", f"/tmp/{secret.given}_1.pbn"):
        masked = mask_secrets(text)
        assert not _leaks(secret, masked), masked
        assert f"<{len(secret.secret)} " in masked  # says how long the hidden run was
        assert mask_secrets(masked) == masked


@pytest.mark.parametrize(
    "text",
    [
        "bad card 'X' at position 1",
        "A K Q J T 9 8 7 6 5 4 3 2 a b c d e f 0 1 2 3 4 5 6 7 8 9 a b c d e f 0 1 2",
        "expected 0 <= number <= " + str(10**31 - 1),  # a number of 31 digits
        "unknown name " + "x" * 80,
        "file '/tmp/pytest-of-root/pytest-12/test_secret_echo0/cup1.pbn' not found",
        "unknown deck 'shoe:8'; expected one of standard, jokers1, ... or stripped:RANKS",
        "hex:9f3a",
        "the commitment 'ab12' is 4 hex digits; expected 64",
    ],
)
def test_the_rule_keeps_everything_else(text: str) -> None:
    assert mask_secrets(text) == text


@pytest.mark.parametrize("key", ["0" * 64, "9" * 40, str(math.factorial(52) - 1)])
def test_the_rule_hides_every_run_of_32_hex_digits_even_digits_alone(key: str) -> None:
    # 64 zeros is a valid croupier-boards key, and a 40-hex Big Deal hash may be all digits:
    # a long number is hidden too, since it may be a key
    assert mask_secrets(f"bad value '{key}'") == f"bad value '<{len(key)} hex digits hidden>'"


def test_the_rule_hides_spaced_hex_seed_digits() -> None:
    seed = "hex:" + " ".join(_hex("spaced hex: seed", 64)[i : i + 4] for i in range(0, 64, 4))
    assert mask_secrets(f"bad seed '{seed}' here") == "bad seed 'hex:<64 hex digits hidden>' here"


@pytest.mark.parametrize("secret", SECRETS, ids=[s.name for s in SECRETS])
def test_a_cut_line_keeps_no_half_of_a_key(secret: Secret) -> None:
    """A message longer than the limit is cut in the middle: the key is hidden first."""
    for before in range(MESSAGE_LIMIT // 2 - 80, MESSAGE_LIMIT // 2 + 20, 7):
        text = "y " * (before // 2) + secret.given + " z" * MESSAGE_LIMIT
        line = one_line(text)
        assert len(line) <= MESSAGE_LIMIT
        assert not _leaks(secret, line), line


@given(
    before=st.text(alphabet=st.characters(codec="utf-8"), max_size=40),
    after=st.text(alphabet=st.characters(codec="utf-8"), max_size=40),
    secret=st.sampled_from(SECRETS),
)
@settings(max_examples=200)
def test_no_surrounding_text_brings_a_key_back(before: str, after: str, secret: Secret) -> None:
    assert not _leaks(secret, one_line(before + secret.given + after))
