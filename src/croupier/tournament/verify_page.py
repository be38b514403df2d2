"""The verification page as the package ships it, written beside a tournament's files.

One self-contained HTML file that verifies board sets in any browser, offline: the
page of ``croupier page verify --out FILE`` and of ``--verify-page`` on the commands
that publish boards.  It is built from ``web/verify/`` (JavaScript, see
``docs/verification-page.md``) and ships inside the package as
``croupier/web/verify.html``.

>>> page = verify_page()
>>> page.startswith(b"<!doctype html>") and b'id="result"' in page
True
"""

from __future__ import annotations

import hashlib
from importlib import resources
from pathlib import Path
from typing import Any

from croupier.errors import CroupierError
from croupier.files import ExistingFileError, check_new_files, write_file

__all__ = ["check_verify_page", "sha256sum_line", "verify_page", "write_verify_page"]


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


def sha256sum_line(digest: str, name: str) -> str:
    r"""The line ``sha256sum`` prints for file ``name``, which ``sha256sum -c`` reads back.

    ``HASH  NAME``; as GNU coreutils writes it, a name with a backslash, a
    newline or a carriage return has them as ``\\``, ``\n`` and ``\r``, and the
    line starts with a backslash.

    >>> sha256sum_line("ab12", "verify.html")
    'ab12  verify.html'
    >>> print(sha256sum_line("ab12", "C:\\pages\\new\nline\r.html"))
    \ab12  C:\\pages\\new\nline\r.html
    """
    if not any(c in name for c in "\\\n\r"):
        return f"{digest}  {name}"
    escaped = name.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r")
    return f"\\{digest}  {escaped}"
