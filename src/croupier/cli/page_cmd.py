"""The verification page: ``croupier page verify --out FILE``.

One self-contained HTML file that verifies board sets in any browser, offline
(from a USB stick): a player gives it the published files (a SquareDeal ``.sqd``
and revealed ``.sqk``, or a ``croupier-boards`` key and the published values)
and the session files, and it regenerates every board and says OK or names the
first mismatch, as ``croupier squaredeal verify`` and ``croupier boards verify``
do.  The page is built from ``web/verify/`` (JavaScript, see
``docs/verification-page.md``) and ships inside the package as
``croupier/web/verify.html``; this module only writes a copy of it.

>>> page = verify_page()
>>> page.startswith(b"<!doctype html>") and b'id="result"' in page
True
"""

from __future__ import annotations

import hashlib
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

import typer

from croupier.cli.options import JsonOpt, OverwriteOpt, QuietOpt, out_option
from croupier.errors import CroupierError
from croupier.files import ExistingFileError, check_new_files, write_file
from croupier.formats.envelope import envelope_json

__all__ = ["app", "check_verify_page", "page_verify", "verify_page", "write_verify_page"]

PAGE_HELP = """\
Web pages that work offline, with no server.

\b
Examples:
  croupier page verify --out verify.html
"""

app = typer.Typer(help=PAGE_HELP, no_args_is_help=True, add_completion=False, rich_markup_mode=None)


def verify_page() -> bytes:
    """The verification page's bytes, as the package ships them."""
    try:
        return (resources.files("croupier") / "web" / "verify.html").read_bytes()
    except OSError as exc:  # a broken install: the package data is missing
        raise CroupierError(
            "the verification page (croupier/web/verify.html) is missing from this installation; "
            "reinstall croupier"
        ) from exc


def check_verify_page(path: Path) -> None:
    """Refuse, before anything else is written, a page that cannot be written to ``path``.

    For the commands that write the page beside their own files
    (``--verify-page``): an existing file is never replaced.
    """
    if Path(path).exists():
        raise ExistingFileError(
            f"{str(path)!r} already exists; croupier never replaces a file (choose another "
            "verify_page= file)"
        )
    check_new_files([Path(path)])


def write_verify_page(path: Path, *, overwrite: bool = False) -> dict[str, Any]:
    """Write the page to ``path`` atomically (never over a file unless ``overwrite``).

    Returns what was written: ``{"file", "bytes", "sha256"}`` (publish the
    SHA-256 with the page, so players can check their copy).
    """
    data = verify_page()
    write_file(Path(path), data, overwrite=overwrite)
    return {"file": str(path), "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}


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
    output as sha256sum prints it; what was written is a note on stderr.

    \b
    Examples:
      croupier page verify --out verify.html
      croupier page verify --out /media/usb/verify.html --overwrite --json
    """
    done = write_verify_page(out, overwrite=overwrite)
    if as_json:
        typer.echo(envelope_json("page verify", {"page": "verify", **done}))
        return
    typer.echo(f"{done['sha256']}  {out}")
    if not quiet:
        typer.echo(
            f"wrote {out} ({done['bytes']:,} bytes): open it in a browser; it works offline, "
            "with no server",
            err=True,
        )
