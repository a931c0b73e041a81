"""The effect grammar: the short strings on track spaces and chart results, as a small AST.

Rulebooks write effects like ``F+2 M+1``, ``R+5 | W+1`` or ``reroll(1) this turn``. This module
parses them into positioned AST nodes, collecting diagnostics instead of raising, and formats an
AST back to one canonical text. The grammar, with examples, is in docs/effects.md.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field

from pnp.data.limits import MAX_DICE, MAX_DIGITS, MAX_SIDES, dice_in_limits
from pnp.diagnostics import ERROR, Diagnostic, Position

# Diagnostic codes.
SYNTAX_ERROR = "PNP-E001"
UNKNOWN_STAT = "PNP-E002"
UNKNOWN_CHART = "PNP-E003"
UNKNOWN_ABILITY = "PNP-E004"
BAD_ABILITY_ARGS = "PNP-E005"
UNKNOWN_FORMULA = "PNP-E006"
BAD_DICE = "PNP-E008"  # dice past the limits (pnp/data/limits.py)

# Effect.timing values.
PER_TURN = "per_turn"
THIS_TURN = "this_turn"

_TIMING_WORDS = {"per": PER_TURN, "this": THIS_TURN}
_TIMING_TEXT = {PER_TURN: "per turn", THIS_TURN: "this turn"}
KEYWORDS = frozenset({"and", "roll", "per", "this", "turn"})

# Hints: the shape that was expected, so the fix is obvious without opening the docs.
_HINT_EFFECT = (
    "an effect is items such as F+2, M-1D6+1, roll conquest or reroll(1), optionally joined "
    "by 'and'; '|' separates alternatives; an optional 'per turn'/'this turn' ends it"
)
_HINT_DELTA = "a stat change is STAT SIGN AMOUNT, e.g. F+2, Food -1D6, Military +1D6-3, F+provinces"
_HINT_DICE = "dice are [N]D<sides> with N and sides at least 1, e.g. D6, 1D6, 2D6-1"
_HINT_ROLL = "a chart roll is 'roll CHART', e.g. roll conquest"
_HINT_ABILITY = "an ability is NAME(arg, ...) with names or whole numbers, e.g. reroll(1)"
_HINT_TIMING = "timing is 'per turn' or 'this turn', written once at the very end"


# --------------------------------------------------------------------------- AST


@dataclass(frozen=True, slots=True)
class Amount:
    """How much a stat changes: ``const + sign(dice) * |dice|D<sides>``, or a named formula.

    ``+1D6-3`` is dice=1, sides=6, const=-3; ``-1D6`` is dice=-1, sides=6. A formula amount has
    only ``formula`` (its id) and ``formula_sign`` (+1 or -1); the other fields stay 0.
    """

    const: int = 0
    dice: int = 0
    sides: int = 0
    formula: str | None = None
    formula_sign: int = 1

    def __str__(self) -> str:
        return format_amount(self)


@dataclass(frozen=True, slots=True)
class Delta:
    """A stat changes by an amount (``F+2``); ``stat`` is the resolved stat id."""

    stat: str
    amount: Amount
    pos: Position | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class ChartRoll:
    """Roll on a named chart (``roll conquest``); ``chart`` is the resolved chart id."""

    chart: str
    pos: Position | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Ability:
    """A special ability call (``reroll(1)``); stat and track arguments are resolved to ids."""

    name: str
    args: tuple[str | int, ...]
    pos: Position | None = field(default=None, compare=False)


Item = Delta | ChartRoll | Ability


@dataclass(frozen=True, slots=True)
class Effect:
    """A whole effect string: alternatives (one inner tuple = no choice; () = no effect).

    ``timing`` (None, 'per_turn' or 'this_turn') applies to the whole effect, every alternative.
    """

    choices: tuple[tuple[Item, ...], ...]
    timing: str | None = None
    pos: Position | None = field(default=None, compare=False)
    source: str = field(default="", compare=False)

    def __str__(self) -> str:
        """The effect as written (its source), e.g. on a card face."""
        return self.source

    @property
    def is_empty(self) -> bool:
        return not self.choices

    @property
    def is_choice(self) -> bool:
        """True when the player picks one of several alternatives."""
        return len(self.choices) > 1

    def items(self) -> Iterator[Item]:
        """Every item of every alternative, in text order."""
        for seq in self.choices:
            yield from seq


# --------------------------------------------------------------------------- abilities


@dataclass(frozen=True, slots=True)
class Param:
    """One ability parameter. kind: 'int', 'stat' or 'track'; many: takes one or more args."""

    name: str
    kind: str
    many: bool = False


@dataclass(frozen=True, slots=True)
class AbilitySpec:
    """A known ability and its parameters (at most one may be `many`)."""

    name: str
    params: tuple[Param, ...]
    doc: str = ""

    @property
    def signature(self) -> str:
        """Human-readable shape, e.g. ``exchange(give: stat..., receive: stat)``."""
        parts = [f"{p.name}: {p.kind}{'...' if p.many else ''}" for p in self.params]
        return f"{self.name}({', '.join(parts)})"

    def kinds_for(self, count: int) -> tuple[str, ...] | None:
        """The kind of each of `count` arguments, or None when `count` is not accepted."""
        kinds = [p.kind for p in self.params]
        many = next((i for i, p in enumerate(self.params) if p.many), None)
        if many is None:
            return tuple(kinds) if count == len(kinds) else None
        extra = count - len(kinds)
        if extra < 0:
            return None
        return tuple(kinds[:many] + [kinds[many]] * (extra + 1) + kinds[many + 1 :])

    def count_text(self) -> str:
        n = len(self.params)
        if any(p.many for p in self.params):
            return f"at least {n} argument{'s' if n > 1 else ''}"
        return f"{n} argument{'s' if n > 1 else ''}"


ABILITIES: dict[str, AbilitySpec] = {
    spec.name: spec
    for spec in (
        AbilitySpec("reroll", (Param("count", "int"),), "reroll up to `count` dice"),
        AbilitySpec("adjust", (Param("amount", "int"),), "move one die result by up to `amount`"),
        AbilitySpec(
            "extra_roll", (Param("tracks", "track", many=True),), "roll again on these tracks"
        ),
        AbilitySpec(
            "exchange",
            (Param("give", "stat", many=True), Param("receive", "stat")),
            "trade any of the `give` stats for the last stat, 1:1",
        ),
        AbilitySpec(
            "steal",
            (Param("stat", "stat"), Param("count", "int")),
            "take `count` of `stat` from one opponent",
        ),
    )
}


# --------------------------------------------------------------------------- names


@dataclass
class Names:
    """Every accepted spelling, lower-cased, mapped to its id; `display` keeps original case.

    Built from the game data by the loader; the parser only reads it.
    """

    stats: dict[str, str] = field(default_factory=dict)
    charts: dict[str, str] = field(default_factory=dict)
    tracks: dict[str, str] = field(default_factory=dict)
    formulas: dict[str, str] = field(default_factory=dict)
    display: dict[str, str] = field(default_factory=dict)

    @classmethod
    def create(
        cls,
        stats: Mapping[str, Iterable[str]] | None = None,
        charts: Mapping[str, Iterable[str]] | None = None,
        tracks: Mapping[str, Iterable[str]] | None = None,
        formulas: Mapping[str, Iterable[str]] | None = None,
    ) -> Names:
        """Names from ``{id: [other spellings]}`` maps; each id is also a spelling of itself.

        Ids win over aliases, then the first claim wins: reporting clashes is the lint's job.
        `display` prefers a name ('Food') over an id that differs only in case ('food').
        """
        names = cls()
        for table, source in (
            (names.stats, stats),
            (names.charts, charts),
            (names.tracks, tracks),
            (names.formulas, formulas),
        ):
            spelled = {ident: list(spellings) for ident, spellings in (source or {}).items()}
            # Ids first, so another id's alias can never hide an id (formatted text uses ids).
            for ident in spelled:
                table.setdefault(ident.lower(), ident)
            for ident, spellings in spelled.items():
                for spelling in spellings:
                    table.setdefault(spelling.lower(), ident)
                    names.display.setdefault(spelling.lower(), spelling)
            for ident in spelled:
                names.display.setdefault(ident.lower(), ident)
        return names

    def shown(self, key: str) -> str:
        """The original spelling of a lower-cased key, for messages."""
        return self.display.get(key, key)


# --------------------------------------------------------------------------- tokenizer

_TOKEN_RE = re.compile(
    r"""
    \s*(?:
     (?P<dice>[0-9]*[dD][0-9]+)
    |(?P<num>[0-9]+)
    |(?P<word>[A-Za-z][A-Za-z_]*(?:-(?![dD][0-9])[A-Za-z][A-Za-z_]*)*)
    |(?P<sign>[-+\u2212])
    |(?P<punct>[|(),])
    |(?P<bad>\S)
    )
    """,
    re.VERBOSE | re.DOTALL,
)

_MAX_DIGITS = MAX_DIGITS
_NO_EFFECT_TEXT = frozenset({"", "-", "\u2212"})

# A token is (kind, text, offset); kind is 'word', 'num', 'dice', 'bad', 'end', or the
# punctuation itself: '+', '-' (also for U+2212), '|', '(', ')', ','.
_Token = tuple[str, str, int]


def _tokenize(text: str) -> list[_Token]:
    """Tokens then two 'end' sentinels, so the parser may look one token past the end."""
    tokens: list[_Token] = []
    append = tokens.append
    for m in _TOKEN_RE.finditer(text):
        group = m.lastgroup
        value = m[group]
        kind = group
        if kind == "sign":
            kind = "+" if value == "+" else "-"
        elif kind == "punct":
            kind = value
        append((kind, value, m.start(group)))  # type: ignore[arg-type]
    end = ("end", "", len(text))
    tokens += (end, end)
    return tokens


def _split_unknown_hyphens(tokens: list[_Token], names: Names) -> list[_Token]:
    """'F-provinces' is F minus provinces, but 'civil-war' is a chart: keep hyphens only in known names."""
    if not any(kind == "word" and "-" in value for kind, value, _ in tokens):
        return tokens
    known = (names.stats, names.charts, names.tracks, names.formulas)
    out: list[_Token] = []
    for kind, value, offset in tokens:
        if kind != "word" or "-" not in value or any(value.lower() in t for t in known):
            out.append((kind, value, offset))
            continue
        for i, part in enumerate(value.split("-")):
            if i:
                out.append(("-", "-", offset))
                offset += 1
            out.append(("word", part, offset))
            offset += len(part)
    return out


def _describe(token: _Token) -> str:
    """How a token is named in 'found ...' (long ones shortened, the message stays readable)."""
    kind, value, _ = token
    if len(value) > 24:
        value = value[:20] + "..."
    if kind == "end":
        return "end of text"
    if kind == "num":
        return f"number {value}"
    if kind == "dice":
        return f"dice '{value}'"
    if kind == "bad":
        return f"unexpected character {value!r}"
    return f"'{value}'"


# --------------------------------------------------------------------------- parser


class _Stop(Exception):
    """Unwinds the parser after a syntax error (already recorded as a diagnostic)."""


class _Parser:
    """Recursive descent over the token list; semantic errors are collected, syntax stops."""

    __slots__ = ("tokens", "i", "pos", "names", "diags")

    def __init__(self, text: str, pos: Position | None, names: Names):
        self.tokens = _split_unknown_hyphens(_tokenize(text), names)
        self.i = 0
        self.pos = pos
        self.names = names
        self.diags: list[Diagnostic] = []

    # helpers

    def at(self, offset: int) -> Position | None:
        return None if self.pos is None else self.pos.shifted(offset)

    def error(self, token: _Token, code: str, message: str, hint: str = "") -> None:
        self.diags.append(Diagnostic.at(self.at(token[2]), ERROR, code, message, hint))

    def syntax(self, expected: str, hint: str) -> _Stop:
        token = self.tokens[self.i]
        self.error(token, SYNTAX_ERROR, f"expected {expected}, found {_describe(token)}", hint)
        return _Stop()

    def small(self, token: _Token) -> None:
        """Stop on absurdly long numbers (int() refuses > 4300 digits; no game needs > 9)."""
        text = token[1]
        if len(text) > _MAX_DIGITS and sum(c.isdigit() for c in text) > _MAX_DIGITS:
            raise self.syntax(f"a number of at most {_MAX_DIGITS} digits", _HINT_EFFECT)

    def kind(self, ahead: int = 0) -> str:
        return self.tokens[self.i + ahead][0]

    def lookup(
        self, table: dict[str, str], token: _Token, code: str, what: str, hint: str = ""
    ) -> str:
        """The id for a name token, or an error with did-you-mean (returns the raw text)."""
        ident = table.get(token[1].lower())
        if ident is not None:
            return ident
        self.error(
            token, code, f"unknown {what} '{token[1]}'{_suggest(token[1], table, self.names)}", hint
        )
        return token[1]

    # grammar

    def effect(self) -> tuple[tuple[tuple[Item, ...], ...], str | None]:
        choices = [self.seq()]
        while self.kind() == "|":
            self.i += 1
            choices.append(self.seq())
        timing = self.timing()
        if self.kind() != "end":
            if timing is not None:
                raise self.syntax("end of text after the timing", _HINT_TIMING)
            raise self.syntax("another item, '|', 'per turn', 'this turn' or end", _HINT_EFFECT)
        return tuple(choices), timing

    def seq(self) -> tuple[Item, ...]:
        items = [self.item()]
        tokens = self.tokens
        while True:
            kind, value, _ = tokens[self.i]
            if kind != "word":
                # '|' and end are handled by the caller; anything else is reported there.
                return tuple(items)
            low = value.lower()
            if low == "and":
                self.i += 1
                items.append(self.item())
            elif low in _TIMING_WORDS and self.kind(1) not in ("+", "-", "("):
                return tuple(items)
            else:
                items.append(self.item())

    def item(self) -> Item:
        token = self.tokens[self.i]
        if token[0] != "word":
            raise self.syntax("a stat change, 'roll CHART' or an ability", _HINT_EFFECT)
        after = self.kind(1)
        if after in ("+", "-"):
            return self.delta()
        if after == "(":
            return self.ability()
        low = token[1].lower()
        if low == "roll":
            return self.chart_roll()
        if low in KEYWORDS:
            raise self.syntax("a stat change, 'roll CHART' or an ability", _HINT_EFFECT)
        self.i += 1
        raise self.syntax(f"'+' or '-' after '{token[1]}'", _HINT_DELTA)

    def delta(self) -> Delta:
        stat_token = self.tokens[self.i]
        sign = 1 if self.tokens[self.i + 1][0] == "+" else -1
        self.i += 2
        stat = self.lookup(
            self.names.stats,
            stat_token,
            UNKNOWN_STAT,
            "stat",
            "stats are the ids, names, abbreviations and aliases under `stats:` in the game data",
        )
        return Delta(stat, self.amount(sign), self.at(stat_token[2]))

    def amount(self, sign: int) -> Amount:
        tokens = self.tokens
        kind, value, _ = token = tokens[self.i]
        if kind == "num":
            self.small(token)
            self.i += 1
            return Amount(sign * int(value))
        if kind == "dice":
            d = value.lower().index("d")
            count_text, sides_text = value[:d] or "1", value[d + 1 :]
            if not dice_in_limits(count_text, sides_text):  # before int(): digits may be many
                if int(count_text[:4]) == 0 or int(sides_text[:5]) == 0:
                    raise self.syntax("dice with at least one die and one side", _HINT_DICE)
                self.error(token, BAD_DICE, f"dice '{value[:20]}' are out of range",
                           f"roll 1 to {MAX_DICE} dice of 1 to {MAX_SIDES} sides")
                raise _Stop()
            count, sides = int(count_text), int(sides_text)
            self.i += 1
            const = 0
            if self.kind() in ("+", "-"):
                modifier_sign = 1 if self.kind() == "+" else -1
                self.i += 1
                if self.kind() != "num":
                    raise self.syntax("a whole number as the dice modifier", _HINT_DICE)
                self.small(tokens[self.i])
                const = modifier_sign * int(tokens[self.i][1])
                self.i += 1
            return Amount(const, sign * count, sides)
        if kind == "word":
            low = value.lower()
            if low not in KEYWORDS and (
                low in self.names.formulas or self.kind(1) not in ("+", "-")
            ):
                self.i += 1
                formula = self.lookup(
                    self.names.formulas,
                    token,
                    UNKNOWN_FORMULA,
                    "formula",
                    "formulas are defined under `formulas:` in the game data",
                )
                return Amount(formula=formula, formula_sign=sign)
        raise self.syntax("an amount (number, dice or formula)", _HINT_DELTA)

    def chart_roll(self) -> ChartRoll:
        roll_token = self.tokens[self.i]
        self.i += 1
        token = self.tokens[self.i]
        if token[0] != "word" or token[1].lower() in KEYWORDS:
            raise self.syntax("a chart name after 'roll'", _HINT_ROLL)
        self.i += 1
        chart = self.lookup(
            self.names.charts,
            token,
            UNKNOWN_CHART,
            "chart",
            "charts are defined under `charts:` in the game data",
        )
        return ChartRoll(chart, self.at(roll_token[2]))

    def ability(self) -> Ability:
        name_token = self.tokens[self.i]
        self.i += 2  # name and '('
        args: list[_Token] = []
        while True:
            token = self.tokens[self.i]
            if token[0] not in ("word", "num"):
                raise self.syntax(
                    f"an argument (a name or whole number) for {name_token[1]}()", _HINT_ABILITY
                )
            if token[0] == "num":
                self.small(token)
            args.append(token)
            self.i += 1
            kind = self.kind()
            if kind == ",":
                self.i += 1
            elif kind == ")":
                self.i += 1
                break
            else:
                raise self.syntax(f"',' or ')' in {name_token[1]}()", _HINT_ABILITY)
        spec = ABILITIES.get(name_token[1].lower())
        pos = self.at(name_token[2])
        if spec is None:
            self.error(
                name_token,
                UNKNOWN_ABILITY,
                f"unknown ability '{name_token[1]}'{_suggest(name_token[1], ABILITIES, None)}",
                "known abilities: " + ", ".join(s.signature for s in ABILITIES.values()),
            )
            return Ability(name_token[1], tuple(_raw_arg(t) for t in args), pos)
        return Ability(spec.name, self.ability_args(spec, name_token, args), pos)

    def ability_args(
        self, spec: AbilitySpec, name_token: _Token, args: list[_Token]
    ) -> tuple[str | int, ...]:
        kinds = spec.kinds_for(len(args))
        hint = f"usage: {spec.signature}"
        if kinds is None:
            self.error(
                name_token,
                BAD_ABILITY_ARGS,
                f"{spec.name}() takes {spec.count_text()}, found {len(args)}",
                hint,
            )
            return tuple(_raw_arg(t) for t in args)
        values: list[str | int] = []
        for n, (token, kind) in enumerate(zip(args, kinds, strict=True), 1):
            where = f"argument {n} of {spec.name}()"
            if kind == "int":
                if token[0] != "num":
                    self.error(
                        token,
                        BAD_ABILITY_ARGS,
                        f"{where} must be a whole number, found {_describe(token)}",
                        hint,
                    )
                values.append(_raw_arg(token))
                continue
            if token[0] != "word":
                self.error(
                    token,
                    BAD_ABILITY_ARGS,
                    f"{where} must be a {kind}, found {_describe(token)}",
                    hint,
                )
                values.append(_raw_arg(token))
                continue
            table = self.names.stats if kind == "stat" else self.names.tracks
            ident = table.get(token[1].lower())
            if ident is None:
                self.error(
                    token,
                    BAD_ABILITY_ARGS,
                    f"unknown {kind} '{token[1]}' as {where}"
                    f"{_suggest(token[1], table, self.names)}",
                    hint,
                )
                ident = token[1]
            values.append(ident)
        return tuple(values)

    def timing(self) -> str | None:
        kind, value, _ = self.tokens[self.i]
        if kind != "word":
            return None
        timing = _TIMING_WORDS.get(value.lower())
        if timing is None:
            return None
        self.i += 1
        kind, value, _ = self.tokens[self.i]
        if kind != "word" or value.lower() != "turn":
            raise self.syntax(f"'turn' after '{self.tokens[self.i - 1][1]}'", _HINT_TIMING)
        self.i += 1
        return timing


def _raw_arg(token: _Token) -> str | int:
    return int(token[1]) if token[0] == "num" else token[1]


def _suggest(word: str, table: Mapping[str, object], names: Names | None) -> str:
    """'; did you mean X or Y?' from the nearest accepted spellings (one per id), or ''."""
    matches = difflib.get_close_matches(word.lower(), list(table), n=6, cutoff=0.6)
    shown: list[str] = []
    seen: set[object] = set()
    for key in matches:
        target = table[key] if names is not None else key
        if target in seen:
            continue
        seen.add(target)
        shown.append(names.shown(key) if names is not None else key)
        if len(shown) == 3:
            break
    if not shown:
        return ""
    if len(shown) == 1:
        return f"; did you mean {shown[0]}?"
    return f"; did you mean {', '.join(shown[:-1])} or {shown[-1]}?"


# --------------------------------------------------------------------------- API


def parse_effect(
    text: str, pos: Position | None, names: Names
) -> tuple[Effect | None, list[Diagnostic]]:
    """Parse one effect string; `pos` is where the string's first character sits in the file.

    Returns (effect, []) or (None, errors): every unknown name is reported, parsing stops at the
    first syntax error. Never raises on any text.
    """
    if text is None:  # a YAML key with no value: treat like the empty string
        text = ""
    if not isinstance(text, str):
        message = f"expected effect text, found {type(text).__name__} {text!r}"
        return None, [Diagnostic.at(pos, ERROR, SYNTAX_ERROR, message, _HINT_EFFECT)]
    if text.strip() in _NO_EFFECT_TEXT:
        return Effect((), None, pos, text), []
    parser = _Parser(text, pos, names)
    try:
        choices, timing = parser.effect()
    except _Stop:  # the syntax error is already in parser.diags
        return None, parser.diags
    if parser.diags:
        return None, parser.diags
    return Effect(choices, timing, pos, text), []


class EffectCache:
    """`parse_effect` remembered by text, place and names, for the builds of one game's
    variants, which parse mostly the base game's texts at the same places (an Effect is
    immutable, so builds may share one; each gets its own copy of the diagnostics)."""

    def __init__(self) -> None:
        self._parsed: dict[tuple, tuple[Effect | None, list[Diagnostic]]] = {}
        self._names: tuple[Names, tuple] | None = None

    def parse(self, text: str, pos: Position | None, names: Names) -> tuple[
            Effect | None, list[Diagnostic]]:
        """What `parse_effect(text, pos, names)` returns."""
        if self._names is None or self._names[0] is not names:  # Names are read-only once made
            self._names = (names, tuple(tuple(d.items()) for d in (
                names.stats, names.charts, names.tracks, names.formulas, names.display)))
        key = (text, pos, self._names[1])
        found = self._parsed.get(key)
        if found is None:
            found = self._parsed[key] = parse_effect(text, pos, names)
        return found[0], list(found[1])


def format_amount(amount: Amount) -> str:
    """Canonical amount text with its leading sign: ``+2``, ``-1D6``, ``+2D6-1``, ``+provinces``."""
    if amount.formula is not None:
        return ("-" if amount.formula_sign < 0 else "+") + amount.formula
    if amount.dice:
        text = f"{'-' if amount.dice < 0 else '+'}{abs(amount.dice)}D{amount.sides}"
        return text + (f"{amount.const:+d}" if amount.const else "")
    return f"{amount.const:+d}"


def format_item(item: Item, abbreviations: Mapping[str, str] | None = None) -> str:
    """Canonical text of one item; stats shown by abbreviation when given, else by id."""
    abbr = abbreviations or {}
    if isinstance(item, Delta):
        return abbr.get(item.stat, item.stat) + format_amount(item.amount)
    if isinstance(item, ChartRoll):
        return f"roll {item.chart}"
    kinds = _arg_kinds(item)
    args = (
        abbr.get(arg, arg) if kind == "stat" and isinstance(arg, str) else str(arg)
        for arg, kind in zip(item.args, kinds, strict=True)
    )
    return f"{item.name}({', '.join(args)})"


def format_effect(effect: Effect, abbreviations: Mapping[str, str] | None = None) -> str:
    """Canonical text: single spaces, no 'and', ' | ' between alternatives, '-' for no effect.

    With `abbreviations` (stat id -> abbreviation) stats are written short, else as ids.
    """
    if not effect.choices:
        return "-"
    text = " | ".join(
        " ".join(format_item(item, abbreviations) for item in seq) for seq in effect.choices
    )
    if effect.timing is not None:
        text += " " + _TIMING_TEXT.get(effect.timing, effect.timing)
    return text


def _arg_kinds(ability: Ability) -> tuple[str, ...]:
    spec = ABILITIES.get(ability.name)
    kinds = spec.kinds_for(len(ability.args)) if spec is not None else None
    return kinds if kinds is not None else ("?",) * len(ability.args)


def _ability_args(effect: Effect, kind: str) -> Iterator[str]:
    for item in effect.items():
        if isinstance(item, Ability):
            for arg, arg_kind in zip(item.args, _arg_kinds(item), strict=True):
                if arg_kind == kind and isinstance(arg, str):
                    yield arg


def effect_stats(effect: Effect) -> set[str]:
    """Stat ids the effect uses, in deltas and ability arguments (for unused-stat checks)."""
    stats = {item.stat for item in effect.items() if isinstance(item, Delta)}
    stats.update(_ability_args(effect, "stat"))
    return stats


def effect_charts(effect: Effect) -> set[str]:
    """Chart ids the effect rolls on."""
    return {item.chart for item in effect.items() if isinstance(item, ChartRoll)}


def effect_tracks(effect: Effect) -> set[str]:
    """Track ids named by ability arguments."""
    return set(_ability_args(effect, "track"))


def effect_formulas(effect: Effect) -> set[str]:
    """Formula ids used as amounts."""
    return {
        item.amount.formula
        for item in effect.items()
        if isinstance(item, Delta) and item.amount.formula is not None
    }
