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

--file shuffles lines byte for byte: each line keeps its own ending (LF or
CRLF), a file without a final newline gives output without one, bytes that
are not UTF-8 pass through unchanged (--json needs UTF-8), an empty file
gives nothing, and a UTF-8 byte-order mark stays at the start.

Entropy specs: dice:3,6,1,...  d20:17,3,...  coins:HTTH...  bits:0110...  hex:9f3a...

\b
Examples:
  croupier shuffle --deck standard
  croupier shuffle alice bob carol dave --seed "round 1"
  croupier shuffle --cards 10 --entropy dice:3,6,1,5,2,2,4,6,1,3,5,6,2,4,1 --bits
  croupier shuffle --file names.txt --method fisher-yates --json
"""


_BOM = b"\xef\xbb\xbf"


def _number(x: float) -> int | float:
    return int(x) if float(x).is_integer() else round(x, 4)


def _read_bytes(path: str) -> bytes:
    """The bytes of ``path`` (``-``: standard input), or a one-line error naming the file."""
    from croupier.errors import FileFormatError

    if path == "-":
        stdin = getattr(sys.stdin, "buffer", None)
        return stdin.read() if stdin is not None else sys.stdin.read().encode("utf-8")
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError as exc:
        if isinstance(exc, IsADirectoryError):
            why = "it is a folder, not a file"
        elif isinstance(exc, FileNotFoundError):
            why = "no such file"
        elif isinstance(exc, PermissionError):
            why = "permission denied"
        else:
            why = (exc.strerror or str(exc)).lower()
        raise FileFormatError(f"cannot read --file {path!r}: {why}") from None


def _split_lines(data: bytes) -> tuple[list[bytes], bool]:
    r"""Split ``data`` into lines that keep their own line endings, byte for byte.

    A line ends after each ``\n`` (so ``\r\n`` endings stay ``\r\n``; a lone
    ``\r`` does not end a line).  A last line without a newline gets the
    ending of the line before it (``\n`` if it is the only line) so it can be
    moved anywhere; the second value says whether that happened, so the
    caller can drop the final ending again after shuffling.

    >>> _split_lines(b"a\r\nb\r\nc")
    ([b'a\r\n', b'b\r\n', b'c\r\n'], True)
    >>> _split_lines(b""), _split_lines(b"\n")
    (([], False), ([b'\n'], False))
    """
    parts = data.split(b"\n")
    lines = [part + b"\n" for part in parts[:-1]]
    if not parts[-1]:
        return lines, False
    lines.append(parts[-1])
    ending = b"\r\n" if len(lines) > 1 and lines[-2].endswith(b"\r\n") else b"\n"
    lines[-1] += ending
    return lines, True


def _line_text(line: bytes, path: str, number: int) -> str:
    """A line without its ending, as text (for ``--json``)."""
    from croupier.errors import FileFormatError

    body = line[:-2] if line.endswith(b"\r\n") else line.removesuffix(b"\n")
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FileFormatError(
            f"--file {path!r} line {number} is not UTF-8 (byte {body[exc.start]:#04x} at "
            f"column {exc.start + 1}); --json needs text (without --json the bytes are "
            "shuffled as they are)"
        ) from None


def _write_bytes(data: bytes) -> None:
    """Write ``data`` to standard output as it is (after any text already written)."""
    sys.stdout.flush()
    out = getattr(sys.stdout, "buffer", None)
    if out is None:  # a text-only stream (some embedding hosts): best effort
        sys.stdout.write(data.decode("utf-8", "replace"))
        sys.stdout.flush()
    else:
        out.write(data)
        out.flush()


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
            typer.Option(
                "--file",
                help="Shuffle the lines of this file ('-': stdin), byte for byte: line endings, "
                "a missing final newline and non-UTF-8 bytes are kept as they are.",
            ),
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
        from croupier.randomness import (
            EntropySource,
            UniformSampler,
            make_source,
            seed_warning,
            source_note,
        )
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
        bom, drop_last_ending = b"", False
        if deck is not None:
            from croupier.decks import make_deck

            values = [c.code for c in make_deck(deck)]
            one_line = True
        elif cards is not None:
            values = list(range(1, cards + 1))
            one_line = True
        elif file is not None:
            data = _read_bytes(file)
            if data.startswith(_BOM):  # a byte-order mark stays at the start, not with line 1
                bom, data = _BOM, data[len(_BOM) :]
            lines, drop_last_ending = _split_lines(data)
            if as_json:
                values = [_line_text(line, file, i) for i, line in enumerate(lines, 1)]
            else:
                values = lines
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
        short_seed = seed_warning(source, bound, f"{n}! ~ 2^{bound:.1f} orders")
        if short_seed is not None:
            warnings.append(short_seed)
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
            if file is not None:
                out = bom + b"".join(shuffled)
                if drop_last_ending:  # the input ended without a newline: so does the output
                    out = out.removesuffix(b"\n").removesuffix(b"\r")
                _write_bytes(out)
                if bits and out and not out.endswith(b"\n"):
                    typer.echo("")
            elif one_line:
                typer.echo(" ".join(str(v) for v in shuffled))
            elif shuffled:
                typer.echo("\n".join(str(v) for v in shuffled))
            if bits:
                typer.echo(f"bits used: {_number(used)}  (log2({n}!) = {bound:.2f})")
        for w in warnings:
            typer.echo(f"warning: {w}", err=True)
        typer.echo(f"shuffled with {chosen.name} {source_note(source)}", err=True)
