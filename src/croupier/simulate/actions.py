"""Run a dealer script's actions over the produced deals: dealer's text, and the statistics.

:class:`ActionRunner` takes the produced deals batch by batch
(:meth:`ActionRunner.feed`): for every deal it writes the text of the print
actions in the script's order, exactly as the ``dealer`` program does, and it
accumulates ``average`` and ``frequency`` with numpy (one pass per batch).
:meth:`ActionRunner.finish` writes what dealer writes at the end of a run
(``print(seats)`` pages, averages, frequency tables) and returns the
:class:`~croupier.simulate.stats.Report`.  A script without ``action``
prints every deal with ``printall``.  :func:`dealer_summary` is dealer's
closing ``Generated ... hands`` block.

>>> import io
>>> from croupier.bulk.writers import parse_oneline
>>> from croupier.simulate import parse_script
>>> script = parse_script('action printoneline(hcp(north)), average "hcp" hcp(north)')
>>> deals = parse_oneline(
...     "n AKQJT98765432... e .AKQJT98765432.. s ..AKQJT98765432. w ...AKQJT98765432 \\n")
>>> out = io.StringIO()
>>> runner = ActionRunner(script, out)
>>> runner.feed(deals, 1)
>>> report = runner.finish()
>>> print(out.getvalue(), end="")
n AKQJT98765432... e .AKQJT98765432.. s ..AKQJT98765432. w ...AKQJT98765432 10
hcp: 10
>>> report.results[0].mean
Fraction(10, 1)
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable
from typing import TYPE_CHECKING, TextIO

import numpy as np
import numpy.typing as npt

import croupier.bulk.evaluate as bulk
from croupier.bulk.array import DealArray
from croupier.errors import CroupierError
from croupier.simulate.ast import (
    Action,
    Average,
    Expr,
    Frequency,
    Frequency2D,
    Print,
    PrintAll,
    PrintCompact,
    PrintES,
    PrintEW,
    PrintOneLine,
    PrintPBN,
    Script,
)
from croupier.simulate.compile import (
    Compiled,
    IntArray,
    compile_expression,
    known_tricks,
    scales_of,
)
from croupier.simulate.stats import (
    AverageResult,
    Frequency2DResult,
    FrequencyResult,
    Report,
    Result,
)
from croupier.simulate.text_output import (
    Records,
    dealer_average_text,
    dealer_frequency2d_text,
    dealer_frequency_text,
    holdings_of,
    interleaved,
    print_seat_text,
    printall_records,
    printcompact_records,
    printew_records,
    printoneline_records,
    printpbn_records,
)

if TYPE_CHECKING:
    from croupier.simulate.double_dummy import TricksArray
    from croupier.simulate.draws import Draws

__all__ = ["ActionError", "ActionRunner", "dealer_summary"]

_SEAT_INDEX = {"N": 0, "E": 1, "S": 2, "W": 3}


class ActionError(CroupierError):
    """Deals that the actions cannot take (not bridge deals, a bad deal number)."""


def dealer_summary(generated: int, produced: int, seed: int | str | None, seconds: float) -> str:
    """dealer's closing lines: deals generated and produced, the seed and the time taken.

    ``seed`` is shown as given (dealer's is a number; croupier's seeds are
    text); ``None``, a run without a seed, shows ``none``.

    >>> print(dealer_summary(1000, 12, 5, 0.0123), end="")
    Generated 1000 hands
    Produced 12 hands
    Initial random seed 5
    Time needed    0.012 sec
    >>> dealer_summary(1, 1, None, 0).splitlines()[2]
    'Initial random seed none'
    """
    shown = "none" if seed is None else seed
    return (
        f"Generated {generated} hands\nProduced {produced} hands\n"
        f"Initial random seed {shown}\nTime needed {seconds:8.3f} sec\n"
    )


_Render = Callable[[DealArray, int, bulk.Holdings], Records]


class ActionRunner:
    """Runs a script's actions over batches of produced deals (see the module).

    ``dealer_format=True`` (the default) writes dealer's text byte for byte;
    ``printpbn``'s ``[Event]`` tag then names ``script.filename`` and
    ``seed`` (``?`` when not given) and ``[Date]`` is ``date`` (default: today,
    as dealer).  With ``dealer_format=False`` the print actions are the same,
    but ``printpbn`` writes ``[Event "?"]`` and ``[Date "?"]`` unless
    ``seed``/``date`` are given (so a seeded run's output is reproducible),
    and :meth:`finish` writes croupier's statistics text (means with
    standard errors and 95% intervals) instead of dealer's.

    >>> import io
    >>> from croupier.bulk import deal_array
    >>> from croupier.simulate import parse_script
    >>> s = parse_script('action frequency "spades" (spades(north), 3, 5)')
    >>> out = io.StringIO()
    >>> runner = ActionRunner(s, out)
    >>> runner.feed(deal_array(600, seed="doc"), 1)
    >>> runner.feed(deal_array(400, seed="doc2"), 601)
    >>> report = runner.finish()
    >>> report.produced, sum(report.results[0].rows()[i][1] for i in range(5))
    (1000, 1000)
    >>> out.getvalue().splitlines()[0]
    'Frequency spades:'
    """

    def __init__(
        self,
        script: Script,
        out: TextIO,
        *,
        dealer_format: bool = True,
        seed: int | str | None = None,
        date: _dt.date | str | None = None,
        draws: Callable[[str, npt.ArrayLike | None, int], Draws] | None = None,
        skip_pbn: bool = False,
    ) -> None:
        self.script = script
        self.out = out
        self.dealer_format = dealer_format
        self.actions: tuple[Action, ...] = (
            (PrintAll(),) if script.actions is None else script.actions
        )
        if skip_pbn:  # dealer's -q: no printpbn output
            self.actions = tuple(a for a in self.actions if not isinstance(a, PrintPBN))
        scales = scales_of(script)
        self._compiled: dict[int, Compiled] = {}
        self._purposes: dict[int, str] = {}
        self._draws = draws
        self._batch_draws: dict[str, Draws] = {}
        self._numbers: npt.NDArray[np.int64] | None = None
        self._size = 0
        purpose = "action/0"

        def compiled(expr: Expr) -> Compiled:
            key = id(expr)
            if key not in self._compiled:
                self._compiled[key] = compile_expression(
                    expr, script.definitions, scales=scales, filename=script.filename
                )
                self._purposes[id(self._compiled[key])] = purpose
            return self._compiled[key]

        self._renderers: list[_Render] = []
        self._results: list[Result] = []
        self._stat_inputs: list[tuple[Compiled, ...]] = []
        self._pbn_event, self._pbn_date = self._pbn_tags(seed, date)
        # print(seats): only the named seats' holdings are kept (8 bytes a seat and deal)
        self._print_seats = sorted(
            {_SEAT_INDEX[s] for a in self.actions if isinstance(a, Print) for s in a.seats}
        )
        self._stored: list[tuple[npt.NDArray[np.uint16], int]] = []
        self.produced = 0
        self.pbn_printed = 0
        for number, action in enumerate(self.actions):
            purpose = f"action/{number}"  # each action's rnd() draws its own numbers
            if isinstance(action, Average):
                self._results.append(AverageResult(label=action.label, expression=str(action.expr)))
                self._stat_inputs.append((compiled(action.expr),))
            elif isinstance(action, Frequency):
                self._results.append(
                    FrequencyResult.of(action.label, str(action.expr), action.low, action.high, [])
                )
                self._stat_inputs.append((compiled(action.expr),))
            elif isinstance(action, Frequency2D):
                self._results.append(
                    Frequency2DResult.of(
                        action.label,
                        (str(action.expr), str(action.expr2)),
                        (action.low, action.high),
                        (action.low2, action.high2),
                        [],
                        [],
                    )
                )
                self._stat_inputs.append((compiled(action.expr), compiled(action.expr2)))
            else:
                renderer = self._renderer(action, compiled)
                if renderer is not None:
                    self._renderers.append(renderer)

    def _pbn_tags(self, seed: int | str | None, date: _dt.date | str | None) -> tuple[str, str]:
        if isinstance(date, _dt.date):
            shown = date.strftime("%Y.%m.%d")
        elif date is not None:
            shown = date
        else:
            shown = _dt.datetime.now().strftime("%Y.%m.%d") if self.dealer_format else "?"
        if not self.dealer_format and seed is None:
            return "?", shown
        seed_text = "?" if seed is None else str(seed)
        event = f"Hand simulated by dealer with file {self.script.filename}, seed {seed_text}"
        return event, shown

    def _renderer(self, action: Action, compiled: Callable[[Expr], Compiled]) -> _Render | None:
        if isinstance(action, PrintAll):
            return lambda deals, first, h: printall_records(deals, first)
        if isinstance(action, PrintEW):
            return lambda deals, first, h: printew_records(deals)
        if isinstance(action, PrintCompact | PrintOneLine):
            expr = None if action.expr is None else compiled(action.expr)
            render = (
                printcompact_records if isinstance(action, PrintCompact) else printoneline_records
            )
            return lambda deals, first, h: render(
                deals, None if expr is None else self._value(expr, h)
            )
        if isinstance(action, PrintPBN):
            dealer, vul = self.script.dealer, self.script.vulnerable

            def pbn(deals: DealArray, first: int, h: bulk.Holdings) -> Records:
                self.pbn_printed += len(deals)
                return printpbn_records(
                    deals,
                    first,
                    event=self._pbn_event,
                    date=self._pbn_date,
                    dealer=dealer,
                    vulnerable=vul,
                )

            return pbn
        if isinstance(action, PrintES):
            items = [item if isinstance(item, str) else compiled(item) for item in action.items]

            def printes(deals: DealArray, first: int, h: bulk.Holdings) -> Records:
                return Records.formatted(
                    [item if isinstance(item, str) else self._value(item, h) for item in items],
                    len(deals),
                )

            return printes
        return None  # print(seats): stored, printed by finish()

    def _value(self, expr: Compiled, holdings: bulk.Holdings) -> IntArray:
        """An action's expression on the batch being fed (``rnd`` draws for its action)."""
        if not expr.random:
            return expr(holdings)
        purpose = self._purposes[id(expr)]
        draws = self._batch_draws.get(purpose)
        if draws is None and self._draws is not None:
            draws = self._batch_draws[purpose] = self._draws(purpose, self._numbers, self._size)
        return expr(holdings, draws)

    def feed(
        self,
        deals: DealArray,
        first_number: int,
        *,
        tricks: TricksArray | None = None,
        numbers: npt.ArrayLike | None = None,
    ) -> None:
        """Run the actions on a batch of produced deals; ``first_number`` is the first's number.

        Numbers count produced deals from 1 (dealer's ``printall`` and
        ``printpbn`` show them); feed batches in order.  ``tricks``: the
        deals' double-dummy tables when already solved (shape ``(n, 4, 5)``),
        so ``tricks()`` in the actions does not solve them again.  ``numbers``:
        the deals' numbers in their run, which ``rnd`` in an action draws with
        (from the ``draws`` given to the runner).

        >>> import io
        >>> from croupier.bulk import deal_array
        >>> from croupier.simulate import parse_script
        >>> runner = ActionRunner(parse_script("action printall"), io.StringIO())
        >>> runner.feed(deal_array(1, seed="x"), 0)
        Traceback (most recent call last):
        ...
        croupier.simulate.actions.ActionError: first_number=0 must be a whole number >= 1 ...
        """
        if isinstance(first_number, bool) or not isinstance(first_number, int) or first_number < 1:
            raise ActionError(
                f"first_number={first_number!r} must be a whole number >= 1 "
                "(the produced deal number of the batch's first deal)"
            )
        if not deals.layout.bridge_like:
            raise ActionError(
                f"dealer actions need bridge deals, not {deals.layout.game!r} deals; "
                "deal with layout='bridge'"
            )
        n = len(deals)
        if n == 0:
            return
        holdings = bulk.Holdings(deals)
        if tricks is not None:
            known_tricks(holdings, tricks)
        self._batch_draws = {}
        self._numbers = None if numbers is None else np.asarray(numbers, np.int64)
        self._size = n
        chunks = [render(deals, first_number, holdings) for render in self._renderers]
        if len(chunks) == 1:
            self.out.write(chunks[0].data.decode())
        elif chunks:  # deal by deal, each action's record in turn (decoded once)
            self.out.write(interleaved(chunks).decode())
        for k, inputs in enumerate(self._stat_inputs):
            values: list[IntArray] = [self._value(f, holdings) for f in inputs]
            result = self._results[k]
            if isinstance(result, AverageResult | FrequencyResult):
                self._results[k] = result.add(values[0])
            else:
                self._results[k] = result.add(values[0], values[1])
        if self._print_seats:
            self._stored.append((holdings_of(deals, self._print_seats), first_number))
        self.produced += n

    def report(self) -> Report:
        """The statistics so far.

        >>> import io
        >>> from croupier.simulate import parse_script
        >>> ActionRunner(parse_script("action average hcp(north)"), io.StringIO()).report()
        Report(produced=0, results=(AverageResult(count=0, sum=0, sum_squares=0, ...),))
        """
        return Report(self.produced, tuple(self._results))

    def finish(self) -> Report:
        """Write the end-of-run text (``print(seats)``, averages, frequencies); return the report.

        >>> import io
        >>> from croupier.simulate import parse_script
        >>> out = io.StringIO()
        >>> ActionRunner(parse_script('action average "x" 1'), out).finish().produced
        0
        >>> out.getvalue()
        'x: -nan\\n'
        """
        report = self.report()
        results = iter(report.results)
        stored = None
        for action in self.actions:
            if isinstance(action, Print):
                if stored is None:
                    stored = self._stored_holdings()
                ranks, numbers = stored
                for seat in sorted({_SEAT_INDEX[s] for s in action.seats}):
                    column = self._print_seats.index(seat)
                    self.out.write(print_seat_text(ranks[:, column], numbers, seat))
            elif isinstance(action, Average | Frequency | Frequency2D) and self.dealer_format:
                result = next(results)
                if isinstance(result, AverageResult):
                    self.out.write(dealer_average_text(result))
                elif isinstance(result, FrequencyResult):
                    self.out.write(dealer_frequency_text(result))
                else:
                    self.out.write(dealer_frequency2d_text(result))
        if not self.dealer_format and report.results:
            self.out.write(report.text() + "\n")
        return report

    def _stored_holdings(self) -> tuple[npt.NDArray[np.uint16], IntArray]:
        if not self._stored:
            empty = np.zeros((0, len(self._print_seats), 4), np.uint16)
            return empty, np.zeros(0, np.int64)
        ranks = np.concatenate([r for r, _ in self._stored])
        numbers = np.concatenate(
            [np.arange(f, f + len(r), dtype=np.int64) for r, f in self._stored]
        )
        return ranks, numbers

    def dealer_shows_summary(self, verbose: bool = True) -> bool:
        """Whether dealer would print its closing summary after this run.

        dealer flips its verbose flag each time ``printpbn`` prints a deal, so
        with an odd number of PBN deals its summary disappears (and ``-v``,
        which normally hides it, brings it back).

        >>> import io
        >>> from croupier.bulk import deal_array
        >>> from croupier.simulate import parse_script
        >>> runner = ActionRunner(parse_script("action printpbn"), io.StringIO(), date="x")
        >>> runner.feed(deal_array(3, seed="p"), 1)
        >>> runner.dealer_shows_summary(), runner.dealer_shows_summary(verbose=False)
        (False, True)
        """
        return verbose != bool(self.pbn_printed % 2)
