"""The package's layering (docs/architecture.md) holds: imports only point downwards."""

from __future__ import annotations

import ast
import re
from itertools import pairwise
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


# -- import cycles ---------------------------------------------------------------------------

#: Cycles that are known and waiting for their fix (each names why it is still here).  The
#: test below fails on any other cycle, and on an entry here that is no longer a cycle, so
#: this list only ever shrinks.
KNOWN_CYCLES: dict[frozenset[str], str] = {}

_DISPLAY_HOOK = re.compile(r"_repr_[a-z_]+_")

FACADE = "(croupier)"
"""The top level, ``croupier/__init__.py``, as a node of the import graph."""


class _Imports(ast.NodeVisitor):
    """The croupier modules one module imports (see :func:`_import_graph`), by first line."""

    def __init__(self, module: str, is_package: bool, known: set[str]) -> None:
        self.module, self.is_package, self.known = module, is_package, known
        self.edges: dict[str, int] = {}
        self.in_hook = False

    def _add(self, dotted: str, line: int) -> None:
        name = dotted.removeprefix("croupier").lstrip(".")
        while name and name not in self.known:
            name = name.rpartition(".")[0]
        name = name or FACADE  # ``import croupier``, ``from croupier import __version__``
        if name != self.module:
            self.edges.setdefault(name, line)

    def visit_Call(self, node: ast.Call) -> None:
        """An import by name at run time: ``_module("croupier.x")`` (the facade's cache of
        modules) or ``importlib.import_module("croupier.x")``."""
        func = node.func
        called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        first = node.args[0] if node.args else None
        if (
            not self.in_hook
            and called in ("_module", "import_module")
            and isinstance(first, ast.Constant)
            and isinstance(first.value, str)
            and first.value.split(".")[0] == "croupier"
        ):
            self._add(first.value, node.lineno)
        self.generic_visit(node)

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        outer = self.in_hook
        self.in_hook = outer or bool(_DISPLAY_HOOK.fullmatch(node.name))
        self.generic_visit(node)
        self.in_hook = outer

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if not self.in_hook and alias.name.split(".")[0] == "croupier":
                self._add(alias.name, node.lineno)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        base = node.module or ""
        if node.level:
            package = self.module if self.is_package else self.module.rpartition(".")[0]
            for _ in range(node.level - 1):
                package = package.rpartition(".")[0]
            base = ".".join(p for p in ("croupier", package, base) if p)
        if not self.in_hook and base.split(".")[0] == "croupier":
            for alias in node.names:
                self._add(f"{base}.{alias.name}", node.lineno)


def _import_graph(sources: dict[str, tuple[str, bool]]) -> dict[str, dict[str, int]]:
    """Which croupier modules each module imports, with the line of the first such import.

    ``sources`` maps a module's name (``"bulk.array"``, relative to ``croupier``) to its
    source text and whether it is a package's ``__init__``.

    Every import statement counts wherever it stands: at the top, under ``if
    TYPE_CHECKING:``, or inside a function (a lazy import still makes the module depend
    on the other, and a cycle through one only waits for the first call).  The one
    exception is an import inside an IPython display hook (``_repr_html_``, ...): that is
    how a value reaches its optional presentation layer, which imports the value's
    module (as python-chess's ``Board._repr_svg_`` imports ``chess.svg``).
    ``from croupier.x import y`` names module ``x.y`` when there is one, else ``x``
    (its ``__init__``); importing ``x.y`` does not count as importing ``x``.
    """
    graph = {}
    for module, (text, is_package) in sources.items():
        imports = _Imports(module, is_package, set(sources))
        imports.visit(ast.parse(text))
        graph[module] = imports.edges
    return graph


def _cycles(graph: dict[str, dict[str, int]]) -> list[tuple[frozenset[str], list[str]]]:
    """Every set of modules that reach each other round import cycles (a strongly connected
    component of the graph), each with one loop ``[a, b, ..., a]`` through it; sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[set[str]] = []

    def connect(node: str) -> None:  # Tarjan's algorithm
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in graph.get(node, {}):
            if other not in index:
                connect(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.add(member)
                if member == node:
                    break
            if len(component) > 1:
                components.append(component)

    for node in sorted(graph):
        if node not in index:
            connect(node)
    found = []
    for component in components:
        start = min(component)
        paths = {start: [start]}
        queue = [start]
        loop: list[str] = []
        while queue and not loop:  # the shortest way from start back to start
            node = queue.pop(0)
            for other in sorted(graph[node]):
                if other == start:
                    loop = [*paths[node], start]
                    break
                if other in component and other not in paths:
                    paths[other] = [*paths[node], other]
                    queue.append(other)
        found.append((frozenset(component), loop))
    return sorted(found, key=lambda c: c[1])


def _source_modules() -> dict[str, tuple[str, bool]]:
    sources = {}
    for path in SRC.rglob("*.py"):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts.pop()
        sources[".".join(parts) or FACADE] = (path.read_text(encoding="utf-8"), is_package)
    return sources


def _shown(loop: list[str], graph: dict[str, dict[str, int]]) -> str:
    return ", ".join(f"{a} -> {b} (line {graph[a][b]})" for a, b in pairwise(loop))


def test_no_import_cycles() -> None:
    """No two modules import each other, directly or round a loop (see :func:`_import_graph`).

    A cycle means neither module can be read, tested or moved without the other; the usual
    fix moves the piece both need into a module below them.
    """
    graph = _import_graph(_source_modules())
    cycles = _cycles(graph)
    new = [loop for component, loop in cycles if component not in KNOWN_CYCLES]
    assert not new, "import cycles: " + "; ".join(_shown(loop, graph) for loop in new)
    gone = set(KNOWN_CYCLES) - {component for component, _ in cycles}
    assert not gone, f"no longer cycles, remove them from KNOWN_CYCLES: {sorted(map(sorted, gone))}"


def test_the_cycle_finder_finds_cycles() -> None:
    """The finder itself: a lazy import closes a cycle, a display hook's does not."""
    sources = {
        "a": ("from croupier.b import f\n", False),
        "b": ("def f():\n    from croupier import c\n", False),
        "c": ("import croupier.a\n", False),
        "d": ("class D:\n    def _repr_html_(self):\n        from croupier.e import h\n", False),
        "e": ("from croupier.d import D\n", False),
        "p": ("from . import q\n", True),
        "p.q": ("from croupier.p import x\n", False),
    }
    graph = _import_graph(sources)
    assert graph["b"] == {"c": 2} and graph["d"] == {} and graph["p"] == {"p.q": 1}
    assert _cycles(graph) == [
        (frozenset("abc"), ["a", "b", "c", "a"]),
        (frozenset({"p", "p.q"}), ["p", "p.q", "p"]),
    ]
    assert _shown(["a", "b", "c", "a"], graph) == (
        "a -> b (line 1), b -> c (line 2), c -> a (line 1)"
    )


def test_no_module_below_the_command_line_imports_the_top_level() -> None:
    """The facade stands above every layer but ``cli/``: it imports them (by name at run
    time too), so a module below that imported it would close a loop through it."""
    graph = _import_graph(_source_modules())
    upward = sorted(
        f"{module} (line {edges[FACADE]})"
        for module, edges in graph.items()
        if FACADE in edges and module.split(".")[0] not in ("cli", "__main__", FACADE)
    )
    assert not upward, f"modules below cli/ import the top level croupier: {upward}"
    assert "runs.dealers" in graph[FACADE], "the facade's imports by name are in the graph"


def test_imports_by_name_and_of_the_top_level_are_found() -> None:
    sources = {
        FACADE: ('def f():\n    return _module("croupier.a").x\n', True),
        "a": ("import importlib\nB = importlib.import_module('croupier.b')\n", False),
        "b": ("from croupier import __version__\n", False),
    }
    graph = _import_graph(sources)
    assert graph == {FACADE: {"a": 2}, "a": {"b": 2}, "b": {FACADE: 1}}
    assert [sorted(c) for c, _ in _cycles(graph)] == [sorted([FACADE, "a", "b"])]


def test_only_the_command_line_reaches_the_retired_algorithms() -> None:
    """``legacy/`` keeps retired algorithm ids (docs/reproducibility.md) apart: nothing
    current is built on them; the command line offers each by an explicit option."""
    graph = _import_graph(_source_modules())
    users = sorted(
        f"{module} -> {target} (line {line})"
        for module, edges in graph.items()
        for target, line in edges.items()
        if target.split(".")[0] == "legacy" and module.split(".")[0] not in ("cli", "legacy")
    )
    assert not users, f"modules outside cli/ import legacy/: {users}"
    assert any(t.startswith("legacy.") for t in graph["cli.shuffle_file_run"])
