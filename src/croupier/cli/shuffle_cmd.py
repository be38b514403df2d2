"""``croupier shuffle``: shuffle items, a deck, 1..N or the lines of a file.

One module-level Typer app (:data:`app`).  The methods named in the help and
accepted by ``--method`` come from the library's registries
(:data:`croupier.shuffling.SHUFFLE_METHODS` and ``FLAWED_METHODS``); the
default, :data:`AUTO`, is :func:`croupier.shuffling.default_shuffle_method`'s rule:
``lehmer`` up to :data:`~croupier.shuffling.LEHMER_ONE_DRAW_LIMIT` items,
``split`` above (``--file`` keeps the rule's first version, ``fisher-yates``
above).

>>> sorted(typer.main.get_group(app).commands)
['shuffle']
>>> chosen_method(AUTO, 52).name, chosen_method(AUTO, 3000).name
('lehmer', 'split')
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Annotated, Any

import typer

from croupier.cli.options import (
    BitsOpt,
    EntropyOpt,
    JsonOpt,
    OverwriteOpt,
    QuietOpt,
    SeedOpt,
    method_option,
    option,
    out_option,
)
from croupier.cli.output import file_or_standard_output
from croupier.cli.secrets_mask import mask_secrets
from croupier.decks import make_deck
from croupier.errors import (
    CroupierError,
    EntropyExhaustedError,
    FileFormatError,
    ShuffleSpecError,
)
from croupier.files import read_bounded
from croupier.formats.envelope import envelope_json
from croupier.randomness import (
    EntropySource,
    RandomSource,
    UniformSampler,
    resolve_source,
    source_note,
)
from croupier.randomness.purposes import Purpose
from croupier.randomness.uniform import UNIFORM_ALGORITHM_ID
from croupier.shuffling import (
    AUTO_RULE,
    FLAWED_METHODS,
    LEHMER_ONE_DRAW_LIMIT,
    SHUFFLE_METHODS,
    ShuffleMethod,
    default_shuffle_method,
    get_shuffle_method,
)
from croupier.shuffling.bounds import log2_factorial

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

KEYS = "keys"
"""``--method keys``: the former file shuffle ``croupier-extshuffle/1`` (64-bit keys, sorted)."""

AUTO = "auto"
"""The default ``--method``: ``lehmer`` up to 2,048 items, ``split`` above (``fisher-yates``
for ``--file``)."""

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
A note on the source (and the method used) goes to stderr; --quiet leaves
it out, with the warnings and the progress bar.  --json prints one JSON
document (docs/json.md).

The default method, auto, is lehmer up to {_LIMIT} items and split above
(both exactly uniform; --file has its own, below).
lehmer makes one exactly uniform draw below n! and so uses about log2(n!)
bits; split sorts the items into random buckets and shuffles each exactly,
with about log2(n!) + 0.85 n bits; --method lehmer forces lehmer above
{_LIMIT} items too, up to {LEHMER_MAX_ITEMS:,} (its decoding takes time
quadratic in n).
Methods: {_FAIR}; flawed ones, for study only: {_FLAWED}.

--file FILE ('-' or no input at all: standard input, as shuf reads it)
shuffles the records of a file of any size, byte for byte, with the exact
keyed split shuffle croupier-keyed-split/1: every record gets a few random
key bits from its number, the records with one key form a leaf, and each
leaf is put in order by its own exact draws, with about log2(n!) + 0.9 n
bits.  Records are lines (each keeps its own ending, LF or CRLF; a file
without a final newline gives output without one; a UTF-8 byte-order mark
stays at the start), NUL-terminated records with -z, or N-byte records
with --records N.  In memory when the file fits in --memory (default: half
the free memory), else through temporary buckets next to --out (or in
$TMPDIR); the output never depends on --memory.  -o/--out writes a file
atomically (--overwrite to replace one).  -n/--head-count K prints K
records drawn uniformly without replacement, in random order, in one pass
holding K records (croupier-reservoir/1); with ITEMS, --deck or --cards it
prints the first K of the shuffle.  --method keys is the former file
shuffle croupier-extshuffle/1 (64-bit keys); a named method (lehmer,
fisher-yates, ...) shuffles the lines as items, in memory (up to 256 MiB):
the former default for --file was lehmer up to 2,048 lines and fisher-yates
above.  As with shuf:  find . -print0 | croupier shuffle -z  and
croupier shuffle -n 1000 < big.txt > sample.txt.

Entropy specs: dice:3,6,1,...  d20:17,3,...  coins:HTTH...  bits:0110...  hex:9f3a...

\b
Examples:
  croupier shuffle --deck standard
  croupier shuffle alice bob carol dave --seed "round 1"
  croupier shuffle --cards 10 --entropy dice:3,6,1,5,2,2,4,6,1,3,5,6,2,4,1 --bits
  croupier shuffle --cards 5000 --seed "big draw" --json
  croupier shuffle --file names.txt --method fisher-yates --json
  croupier shuffle --file names.txt -o shuffled.txt --memory 1G --seed "run 7"
  croupier shuffle --file names.txt -n 2 --seed "draw 1"
"""


def chosen_method(name: str, n: int, *, rule: int = AUTO_RULE) -> ShuffleMethod:
    """The method ``--method name`` runs on ``n`` items (``auto``: the size rule).

    ``rule`` is the version of the ``auto`` rule (1 for ``--file``: ``fisher-yates``
    above 2,048 items).

    >>> chosen_method("auto", 2048).name, chosen_method("auto", 2049).name
    ('lehmer', 'split')
    >>> chosen_method("auto", 2049, rule=1).name
    'fisher-yates'
    >>> chosen_method("lehmer", 3000).name
    'lehmer'
    >>> chosen_method("lehmer", 100_001)
    Traceback (most recent call last):
    ...
    croupier.errors.ShuffleSpecError: --method lehmer takes at most 100,000 items ...
    """
    if name.strip().lower() == AUTO:
        return default_shuffle_method(n, rule=rule)
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


def _stdin_is_input() -> bool:
    """Whether standard input can be read as the input: readable and not a terminal."""
    stdin = sys.stdin
    try:
        return bool(stdin is not None and stdin.readable() and not stdin.isatty())
    except (OSError, ValueError):
        return False


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
            f"{AUTO} (lehmer up to {_LIMIT} items, split above; for --file the keyed "
            f"split shuffle), {_FAIR}; {KEYS} (--file: the former croupier-extshuffle/1); "
            f"flawed, for study: {_FLAWED}."
        ),
    ] = AUTO,
    seed: SeedOpt = None,
    entropy: EntropyOpt = None,
    bits: BitsOpt = False,
    as_json: JsonOpt = False,
    out_path: Annotated[
        str | None,
        out_option("Write the shuffled --file here (atomically) instead of standard output."),
    ] = None,
    memory: Annotated[
        str | None,
        typer.Option(
            "--memory",
            help="--file: the memory to use, such as 256M, 1G (default: half the free "
            "memory); larger files go through temporary buckets (the same output).",
        ),
    ] = None,
    records: Annotated[
        str | None,
        typer.Option("--records", help="--file: 'lines' (the default) or N, for N-byte records."),
    ] = None,
    zero: Annotated[
        bool,
        typer.Option("--zero-terminated", "-z", help="--file: records end with NUL, not newline."),
    ] = False,
    head_count: Annotated[
        int | None,
        typer.Option(
            "--head-count",
            "--count",
            "-n",
            min=0,
            help="Print at most K items: a uniform sample without replacement, in random "
            "order (--file: in one pass).",
        ),
    ] = None,
    overwrite: OverwriteOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Shuffle the items and print them (one line for --deck and --cards)."""
    if file is None and not items and deck is None and cards is None and _stdin_is_input():
        file = "-"  # as shuf: no input named, standard input is read
    opts = _ShuffleOptions(
        items=items, deck=deck, cards=cards, file=file, method=method, seed=seed,
        entropy=entropy, bits=bits, as_json=as_json, out_path=out_path, memory=memory,
        records=records, zero=zero, head_count=head_count, overwrite=overwrite, quiet=quiet,
    )  # fmt: skip
    if opts.file is not None and opts.method_name in (AUTO, KEYS):
        _shuffle_whole_file(opts, opts.file)
        return
    _refuse_file_options(opts)
    _shuffle_in_memory(opts)


@dataclass(frozen=True)
class _ShuffleOptions:
    """The options of one ``croupier shuffle`` run, as given (``file`` after the stdin rule)."""

    items: list[str] | None
    deck: str | None
    cards: int | None
    file: str | None
    method: str
    seed: str | None
    entropy: str | None
    bits: bool
    as_json: bool
    out_path: str | None
    memory: str | None
    records: str | None
    zero: bool
    head_count: int | None
    overwrite: bool
    quiet: bool

    @property
    def method_name(self) -> str:
        """``--method`` as matched: stripped, lower case."""
        return self.method.strip().lower()

    @property
    def file_options(self) -> bool:
        """Whether an option that only the file shuffle takes was given."""
        return (
            self.out_path is not None
            or self.memory is not None
            or self.records is not None
            or self.zero
        )


def _shuffle_whole_file(opts: _ShuffleOptions, file: str) -> None:
    """``--file`` with ``--method auto`` or ``keys``: the record shuffles of any size."""
    from croupier.cli import shuffle_file_run

    if opts.items or opts.deck is not None or opts.cards is not None:
        raise CroupierError(
            f"give exactly one of ITEMS, --deck NAME, --cards N or --file PATH (got "
            f"{1 + bool(opts.items) + (opts.deck is not None) + (opts.cards is not None)})"
        )
    if opts.entropy is not None:
        raise CroupierError(
            "--entropy does not apply to the file shuffle (it keys its streams with 256 "
            "bits); give a named --method (such as fisher-yates) to shuffle lines with it"
        )
    out = file_or_standard_output(opts.out_path)
    if opts.method_name == KEYS:
        if opts.as_json or opts.zero or opts.head_count is not None:
            raise CroupierError(
                "--json, -z and --head-count do not apply to --method keys "
                "(croupier-extshuffle/1); leave out --method"
            )
        shuffle_file_run.shuffle_big_file(
            file, out, memory=opts.memory, records=opts.records, seed=opts.seed,
            overwrite=opts.overwrite, quiet=opts.quiet, bits=opts.bits,
        )  # fmt: skip
        return
    shuffle_file_run.shuffle_records_command(
        file, out, memory=opts.memory, records=opts.records, zero=opts.zero,
        head_count=opts.head_count, seed=opts.seed, overwrite=opts.overwrite, quiet=opts.quiet,
        bits=opts.bits, as_json=opts.as_json,
    )  # fmt: skip


def _refuse_file_options(opts: _ShuffleOptions) -> None:
    """Refuse the options that only the file shuffles take, on an in-memory shuffle."""
    if opts.file_options:
        if opts.file is None or opts.items or opts.deck is not None or opts.cards is not None:
            raise CroupierError(
                "--out, --memory, --records and -z shuffle a file: give --file PATH (and no "
                "ITEMS, --deck or --cards)"
            )
        raise CroupierError(
            "--out, --memory, --records and -z do not apply to a named --method (it shuffles "
            "the lines as items, in memory); leave out --method"
        )
    if opts.method_name == KEYS:
        raise CroupierError("--method keys shuffles a file: give --file PATH")
    if opts.overwrite:
        raise CroupierError("--overwrite goes with --file and --out")


def _shuffle_in_memory(opts: _ShuffleOptions) -> None:
    """Shuffle ITEMS, a deck, 1..N or the lines of a file as items; print them and the notes."""
    values, one_line, bom, drop_last_ending = _values(
        opts.items, opts.deck, opts.cards, opts.file, opts.as_json
    )
    n = len(values)
    chosen = chosen_method(opts.method, n)
    source = resolve_source(opts.seed, opts.entropy, purpose=Purpose.SHUFFLE)
    bound = log2_factorial(n)
    warnings: list[str] = []
    if not chosen.uniform:
        warnings.append(f"method {chosen.name!r} is not uniform: {chosen.description}")
    # no weak-seed warning: a shuffle is a simulation or a draw, whose seed is meant to be
    # known (boards, whose deals must stay secret, warn: croupier deal -f pbn, bigdeal)
    if isinstance(source, EntropySource) and chosen.uniform and source.total_bits < bound - 1e-9:
        raise EntropyExhaustedError(
            source.shortfall(1, total_bits=bound)
            + f" (a uniform shuffle of {n} items needs at least log2({n}!) = {bound:.2f} bits)"
        )
    shuffled = chosen(values, UniformSampler(source))
    if opts.head_count is not None:  # the first K of the shuffle
        shuffled = shuffled[: opts.head_count]
    if opts.as_json:
        _print_json(opts, shuffled, chosen, source, bound, warnings)
    else:
        _print_items(opts, shuffled, one_line=one_line, bom=bom, drop_last_ending=drop_last_ending)
        if opts.bits:
            typer.echo(f"bits used: {_number(source.bits_used)}  (log2({n}!) = {bound:.2f})")
    if not opts.quiet:
        _print_notes(opts, chosen, source, warnings)


def _print_json(
    opts: _ShuffleOptions,
    shuffled: list[Any],
    chosen: ShuffleMethod,
    source: RandomSource,
    bound: float,
    warnings: list[str],
) -> None:
    """``--json``: the shuffled items and how they were shuffled, in the envelope."""
    doc = {
        "items": shuffled,
        "method": chosen.name,
        "method_requested": AUTO if opts.method_name == AUTO else chosen.name,
        "uniform": chosen.uniform,
        "source_description": source.describe(),
        "sampler": UNIFORM_ALGORITHM_ID,
        "bits_bound": round(bound, 4),
        "warnings": warnings,
    }
    typer.echo(
        envelope_json(
            "shuffle",
            doc,
            algorithm=chosen.algorithm_id,
            source=source.kind,
            reproducible=source.reproducible,
            bits=_number(source.bits_used),
        )
    )


def _print_items(
    opts: _ShuffleOptions,
    shuffled: list[Any],
    *,
    one_line: bool,
    bom: bytes,
    drop_last_ending: bool,
) -> None:
    """The shuffled items as text: the lines of --file byte for byte, else one a line."""
    if opts.file is not None:
        out = bom + b"".join(shuffled)
        if drop_last_ending:  # the input ended without a newline: so does the output
            out = out.removesuffix(b"\n").removesuffix(b"\r")
        _write_bytes(out)
        if opts.bits and out and not out.endswith(b"\n"):
            typer.echo("")
    elif one_line:
        typer.echo(" ".join(str(v) for v in shuffled))
    elif shuffled:
        typer.echo("\n".join(str(v) for v in shuffled))


def _print_notes(
    opts: _ShuffleOptions, chosen: ShuffleMethod, source: RandomSource, warnings: list[str]
) -> None:
    """The warnings and the note on the method and the source, on stderr."""
    for w in warnings:
        typer.echo(f"warning: {mask_secrets(w)}", err=True)
    why = ""
    if opts.method_name == AUTO:  # say which side of the size rule this run fell on
        side = "up to" if chosen.name == "lehmer" else "more than"
        why = f" ({AUTO}: {side} {_LIMIT} items)"
    typer.echo(f"shuffled with {chosen.name}{why} {source_note(source)}", err=True)
