"""The verification page: ``croupier page verify --out FILE``.

One self-contained HTML file that verifies board sets in any browser, offline
(from a USB stick): a player gives it the published files (a SquareDeal ``.sqd``
and revealed ``.sqk``, or a ``croupier-boards`` key and the published values)
and the session files, and it regenerates every board and says OK or names the
first mismatch, as ``croupier squaredeal verify`` and ``croupier boards verify``
do.  The page is built from ``web/verify/`` (JavaScript, see
``docs/verification-page.md``) and ships inside the package as
``croupier/web/verify.html``; this command writes a copy of it
(:func:`croupier.tournament.verify_page.write_verify_page`).
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from croupier.cli.options import JsonOpt, OverwriteOpt, QuietOpt, out_option
from croupier.cli.output import file_or_standard_output
from croupier.errors import CroupierError
from croupier.formats.envelope import envelope_json
from croupier.tournament.verify_page import sha256sum_line, verify_page, write_verify_page

__all__ = ["app", "page_verify"]

PAGE_HELP = """\
Web pages that work offline, with no server.

\b
Examples:
  croupier page verify --out verify.html
"""

app = typer.Typer(help=PAGE_HELP, no_args_is_help=True, add_completion=False, rich_markup_mode=None)


@app.command("verify")
def page_verify(
    out: Annotated[Path, out_option("Write the page to FILE, like verify.html.")],
    overwrite: OverwriteOpt = False,
    as_json: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Write the verification page: one HTML file that checks board sets in a browser.

    The page needs no server and no network: open it from a folder or a USB
    stick, give it the published files (EVENT.sqd and the revealed EVENT.sqk,
    or the croupier-boards key and the published event, plan, commitment and
    delayed value) and the session files (PBN, LIN, DLM, DUP, one deal a
    line), and it regenerates every board and says OK, or FAIL naming the
    file, the board and the hands that differ.

    The page's SHA-256 (publish it with the page) is printed on standard
    output as sha256sum prints it (sha256sum -c checks a copy against it;
    a name with a backslash or a line break is escaped as sha256sum does);
    what was written is a note on stderr.  --out - writes the page itself
    to standard output (its SHA-256 then in the note on stderr).

    \b
    Examples:
      croupier page verify --out verify.html
      croupier page verify --out /media/usb/verify.html --overwrite --json
    """
    if file_or_standard_output(out) is None:  # -o -: the page itself on standard output
        _page_to_standard_output(as_json=as_json, quiet=quiet)
        return
    done = write_verify_page(out, overwrite=overwrite)
    if as_json:
        typer.echo(envelope_json("page verify", {"page": "verify", **done}))
        return
    # as bytes: a name that is not UTF-8 is printed as the file system spells it
    sys.stdout.flush()
    sys.stdout.buffer.write(os.fsencode(sha256sum_line(done["sha256"], str(out))) + b"\n")
    sys.stdout.buffer.flush()
    if not quiet:
        typer.echo(
            f"wrote {out} ({done['bytes']:,} bytes): open it in a browser; it works offline, "
            "with no server",
            err=True,
        )


def _page_to_standard_output(*, as_json: bool, quiet: bool) -> None:
    """The page on standard output (``--out -``), its SHA-256 in the note on stderr."""
    if as_json:
        raise CroupierError(
            "--json prints a report on standard output; give --out, the file to write"
        )
    data = verify_page()
    sys.stdout.flush()
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()
    if not quiet:
        typer.echo(
            f"wrote the verification page to standard output ({len(data):,} bytes, SHA-256 "
            f"{hashlib.sha256(data).hexdigest()})",
            err=True,
        )
