"""The ``croupier`` program: command discovery, global options and error handling.

Each command group lives in a module ``croupier/cli/<name>_cmd.py`` that
defines ``register(app: typer.Typer) -> None``.  :func:`run` imports them all,
runs the program and maps errors to exit codes:

* 0 — success;
* 1 — the command ran but reports a negative answer (e.g. verification failed);
* 2 — bad input: a one-line ``error: ...`` on stderr (a traceback only with ``--debug``).
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from collections.abc import Sequence

import typer

import croupier
from croupier.errors import CroupierError

__all__ = ["build_app", "main", "run"]

HELP = """\
Shuffle anything and deal cards: exactly fair, frugal with randomness,
reproducible and verifiable.

Examples:

  croupier deal                      a bridge deal from the OS CSPRNG

  croupier cards "AS KH 10d" --style long

  croupier deck pinochle --json
"""


def _version_callback(value: bool) -> None:
    if value:
        typer.echo(f"croupier {croupier.__version__}")
        raise typer.Exit()


def build_app() -> typer.Typer:
    """Create the Typer application with every discovered command group."""
    app = typer.Typer(
        name="croupier",
        help=HELP,
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
        rich_markup_mode=None,
        context_settings={"help_option_names": ["-h", "--help"]},
    )

    @app.callback()
    def _root(
        version: bool = typer.Option(
            False,
            "--version",
            callback=_version_callback,
            is_eager=True,
            help="Print the version and exit.",
        ),
        debug: bool = typer.Option(False, "--debug", help="Show tracebacks on errors."),
    ) -> None:
        """Shuffle anything and deal cards."""

    import croupier.cli as cli_pkg

    for info in sorted(pkgutil.iter_modules(cli_pkg.__path__), key=lambda i: i.name):
        if info.name.endswith("_cmd"):
            module = importlib.import_module(f"croupier.cli.{info.name}")
            module.register(app)
    return app


def run(argv: Sequence[str] | None = None) -> int:
    """Run the program with ``argv`` (default: ``sys.argv[1:]``); return the exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in args
    app = build_app()
    command = typer.main.get_command(app)
    try:
        command.main(args=args, prog_name="croupier", standalone_mode=True)
    except SystemExit as exc:
        code = exc.code
        if code is None:
            return 0
        if isinstance(code, int):
            return code
        print(code, file=sys.stderr)
        return 1
    except CroupierError as exc:
        if debug:
            raise
        message = str(exc).replace("\n", " ")
        print(f"error: {message}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except (OSError, UnicodeError) as exc:
        if debug:
            raise
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


def main() -> None:
    """Console-script entry point."""
    sys.exit(run())
