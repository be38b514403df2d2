"""``croupier dealer SCRIPT``: run a script in the dealer language, as the program ``dealer`` does.

The script's ``condition`` picks the deals, its ``action`` list prints them
and gathers statistics (see ``docs/dealer-language.md``).  The default output
(``--format dealer``) is what ``dealer`` prints, byte for byte, so existing
post-processors keep working; ``pbn``, ``oneline`` and ``table`` are the
other formats, and ``--json`` gives everything machine-readable.

dealer's own flags work as dealer users type them: ``-g`` (generate),
``-p`` (produce), ``-s`` (a numeric seed), ``-v`` (no closing summary), ``-m``
(progress meter), ``-q`` (no ``printpbn`` output), ``-0``/``-2``/``-3``
(swapping), ``-u``, ``-t``, ``-V``; ``-e`` and ``-l`` are refused with the
reason.  These short flags mean something else in other croupier commands;
``croupier dealer`` follows dealer (see
:data:`croupier.cli.options.PROGRAM_FLAGS`).

The options are written once, in :data:`croupier.cli.dealer_options.OPTIONS`:
this module builds the Typer command from that table (help, usage errors, the
registry), and the run itself is :func:`croupier.cli.dealer_run.run_dealer`,
which the quick path of ``croupier dealer`` (no Typer) calls too.

>>> sorted(typer.main.get_group(app).commands)
['dealer']
"""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Annotated, Any, Literal

import typer

from croupier.cli.dealer_options import FORMATS, OPTIONS, SWAP_LONGS, SWAPS, Option, defaults
from croupier.cli.dealer_run import read_script, run_dealer
from croupier.cli.options import _quiet

__all__ = ["DEALER_HELP", "DealerFormat", "app", "dealer_command", "read_script"]

app = typer.Typer(add_completion=False, rich_markup_mode=None)

DealerFormat = Literal["dealer", "pbn", "oneline", "table"]
"""What ``croupier dealer`` writes: dealer's own output, PBN games, one line per deal,
or only the statistics as tables (:data:`croupier.cli.dealer_options.FORMATS`)."""

_FORMATS = ", ".join(FORMATS)

DEALER_HELP = f"""\
Run a dealer script: deal bridge hands satisfying its condition, exactly
uniformly, and carry out its actions (print deals, averages, frequencies).

SCRIPT is a file in the input language of the program dealer (generate,
produce, dealer, vulnerable, predeal, pointcount, altcount, condition,
action ...), or - (the default, as in dealer) for standard input.  Every deal
produced is exactly uniform among the deals that satisfy the condition and the
predeal.  generate counts the deals looked at, as in dealer, whatever the
strategy: Produced over Generated is the share of deals that pass.

Formats ({_FORMATS}): dealer (default) prints what dealer prints, byte for
byte, then dealer's closing lines; pbn writes a PBN 2.1 export file (CRLF;
boards from 1, Dealer and Vulnerable by the standard cycles, the Deal from the
dealer's hand); oneline is one deal per line; table prints only the
statistics (counts, means, standard errors, 95% intervals).  --json prints
one JSON document (docs/json.md) with the deals, the statistics and the run's
summary.  A note on stderr sums the run up, with the share of deals that pass
and its 95% interval; --quiet leaves it out, with the statistics tables of
--format pbn and oneline and the progress bar.

dealer's flags: -g N (look at most at N deals), -p N (produce N deals), -s N
(a numeric seed; croupier's deals differ from dealer's for the same number),
-v (no closing lines), -m (progress bar, even off a terminal), -q (no printpbn
output), -0/-2/-3 (dealer's swapping: each deal followed by 1 or 5 copies with
East, South and West swapped; those deals are not independent), -u (upper
case, as always), -t N (give up after N seconds without a deal, exit 1), -V
(version).  -e and -l are refused with the reason.  Without a seed the deals
come from the OS CSPRNG; --seed or -s make the run reproducible (the output
says so, never showing the seed), and the first K deals produced never depend
on -p or -g.

On a Dask cluster (the cluster extra): --workers N starts a local cluster of
N processes, --scheduler ADDRESS uses a running one.  The deals are split into
chunks of --chunk deals (default 1,048,576, or 32 when the script calls
tricks()), each solved by a worker, merged in order: the output is the same
as without a cluster, for any number of workers and any chunk size.

\\b
Examples:
  croupier dealer notrump.dlr
  croupier dealer notrump.dlr -p 100 --seed "club night" --format pbn
  croupier dealer stats.dlr -g 1000000 --format table --plot hcp.svg
  echo 'condition hcp(north) >= 20 action printoneline' | croupier dealer -p 5
  croupier dealer slam.dlr -p 1000 --seed s1 --workers 8 --format table
"""

_TYPES: dict[str, Any] = {
    "flag": bool,
    "count": int,
    "int": int | None,
    "float": float | None,
    "text": str | None,
    "path": Path | None,
    "swap": int,
}


def _parameter(option: Option) -> inspect.Parameter:
    """The Typer parameter of one row of the table."""
    extra: dict[str, Any] = {"help": option.help}
    annotation: Any = _TYPES.get(option.kind)
    if option.kind == "choice":
        annotation = Literal.__getitem__(option.choices)
        extra["case_sensitive"] = False
    elif option.kind == "count":
        extra["count"] = True
    elif option.kind in ("int", "float", "text", "path"):
        extra["show_default"] = False
    if option.dest == "quiet":
        extra["callback"] = _quiet
    typed = Annotated[annotation, typer.Option(*option.flags, **extra)]
    return inspect.Parameter(
        option.dest, inspect.Parameter.KEYWORD_ONLY, default=option.default, annotation=typed
    )


def _parameters() -> list[inspect.Parameter]:
    script = inspect.Parameter(
        "script_path",
        inspect.Parameter.KEYWORD_ONLY,
        default="-",
        annotation=Annotated[
            str, typer.Argument(metavar="SCRIPT", help="The script (- for stdin, the default).")
        ],
    )
    swaps = [
        inspect.Parameter(
            f"swap_{mode}",
            inspect.Parameter.KEYWORD_ONLY,
            default=False,
            annotation=Annotated[
                bool,
                typer.Option(
                    SWAP_LONGS[flag], flag, help=f"dealer's {flag}: the same as --swap {mode}."
                ),
            ],
        )
        for flag, mode in SWAPS.items()
    ]
    return [script, *(_parameter(o) for o in OPTIONS), *swaps]


def dealer_command(**values: Any) -> None:
    """Run a dealer script (the options: :data:`croupier.cli.dealer_options.OPTIONS`)."""
    chosen = {**defaults(), **values}
    for mode in SWAPS.values():  # -0, -2, -3: the widest swapping asked for
        if chosen.pop(f"swap_{mode}", False):
            chosen["swap"] = max(chosen["swap"], mode) if mode else chosen["swap"]
    code = run_dealer(chosen)
    if code:
        raise typer.Exit(code)


dealer_command.__signature__ = inspect.Signature(_parameters())  # type: ignore[attr-defined]
dealer_command.__annotations__ = {p.name: p.annotation for p in _parameters()}
app.command("dealer", help=DEALER_HELP)(dealer_command)
