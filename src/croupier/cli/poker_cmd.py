"""``croupier poker``: the value of a poker hand, and the equity of hands against each other.

One Typer app, :data:`app`, is the ``poker`` command group (``croupier poker
eval``, ``croupier poker equity``); the work is :mod:`croupier.poker`.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated

import typer

from croupier.cli.failures import as_flags
from croupier.cli.options import JsonOpt, QuietOpt, SeedOpt
from croupier.cli.running import Advance, is_terminal, progress_bar, progress_lines
from croupier.formats.envelope import envelope_json
from croupier.poker import (
    HAND_VALUES,
    EquityPlan,
    EquityResult,
    HandValue,
    PokerError,
    evaluate,
    evaluate_omaha,
    plan_equity,
)
from croupier.poker.equity import Game
from croupier.randomness.options import resolve_source, source_note
from croupier.randomness.purposes import Purpose

__all__ = ["PROGRESS_FROM", "app", "equity_command", "equity_text", "eval_command", "value_text"]

GROUP_HELP = """\
Poker hands: their value, and the equity of hands against each other.

\b
Examples:
  croupier poker eval As Ks Qs Js Ts
  croupier poker equity AsKs QhQd --board 2s7sQc
"""

app = typer.Typer(
    help=GROUP_HELP, no_args_is_help=True, add_completion=False, rich_markup_mode=None
)

EVAL_HELP = f"""\
The value of the best five of 5, 6 or 7 cards: category, ranks in kicker order,
the five cards, and the value 1..{HAND_VALUES} (larger is better; equal values split).

CARDS may be one argument or several, in any card notation (As, 10h, T♥).
With --omaha, CARDS are 4 to 6 hole cards and the hand uses exactly two of them
with exactly three of the --board cards.

\b
Examples:
  croupier poker eval As Ks Qs Js Ts
  croupier poker eval "Kh Kd" --board "7s 7c Ah Kc 2d"
  croupier poker eval AsAhKdQc --omaha --board "Ks Ts 9s 2s 7h" --json
"""

EQUITY_HELP = """\
Win, tie and equity (share of the pot) of 2 to 10 hands.

A HAND is hold'em hole cards (AsKs), a range (QQ+, AKs, A2s+, T9s-65s, 22-55,
AKo, AsKh, random; comma-separated, quoted), or 4 to 6 Omaha cards.

Exact by default: every matchup of the hands meets every board the other cards
make, counted as exact fractions.  Above 100,000,000 deals (matchups x boards:
wide ranges) it samples 1,000,000 Monte Carlo trials instead and says so;
--exact always enumerates, --trials N always samples (croupier-equity-mc/1,
with a 95% interval; --seed makes it reproducible).  A progress bar shows on
a terminal for long runs, and off one (a log, a pipe) a line every 30 seconds.

Monte Carlo keeps to a time: --time-limit SECONDS stops after the trials done
by then and says how many (as dealer's -t); without it, a run whose first
batches estimate more than 5 minutes is refused at once, with the estimate
and what to change (fewer --trials, a --time-limit, hands that share fewer
cards).

\b
Examples:
  croupier poker equity AsKs QhQd --board 2s7sQc
  croupier poker equity AsAh KsKh
  croupier poker equity "QQ+, AKs" "JJ-99, AQs" --board Ks7d2c
  croupier poker equity AhKh random --trials 200000 --seed study --json
  croupier poker equity AA KK QQ random --time-limit 10
  croupier poker equity "As Ah Kd Qc" "Ks Kh 7c 8d" --board 2c3d9h
"""

PROGRESS_FROM = 5_000_000
"""Deals (exact) from which a progress bar shows on a terminal; trials need a fifth of that."""

_EQUITY_FLAGS = {"trials": "--trials", "time_limit": "--time-limit", "exact": "--exact"}


def value_text(value: HandValue) -> str:
    """A hand value as the lines ``croupier poker eval`` prints.

    >>> print(value_text(evaluate("As Ks Qs Js Ts")))
    Royal Flush
      best five  AS KS QS JS TS
      value      7462 of 7462 (straight-flush)
    """
    lines = [value.description]
    if value.best:
        lines.append("  best five  " + " ".join(c.code for c in value.best))
    lines.append(f"  value      {value.value} of {HAND_VALUES} ({value.category.slug})")
    return "\n".join(lines)


@app.command("eval", help=EVAL_HELP)
def eval_command(
    cards: Annotated[list[str], typer.Argument(help="The cards (hole cards with --omaha).")],
    board: Annotated[str, typer.Option("--board", help="Board cards.")] = "",
    omaha: Annotated[
        bool, typer.Option("--omaha", help="Exactly two of CARDS and three of --board.")
    ] = False,
    as_json: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Print the value of a poker hand.

    >>> from croupier.cli.app import run
    >>> run(["poker", "eval", "Kh", "Kd", "--board", "7s 7c Ah Kc 2d"])
    Full House, Kings full of Sevens
      best five  KH KD KC 7S 7C
      value      7278 of 7462 (full-house)
    0
    """
    text = " ".join(cards)
    value = evaluate_omaha(text, board) if omaha else evaluate(text, board)
    if as_json:
        data = {"cards": text, "board": board, "rule": "omaha" if omaha else "best-five"}
        typer.echo(envelope_json("poker eval", {**data, **value.to_json()}))
    else:
        typer.echo(value_text(value))


def _percent(x: float) -> str:
    return f"{100 * x:.3f}%"


def equity_text(result: EquityResult) -> list[str]:
    """The lines ``croupier poker equity`` prints for a result.

    >>> from croupier.poker import equity
    >>> print("\\n".join(equity_text(equity(["AsKs", "QhQd"], board="2s7sQc"))))
    board 2S 7S QC: exact, 990 boards
    hand        equity       win       tie  exact equity
    AsKs       25.556%   25.556%    0.000%  23/90
    QhQd       74.444%   74.444%    0.000%  67/90
    """
    where = "preflop" if not result.board else "board " + " ".join(c.code for c in result.board)
    if result.dead:
        where += ", dead " + " ".join(c.code for c in result.dead)
    if result.game == "omaha":
        where = "Omaha, " + where
    width = max(8, *(len(h.hand) for h in result.hands))
    if result.method == "exact":
        if result.matchups == 1:
            counted = f"{result.deals:,} boards"
        else:
            counted = (
                f"{result.deals:,} deals ({result.matchups:,} matchups x {result.boards:,} boards)"
            )
        lines = [f"{where}: exact, {counted}"]
        lines.append(f"{'hand':<{width}}  {'equity':>8}  {'win':>8}  {'tie':>8}  exact equity")
        for h in result.hands:
            lines.append(
                f"{h.hand:<{width}}  {_percent(float(h.equity)):>8}  {_percent(float(h.win)):>8}  "
                f"{_percent(float(h.tie)):>8}  {h.equity}"
            )
        return lines
    counted = f"{result.deals:,} trials"
    if result.stopped == "time-limit":
        counted = f"{result.deals:,} of {result.requested:,} trials before the time limit"
    lines = [f"{where}: Monte Carlo, {counted} ({result.algorithm}, {result.source})"]
    lines.append(f"{'hand':<{width}}  {'equity':>8}  {'95% interval':>19}  {'win':>8}  {'tie':>8}")
    for h in result.hands:
        low, high = h.interval or (0.0, 0.0)
        interval = f"{_percent(low)} - {_percent(high)}"
        lines.append(
            f"{h.hand:<{width}}  {_percent(float(h.equity)):>8}  {interval:>19}  "
            f"{_percent(float(h.win)):>8}  {_percent(float(h.tie)):>8}"
        )
    return lines


@app.command("equity", help=EQUITY_HELP)
def equity_command(
    hands: Annotated[list[str], typer.Argument(help="2 to 10 hands: cards or ranges.")],
    board: Annotated[str, typer.Option("--board", help="Board cards (0 to 5).")] = "",
    dead: Annotated[str, typer.Option("--dead", help="Cards out of play (folded, burnt).")] = "",
    exact: Annotated[
        bool, typer.Option("--exact", help="Enumerate, however many deals (up to 10^10).")
    ] = False,
    trials: Annotated[
        int | None, typer.Option("--trials", help="Monte Carlo with this many trials.", min=1)
    ] = None,
    game: Annotated[
        str, typer.Option("--game", help="auto (by hand size), holdem or omaha.")
    ] = "auto",
    time_limit: Annotated[
        float | None,
        typer.Option(
            "--time-limit",
            metavar="SECONDS",
            help="Monte Carlo: stop after this many seconds with the trials done.",
        ),
    ] = None,
    seed: SeedOpt = None,
    quiet: QuietOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Print the equity of poker hands.

    >>> from croupier.cli.app import run
    >>> run(["poker", "equity", "AsAh", "KsKh", "--board", "Kd 7d 2c 3h"])
    board KD 7D 2C 3H: exact, 44 boards
    hand        equity       win       tie  exact equity
    AsAh        4.545%    4.545%    0.000%  1/22
    KsKh       95.455%   95.455%    0.000%  21/22
    0
    """
    chosen: Game = game  # type: ignore[assignment]  # checked by the library
    try:
        plan: EquityPlan = plan_equity(
            hands, board, dead, trials=trials, exact=True if exact else None, game=chosen
        )
        exact_run = plan.method == "exact"
        source = None if exact_run else resolve_source(seed, purpose=Purpose.EQUITY_MC)
        with _progress(plan, quiet) as advance:
            result = plan.run(source=source, progress=advance, time_limit=time_limit)
    except PokerError as exc:
        raise PokerError(as_flags(str(exc), _EQUITY_FLAGS)) from None
    if as_json:
        data = result.to_json()
        data.pop("algorithm", None)  # Monte Carlo: in the envelope, with its source
        data.pop("source", None)
        typer.echo(
            envelope_json(
                "poker equity",
                data,
                algorithm=result.algorithm,
                source=None if source is None else source.kind,
                reproducible=source is None or source.reproducible,
                bits=None if source is None else source.bits_used,
            )
        )
    else:
        for line in equity_text(result):
            typer.echo(line)
    if quiet:
        return
    if source is not None:
        typer.echo(
            f"sampled {result.deals:,} trials with croupier-equity-mc/1 {source_note(source)}",
            err=True,
        )
        if result.stopped == "time-limit":
            typer.echo(
                f"note: the time limit stopped the run after {result.deals:,} of "
                f"{result.requested:,} trials (the interval is as wide as that many give)"
                + (
                    f"; --trials {result.deals} with the same seed repeats them"
                    if source.reproducible
                    else ""
                ),
                err=True,
            )
    else:
        unused = [flag for flag, given in (("--seed", seed), ("--time-limit", time_limit)) if given]
        if unused:
            verb = "was" if len(unused) == 1 else "were"
            typer.echo(
                f"note: the result is exact, so {' and '.join(unused)} {verb} not used", err=True
            )


@contextmanager
def _progress(plan: EquityPlan, quiet: bool) -> Iterator[Advance]:
    """A progress bar on a terminal for a long run, else progress lines at a low rate."""
    exact_run = plan.method == "exact"
    label = "enumerating" if exact_run else "sampling"
    bar_from = PROGRESS_FROM if exact_run else PROGRESS_FROM // 5
    if not quiet and is_terminal(sys.stderr) and plan.total >= bar_from:
        with progress_bar(plan.total, True, label) as advance:
            yield advance
    elif not quiet:
        with progress_lines(plan.total, label, "deals" if exact_run else "trials") as advance:
            yield advance
    else:
        with progress_bar(plan.total, False) as advance:
            yield advance
