"""Runs a croupier command in a fresh process by its quick path or by Typer's full command line.

The quick paths of ``croupier deal`` and ``croupier shuffle --file`` must give the same
bytes, notes, errors and exit codes as the full command line; their tests run both here,
and the start-up tests of ``croupier dealer`` list the modules its quick path imports.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

# Runs ``croupier COMMAND ARGS`` as the program does; with "typer" as the path, by the full
# command line alone (the quick path skipped), as before it existed.
_RUN = """
import sys
command, path, args = sys.argv[1], sys.argv[2], sys.argv[3:]
sys.argv = ["croupier", command, *args]
if path == "typer":
    from croupier.cli import quick_run
    quick_run.QUICK_PATHS.pop(command)
from croupier.cli.entry import main
try:
    main()
except SystemExit as exc:
    code = exc.code
sys.stdout.flush()
print("MODULES", " ".join(sorted(sys.modules)), file=sys.stderr)
sys.exit(code)
"""


def run_command(
    command: str,
    path: str,
    args: list[str],
    cwd: Path,
    stdin: bytes = b"",
    env: dict[str, str] | None = None,
) -> tuple[int, bytes, str, set[str]]:
    """Exit code, standard output, standard error and the modules imported, of
    ``croupier COMMAND ARGS`` run by ``path`` (``"quick"`` or ``"typer"``); ``env``
    replaces or removes (``""``) variables of this process's environment."""
    environment = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    for name, value in (env or {}).items():
        if value:
            environment[name] = value
        else:
            environment.pop(name, None)
    done = subprocess.run(
        [sys.executable, "-c", _RUN, command, path, *args],
        input=stdin,
        capture_output=True,
        cwd=cwd,
        check=False,
        env=environment,
    )
    err, _, modules = done.stderr.decode().rpartition("MODULES ")
    return done.returncode, done.stdout, err, set(modules.split())
