"""Write a parsed script back as dealer text: :func:`format_script` is the inverse of parsing.

``parse_script(format_script(s), s.filename) == s`` for every script ``s``
(tested on every example script of dealer); the text is laid out one
statement per line, in the order dealer reads them best: counts, seats,
predeal, scales, definitions, condition, actions.  Programs use it to derive
a new script from an old one (another action list, other counts) without
editing text, and reports use it to echo the script that ran.

>>> from croupier.simulate import parse_script
>>> s = parse_script("produce 5 condition hcp(north)>20 action printoneline, average hcp(south)")
>>> print(format_script(s), end="")
produce 5
condition hcp(north) > 20
action printoneline, average hcp(south)
"""

from __future__ import annotations

from croupier.cards import Card
from croupier.errors import CroupierError
from croupier.seats import Vulnerability
from croupier.simulate.ast import (
    SEAT_WORDS,
    SUIT_WORDS,
    SUITS,
    Action,
    Average,
    Frequency,
    Frequency2D,
    PredealCards,
    PredealLength,
    Print,
    PrintAll,
    PrintCompact,
    PrintES,
    PrintEW,
    PrintOneLine,
    PrintPBN,
    Script,
)

__all__ = ["format_action", "format_script"]

_SIMPLE: dict[type[Action], str] = {
    PrintAll: "printall",
    PrintEW: "printew",
    PrintPBN: "printpbn",
}


def _label(label: str | None) -> str:
    return "" if label is None else f"{_string(label)} "


def _string(text: str) -> str:
    if '"' in text:
        raise CroupierError(f"dealer strings cannot hold a double quote: {text!r}")
    return f'"{text}"'


def format_action(action: Action) -> str:
    """One action as dealer writes it.

    >>> from croupier.simulate.ast import Frequency, Print
    >>> from croupier.simulate import parse_expression
    >>> format_action(Frequency("hcp", parse_expression("hcp(north)"), 0, 37))
    'frequency "hcp" (hcp(north), 0, 37)'
    >>> format_action(Print(("E", "W")))
    'print(east, west)'
    """
    simple = _SIMPLE.get(type(action))
    if simple is not None:
        return simple
    if isinstance(action, Print):
        return f"print({', '.join(SEAT_WORDS[s] for s in action.seats)})"
    if isinstance(action, PrintCompact | PrintOneLine):
        name = "printcompact" if isinstance(action, PrintCompact) else "printoneline"
        return name if action.expr is None else f"{name}({action.expr})"
    if isinstance(action, PrintES):
        return f"printes({', '.join(_items(action))})"
    if isinstance(action, Average):
        return f"average {_label(action.label)}{action.expr}"
    if isinstance(action, Frequency):
        return f"frequency {_label(action.label)}({action.expr}, {action.low}, {action.high})"
    if isinstance(action, Frequency2D):
        return (
            f"frequency {_label(action.label)}({action.expr}, {action.low}, {action.high}, "
            f"{action.expr2}, {action.low2}, {action.high2})"
        )
    raise CroupierError(f"cannot write the action {action!r} as dealer text")


def _items(action: PrintES) -> list[str]:
    """The items of a ``printes`` action as dealer text (``\\n`` bare, strings quoted)."""
    return [
        "\\n" if item == "\n" else _string(item) if isinstance(item, str) else str(item)
        for item in action.items
    ]


def _holding(cards: tuple[Card, ...]) -> str:
    """Cards as dealer's holdings: ``SAKT, HQ2`` (suits in S H D C order, ranks as given)."""
    parts = []
    for suit in SUITS:
        ranks = "".join(c.code[:-1] for c in cards if c.code[-1] == suit)
        if ranks:
            parts.append(f"{suit}{ranks}")
    return ", ".join(parts)


def _predeal(item: PredealCards | PredealLength) -> str:
    if isinstance(item, PredealCards):
        return f"predeal {SEAT_WORDS[item.seat]} {_holding(item.cards)}"
    return f"predeal {SUIT_WORDS[item.suit]}({SEAT_WORDS[item.seat]})=={item.length}"


def format_script(script: Script) -> str:
    """The whole script as dealer text, one statement per line (ends with a line end).

    >>> from croupier.simulate import parse_script
    >>> s = parse_script('''
    ... vulnerable ns  dealer east  predeal north SAKT, HQ2  predeal spades(west)==1
    ... pointcount 3 2 1  strong = hcp(north) >= 9
    ... strong action printes("n: ", hcp(north), \\\\n), print(north, west)''')
    >>> print(format_script(s), end="")
    dealer east
    vulnerable NS
    predeal north SAKT, HQ2
    predeal spades(west)==1
    pointcount 3 2 1
    strong = hcp(north) >= 9
    condition strong
    action printes("n: ", hcp(north), \\n), print(north, west)
    >>> parse_script(format_script(s)) == s
    True
    """
    lines: list[str] = []
    if script.generate is not None:
        lines.append(f"generate {script.generate}")
    if script.produce is not None:
        lines.append(f"produce {script.produce}")
    if script.dealer is not None:
        lines.append(f"dealer {SEAT_WORDS[script.dealer]}")
    if script.vulnerable is not None:
        lines.append(f"vulnerable {Vulnerability(script.vulnerable).dealer_word}")
    lines.extend(_predeal(item) for item in script.predeal)
    lines.extend(_predeal(item) for item in script.predeal_lengths)
    if script.pointcount is not None:
        lines.append(" ".join(["pointcount", *map(str, script.pointcount)]))
    for number, scale in sorted(script.altcount.items()):
        lines.append(" ".join(["altcount", str(number), *map(str, scale)]))
    for name, definition in script.definitions.items():
        lines.append(f"{name} = {definition.expr}")
    if script.condition is not None:
        lines.append(f"condition {script.condition}")
    if script.actions is not None:
        actions = ", ".join(format_action(a) for a in script.actions)
        lines.append(f"action {actions}".rstrip())
    return "".join(line + "\n" for line in lines)
