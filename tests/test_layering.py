"""The package's layering (docs/architecture.md) holds: imports only point downwards."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src" / "croupier"

ARCHITECTURE = Path(__file__).resolve().parent.parent / "docs" / "architecture.md"


def _layers_from_docs() -> list[set[str]]:
    """The layers drawn in docs/architecture.md, lowest first.

    The first code block lists one layer a line, highest first: the names before
    the description (``orders, decks``, ``cli/``); indented lines continue a
    description.  ``__main__`` (``python -m croupier``) sits with ``cli``.
    """
    block = ARCHITECTURE.read_text(encoding="utf-8").split("```", 2)[1]
    layers: list[set[str]] = []
    for line in block.splitlines():
        if not line.strip() or line[0].isspace():
            continue
        names = re.split(r"\s{2,}", line.strip(), maxsplit=1)[0]
        layers.append({n.strip().rstrip("/") for n in names.split(",")})
    layers.reverse()
    for layer in layers:
        if "cli" in layer:
            layer.add("__main__")
    return layers


# Lowest first.  A module may import its own layer and any layer below it.
LAYERS = _layers_from_docs()
LEVEL = {name: i for i, layer in enumerate(LAYERS) for name in layer}


def _layer_of(module: str, names: list[str]) -> list[str]:
    """Top-level croupier subpackages that an import statement refers to."""
    parts = module.split(".")
    if parts[0] != "croupier":
        return []
    if len(parts) > 1:
        return [parts[1]]
    return names  # ``from croupier import moves``


def _modules() -> list[Path]:
    return sorted(p for p in SRC.rglob("*.py") if p.name != "__init__.py" or p.parent != SRC)


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(SRC)))
def test_imports_point_downwards(path: Path) -> None:
    rel = path.relative_to(SRC)
    own = rel.parts[0].removesuffix(".py")
    assert own in LEVEL, f"{rel} is in no layer; add it to LAYERS and docs/architecture.md"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            targets = _layer_of(node.module, [a.name for a in node.names])
        elif isinstance(node, ast.Import):
            for alias in node.names:
                targets += _layer_of(alias.name, [])
        for target in targets:
            if target == "__version__" or target not in LEVEL:
                continue
            assert LEVEL[target] <= LEVEL[own], (
                f"{rel}:{node.lineno} imports croupier.{target}, a higher layer than {own}"
            )


def test_docs_draw_the_layers_in_the_known_order() -> None:
    """The parse of the picture itself: lowest and highest layers where expected."""
    assert LAYERS[0] == {"errors"} and LAYERS[-1] == {"cli", "__main__"}
    assert {"cards", "html"} in LAYERS and {"orders", "decks"} in LAYERS
    assert LEVEL["boards"] < LEVEL["formats"] < LEVEL["tournament"]
    assert LEVEL["files"] < LEVEL["cards"]


def test_every_layer_in_the_docs_exists() -> None:
    for layer in LAYERS:
        for name in layer - {"__main__"}:
            assert (SRC / name).is_dir() or (SRC / f"{name}.py").is_file(), name
