"""The purposes of seeded streams are spelled once (croupier.randomness.purposes): the
spellings are part of the stream contract, and no other module writes one itself."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import croupier
from croupier.randomness import SeededSource
from croupier.randomness.purposes import Purpose, analyze_purpose, bits_purpose

SRC = Path(__file__).resolve().parent.parent / "src" / "croupier"


def test_the_spellings_are_those_the_published_streams_were_made_with() -> None:
    # changing one changes every seeded output made with it (docs/reproducibility.md)
    assert {p.name: p.value for p in Purpose} == {
        "DEAL": "deal",
        "SHUFFLE": "shuffle",
        "SHUFFLE_FILE": "shuffle-file",
        "BULK": "croupier-bulk/1",
        "EQUITY_MC": "croupier-equity-mc/1",
    }
    assert (analyze_purpose("riffle"), bits_purpose("cut")) == ("analyze/riffle", "bits/cut")


def test_a_purpose_and_its_spelling_give_the_same_stream() -> None:
    for purpose in Purpose:
        a = SeededSource("s", purpose)
        assert a.purpose == purpose.value and type(a.purpose) is str
        assert a.bits_as_bytes(16) == SeededSource("s", purpose.value).bits_as_bytes(16)
    src = croupier.source(seed="night", purpose=Purpose.DEAL)
    assert croupier.deal(source=src) == croupier.deal(seed="night")


def _spelled_purposes(tree: ast.AST) -> list[tuple[int, str]]:
    """``(line, text)`` of every purpose written as text: ``purpose="..."``, the second
    argument of ``SeededSource(...)``, or ``*_PURPOSE = "..."``."""
    found: list[tuple[int, str]] = []

    def text(node: ast.AST | None) -> str | None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
        if isinstance(node, ast.JoinedStr):
            return ast.unparse(node)
        return None

    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            for keyword in node.keywords:
                if keyword.arg == "purpose" and (t := text(keyword.value)) is not None:
                    found.append((node.lineno, t))
            name = getattr(node.func, "id", getattr(node.func, "attr", None))
            second = text(node.args[1]) if len(node.args) > 1 else None
            if name == "SeededSource" and second is not None:
                found.append((node.lineno, second))
        elif isinstance(node, ast.Assign):
            named = [t for t in node.targets if isinstance(t, ast.Name)]
            value = text(node.value)
            if value is not None and any(t.id.endswith("PURPOSE") for t in named):
                found.append((node.lineno, value))
        elif isinstance(node, ast.FunctionDef):
            positional = [*node.args.posonlyargs, *node.args.args]
            pairs = [
                *zip(
                    positional[len(positional) - len(node.args.defaults) :],
                    node.args.defaults,
                    strict=True,
                ),
                *zip(node.args.kwonlyargs, node.args.kw_defaults, strict=True),
            ]
            for arg, default in pairs:
                if arg.arg == "purpose" and text(default) not in (None, ""):
                    found.append((node.lineno, str(text(default))))
    return found


@pytest.mark.parametrize(
    "path",
    sorted(p for p in SRC.rglob("*.py") if p.name != "purposes.py" and p != SRC / "__init__.py"),
    ids=lambda p: str(p.relative_to(SRC)),
)
def test_no_module_spells_a_purpose_itself(path: Path) -> None:
    found = _spelled_purposes(ast.parse(path.read_text(encoding="utf-8")))
    assert not found, f"{path.relative_to(SRC)} spells seed purposes: {found}"


def test_the_facade_names_its_purposes_by_member() -> None:
    # (it imports nothing when imported: the member is looked up when a seed is given)
    assert Purpose[croupier._DEAL_PURPOSE] is Purpose.DEAL
    assert Purpose[croupier._SHUFFLE_PURPOSE] is Purpose.SHUFFLE


def test_the_finder_finds_each_way_of_spelling_one() -> None:
    tree = ast.parse(
        'make_source(s, purpose="deal")\n'
        'SeededSource(s, f"bits/{m}")\n'
        'X_PURPOSE = "shuffle"\n'
        'def f(purpose: str = "deal"): ...\n'
        "make_source(s, purpose=Purpose.DEAL)\n"
    )
    assert sorted(line for line, _ in _spelled_purposes(tree)) == [1, 2, 3, 4]
