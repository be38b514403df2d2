"""The command line stays thin: no command imports another command, and no module of
``cli/`` reaches for a private name of the layers below (docs/architecture.md).

A command module (``cli/*_cmd.py``) parses its options, calls one floor down and
formats.  What two commands share lives below ``cli/`` (or, for a command's own body
shared with its quick path, in ``cli/*_run.py``); only ``cli/app.py`` registers the
commands.  Imports are read from the syntax tree, so an import inside a function counts.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

CLI = Path(__file__).resolve().parent.parent / "src" / "croupier" / "cli"


def _imported_cli_modules(tree: ast.AST) -> list[tuple[int, str]]:
    """``(line, name)`` of every ``croupier.cli`` module the tree imports."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "croupier.cli":
                found += [(node.lineno, alias.name) for alias in node.names]
            elif node.module.startswith("croupier.cli."):
                found.append((node.lineno, node.module.split(".")[2]))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("croupier.cli."):
                    found.append((node.lineno, alias.name.split(".")[2]))
    return found


def _cli_modules() -> list[Path]:
    return sorted(p for p in CLI.glob("*.py") if p.name not in ("__init__.py", "app.py"))


@pytest.mark.parametrize("path", _cli_modules(), ids=lambda p: p.name)
def test_no_command_is_imported_but_by_the_app(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for line, name in _imported_cli_modules(tree):
        assert not name.endswith("_cmd"), (
            f"cli/{path.name}:{line} imports the command module cli/{name}.py: move what they "
            "share one floor down (or into the command's cli/*_run.py)"
        )


def _private_uses(tree: ast.AST) -> list[tuple[int, str]]:
    """``(line, name)`` of private names of croupier modules outside ``cli/`` the tree uses:
    imported by name, or read as an attribute of an imported module."""
    modules: dict[str, str] = {}  # local name -> module
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if not node.module.startswith("croupier") or node.module.startswith("croupier.cli"):
                continue
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    found.append((node.lineno, f"{node.module}.{alias.name}"))
                modules[alias.asname or alias.name] = f"{node.module}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("croupier") and not alias.name.startswith("croupier.cli"):
                    modules[alias.asname or alias.name] = alias.name
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in modules
            and node.attr.startswith("_")
            and not node.attr.startswith("__")
        ):
            found.append((node.lineno, f"{modules[node.value.id]}.{node.attr}"))
    return found


@pytest.mark.parametrize("path", sorted(CLI.glob("*.py")), ids=lambda p: p.name)
def test_the_command_line_uses_no_private_name_of_the_layers_below(path: Path) -> None:
    uses = _private_uses(ast.parse(path.read_text(encoding="utf-8")))
    assert not uses, f"cli/{path.name} uses private names: {uses}"


def test_the_checks_find_what_they_look_for() -> None:
    """Each check on a made-up module that breaks it."""
    bad = ast.parse(
        "import croupier.bulk.generate as g\n"
        "from croupier.formats.records import _shown\n"
        "def f():\n"
        "    from croupier.cli.convert_cmd import app\n"
        "    from croupier.cli import page_cmd, output\n"
        "    return g._plan, g.plan\n"
    )
    assert _imported_cli_modules(bad) == [(4, "convert_cmd"), (5, "page_cmd"), (5, "output")]
    assert sorted(_private_uses(bad)) == [
        (2, "croupier.formats.records._shown"),
        (6, "croupier.bulk.generate._plan"),
    ]
