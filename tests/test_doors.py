"""One way to deal from every door: the library, the deal runs and the command line agree.

For one seed, ``croupier.deals`` is the deal engine's run (``croupier-deal/2``),
``croupier.deal_array`` the bulk engine's (``croupier-bulk/1``) and
``croupier.simulate.deal_where`` the conditioned dealer's, each as
:mod:`croupier.runs` makes it and as ``croupier deal`` writes it.
"""

from __future__ import annotations

import io

import pytest

import croupier
from croupier.bulk import DealArray
from croupier.bulk.writers.text import oneline_bytes
from croupier.dealing import make_layout
from croupier.runs import DealRequest, open_deal_writer, open_dealer, run_deals
from croupier.runs.conditioned import ConditionedDealer
from croupier.runs.dealers import BulkRunDealer, MinimalBitsDealer
from croupier.simulate import deal_where
from tests.conftest import CliRunner


def _lines(out: str) -> list[str]:
    """The deals of ``--format oneline``, without the seeded-run notice."""
    return [line.rstrip(" ") for line in out.splitlines() if not line.startswith("seeded:")]


def _run_lines(request: DealRequest) -> list[str]:
    """What the run of ``request`` writes in the oneline format."""
    out = io.BytesIO()
    run_deals(open_dealer(request), request.count, open_deal_writer("oneline", out, request.layout))
    return _lines(out.getvalue().decode())


# -- the deal engine ----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("game", "method"), [("bridge", "optimal"), ("skat", "round-robin"), ("holdem", "block")]
)
def test_deals_is_the_deal_engines_run_and_croupier_deal(
    cli: CliRunner, game: str, method: str
) -> None:
    seed = f"doors {game}"
    library = list(croupier.deals(game, 5, method=method, seed=seed))
    request = DealRequest.make(make_layout(game), 5, engine="deal", method=method, seed=seed)
    assert list(MinimalBitsDealer(request).deals(5)) == library
    assert list(open_dealer(request).deals(5)) == library
    args = ["deal", game, "-n", "5", "--engine", "deal", "--method", method, "--seed", seed]
    result = cli([*args, "--format", "oneline"])
    assert result.code == 0, result.err
    assert _lines(result.out) == [d.oneline for d in library] == _run_lines(request)
    assert croupier.deal(game, method=method, seed=seed) == library[0]
    expected = "croupier-deal/3" if make_layout(game).ordered else "croupier-deal/2"
    assert all(d.algorithm == expected for d in library)


def test_deals_with_entropy_is_the_deal_engines_run(cli: CliRunner) -> None:
    rolls = "dice:" + ",".join(str(1 + (7 * i) % 6) for i in range(80))
    library = list(croupier.deals("bridge", 2, entropy=rolls))
    result = cli(["deal", "-n", "2", "--entropy", rolls, "--format", "oneline"])
    assert result.code == 0, result.err
    assert _lines(result.out) == [d.oneline for d in library]
    with pytest.raises(croupier.CroupierError, match="d6 rolls"):
        croupier.deals("bridge", 3, entropy=rolls)  # refused at once: too few rolls for 3


# -- the bulk engine ----------------------------------------------------------------------
@pytest.mark.parametrize("game", ["bridge", "euchre", "pinochle"])
def test_deal_array_is_the_bulk_engines_run_and_croupier_deal(cli: CliRunner, game: str) -> None:
    seed = f"doors {game}"
    library = croupier.deal_array(game, 300, seed=seed)
    request = DealRequest.make(make_layout(game), 300, seed=seed)
    assert request.engine == "bulk"
    assert DealArray.concatenate(list(BulkRunDealer(request).arrays(300))) == library
    assert BulkRunDealer(request).array(300) == library
    result = cli(["deal", game, "-n", "300", "--seed", seed, "--format", "oneline"])
    assert result.code == 0, result.err
    written = _lines(oneline_bytes(library).decode())
    assert _lines(result.out) == written == _run_lines(request)
    assert [d.oneline for d in library] == written
    assert croupier.deal_array(game, 100, seed=seed, start=200) == library[200:]


def test_deal_array_is_the_bulk_layers_function() -> None:
    from croupier.bulk import deal_array as bulk_deal_array

    assert croupier.deal_array("skat", 70, seed="layer", start=5) == bulk_deal_array(
        70, "skat", seed="layer", start=5
    )
    assert croupier.deal_array("holdem", 40, players=6, seed=b"\x01\x02") == bulk_deal_array(
        40, make_layout("holdem", players=6), seed="hex:0102"
    )


# -- under a condition --------------------------------------------------------------------
@pytest.mark.parametrize(
    ("where", "predeal", "strategy"),
    [
        ("hcp(north) >= 20", None, "auto"),
        ("hcp(north) >= 20", None, "rejection"),
        ("spades(south) >= 6", "N:AK.QJ.T9.8765432 - - -", "auto"),
    ],
)
def test_deal_where_is_the_conditioned_run_and_croupier_deal_where(
    cli: CliRunner, where: str, predeal: str | None, strategy: str
) -> None:
    library = deal_where(where, 6, predeal=predeal, seed="doors", strategy=strategy)  # type: ignore[arg-type]
    request = DealRequest.make(
        make_layout("bridge"),
        6,
        seed="doors",
        where=where,
        predeal=predeal,
        strategy=strategy,  # type: ignore[arg-type]
    )
    dealer = open_dealer(request)
    assert isinstance(dealer, ConditionedDealer)
    assert dealer.array(6) == library
    args = ["deal", "-n", "6", "--seed", "doors", "--where", where, "--strategy", strategy]
    if predeal is not None:
        args += ["--predeal", predeal]
    result = cli([*args, "--format", "oneline"])
    assert result.code == 0, result.err
    assert _lines(result.out) == [d.oneline for d in library] == _run_lines(request)


def test_whole_number_seeds_reach_deal_where() -> None:
    assert deal_where("hcp(north) >= 15", 3, seed=7) == deal_where("hcp(north) >= 15", 3, seed="7")
