"""Double-dummy analysis of deal arrays: trick tables, par, PBN tags (optional extra ``dd``).

:func:`tricks_table` gives, for every deal of a bridge
:class:`~croupier.bulk.DealArray`, the number of tricks each declarer takes
in each strain when all four hands are visible and both sides play
perfectly: an ``int8`` array of shape ``(n, 4, 5)``, declarers ``N E S W``
(pile indices 0 to 3) and strains ``S H D C NT``.  The solver is Bo
Haglund's and Soren Hein's DDS, shipped compiled by the ``endplay`` package
(``pip install 'croupier[dd]'``); without it every function here raises
:class:`DoubleDummyUnavailable`.

Deals go to DDS in batches of :data:`BATCH_DEALS` (the most one call of its
threaded ``CalcAllTables`` accepts with all five strains), written straight
from :meth:`~croupier.bulk.DealArray.ranks_held` into the solver's input
structure; no per-deal Python objects are built.  Solving costs about a quarter
of a second of CPU per deal, so this is for thousands of deals, not millions.

:func:`par_results` gives the par score and contracts of each deal from its
table (DDS's dealer-aware par), and :func:`pbn_dd_tags` /
:func:`dd_table_text` write a table as PBN tags (``DoubleDummyTricks``,
``OptimumScore``, ``ParContract``, ``OptimumResultTable``) or as a small grid.
:func:`analyse_hand_record` fills in the tables and par of a printed hand
record (:mod:`croupier.formats.hand_record`).

>>> from croupier.bulk import DealArray
>>> from croupier.dealing.deal import deal_from_number
>>> from croupier.dealing.layout import make_layout
>>> deals = DealArray.from_deals([deal_from_number(make_layout("bridge"), 0)])
>>> print(dd_table_text(tricks_table(deals)[0]))  # N all spades, E hearts, S diamonds, W clubs
     S  H  D  C NT
N   13  0 13  0  0
E    0 13  0 13  0
S   13  0 13  0  0
W    0 13  0 13  0
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any, Final, Literal, TypeAlias

import numpy as np
import numpy.typing as npt

from croupier.bulk.array import DealArray
from croupier.errors import CroupierError, MissingExtraError, excerpt
from croupier.frozen import frozen_dataclass
from croupier.seats import SEATS, VULNERABILITIES, Seat, Vulnerability

if TYPE_CHECKING:
    from croupier.boards import Hands
    from croupier.formats.hand_record import HandRecord

__all__ = [
    "BATCH_DEALS",
    "INSTALL_HINT",
    "STRAINS",
    "DoubleDummyError",
    "DoubleDummyUnavailable",
    "ParContract",
    "ParResult",
    "Progress",
    "TricksArray",
    "analyse_hand_record",
    "dd_table_text",
    "double_dummy_available",
    "double_dummy_tricks_tag",
    "par_results",
    "pbn_dd_tags",
    "require_solver",
    "tricks_table",
]

Strain = Literal["S", "H", "D", "C", "NT"]
TricksArray: TypeAlias = npt.NDArray[np.int8]
"""Double-dummy tricks, shape ``(n, 4, 5)``: deal, declarer ``N E S W``, strain ``S H D C NT``."""
Progress: TypeAlias = Callable[[int, int], object]
"""Called as ``progress(done, total)`` after each batch of deals is solved."""

STRAINS: Final[tuple[Strain, ...]] = ("S", "H", "D", "C", "NT")
"""The strain axis of a tricks table (also DDS's own order)."""

BATCH_DEALS: Final = 40
"""Deals solved per DDS call: ``CalcAllTables`` takes at most 200 (deal, strain) pairs."""

INSTALL_HINT: Final = "pip install 'croupier[dd]'"
"""What to run to get the double-dummy solver."""

_SOLVER_MODULE = "endplay._dds"
_VUL_CODE = {  # DDS's vulnerability numbers
    Vulnerability.NONE: 0,
    Vulnerability.ALL: 1,
    Vulnerability.NS: 2,
    Vulnerability.EW: 3,
}
_PAR_STRAINS: tuple[Strain, ...] = ("NT", "S", "H", "D", "C")  # DDS's par denominations
_PAR_SEATS = (*(seat.letter for seat in SEATS), "NS", "EW")  # DDS's par "seats"

_TAG_STRAINS = (4, 0, 1, 2, 3)  # NT S H D C: their strain order
_HEX = np.frombuffer(b"0123456789abcdef", np.uint8)


class DoubleDummyError(CroupierError):
    """Deals or arguments double-dummy analysis cannot take (not bridge, bad dealer ...)."""


class DoubleDummyUnavailable(MissingExtraError):
    """The double-dummy solver (DDS, from the ``endplay`` package) is not installed.

    The message names the extra to install:

    >>> raise DoubleDummyUnavailable.missing()
    Traceback (most recent call last):
    ...
    croupier.simulate.double_dummy.DoubleDummyUnavailable: double-dummy analysis needs ...
    """

    @classmethod
    def missing(cls, where: str = "") -> DoubleDummyUnavailable:
        """The error for a missing solver; ``where`` (e.g. ``"script.dl:3:11: "``) goes first.

        >>> str(DoubleDummyUnavailable.missing("x.dl:2:5: "))
        "x.dl:2:5: double-dummy analysis needs the DDS solver of the endplay package, \
which is not installed: pip install 'croupier[dd]'"
        """
        return cls(
            f"{where}double-dummy analysis needs the DDS solver of the endplay package, "
            f"which is not installed: {INSTALL_HINT}"
        )


def require_solver(where: str = "") -> ModuleType:
    """The DDS bindings (``endplay._dds``), or :class:`DoubleDummyUnavailable` naming the extra.

    ``where`` prefixes the message (a script position such as ``"x.dl:3:11: "``).

    >>> require_solver().MAXNOOFTABLES >= BATCH_DEALS
    True
    """
    try:
        return importlib.import_module(_SOLVER_MODULE)
    except ImportError as exc:
        raise DoubleDummyUnavailable.missing(where) from exc
    except (OSError, RuntimeError) as exc:  # endplay present, its compiled DDS unusable
        reason = excerpt(str(exc).splitlines()[0] if str(exc) else type(exc).__name__, 80)
        raise DoubleDummyUnavailable(
            f"{where}endplay is installed but its DDS library could not be loaded ({reason}); "
            f"reinstall it: {INSTALL_HINT}"
        ) from exc


def double_dummy_available() -> bool:
    """Whether the double-dummy solver can be used (the ``dd`` extra is installed).

    >>> double_dummy_available()
    True
    """
    try:
        require_solver()
    except DoubleDummyUnavailable:
        return False
    return True


def _require_bridge(deals: object) -> DealArray:
    if not isinstance(deals, DealArray):
        raise DoubleDummyError(f"deals= must be a DealArray, not {type(deals).__name__}")
    if not deals.layout.bridge_like:
        raise DoubleDummyError(
            "double-dummy analysis needs bridge deals (hands N, E, S, W of 13 from 52 cards), "
            f"not the layout with piles {[p.name for p in deals.layout.piles]}"
        )
    return deals


def tricks_table(deals: DealArray, *, progress: Progress | None = None) -> TricksArray:
    """Double-dummy tricks of every declarer in every strain, for every deal.

    Returns ``int8`` of shape ``(len(deals), 4, 5)``: ``[i, seat, strain]`` is
    the number of tricks declarer ``seat`` (``N E S W`` = 0 1 2 3) takes in
    ``strain`` (``S H D C NT`` = 0 ... 4) with the opening lead from the
    seat on declarer's left.  ``progress(done, total)`` is called after each
    batch of :data:`BATCH_DEALS` deals.

    >>> from croupier.bulk.writers import parse_oneline
    >>> line = "n AKQJT98765432... e .AKQJT98765432.. s ..AKQJT98765432. w ...AKQJT98765432"
    >>> table = tricks_table(parse_oneline(line + "\\n" + line), progress=print)
    2 2
    >>> table.shape, table.dtype.name, table[0, 0].tolist()  # North: 13 in spades, none in NT
    ((2, 4, 5), 'int8', [13, 0, 13, 0, 0])
    """
    deals = _require_bridge(deals)
    dds = require_solver()
    n = len(deals)
    out = np.zeros((n, 4, 5), np.int8)
    if n == 0:
        return out
    # DDS wants, per hand N E S W and suit S H D C, a rank bitmask with the 2 at bit 2.
    holdings = deals.ranks_held().astype(np.uint32) << 2
    request = dds.ddTableDeals()
    answer = dds.ddTablesRes()
    par_unused = dds.allParResults()
    capacity = len(request.ddTableDeal)
    cards = np.frombuffer(
        request, np.uint32, count=capacity * 16, offset=type(request).ddTableDeal.offset
    ).reshape(capacity, 4, 4)
    results = np.frombuffer(
        answer, np.int32, count=len(answer.results) * 20, offset=type(answer).results.offset
    ).reshape(-1, 5, 4)
    for start in range(0, n, BATCH_DEALS):
        stop = min(n, start + BATCH_DEALS)
        cards[: stop - start] = holdings[start:stop]
        request.noOfTables = stop - start
        try:
            dds.CalcAllTables(request, -1, [0] * 5, answer, par_unused)
        except dds.DDSError as exc:  # pragma: no cover - DDS refuses only malformed input
            message = f"the DDS solver failed on deals {start}..{stop - 1}: {exc}"
            raise DoubleDummyError(message) from exc
        out[start:stop] = results[: stop - start].transpose(0, 2, 1)
        if progress is not None:
            progress(stop, n)
    return out


@frozen_dataclass
class ParContract:
    """One par contract: ``level``, ``strain``, ``declarer`` (``N``, ``NS`` ...), doubled, result.

    ``result`` is the tricks over (positive) or under (negative) the
    contract double-dummy; par sacrifices are doubled and go down.
    ``str()`` is PBN's ``ParContract`` spelling: side, then contract.

    >>> str(ParContract(4, "S", "NS", False, 0)), str(ParContract(5, "D", "E", True, -2))
    ('NS 4S', 'E 5DX-2')
    >>> str(ParContract(3, "NT", "N", False, 1))
    'N 3NT+1'
    """

    level: int
    strain: Strain
    declarer: str
    doubled: bool
    result: int

    def __str__(self) -> str:
        tail = f"{self.result:+d}" if self.result else ""
        return f"{self.declarer} {self.level}{self.strain}{'X' if self.doubled else ''}{tail}"


@frozen_dataclass
class ParResult:
    """The par of one deal: ``score`` for North-South (negative when East-West gain), contracts.

    ``contracts`` is empty when par is to pass the deal out.

    >>> par = ParResult(-100, (ParContract(5, "S", "NS", True, -1),))
    >>> par.optimum_score, par.par_contract
    ('NS -100', 'NS 5SX-1')
    >>> ParResult(0, ()).par_contract
    'Pass'
    """

    score: int
    contracts: tuple[ParContract, ...]

    @property
    def optimum_score(self) -> str:
        """The value of PBN's ``OptimumScore`` tag: ``NS`` and North-South's score."""
        return f"NS {self.score}"

    @property
    def par_contract(self) -> str:
        """The value of PBN's ``ParContract`` tag: the contracts joined by ``; ``, or ``Pass``."""
        return "; ".join(str(c) for c in self.contracts) or "Pass"


def _per_deal(value: str | Sequence[str], n: int, name: str, valid: Sequence[str]) -> list[str]:
    values = [value] * n if isinstance(value, str) else list(value)
    if len(values) != n:
        raise DoubleDummyError(f"{name}= has {len(values)} values for {n} deals; give one or {n}")
    for v in values:
        if v not in valid:
            shown = excerpt(v) if isinstance(v, str) else repr(v)
            raise DoubleDummyError(f"{name}={shown} is not one of {', '.join(valid)}")
    return values


def par_results(
    deals: DealArray,
    dealer: Seat | Sequence[Seat],
    vulnerable: Vulnerability | Sequence[Vulnerability],
    *,
    tables: TricksArray | None = None,
    progress: Progress | None = None,
) -> list[ParResult]:
    """The par score and par contracts of every deal (DDS's par, which accounts for the dealer).

    ``dealer`` is a seat letter (``N E S W``) and ``vulnerable`` a PBN
    vulnerability (``None NS EW All``), one for all deals or one per deal.
    Pass ``tables`` (from :func:`tricks_table`) to skip solving again;
    ``progress`` is passed to :func:`tricks_table` otherwise.

    >>> from croupier.bulk import DealArray
    >>> from croupier.dealing.deal import deal_from_number
    >>> from croupier.dealing.layout import make_layout
    >>> deals = DealArray.from_deals([deal_from_number(make_layout("bridge"), 0)])
    >>> [(p.score, p.par_contract) for p in par_results(deals, "E", "None")]
    [(1510, 'NS 7S')]
    >>> par_results(deals, "E", "All", tables=tricks_table(deals))[0].score
    2210
    """
    deals = _require_bridge(deals)
    dds = require_solver()
    n = len(deals)
    dealers = _per_deal(dealer, n, "dealer", SEATS)
    vuls = _per_deal(vulnerable, n, "vulnerable", VULNERABILITIES)
    if tables is None:
        tables = tricks_table(deals, progress=progress)
    elif np.shape(tables) != (n, 4, 5):
        raise DoubleDummyError(f"tables= has shape {np.shape(tables)}; expected ({n}, 4, 5)")
    dds_tables = np.ascontiguousarray(np.asarray(tables).transpose(0, 2, 1), np.int32)
    out = []
    for i in range(n):  # one small C call per deal, after the (far costlier) solving
        table = dds.ddTableResults.from_buffer_copy(dds_tables[i].tobytes())
        master = dds.parResultsMaster()
        seat, vul = Seat(dealers[i]), Vulnerability(vuls[i])
        dds.DealerParBin(table, master, seat.position, _VUL_CODE[vul])
        out.append(_par_result(master))
    return out


def _par_result(master: Any) -> ParResult:
    contracts = []
    for c in master.contracts[: master.number]:
        if c.level == 0:  # passed out
            continue
        result = c.overTricks if c.underTricks == 0 else -c.underTricks
        strain = _PAR_STRAINS[c.denom]
        contracts.append(
            ParContract(c.level, strain, _PAR_SEATS[c.seats], c.underTricks > 0, result)
        )
    return ParResult(int(master.score), tuple(contracts))


def _check_table(table: npt.ArrayLike) -> npt.NDArray[np.int64]:
    values = np.asarray(table)
    if values.shape != (4, 5) or values.min() < 0 or values.max() > 13:
        raise DoubleDummyError(
            f"a tricks table has shape (4, 5) and values 0..13; got shape {values.shape}"
        )
    return values.astype(np.int64)


def dd_table_text(table: npt.ArrayLike) -> str:
    """One deal's tricks table as a grid: a header of strains, a row per declarer ``N E S W``.

    >>> import numpy as np
    >>> print(dd_table_text(np.arange(20).reshape(4, 5) % 14))
         S  H  D  C NT
    N    0  1  2  3  4
    E    5  6  7  8  9
    S   10 11 12 13  0
    W    1  2  3  4  5
    """
    values = _check_table(table)
    lines = ["   " + "".join(f"{s:>3}" for s in STRAINS)]
    for seat, row in zip(SEATS, values, strict=True):
        lines.append(f"{seat}  " + "".join(f"{int(v):>3}" for v in row))
    return "\n".join(lines)


def double_dummy_tricks_tag(tables: npt.ArrayLike) -> list[str]:
    """The value of PBN's ``DoubleDummyTricks`` tag for every deal (Bridge Composer's layout).

    20 hexadecimal digits: declarers ``N S E W``, for each the strains
    ``NT S H D C``.  Vectorised over the deals.

    >>> import numpy as np
    >>> table = np.zeros((1, 4, 5), np.int8); table[0, 0] = [13, 12, 11, 10, 9]
    >>> double_dummy_tricks_tag(table)
    ['9dcba000000000000000']
    """
    values = np.asarray(tables)
    if values.ndim != 3 or values.shape[1:] != (4, 5):
        raise DoubleDummyError(f"tables= has shape {values.shape}; expected (n, 4, 5)")
    ordered = values[:, _tag_seats()][:, :, _TAG_STRAINS].reshape(len(values), 20)
    text = _HEX[ordered.astype(np.intp)].tobytes().decode("ascii")
    return [text[i : i + 20] for i in range(0, len(text), 20)]


def pbn_dd_tags(table: npt.ArrayLike, par: ParResult | None = None) -> str:
    """PBN tags for one deal's double-dummy analysis, as Bridge Composer writes and reads them.

    ``DoubleDummyTricks``; with ``par``, ``OptimumScore`` and ``ParContract``;
    then the ``OptimumResultTable`` section (declarers ``N S E W``, strains
    ``NT S H D C``).  Lines end with a newline.

    >>> import numpy as np
    >>> table = np.array([[13, 0, 13, 0, 0], [0, 13, 0, 13, 0]] * 2)
    >>> text = pbn_dd_tags(table, ParResult(1510, (ParContract(7, "S", "NS", False, 0),)))
    >>> print(text.splitlines()[:6], text.splitlines()[-1], sep="\\n")
    ['[DoubleDummyTricks "0d0d00d0d000d0d00d0d"]', '[OptimumScore "NS 1510"]', \
'[ParContract "NS 7S"]', '[OptimumResultTable "Declarer;Denomination\\\\2R;Result\\\\2R"]', \
'N NT  0', 'N  S 13']
    W  C 13
    """
    values = _check_table(table)
    lines = [f'[DoubleDummyTricks "{double_dummy_tricks_tag(values[None])[0]}"]']
    if par is not None:
        lines.append(f'[OptimumScore "{par.optimum_score}"]')
        lines.append(f'[ParContract "{par.par_contract}"]')
    lines.append('[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]')
    for seat in _tag_seats():
        for strain in _TAG_STRAINS:
            lines.append(f"{SEATS[seat]} {STRAINS[strain]:>2} {int(values[seat, strain]):>2}")
    return "\n".join(lines) + "\n"


# -- hand records ------------------------------------------------------------------------------

#: Tricks tables already solved, by deal (hands N E S W): a hand record made again, or the same
#: boards in another file, are not solved twice.  Cleared when it holds this many deals.
_SOLVED_LIMIT: Final = 4096
_solved: dict[Hands, TricksArray] = {}


def _deal_array(hands: Sequence[Hands]) -> DealArray:
    """The bridge deal array of complete hands ``(N, E, S, W)``."""
    from croupier.dealing.layout import make_layout

    layout = make_layout("bridge")
    column = {card: i for i, card in enumerate(layout.deck)}
    piles = np.zeros((len(hands), len(layout.deck)), np.uint8)
    for row, deal in enumerate(hands):
        for seat, hand in enumerate(deal):
            piles[row, [column[card] for card in hand]] = seat
    return DealArray(layout, piles)


def _tag_seats() -> tuple[int, ...]:
    """N S E W: the seats of PBN's double-dummy tags (hand records' order), by position."""
    from croupier.formats.hand_record import DD_ROWS

    return tuple(seat.position for seat in DD_ROWS)


def analyse_hand_record(record: HandRecord, *, progress: Progress | None = None) -> HandRecord:
    """``record`` with every board's double-dummy tricks table and par filled in (DDS).

    Each board's par takes its own dealer and vulnerability.  A board whose
    deal is partial cannot be solved: the error names it.  Deals solved
    before in this process are taken from memory.

    >>> from croupier.boards import Board
    >>> from croupier.formats.hand_record import HandRecord
    >>> from croupier.ranking.bigdeal import goedel_unrank
    >>> done = analyse_hand_record(HandRecord.from_boards([Board.standard(1, goedel_unrank(0))]))
    >>> dd = done.boards[0].double_dummy
    >>> dd.tricks[0], dd.par_score, [c.text for c in dd.par_contracts]
    ((13, 0, 13, 0, 0), 1510, ['NS 7S'])
    """
    from croupier.formats.hand_record import DoubleDummy
    from croupier.formats.hand_record import ParContract as HandRecordContract

    boards = record.boards
    for board in boards:
        if not board.complete:
            raise DoubleDummyError(
                f"board {board.number} is a partial deal; double-dummy analysis needs all 52 "
                "cards (make the hand record without it)"
            )
    if not boards:
        return record
    hands = [b.hands for b in boards]
    todo = list(dict.fromkeys(h for h in hands if h not in _solved))
    if todo:
        solved = tricks_table(_deal_array(todo), progress=progress)
        if len(_solved) + len(todo) > _SOLVED_LIMIT:
            _solved.clear()
        _solved.update(zip(todo, solved, strict=True))
    tables = np.stack([_solved[h] for h in hands])
    pars = par_results(
        _deal_array(hands),
        [b.dealer for b in boards],
        [b.vulnerable for b in boards],
        tables=tables,
    )
    results = [
        DoubleDummy(
            tuple(tuple(int(v) for v in row) for row in table),
            par.score,
            tuple(
                HandRecordContract(c.level, c.strain, c.declarer, c.doubled, c.result)
                for c in par.contracts
            ),
        )
        for table, par in zip(tables, pars, strict=True)
    ]
    return record.with_double_dummy(results)
