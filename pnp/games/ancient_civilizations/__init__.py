"""Ancient Civilizations: the rulebook as straight-line procedures over the GameDef.

Every number (caps, costs, thresholds, chart rows, war parameters, the setup bonus, the turn cap)
comes from the data; every ambiguity follows game.yaml's `interpretations:` (the reading each
procedure follows is named in its docstring), and each variant's override changes what runs.
Dice go through `ctx.roll`, decisions through `ctx.choose`; nothing here draws randomness.

The rules were one module of 1,900 lines; they are a package so that each concern can be read
(and reviewed) beside its chapter of the rulebook, and the greedy bot's heuristics apart from the
rules they steer:

- here: the rules module protocol (metadata, bot_hints, new_state, main_state, play, finish,
  player_counters, coverage_keys; invariants and the scenario hooks are imported below);
- common.py: decision labels, rule lookups and the arithmetic of estimates over dice;
- tables.py: each track, chart and phase compiled; rules.py: `Rules`, every table of one
  GameDef, built once (`rules_for`, the api's per_definition);
- game.py: `ACGame`, one game being played, and its turn loop, made of one part per concern:
  pregame.py (setup, Pre-History), movement.py (moves and spaces), dice.py (rolls and charts),
  powers.py (leader and wonder powers), war.py (wars and their odds), trade.py (conversions,
  purchases, trades), ending.py (checks, eliminations, the end);
- hints.py: the greedy bot's values, estimates, reserves and danger floors;
- scenarios.py: what a scenario may set and expect; invariant_checks.py: this game's own
  invariants.

Only pnp.engine.api is imported from the engine.
"""

from __future__ import annotations

from pnp.engine.api import TIMEOUT, BotHints, Context, GameDef, GameMeta, PlayerState, State

from .common import ENGINE, MissingRule
from .ending import final_stats
from .game import ACGame
from .hints import greedy_hints
from .invariant_checks import invariants
from .rules import Rules, rules_for
from .scenarios import check_scenario, scenario_fields

__all__ = [
    "ENGINE", "ACGame", "MissingRule", "Rules", "bot_hints", "check_scenario", "coverage_keys",
    "finish", "invariants", "main_state", "metadata", "new_state", "play", "player_counters",
    "rules_for", "scenario_fields",
]

#: `play` goes on from a state saved at any step boundary exactly as it went on from there
#: (all it carries from phase to phase is in the state), so search bots replay from the last
#: step instead of the game's start (pnp/engine/search.py; tests/test_resume_at_steps.py)
RESUMES_AT_STEPS = True


def metadata(game: GameDef) -> GameMeta:
    """What the game declares (one object per definition, so bots can share their tables)."""
    r = rules_for(game)
    if r.metadata is None:
        r.metadata = r.meta()
    return r.metadata


def bot_hints(game: GameDef) -> BotHints:
    """The greedy bot's danger floors and pregame offsets (one object per definition, like
    the metadata, so bots share their digests)."""
    r = rules_for(game)
    if r.bot_hints is None:
        r.bot_hints = greedy_hints(r)
    return r.bot_hints


def new_state(game: GameDef, players: int) -> State:
    """Before the pregame: every stat at its start value, one pawn on the Pre-History start."""
    r = rules_for(game)
    stats = {s: game.stats[s].start for s in r.stat_ids}
    pos = {r.pregame_track: r.tracks[r.pregame_track].start} if r.pregame_track else {}
    markers: dict[str, list[int]] = {t: [] for t in r.markers_on}
    return State([PlayerState(dict(stats), dict(pos), vars={"powers": [], "owned": [], "leader": ""})
                  for _ in range(players)], markers)


def main_state(game: GameDef, players: int) -> State:
    """The state right after setup, the pregame skipped (scenarios start from here)."""
    state = new_state(game, players)
    ACGame(rules_for(game), None, state).setup()
    return state


def play(game: GameDef, ctx: Context, max_turns: int | None = None) -> None:
    """Play from ctx.state until the game ends or the turn cap is reached."""
    r = rules_for(game)
    ACGame(r, ctx, ctx.state).play(r.max_turns if max_turns is None else max_turns)


def finish(game: GameDef, ctx: Context) -> None:
    """Fill the GameResult from the final state."""
    r = rules_for(game)
    st = ctx.state
    res = ctx.result
    res.turns = st.turn
    res.ended = st.ended or TIMEOUT
    res.winners = tuple(st.winners)
    res.scores = tuple(p.counters.get(r.score_stat, 0) for p in st.players)
    if res.winners:
        top = res.scores[res.winners[0]]
        # an eliminated player has lost outright: the margin is over the players still in
        rest = [s for i, s in enumerate(res.scores)
                if i not in res.winners and not st.players[i].out]
        res.margin = 0 if len(res.winners) > 1 or not rest else top - max(rest)
    res.final_stats = [final_stats(r, p) for p in st.players]
    res.rolls = ctx.rolls
    res.decisions = ctx.decisions


def player_counters(game: GameDef, p: PlayerState) -> dict[str, int]:
    """A player's counters as the record page shows them (derived ones included)."""
    return final_stats(rules_for(game), p)


def coverage_keys(game: GameDef) -> dict[str, list[str]]:
    """Nothing beyond the track spaces and chart rows the report already covers (the chart
    cards are references to hold, not cards that are played)."""
    return {}
