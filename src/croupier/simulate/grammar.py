"""The grammar of dealer's input language, for lark's LALR(1) parser.

The terminals reproduce dealer's flex scanner: keywords are lower case (the
vulnerabilities ``NS`` and ``EW`` also upper case) and are reserved; where
two token kinds could match, the longer text wins and, for equal lengths, the
keyword or card-like token beats a name (``AS`` is a card, ``SAK`` a holding,
``x3N`` a contract, ``5xxx`` a shape, ``xxxxy`` a name).  A negative
lookahead ``(?![A-Za-z0-9_])`` after each such token gives exactly that
rule, since a name would otherwise continue.

The rules reproduce dealer's bison grammar; operator precedence is C's
(``?:`` lowest and right-associative, then ``||``, ``&&``, ``== !=``,
``< <= > >=``, ``+ -``, ``* / %``, then ``!``), as dealer's own test script
of operator order shows.  Where dealer's grammar is ambiguous (a script is a
sequence of statements and a bare expression is a condition, so ``a - 1``
could also be ``a`` followed by ``-1``), the LALR parser shifts, as bison
does: ``a - 1`` is one subtraction.

>>> "predeal_cards" in GRAMMAR and "shape_item" in GRAMMAR
True
"""

from __future__ import annotations

__all__ = ["GRAMMAR", "KEYWORDS"]

_END = r"(?![A-Za-z0-9_])"


def _words(*words: str) -> str:
    return "/(?:" + "|".join(words) + ")" + _END + "/"


KEYWORDS: dict[str, tuple[str, ...]] = {
    "GENERATE": ("generate",),
    "PRODUCE": ("produce",),
    "DEALER": ("dealer",),
    "VULNERABLE": ("vulnerable",),
    "PREDEAL": ("predeal",),
    "POINTCOUNT": ("pointcount",),
    "ALTCOUNT": ("altcount",),
    "CONDITION": ("condition",),
    "ACTION": ("action",),
    "PRINTALL": ("printall",),
    "PRINTEW": ("printew",),
    "PRINTPBN": ("printpbn",),
    "PRINTCOMPACT": ("printcompact",),
    "PRINTONELINE": ("printoneline",),
    "PRINTES": ("printes",),
    "PRINT": ("print",),
    "EVALCONTRACT": ("evalcontract",),
    "AVERAGE": ("average",),
    "FREQUENCY": ("frequency",),
    "VUL": ("nv", "vul"),
    "VULNERABILITY": ("ns", "NS", "ew", "EW", "all", "none"),
    "SEAT": ("north", "east", "south", "west"),
    "SUIT": ("clubs?", "diamonds?", "hearts?", "spades?"),
    "NOTRUMP": ("notrumps?",),
    "HAND_FN": (
        "hcps?",
        "pt[0-9]",
        "tens?",
        "jacks?",
        "queens?",
        "kings?",
        "aces?",
        "top[2-5]",
        "c13",
        "losers?",
        "controls?",
    ),
    "CCCC": ("cccc",),
    "QUALITY": ("quality",),
    "TRICKS": ("tricks?",),
    "SCORE": ("score",),
    "IMPS": ("imps?",),
    "HASCARD": ("hascard",),
    "SHAPE": ("shape",),
    "ANY": ("any",),
    "RND": ("rnd",),
    "AND_WORD": ("and",),
    "OR_WORD": ("or",),
    "NOT_WORD": ("not",),
}
"""Keyword terminals and the words (regular expressions) each stands for."""

_KEYWORD_TERMINALS = "\n".join(f"{name}.5: {_words(*words)}" for name, words in KEYWORDS.items())

GRAMMAR = (
    r"""
start: _statement*

_statement: generate | produce | dealer | vulnerable | predeal | pointcount
          | altcount | condition | definition | action_statement | bare_condition

generate: GENERATE number
produce: PRODUCE number
dealer: DEALER SEAT
vulnerable: VULNERABLE VULNERABILITY
predeal: PREDEAL _predeal_item+
_predeal_item: predeal_cards | predeal_length
predeal_cards: SEAT HOLDING ("," HOLDING)*
predeal_length: SUIT "(" SEAT ")" "==" NUMBER
pointcount: POINTCOUNT number*
altcount: ALTCOUNT number number*
condition: CONDITION expr
bare_condition: expr
definition: IDENT "=" expr
action_statement: ACTION (_action ("," _action)* ","?)?

_action: printall | printew | printpbn | print | printcompact | printoneline
       | printes | average | frequency | evalcontract
evalcontract: EVALCONTRACT
printall: PRINTALL
printew: PRINTEW
printpbn: PRINTPBN
print: PRINT "(" SEAT ("," SEAT)* ")"
printcompact: PRINTCOMPACT ("(" expr ")")?
printoneline: PRINTONELINE ("(" expr ")")?
printes: PRINTES "(" _printes_item ("," _printes_item)* ")"
_printes_item: expr | string
average: AVERAGE string? expr
frequency: FREQUENCY string? "(" expr "," number "," number ("," expr "," number "," number)? ")"
string: STRING | LINE_END

?expr: ternary
?ternary: or_expr
        | or_expr "?" expr ":" ternary -> conditional
?or_expr: and_expr
        | or_expr ("||" | OR_WORD) and_expr -> or_
?and_expr: eq_expr
         | and_expr ("&&" | AND_WORD) eq_expr -> and_
?eq_expr: rel_expr
        | eq_expr "==" rel_expr -> eq
        | eq_expr "!=" rel_expr -> ne
?rel_expr: add_expr
         | rel_expr "<" add_expr -> lt
         | rel_expr "<=" add_expr -> le
         | rel_expr ">" add_expr -> gt
         | rel_expr ">=" add_expr -> ge
?add_expr: mul_expr
         | add_expr "+" mul_expr -> add
         | add_expr "-" mul_expr -> sub
?mul_expr: unary
         | mul_expr "*" unary -> mul
         | mul_expr "/" unary -> div
         | mul_expr "%" unary -> mod
?unary: atom
      | ("!" | NOT_WORD) unary -> not_
?atom: number
     | IDENT -> name
     | SUIT "(" SEAT ")" -> length
     | HAND_FN "(" SEAT ("," SUIT)? ")" -> hand_fn
     | CCCC "(" SEAT ")" -> cccc
     | QUALITY "(" SEAT "," SUIT ")" -> quality
     | SHAPE "(" SEAT "," shape_item+ ")" -> shape
     | HASCARD "(" SEAT "," CARD ")" -> hascard
     | TRICKS "(" SEAT "," (SUIT | NOTRUMP) ")" -> tricks
     | SCORE "(" VUL "," CONTRACT "," expr ")" -> score
     | IMPS "(" expr ")" -> imps
     | RND "(" expr ")" -> rnd
     | "(" expr ")"
number: NUMBER | DISTR_OR_NUMBER | negative
negative: "-" (NUMBER | DISTR_OR_NUMBER)

shape_item: shape_sign? ANY? (DISTR | DISTR_OR_NUMBER)
shape_sign: "+" -> plus_sign
          | "-" -> minus_sign
          | "," -> comma_sign

"""
    + _KEYWORD_TERMINALS
    + r"""
HOLDING.4: /[CDHS]A?K?Q?J?T?9?8?7?6?5?4?3?2?(?![A-Za-z0-9_])/
CARD.4: /[2-9][CDHS]|[TJQKA][CDHS](?![A-Za-z0-9_])/
CONTRACT.4: /x[1-7][CDHSN](?![A-Za-z0-9_])/
DISTR.4: /[0-9](?=[0-9]{0,2}x)[0-9x]{3}|x[0-9x]{3}(?![A-Za-z0-9_])/
DISTR_OR_NUMBER.4: /[0-9]{4}(?![0-9])/
NUMBER.3: /[0-9]+/
IDENT.2: /[A-Za-z][A-Za-z0-9_]*/
STRING.2: /"[^"]*"/
LINE_END.2: /\\n/

LINE_COMMENT.9: /\/\/[^\n]*/
BLOCK_COMMENT.9: /\/\*(?:[^*]|\*+[^*\/])*\*+\//
HASH_COMMENT.9: /(?<![^\n])#[^\n]*/
SPACE.9: /[ \t]+|\r*\n/
%ignore LINE_COMMENT
%ignore BLOCK_COMMENT
%ignore HASH_COMMENT
%ignore SPACE
"""
)
"""The lark grammar (LALR(1), basic lexer) of a dealer script; ``start`` is a whole script."""
