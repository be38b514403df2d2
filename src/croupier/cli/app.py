"""The ``croupier`` program: the command registry, global options and error handling.

Every command group is a module ``croupier/cli/<group>_cmd.py`` with one
module-level ``typer.Typer()``.  :data:`COMMANDS` below is the one place that
says which command lives where; a module is imported only when one of its
commands runs (or when ``croupier --help`` needs nothing but the summaries
kept here, it is not imported at all), so ``croupier deal`` starts fast.

An entry is ``name: Entry(module, attribute, summary, group)``:

* ``group=False`` — ``name`` is one command of the module's Typer app
  (``croupier deal`` is the ``deal`` command of ``deal_cmd.app``);
* ``group=True`` — the whole Typer app is the command group ``name``
  (``croupier boards verify``).

:func:`run` runs the program and maps every outcome to an exit code:

* 0 — success;
* 1 — the command ran but reports a negative answer (e.g. verification failed);
* 2 — bad input or a usage error: one line ``error: ...`` on stderr (a traceback
  only with ``croupier --debug ...``).

Every ``error:`` and ``warning:`` line goes through :func:`croupier.cli.failures.one_line`,
which hides key material (:func:`croupier.cli.secrets_mask.mask_secrets`): a key given to
the wrong argument is never echoed, also not by a usage error (``Invalid value for ...``).

>>> sorted(COMMANDS)[:4]
['analyze', 'apply', 'bigdeal', 'boards']
>>> COMMANDS["deal"].module
'croupier.cli.deal_cmd'
"""

from __future__ import annotations

import importlib
import sys
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import get_close_matches

import typer
from typer import _click as click
from typer.core import TyperGroup, TyperOption

import croupier
from croupier.cli.failures import MESSAGE_LIMIT as _MESSAGE_LIMIT
from croupier.cli.failures import as_flags, one_line
from croupier.cli.output import OutputError, output_failed
from croupier.cli.quick_run import run_quick_path
from croupier.errors import CroupierError
from croupier.files import describe_os_error
from croupier.frozen import frozen_dataclass

__all__ = [
    "COMMANDS",
    "Entry",
    "build_app",
    "flag_for_parameters",
    "leaf_commands",
    "run",
]


@frozen_dataclass
class Entry:
    """Where a top-level command lives: module, Typer attribute, one-line summary."""

    module: str
    attribute: str
    summary: str
    group: bool = False

    def load(self, name: str) -> click.Command:
        """Import the module and return the click command ``name`` stands for."""
        module = importlib.import_module(self.module)
        typer_app = getattr(module, self.attribute)
        group = typer.main.get_group(typer_app)
        if self.group:
            group.name = name
            return group
        command = group.commands.get(name)
        if command is None:  # a registry entry that names no command: a bug, not bad input
            raise LookupError(f"{self.module}.{self.attribute} has no command {name!r}")
        return command


_DEAL = "croupier.cli.deal_cmd"
_NUMBERS = "croupier.cli.numbers_cmd"
_ALGEBRA = "croupier.cli.algebra_cmd"
_ANALYSIS = "croupier.cli.analysis_cmd"
_CARDS = "croupier.cli.cards_cmd"
_TOURNAMENT = "croupier.cli.tournament_cmd"

#: Every top-level command, in the order ``croupier --help`` lists them.
COMMANDS: dict[str, Entry] = {
    "deal": Entry(_DEAL, "app", "Deal cards for any game, exactly uniformly."),
    "rank": Entry(_NUMBERS, "app", "Print the number of a deal under a numbering scheme."),
    "unrank": Entry(_NUMBERS, "app", "Print the deal with a given number."),
    "entropy": Entry(_NUMBERS, "app", "How many bits a deal needs, and how many methods use."),
    "dealer": Entry(
        "croupier.cli.dealer_cmd", "app", "Run a dealer script: constrained deals and statistics."
    ),
    "shuffle": Entry(
        "croupier.cli.shuffle_cmd", "app", "Shuffle items, a deck, 1..N or a file's lines."
    ),
    "cards": Entry(_CARDS, "app", "Parse, sort and print cards in any notation."),
    "deck": Entry(_CARDS, "app", "Print a deck preset, or list the presets."),
    "apply": Entry(_ALGEBRA, "app", "Apply deterministic shuffles (cut, riffle, faro, ...)."),
    "order": Entry(_ALGEBRA, "app", "How many repeats of a shuffle restore the deck."),
    "elmsley": Entry(_ALGEBRA, "app", "Faro shuffles that move a card to a position."),
    "group": Entry(_ALGEBRA, "app", "The group that shuffles generate, and its order."),
    "bigdeal": Entry(_TOURNAMENT, "bigdeal_app", "Big Deal compatible board sets."),
    "squaredeal": Entry(
        _TOURNAMENT, "squaredeal_app", "SquareDeal events: commit, publish, deal, verify.", True
    ),
    "boards": Entry(_TOURNAMENT, "boards_app", "Verifiable board sets (croupier-boards/1).", True),
    "page": Entry("croupier.cli.page_cmd", "app", "The offline board verification page.", True),
    "convert": Entry(
        "croupier.cli.convert_cmd", "app", "Convert a board file: PBN, LIN, DUP, DLM, CSV, JSON."
    ),
    "handrecord": Entry(
        "croupier.cli.handrecord_cmd", "app", "Printable hand records (HTML, PDF) of board files."
    ),
    "analyze": Entry(_ANALYSIS, "app", "Exact fairness of a shuffle or deal method."),
    "mixing": Entry(_ANALYSIS, "mixing_app", "Exact mixing of riffle shuffles.", True),
    "poker": Entry(
        "croupier.cli.poker_cmd", "app", "Poker hand values and exact equity of hands.", True
    ),
}


def leaf_commands() -> list[tuple[list[str], click.Command]]:
    """Every runnable command as ``(words after croupier, command)``; groups are walked.

    >>> [" ".join(path) for path, _ in leaf_commands()][:3]
    ['deal', 'rank', 'unrank']
    >>> ["squaredeal", "verify"] in [path for path, _ in leaf_commands()]
    True
    """
    found: list[tuple[list[str], click.Command]] = []

    def walk(path: list[str], command: click.Command) -> None:
        if isinstance(command, TyperGroup):
            for name, sub in command.commands.items():
                walk([*path, name], sub)
        else:
            found.append((path, command))

    for name, entry in COMMANDS.items():
        walk([name], entry.load(name))
    return found


HELP = """\
Shuffle anything and deal cards: exactly fair, frugal with randomness,
reproducible and verifiable.

\b
Examples:
  croupier deal                      a bridge deal from the OS CSPRNG
  croupier deal --seed "club night" --count 4 --format pbn
  croupier cards "AS KH 10d" --style long
  croupier deck pinochle --json
"""


class LazyGroup(TyperGroup):
    """The root group: commands come from :data:`COMMANDS`, imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        entry = COMMANDS.get(cmd_name)
        return None if entry is None else entry.load(cmd_name)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        try:
            return super().resolve_command(ctx, args)
        except click.exceptions.UsageError as exc:
            matches = get_close_matches(args[0], list(COMMANDS)) if args else []
            if matches:
                exc.message = f"{exc.message.rstrip('.')}; did you mean {matches[0]!r}?"
            raise

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        with formatter.section("Commands"):
            formatter.write_dl([(name, entry.summary) for name, entry in COMMANDS.items()])


@dataclass
class _State:
    """What the root options set for the whole run."""

    debug: bool = False
    quiet: bool = False  # --quiet: no warning lines after the command either


def _version_flag(ctx: typer.Context, value: bool) -> None:
    """``--version`` (eager): noted, printed once every root option is read."""
    if value:
        ctx.meta["croupier.version"] = True


def _json_flag(ctx: typer.Context, value: bool) -> None:
    """``--json`` before the command (eager): it goes with ``--version``."""
    if value:
        ctx.meta["croupier.json"] = True


def _root_options_read(ctx: typer.Context, value: bool) -> bool:
    """After every root option (``--debug`` is read last): print the version, as text or
    with ``--json`` as JSON with every algorithm id, and exit."""
    as_json = ctx.meta.get("croupier.json", False)
    if ctx.meta.get("croupier.version"):
        if as_json:
            typer.echo(version_json())
        else:
            typer.echo(f"croupier {croupier.__version__}")
        raise typer.Exit()
    if as_json:
        raise typer.BadParameter(
            "--json before a command goes with --version; give --json after the command",
            param_hint="'--json'",
        )
    return value


def version_json() -> str:
    """``croupier --version --json``: the version, Python's, and every algorithm id
    (:data:`croupier.algorithm_ids.ALGORITHMS`: current or retired, and its module)."""
    import platform

    from croupier.algorithm_ids import ALGORITHMS
    from croupier.formats.envelope import envelope_json

    result = {
        "version": croupier.__version__,
        "python": platform.python_version(),
        "algorithms": [row._asdict() for row in ALGORITHMS],
    }
    return envelope_json("--version", result)


def build_app() -> typer.Typer:
    """The root Typer application (commands are resolved lazily from :data:`COMMANDS`)."""
    app = typer.Typer(
        name="croupier",
        cls=LazyGroup,
        help=HELP,
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
        rich_markup_mode=None,
        context_settings={"help_option_names": ["-h", "--help"]},
    )

    @app.callback()
    def _root(
        ctx: typer.Context,
        version: bool = typer.Option(
            False,
            "--version",
            callback=_version_flag,
            is_eager=True,
            help="Print the version and exit.",
        ),
        as_json: bool = typer.Option(
            False,
            "--json",
            callback=_json_flag,
            is_eager=True,
            help="With --version: the version and every algorithm id, as JSON.",
        ),
        debug: bool = typer.Option(
            False, "--debug", callback=_root_options_read, help="Show tracebacks on errors."
        ),
    ) -> None:
        """Shuffle anything and deal cards."""
        if isinstance(ctx.obj, _State):
            ctx.obj.debug = debug

    return app


def _resolve(argv: Sequence[str]) -> click.Command | None:
    """The deepest command that ``argv`` names (for mapping parameter names to flags)."""
    entry_name = next((a for a in argv if not a.startswith("-")), None)
    if entry_name is None or entry_name not in COMMANDS:
        return None
    command = COMMANDS[entry_name].load(entry_name)
    rest = list(argv[list(argv).index(entry_name) + 1 :])
    while isinstance(command, TyperGroup):
        sub = next((a for a in rest if not a.startswith("-")), None)
        if sub is None or sub not in command.commands:
            break
        command = command.commands[sub]
        rest = rest[rest.index(sub) + 1 :]
    return command


def flag_for_parameters(message: str, command: click.Command | None) -> str:
    """Write ``name=`` in a library message as the command's flag for that parameter.

    Library errors name Python parameters (``players=``); on the command line the
    user typed ``--players``, so the message says that instead.

    >>> cmd = COMMANDS["deal"].load("deal")
    >>> flag_for_parameters("players= must be at least 1, got 0", cmd)
    '--players must be at least 1, got 0'
    >>> flag_for_parameters("key= is not an option of deal, so it stays", cmd)
    'key= is not an option of deal, so it stays'
    """
    if command is None:
        return message
    flags: dict[str, str] = {}
    for param in command.params:
        longs = [o for o in param.opts if o.startswith("--")]
        if param.name and isinstance(param, TyperOption) and longs:
            flags[param.name] = longs[0]
    return as_flags(message, flags)


MESSAGE_LIMIT = _MESSAGE_LIMIT
"""The longest error or warning line the program prints (characters)."""


def _one_line(text: str) -> str:
    r"""A message as one bounded, printable line (:func:`croupier.cli.failures.one_line`).

    >>> _one_line("bad\n value\x1b[31m")
    'bad value\\x1b[31m'
    >>> len(_one_line("x" * 5000)) <= MESSAGE_LIMIT
    True
    """
    return one_line(text)


def _usage_error(exc: click.exceptions.UsageError) -> str:
    """A usage error as one line: the command, what is wrong, where to get help."""
    ctx = exc.ctx
    path = ctx.command_path if ctx is not None else "croupier"
    return f"error: {path}: {_one_line(exc.format_message())} (see '{path} --help')"


def run(argv: Sequence[str] | None = None) -> int:
    """Run the program with ``argv`` (default: ``sys.argv[1:]``); return the exit code.

    Warnings the library gives (a deprecated name, say) are printed as
    ``warning: ...`` lines on stderr, once each (none with a command's ``--quiet``).

    >>> run(["cards", "AS", "kh"])
    AS KH
    0
    >>> run(["cards", "--bogus"])
    2
    """
    args = list(sys.argv[1:] if argv is None else argv)
    quick = run_quick_path(args)  # croupier dealer and shuffle --file: without Typer
    if quick is not None:
        return quick
    state = _State()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", DeprecationWarning)
        code = _run(args, state)
    if not state.quiet:
        for message in dict.fromkeys(_one_line(str(w.message)) for w in caught):
            print(f"warning: {message}", file=sys.stderr)
    return code


def _run(args: list[str], state: _State) -> int:
    command = typer.main.get_command(build_app())
    try:
        result = command.main(args=args, prog_name="croupier", standalone_mode=False, obj=state)
    except click.exceptions.NoArgsIsHelpError as exc:
        typer.echo(exc.format_message())
        return 0
    except click.exceptions.UsageError as exc:
        if state.debug:
            raise
        print(_usage_error(exc), file=sys.stderr)
        return 2
    except click.exceptions.ClickException as exc:
        if state.debug:
            raise
        print(f"error: {_one_line(exc.format_message())}", file=sys.stderr)
        return exc.exit_code or 2
    except typer.Abort:
        print("error: interrupted", file=sys.stderr)
        return 130
    except CroupierError as exc:
        if state.debug:
            raise
        message = flag_for_parameters(_one_line(str(exc)), _resolve(args))
        print(f"error: {message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        output_failed()
        return 0
    except OutputError as exc:
        return _output_error(exc)
    except (OSError, UnicodeError) as exc:
        if state.debug:
            raise
        print(f"error: {_one_line(describe_os_error(exc))}", file=sys.stderr)
        return 2
    try:
        sys.stdout.flush()  # a full disk shows here, not after a "successful" exit
    except BrokenPipeError:
        output_failed()
        return 0
    except OSError as exc:
        return _output_error(exc)
    return result if isinstance(result, int) else 0


def _output_error(exc: OSError) -> int:
    """Report that standard output could not be written; drop the rest of it."""
    output_failed()
    reason = exc.describe() if isinstance(exc, OutputError) else describe_os_error(exc)
    print(f"error: {_one_line(reason)}", file=sys.stderr)
    return 2
