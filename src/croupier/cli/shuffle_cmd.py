"""``croupier shuffle``: shuffle items, a deck, 1..N or the lines of a file.

One module-level Typer app (:data:`app`).  The methods named in the help and
accepted by ``--method`` come from the library's registries
(:data:`croupier.shuffling.SHUFFLE_METHODS` and ``FLAWED_METHODS``); the
default, :data:`AUTO`, is :func:`croupier.shuffling.default_shuffle_method`'s rule:
``lehmer`` up to :data:`~croupier.shuffling.LEHMER_ONE_DRAW_LIMIT` items,
``fisher-yates`` above.

>>> sorted(typer.main.get_group(app).commands)
['shuffle']
>>> chosen_method(AUTO, 52).name, chosen_method(AUTO, 3000).name
('lehmer', 'fisher-yates')
"""

from __future__ import annotations

import json
import math
import sys
from typing import Annotated, Any

import typer

from croupier.cli.options import (
    BitsOpt,
    EntropyOpt,
    JsonOpt,
    OverwriteOpt,
    SeedOpt,
    method_option,
    option,
)
from croupier.decks import make_deck
from croupier.errors import (
    CroupierError,
    EntropyExhaustedError,
    FileFormatError,
    ShuffleSpecError,
)
from croupier.files import read_bounded
from croupier.randomness import (
    EntropySource,
    UniformSampler,
    make_source,
    seed_warning,
    source_note,
)
from croupier.randomness.uniform import UNIFORM_ALGORITHM_ID
from croupier.shuffling import (
    FLAWED_METHODS,
    LEHMER_ONE_DRAW_LIMIT,
    SHUFFLE_METHODS,
    ShuffleMethod,
    default_shuffle_method,
    get_shuffle_method,
)

__all__ = [
    "AUTO",
    "LEHMER_MAX_ITEMS",
    "MAX_SHUFFLE_FILE_BYTES",
    "MAX_SHUFFLE_ITEMS",
    "app",
    "chosen_method",
    "shuffle_command",
]

app = typer.Typer(add_completion=False, rich_markup_mode=None)

AUTO = "auto"
"""The default ``--method``: ``lehmer`` up to 2,048 items, ``fisher-yates`` above."""

LEHMER_MAX_ITEMS = 100_000
"""The most items ``--method lehmer`` takes: its decoding moves O(n**2) items."""

MAX_SHUFFLE_ITEMS = 10_000_000
"""The most items one ``croupier shuffle`` run shuffles (``--cards N``, lines of ``--file``)."""

MAX_SHUFFLE_FILE_BYTES = 256 * 2**20
"""The largest ``--file`` (or standard input) ``croupier shuffle`` reads: 256 MiB."""

_LIMIT = f"{LEHMER_ONE_DRAW_LIMIT:,}"
_FAIR = ", ".join(SHUFFLE_METHODS)
_FLAWED = ", ".join(FLAWED_METHODS)

SHUFFLE_HELP = f"""\
Shuffle ITEMS, a deck preset, the numbers 1..N, or the lines of a text file.

Randomness comes from the OS CSPRNG unless --seed (reproducible, and only as
secret as the seed) or --entropy (your own dice, coins or hex; never reused
or padded: too little is an error saying how much more is needed) is given.
A note on the source (and the method used) goes to stderr.

The default method, auto, is lehmer up to {_LIMIT} items and fisher-yates
above (both exactly uniform).  lehmer makes one exactly uniform draw below n!
and so uses about log2(n!) bits; --method lehmer forces it above {_LIMIT}
items too, up to {LEHMER_MAX_ITEMS:,} (its decoding takes time quadratic in n).
Methods: {_FAIR}; flawed ones, for study only: {_FLAWED}.

--file shuffles lines byte for byte: each line keeps its own ending (LF or
CRLF), a file without a final newline gives output without one, bytes that
are not UTF-8 pass through unchanged (--json needs UTF-8), an empty file
gives nothing, and a UTF-8 byte-order mark stays at the start.

Files larger than memory: --out OUT, --memory SIZE or --records N (any of
them, with --file) selects the exact out-of-core shuffle croupier-extshuffle/1
instead: every record gets a 64-bit random key, the records are scattered to
temporary buckets by key and each bucket is sorted in memory, so at most
about --memory (default 256M; sizes like 256M, 1G, 200000K) is used whatever
the file's size, and the order never depends on --memory.  Records are lines
(the bytes between newlines, kept byte for byte; the output ends with a
newline exactly when the input does) or, with --records N, N-byte records.
OUT appears only when complete (--overwrite to replace a file); without
--out the output streams to stdout.  Temporaries live in one folder next to
OUT (or in $TMPDIR) and are removed on success, error, Ctrl-C, and by the
next run after a killed one.

Entropy specs: dice:3,6,1,...  d20:17,3,...  coins:HTTH...  bits:0110...  hex:9f3a...

\b
Examples:
  croupier shuffle --deck standard
  croupier shuffle alice bob carol dave --seed "round 1"
  croupier shuffle --cards 10 --entropy dice:3,6,1,5,2,2,4,6,1,3,5,6,2,4,1 --bits
  croupier shuffle --cards 5000 --seed "big draw" --json
  croupier shuffle --file names.txt --method fisher-yates --json
  croupier shuffle --file names.txt --out shuffled.txt --memory 1G --seed "run 7"
"""


def chosen_method(name: str, n: int) -> ShuffleMethod:
    """The method ``--method name`` runs on ``n`` items (``auto``: the size rule).

    >>> chosen_method("auto", 2048).name, chosen_method("auto", 2049).name
    ('lehmer', 'fisher-yates')
    >>> chosen_method("lehmer", 3000).name
    'lehmer'
    >>> chosen_method("lehmer", 100_001)
    Traceback (most recent call last):
    ...
    croupier.errors.ShuffleSpecError: --method lehmer takes at most 100,000 items ...
    """
    if name.strip().lower() == AUTO:
        return default_shuffle_method(n)
    method = get_shuffle_method(name)
    if method.name == "lehmer" and n > LEHMER_MAX_ITEMS:
        raise ShuffleSpecError(
            f"--method lehmer takes at most {LEHMER_MAX_ITEMS:,} items (its decoding takes "
            f"time quadratic in their number), got {n:,}; use --method auto or fisher-yates"
        )
    return method


_BOM = b"\xef\xbb\xbf"


def _number(x: float) -> int | float:
    return int(x) if float(x).is_integer() else round(x, 4)


def _read_bytes(path: str) -> bytes:
    """The bytes of ``path`` (``-``: standard input), or a one-line error naming the file."""
    what = "standard input" if path == "-" else f"--file {path!r}"
    return _within_limit(read_bounded(path, MAX_SHUFFLE_FILE_BYTES, what=what), what)


def _within_limit(data: bytes, what: str) -> bytes:
    """``data`` (read up to one byte over the limit), or an error when it is over."""
    if len(data) > MAX_SHUFFLE_FILE_BYTES:
        raise FileFormatError(
            f"{what} is larger than {MAX_SHUFFLE_FILE_BYTES // 2**20} MiB, the most "
            "croupier shuffle reads"
        )
    return data


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


def _values(
    items: list[str] | None, deck: str | None, cards: int | None, file: str | None, as_json: bool
) -> tuple[list[Any], bool, bytes, bool]:
    """What to shuffle: ``(values, one_line, byte-order mark, drop the last line ending)``."""
    given = [x for x in (items or None, deck, cards, file) if x is not None]
    if len(given) != 1:
        raise CroupierError(
            f"give exactly one of ITEMS, --deck NAME, --cards N or --file PATH (got {len(given)})"
        )
    if deck is not None:
        return [c.code for c in make_deck(deck)], True, b"", False
    if cards is not None:
        return list(range(1, cards + 1)), True, b"", False
    if file is not None:
        data = _read_bytes(file)
        bom = b""
        if data.startswith(_BOM):  # a byte-order mark stays at the start, not with line 1
            bom, data = _BOM, data[len(_BOM) :]
        if data.count(b"\n") + (not data.endswith(b"\n")) > MAX_SHUFFLE_ITEMS:
            raise FileFormatError(
                f"--file {file!r} has more than {MAX_SHUFFLE_ITEMS:,} lines, the most "
                "croupier shuffle shuffles"
            )
        lines, drop_last_ending = _split_lines(data)
        if as_json:
            return [_line_text(line, file, i) for i, line in enumerate(lines, 1)], False, bom, False
        return list(lines), False, bom, drop_last_ending
    return list(items or []), False, b"", False


@app.command("shuffle", help=SHUFFLE_HELP)
def shuffle_command(
    items: Annotated[list[str] | None, typer.Argument(help="Items to shuffle.")] = None,
    deck: Annotated[
        str | None, typer.Option("--deck", help="Shuffle a deck preset (see croupier deck).")
    ] = None,
    cards: Annotated[
        int | None,
        option(
            "--cards",
            f"Shuffle the numbers 1..N (N at most {MAX_SHUFFLE_ITEMS:,}).",
            min=0,
            max=MAX_SHUFFLE_ITEMS,
        ),
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
        str,
        method_option(
            f"{AUTO} (lehmer up to {_LIMIT} items, fisher-yates above), {_FAIR}; "
            f"flawed, for study: {_FLAWED}."
        ),
    ] = AUTO,
    seed: SeedOpt = None,
    entropy: EntropyOpt = None,
    bits: BitsOpt = False,
    as_json: JsonOpt = False,
    out_path: Annotated[
        str | None,
        typer.Option(
            "--out", "-o", help="Out-of-core: write the shuffled --file here (atomically)."
        ),
    ] = None,
    memory: Annotated[
        str | None,
        typer.Option(
            "--memory",
            help="Out-of-core: the memory to use, such as 256M (the default), 1G, 200000K.",
        ),
    ] = None,
    records: Annotated[
        str | None,
        typer.Option(
            "--records", help="Out-of-core: 'lines' (the default) or N, for N-byte records."
        ),
    ] = None,
    overwrite: OverwriteOpt = False,
    quiet: Annotated[
        bool, typer.Option("--quiet", help="Out-of-core: no note and no progress bar.")
    ] = False,
) -> None:
    """Shuffle the items and print them (one line for --deck and --cards)."""
    if out_path is not None or memory is not None or records is not None:
        from croupier.cli.shuffle_file_cmd import shuffle_big_file

        if file is None or items or deck is not None or cards is not None:
            raise CroupierError(
                "--out, --memory and --records shuffle a file: give --file PATH (and no ITEMS, "
                "--deck or --cards)"
            )
        if as_json or entropy is not None or method.strip().lower() != AUTO:
            raise CroupierError(
                "--json, --entropy and --method do not apply to the out-of-core shuffle "
                "(--out, --memory, --records); use --seed for a reproducible run"
            )
        shuffle_big_file(
            file, out_path, memory=memory, records=records, seed=seed, overwrite=overwrite,
            quiet=quiet, bits=bits,
        )  # fmt: skip
        return
    if overwrite or quiet:
        raise CroupierError("--overwrite and --quiet go with --out (the out-of-core shuffle)")
    values, one_line, bom, drop_last_ending = _values(items, deck, cards, file, as_json)
    n = len(values)
    is_auto = method.strip().lower() == AUTO
    chosen = chosen_method(method, n)
    source = make_source(seed, entropy, purpose="shuffle")
    bound = math.log2(math.factorial(n)) if n <= 1000 else math.lgamma(n + 1) / math.log(2)
    warnings: list[str] = []
    if not chosen.uniform:
        warnings.append(f"method {chosen.name!r} is not uniform: {chosen.description}")
    short_seed = seed_warning(source, bound, f"{n}! ~ 2^{bound:.1f} orders")
    if short_seed is not None:
        warnings.append(short_seed)
    if isinstance(source, EntropySource) and chosen.uniform and source.total_bits < bound - 1e-9:
        raise EntropyExhaustedError(
            source.shortfall(1, total_bits=bound)
            + f" (a uniform shuffle of {n} items needs at least log2({n}!) = {bound:.2f} bits)"
        )
    shuffled = chosen(values, UniformSampler(source))
    used = source.bits_used
    if as_json:
        doc = {
            "items": shuffled,
            "method": chosen.name,
            "method_requested": AUTO if is_auto else chosen.name,
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
    why = ""
    if is_auto:  # say which side of the size rule this run fell on
        side = "up to" if chosen.name == "lehmer" else "more than"
        why = f" ({AUTO}: {side} {_LIMIT} items)"
    typer.echo(f"shuffled with {chosen.name}{why} {source_note(source)}", err=True)
