"""Double-dummy analysis (croupier.simulate.double_dummy) and ``tricks()`` in expressions.

Expected values come from hand analysis of deals built so the result is
forced (a seat holding a whole suit, or the four aces and every other top
card), from symmetry (turning the table or renaming suits moves the results
with them), from DDS's other entry point (``SolveBoard``, one declarer and
strain at a time, reached through endplay's own ``Deal`` parsed from a PBN
string) and from endplay's own par and PBN reader.  The C program ``dealer``
cannot serve as a peer: its ``tricks()`` runs GIB's ``bridge`` program,
which Debian does not ship (the Debian build stops with "Can't open temporary
file").
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Iterator

import numpy as np
import numpy.typing as npt
import pytest

from croupier.bulk import DealArray, deal_array
from croupier.bulk import evaluate as bulk
from croupier.bulk.writers.text import pbn_deal_bytes
from croupier.dealing.layout import make_layout
from croupier.errors import CroupierError, MissingExtraError
from croupier.simulate import compile_expression, parse_expression, parse_script
from croupier.simulate import double_dummy as dd
from croupier.simulate.compile import compile_condition

BRIDGE = make_layout("bridge")
SUIT_COLUMNS = [range(13 * s, 13 * s + 13) for s in range(4)]  # deck columns of S H D C


def solid_suits(owner_of_suit: tuple[int, ...]) -> npt.NDArray[np.uint8]:
    """Piles of a deal where seat ``owner_of_suit[s]`` holds all 13 cards of suit ``s``."""
    piles = np.empty(52, np.uint8)
    for suit, seat in enumerate(owner_of_suit):
        piles[SUIT_COLUMNS[suit]] = seat
    return piles


def solid_suits_table(owner_of_suit: tuple[int, ...]) -> npt.NDArray[np.int8]:
    """By hand: in a trump suit its holder's side takes all 13 tricks (it ruffs or wins
    every trick and leads trumps when on lead); in notrump the opening leader, a
    defender, cashes 13 tricks of a solid suit, so declarer takes none."""
    table = np.zeros((4, 5), np.int8)
    for suit, holder in enumerate(owner_of_suit):
        for declarer in range(4):
            if declarer % 2 == holder % 2:
                table[declarer, suit] = 13
    return table


@pytest.fixture(scope="module")
def random_deals() -> DealArray:
    return deal_array(3, seed="double dummy tests")


@pytest.fixture(scope="module")
def random_tables(random_deals: DealArray) -> npt.NDArray[np.int8]:
    return dd.tricks_table(random_deals)


def test_solid_suits_in_every_arrangement_and_batches_with_progress() -> None:
    # 45 deals (two batches of the solver), each seat holding one whole suit, the
    # suits handed out in all 24 orders in turn, so neighbouring rows differ.
    orders = list(itertools.permutations(range(4)))
    owners = [orders[i % len(orders)] for i in range(45)]
    deals = DealArray(BRIDGE, np.array([solid_suits(o) for o in owners]))
    calls: list[tuple[int, int]] = []
    table = dd.tricks_table(deals, progress=lambda done, total: calls.append((done, total)))
    assert table.dtype == np.int8 and table.shape == (45, 4, 5)
    assert calls == [(40, 45), (45, 45)]
    for row, owner in enumerate(owners):
        assert table[row].tolist() == solid_suits_table(owner).tolist(), owner


def test_north_with_all_thirteen_spades() -> None:
    # North's 13 trumps win every trick for North-South and none for East-West.
    rng = np.random.default_rng(13)
    rows = []
    for _ in range(2):
        piles = np.zeros(52, np.uint8)
        piles[13:] = rng.permutation(np.repeat(np.arange(1, 4, dtype=np.uint8), 13))
        rows.append(piles)
    table = dd.tricks_table(DealArray(BRIDGE, np.array(rows)))
    assert table[:, :, 0].tolist() == [[13, 0, 13, 0]] * 2


def test_north_with_every_ace_and_three_solid_suits_makes_all_in_notrump() -> None:
    # North: AKQJ of spades, hearts and diamonds and the ace of clubs.  Whatever is
    # led, North wins it and every card North holds is then a winner in notrump.
    rng = np.random.default_rng(52)
    north = [0, 1, 2, 3, 13, 14, 15, 16, 26, 27, 28, 29, 39]
    rest = [c for c in range(52) if c not in north]
    rows = []
    for _ in range(3):
        piles = np.zeros(52, np.uint8)
        piles[rest] = rng.permutation(np.repeat(np.arange(1, 4, dtype=np.uint8), 13))
        rows.append(piles)
    table = dd.tricks_table(DealArray(BRIDGE, np.array(rows)))
    assert table[:, :, 4].tolist() == [[13, 0, 13, 0]] * 3


def test_tables_agree_with_dds_solve_board_one_declarer_at_a_time(
    random_deals: DealArray, random_tables: npt.NDArray[np.int8]
) -> None:
    from endplay.dds import solve_board
    from endplay.dds.solve import SolveMode
    from endplay.types import Deal, Denom, Player

    denoms = [Denom.spades, Denom.hearts, Denom.diamonds, Denom.clubs, Denom.nt]
    lines = pbn_deal_bytes(random_deals).decode().splitlines()
    for row, line in enumerate(lines):
        for declarer, strain in itertools.product(range(4), range(5)):
            if (declarer + strain + row) % 2:  # half the cells of each deal, all cells in all
                continue
            denom = denoms[strain]
            deal = Deal(line, first=Player((declarer + 1) % 4), trump=denom)
            defence = max(t for _, t in solve_board(deal, SolveMode.OptimalOne))
            assert random_tables[row, declarer, strain] == 13 - defence, (row, declarer)


def test_turning_the_table_and_renaming_suits_move_the_results(
    random_deals: DealArray, random_tables: npt.NDArray[np.int8]
) -> None:
    piles = random_deals.piles
    turned = (piles[:2] + 1) % 4  # every card moves one seat clockwise
    swapped = piles[2:, np.r_[13:26, 0:13, 26:52]]  # spades and hearts change names
    table = dd.tricks_table(DealArray(BRIDGE, np.concatenate([turned, swapped]).astype(np.uint8)))
    assert (table[:2] == np.roll(random_tables[:2], 1, axis=1)).all()
    assert (table[2:] == random_tables[2:, :, [1, 0, 2, 3, 4]]).all()


def test_empty_input_and_non_bridge_layouts() -> None:
    assert dd.tricks_table(deal_array(0)).shape == (0, 4, 5)
    with pytest.raises(dd.DoubleDummyError, match="needs bridge deals"):
        dd.tricks_table(deal_array(1, "euchre", seed="x"))
    with pytest.raises(dd.DoubleDummyError, match="must be a DealArray"):
        dd.tricks_table([1, 2])  # type: ignore[arg-type]


# -- par --------------------------------------------------------------------------------


def test_par_of_the_solid_suits_deal_by_hand() -> None:
    # N spades, E hearts, S diamonds, W clubs: North-South make 7S (and 7D), East-West
    # 7H and 7C, which 7S outranks; 7NT by East-West goes 13 down.  Par is NS 7S:
    # 210 + game 300/500 + grand slam 1000/1500.
    deals = DealArray(BRIDGE, solid_suits((0, 1, 2, 3))[None])
    for vul, score in (("None", 1510), ("EW", 1510), ("NS", 2210), ("All", 2210)):
        (par,) = dd.par_results(deals, "W", vul)
        assert (par.score, par.par_contract, par.optimum_score) == (score, "NS 7S", f"NS {score}")
        assert par.contracts == (dd.ParContract(7, "S", "NS", False, 0),)


def test_par_agrees_with_endplay_par(
    random_deals: DealArray, random_tables: npt.NDArray[np.int8]
) -> None:
    from endplay._dds import ddTableResults
    from endplay.dds import par
    from endplay.dds.ddtable import DDTable
    from endplay.types import Penalty, Player, Vul

    vuls = {"None": Vul.none, "NS": Vul.ns, "EW": Vul.ew, "All": Vul.both}
    cases = list(itertools.product("NESW", vuls))
    n = len(random_deals)
    for k, (dealer, vul) in enumerate(cases):
        rows = [k % n, (k + 1) % n]
        mine = dd.par_results(random_deals[np.array(rows)], dealer, vul, tables=random_tables[rows])
        for row, result in zip(rows, mine, strict=True):
            data = ddTableResults()
            for declarer, strain in itertools.product(range(4), range(5)):
                data.resTable[strain][declarer] = int(random_tables[row, declarer, strain])
            theirs = par(DDTable(data), vuls[vul], Player.find(dealer))
            assert result.score == theirs.score
            expected = set()
            for c in theirs:
                doubled = c.penalty == Penalty.doubled
                strain = {"nt": "NT"}.get(c.denom.name, c.denom.name[0].upper())
                expected.add((c.level, strain, c.declarer.abbr, doubled, c.result))
            got = set()
            for c in result.contracts:
                for seat in c.declarer:  # endplay lists "NS" as N and S
                    got.add((c.level, c.strain, seat, c.doubled, c.result))
            assert got == expected, (row, dealer, vul)


def test_par_per_deal_arguments_and_errors(random_deals: DealArray) -> None:
    solid = DealArray(BRIDGE, np.array([solid_suits((0, 1, 2, 3))] * 2))
    scores = [p.score for p in dd.par_results(solid, ["N", "E"], ["None", "NS"])]
    assert scores == [1510, 2210]
    with pytest.raises(dd.DoubleDummyError, match=r"dealer='X' is not one of N, E, S, W"):
        dd.par_results(solid, "X", "None")  # type: ignore[arg-type]
    with pytest.raises(dd.DoubleDummyError, match=r"vulnerable= has 3 values for 2 deals"):
        dd.par_results(solid, "N", ["None"] * 3)  # type: ignore[list-item]
    with pytest.raises(dd.DoubleDummyError, match=r"tables= has shape \(1, 4, 5\)"):
        dd.par_results(solid, "N", "None", tables=np.zeros((1, 4, 5), np.int8))


# -- PBN and text -----------------------------------------------------------------------


def test_pbn_tags_read_back_by_endplay(
    random_deals: DealArray, random_tables: npt.NDArray[np.int8]
) -> None:
    from endplay.parsers import pbn

    seats, strains = "NESW", ["S", "H", "D", "C", "NT"]
    games = []
    pars = dd.par_results(random_deals, "N", "None", tables=random_tables)
    for row, line in enumerate(pbn_deal_bytes(random_deals).decode().splitlines()):
        head = f'[Board "{row + 1}"]\n[Dealer "N"]\n[Vulnerable "None"]\n[Deal "{line}"]\n'
        games.append(head + dd.pbn_dd_tags(random_tables[row], pars[row]))
    boards = pbn.loads("\n".join(games) + "\n")
    assert len(boards) == len(random_deals)
    for row, board in enumerate(boards):
        table = board.info["OptimumResultTable"]
        read = {(seat, strain): int(tricks) for seat, strain, tricks in table["rows"]}
        assert len(read) == 20
        for (seat, strain), tricks in read.items():
            assert tricks == random_tables[row, seats.index(seat), strains.index(strain)]
        # DoubleDummyTricks: character 5 * declarer + strain, declarers "NSEW", strains "NSHDC".
        code = board.info["DoubleDummyTricks"]
        for d, s in itertools.product(range(4), range(5)):
            seat, strain = "NSEW"[d], ["NT", "S", "H", "D", "C"][s]
            assert int(code[5 * d + s], 16) == read[(seat, strain)]
        assert board.info["OptimumScore"] == f"NS {pars[row].score}"
        assert board.info["ParContract"] == pars[row].par_contract


def test_table_text_and_bad_tables() -> None:
    text = dd.dd_table_text(solid_suits_table((1, 0, 3, 2)))
    assert text.splitlines() == [
        "     S  H  D  C NT",
        "N    0 13  0 13  0",
        "E   13  0 13  0  0",
        "S    0 13  0 13  0",
        "W   13  0 13  0  0",
    ]
    with pytest.raises(dd.DoubleDummyError, match=r"shape \(4, 5\) and values 0..13"):
        dd.dd_table_text(np.full((4, 5), 14))
    with pytest.raises(dd.DoubleDummyError, match=r"expected \(n, 4, 5\)"):
        dd.double_dummy_tricks_tag(np.zeros((4, 5)))


# -- the missing extra ------------------------------------------------------------------


@pytest.fixture
def no_endplay(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for name in list(sys.modules):
        if name == "endplay" or name.startswith("endplay."):
            monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "endplay", None)  # makes `import endplay...` fail
    yield


@pytest.mark.usefixtures("no_endplay")
def test_missing_extra_names_the_install_command() -> None:
    assert not dd.double_dummy_available()
    hint = r"pip install 'croupier\[dd\]'"
    with pytest.raises(dd.DoubleDummyUnavailable, match=hint) as caught:
        dd.tricks_table(deal_array(1, seed="x"))
    assert isinstance(caught.value, MissingExtraError) and isinstance(caught.value, CroupierError)
    assert "\n" not in str(caught.value)
    with pytest.raises(dd.DoubleDummyUnavailable, match=hint):
        dd.par_results(deal_array(1, seed="x"), "N", "None")
    # Compiling an expression with tricks() fails at once, naming where the call is.
    with pytest.raises(dd.DoubleDummyUnavailable, match=r"^<expression>:1:5: double-dummy"):
        compile_expression(parse_expression("1 + tricks(north, spades)"))
    script = parse_script("condition hcp(north) > 10\n  && tricks(south, notrump) >= 9", "s.dl")
    with pytest.raises(dd.DoubleDummyUnavailable, match=r"^s\.dl:2:6: .*" + hint):
        compile_condition(script)


def test_unloadable_solver_library(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(name: str) -> object:
        raise RuntimeError("Unable to load the dds library: shared library object not found.")

    monkeypatch.setattr(dd.importlib, "import_module", broken)
    with pytest.raises(dd.DoubleDummyUnavailable, match=r"could not be loaded \('Unable to"):
        dd.require_solver()


# -- tricks() in expressions ------------------------------------------------------------


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the deals given to the solver; the solver answers with a stand-in table."""
    sizes: list[int] = []

    def fake(deals: DealArray, *, progress: object = None) -> npt.NDArray[np.int8]:
        sizes.append(len(deals))
        # Stand-in: declarer's hcp // 4 + strain index (values are still 0..13).
        points = bulk.hcp(deals)  # (n, 4)
        return (points[:, :, None] // 4 + np.arange(5)).astype(np.int8)

    monkeypatch.setattr(dd, "tricks_table", fake)
    return sizes


def test_short_circuit_solves_no_deal(counted: list[int]) -> None:
    deals = deal_array(500, seed="short circuit")
    f = compile_expression(parse_expression("hcp(north) > 40 && tricks(north, spades) > 5"))
    assert f(deals).tolist() == [0] * 500
    g = compile_expression(parse_expression("hcp(north) <= 40 || tricks(north, spades) > 5"))
    assert g(deals).tolist() == [1] * 500
    assert counted == []


def test_the_cheap_side_of_and_or_is_evaluated_first(counted: list[int]) -> None:
    deals = deal_array(1000, seed="cheap first")
    points = bulk.hcp(deals)
    stand_in = points[:, 0] // 4  # the fake solver's tricks(north, spades)
    strong, weak = points[:, 2] >= 15, points[:, 2] < 15
    script = parse_script(
        "game = tricks(north, spades) >= 3\n"
        "condition game and hcp(south) >= 15 && spades(north) >= 0"
    )
    f = compile_expression(script.condition, script.definitions)  # type: ignore[arg-type]
    assert f(deals).tolist() == ((stand_in >= 3) & strong).astype(int).tolist()
    assert counted == [int(strong.sum())]  # only the deals where the cheap side holds
    counted.clear()
    g = compile_expression(parse_expression("tricks(north, spades) >= 3 || hcp(south) >= 15"))
    assert g(deals).tolist() == ((stand_in >= 3) | strong).astype(int).tolist()
    assert counted == [int(weak.sum())]
    counted.clear()
    # a side that divides (it may fail) or draws keeps C's order: the solver sees them all
    for text in (
        "tricks(north, spades) >= 3 && 10 / (hcp(south) + 1) >= 1",
        "tricks(north, spades) / 2 >= 1 && hcp(south) >= 15",
    ):
        compile_expression(parse_expression(text))(deals)
    assert counted == [1000, 1000]


def test_each_needed_deal_is_solved_once_per_evaluation(counted: list[int]) -> None:
    deals = deal_array(2000, seed="once")
    points = bulk.hcp(deals)
    script = parse_script(
        "nt = tricks(south, notrump)\n"
        "condition hcp(north) >= 15 ? tricks(north, spades) + nt + nt - tricks(west, clubs) : 0"
    )
    f = compile_expression(script.condition, script.definitions)  # type: ignore[arg-type]
    values = f(deals)
    strong = points[:, 0] >= 15
    assert counted == [int(strong.sum())]  # the deals the condition asked about, in one go
    expected = points[:, 0] // 4 + 0 + 2 * (points[:, 2] // 4 + 4) - (points[:, 3] // 4 + 3)
    assert (values == np.where(strong, expected, 0)).all()
    f(deals)  # a new evaluation solves again (nothing is kept between calls)
    assert counted == [int(strong.sum())] * 2


def test_tricks_in_expressions_with_the_real_solver() -> None:
    orders = list(itertools.permutations(range(4)))[:6]
    deals = DealArray(BRIDGE, np.array([solid_suits(o) for o in orders]))
    names = {0: "north", 1: "east", 2: "south", 3: "west"}
    strains = {0: "spades", 1: "hearts", 2: "diamonds", 3: "clubs", 4: "notrump"}
    for seat, strain in itertools.product(range(4), range(5)):
        expr = parse_expression(f"tricks({names[seat]}, {strains[strain]})")
        expected = [solid_suits_table(o)[seat, strain] for o in orders]
        assert compile_expression(expr)(deals).tolist() == expected
    score = compile_expression(parse_expression("score(nv, x7S, tricks(south, spades))"))
    # NS hold spades in the first orders (N or S owns suit 0): 7S makes, 1510; else 13 down.
    assert score(deals).tolist() == [1510 if o[0] % 2 == 0 else -650 for o in orders]
