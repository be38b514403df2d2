"""``croupier shuffle``: shuffle items, a deck, 1..N or the lines of a file."""

from __future__ import annotations

import json
import math
import sys
from typing import Annotated, Any

import typer

__all__ = ["register"]

SHUFFLE_HELP = """\
Shuffle ITEMS, a deck preset, the numbers 1..N, or the lines of a text file.

Randomness comes from the OS CSPRNG unless --seed (reproducible, and only as
secret as the seed) or --entropy (your own dice, coins or hex; never reused
or padded: too little is an error saying how much more is needed) is given.
The default method, lehmer, makes one exactly uniform draw below n! and so
uses about log2(n!) bits.  A note on the source goes to stderr.

Entropy specs: dice:3,6,1,...  d20:17,3,...  coins:HTTH...  bits:0110...  hex:9f3a...

\b
Examples:
  croupier shuffle --deck standard
  croupier shuffle alice bob carol dave --seed "round 1"
  croupier shuffle --cards 10 --entropy dice:3,6,1,5,2,2,4,6,1,3,5,6,2,4,1 --bits
  croupier shuffle --file names.txt --method fisher-yates --json
"""


def _number(x: float) -> int | float:
    return int(x) if float(x).is_integer() else round(x, 4)


def _read_lines(path: str) -> list[str]:
    text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()  # noqa: SIM115
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def register(app: typer.Typer) -> None:
    """Add the ``shuffle`` command to ``app``."""

    @app.command("shuffle", help=SHUFFLE_HELP)
    def shuffle_command(
        items: Annotated[list[str] | None, typer.Argument(help="Items to shuffle.")] = None,
        deck: Annotated[
            str | None, typer.Option("--deck", help="Shuffle a deck preset (see croupier deck).")
        ] = None,
        cards: Annotated[
            int | None, typer.Option("--cards", help="Shuffle the numbers 1..N.", min=0)
        ] = None,
        file: Annotated[
            str | None,
            typer.Option("--file", help="Shuffle the lines of this UTF-8 text file ('-': stdin)."),
        ] = None,
        method: Annotated[
            str | None,
            typer.Option(
                "--method",
                help="lehmer (default), fisher-yates, rao-sandelius, merge-shuffle, cut, "
                "riffle, riffle7, overhand; flawed ones for study: swap-any, poker-1999, ...",
            ),
        ] = None,
        seed: Annotated[
            str | None,
            typer.Option("--seed", help="Reproducible: text, or hex:... bytes."),
        ] = None,
        entropy: Annotated[
            str | None, typer.Option("--entropy", help="Your own randomness, e.g. dice:3,6,1,...")
        ] = None,
        bits: Annotated[
            bool, typer.Option("--bits", help="Also print the bits used next to log2(n!).")
        ] = False,
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    ) -> None:
        from croupier.errors import CroupierError, EntropyExhaustedError
        from croupier.randomness import EntropySource, SeededSource, UniformSampler, make_source
        from croupier.randomness.uniform import UNIFORM_ALGORITHM_ID
        from croupier.shuffling.fair import LEHMER_ONE_DRAW_LIMIT
        from croupier.shuffling.registry import get_method

        given = [x for x in (items or None, deck, cards, file) if x is not None]
        if len(given) != 1:
            raise CroupierError(
                "give exactly one of ITEMS, --deck NAME, --cards N or --file PATH"
                f" (got {len(given)})"
            )
        values: list[Any]
        one_line = False
        if deck is not None:
            from croupier.decks import make_deck

            values = [c.code for c in make_deck(deck)]
            one_line = True
        elif cards is not None:
            values = list(range(1, cards + 1))
            one_line = True
        elif file is not None:
            values = _read_lines(file)
        else:
            values = list(items or [])
        n = len(values)
        if method is None:
            method = "lehmer" if n <= LEHMER_ONE_DRAW_LIMIT else "fisher-yates"
        chosen = get_method(method)
        source = make_source(seed, entropy, purpose="shuffle")
        bound = math.log2(math.factorial(n)) if n <= 1000 else math.lgamma(n + 1) / math.log(2)
        warnings: list[str] = []
        if not chosen.uniform:
            warnings.append(f"method {chosen.name!r} is not uniform: {chosen.description}")
        if isinstance(source, SeededSource) and source.seed_bits < bound:
            warnings.append(
                f"the seed has at most {source.seed_bits} bits, so it can reach at most "
                f"2^{source.seed_bits} of the {n}! ~ 2^{bound:.1f} orders: reproducible, "
                "but only as secret as the seed"
            )
        if (
            isinstance(source, EntropySource)
            and chosen.uniform
            and source.total_bits < bound - 1e-9
        ):
            raise EntropyExhaustedError(
                source.shortfall(1, total_bits=bound)
                + f" (a uniform shuffle of {n} items needs at least log2({n}!) = {bound:.2f} bits)"
            )
        sampler = UniformSampler(source)
        shuffled = chosen(values, sampler)
        used = source.bits_used
        if as_json:
            doc = {
                "items": shuffled,
                "method": chosen.name,
                "algorithm": chosen.algorithm_id,
                "uniform": chosen.uniform,
                "source": source.kind,
                "source_description": source.describe(),
                "reproducible": source.reproducible,
                "sampler": UNIFORM_ALGORITHM_ID,
                "bits_used": _number(used),
                "bits_bound": round(bound, 4),
                "warnings": warnings,
            }
            typer.echo(json.dumps(doc, ensure_ascii=False, indent=2))
        else:
            text = [str(v) for v in shuffled]
            if one_line:
                typer.echo(" ".join(text))
            elif text:
                typer.echo("\n".join(text))
            if bits:
                typer.echo(f"bits used: {_number(used)}  (log2({n}!) = {bound:.2f})")
        for w in warnings:
            typer.echo(f"warning: {w}", err=True)
        if source.kind == "os-csprng":
            note = "from the OS CSPRNG (not reproducible)"
        elif source.kind == "seeded":
            note = "from the seed: reproducible, and only as secret as the seed"
        else:
            note = "from your entropy: only as secret as your rolls"
        typer.echo(f"shuffled with {chosen.name} {note}", err=True)
