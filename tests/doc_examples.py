"""Reading the runnable examples out of Markdown pages (README and docs/)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

Example = tuple[list[str], list[str]]


def console_examples(path: Path, fence: str = "console") -> list[Example]:
    """``(arguments, expected lines)`` for each ``$ croupier ...`` line in ``fence`` blocks.

    The expected lines are those that follow the command up to the next ``$``
    line or the end of the block.
    """
    text = path.read_text(encoding="utf-8")
    examples: list[Example] = []
    for block in re.findall(rf"```{fence}\n(.*?)```", text, re.DOTALL):
        for line in block.splitlines():
            if line.startswith("$ "):
                words = shlex.split(line[2:], comments=True)
                if words[0] != "croupier":
                    raise AssertionError(f"{path.name}: not a croupier command: {line}")
                examples.append((words[1:], []))
            elif examples:
                examples[-1][1].append(line)
    return examples


VERSION = "X.Y.Z"
"""What stands for croupier's version in an example's output (the JSON envelope's
``"croupier": "X.Y.Z"``), so a release does not change every page."""


def lines_match(expected: list[str], actual: list[str]) -> bool:
    """Line by line; a line ``...`` stands for any lines, ``(...)`` for any text in a line,
    ``X.Y.Z`` for a version number.

    Without those wildcards this is plain equality of the lines.
    """
    pattern = ""
    for line in expected:
        if line.strip() == "...":
            pattern += r"(?:.*\n)*"
        else:
            escaped = re.escape(line).replace(r"\(\.\.\.\)", r"\(.*\)")
            escaped = escaped.replace(re.escape(VERSION), r"[0-9][0-9A-Za-z.+-]*")
            pattern += escaped + r"\n"
    return re.fullmatch(pattern, "".join(f"{a}\n" for a in actual)) is not None


def example_id(value: object) -> str:
    """A readable pytest id for an example's arguments."""
    return " ".join(value) if isinstance(value, list) else str(value)
