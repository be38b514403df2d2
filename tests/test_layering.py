"""The package's layering (docs/architecture.md) holds: imports only point downwards."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src" / "croupier"

# Lowest first.  A module may import its own layer and any layer below it.
LAYERS: list[set[str]] = [
    {"errors"},
    {"files"},
    {"cards", "html"},
    {"orders", "decks"},
    {"perm"},
    {"moves"},
    {"spec"},
    {"theory"},
    {"randomness"},
    {"shuffling"},
    {"deck"},
    {"ranking"},
    {"dealing"},
    {"boards"},
    {"formats"},
    {"tournament"},
    {"analysis"},
    {"cli", "__main__"},
]
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
