"""Invariants every game state must satisfy, checked at step boundaries (OpenSpiel style).

Each check returns plain sentences; a long run records them in GameResult.violations and never
raises. Messages name the broken rule, not the seat or turn, so the harness can count how many
games broke the same way.
"""

from __future__ import annotations

import json

from pnp.engine.core import OVER, PREGAME, Context, GameMeta, State

MODES = ("all", "sample", "none")
#: in 'sample' mode one step in this many is checked in full (which ones depends on the seed)
SAMPLE_EVERY = 32
#: ... and one sampled step in this many also checks the JSON round trip
ROUNDTRIP_EVERY = 4
#: in 'sample' mode one game in this many is replayed from its log (chosen by the seed)
REPLAY_EVERY = 64


def check_state(state: State, meta: GameMeta) -> list[str]:
    """Stats within bounds, one pawn per non-start space, each owned space owned once."""
    out: list[str] = []
    bounds = meta.stat_bounds
    for p in state.players:
        stats = p.stats
        if stats.keys() != bounds.keys():
            out.append("a player's stats do not match the game's stats")
        for stat, (lo, hi) in bounds.items():
            value = stats.get(stat, 0)
            if value < lo:
                out.append(f"{stat} is {'negative' if lo == 0 else 'below its minimum'} "
                           f"(minimum {lo})")
            elif hi is not None and value > hi:
                out.append(f"{stat} is above its cap ({hi})")
    starts = meta.track_starts
    lengths = meta.track_lengths
    taken: set[tuple[str, int]] = set()
    for p in state.players:
        if p.out:
            continue
        for track, space in p.pos.items():
            if space == starts.get(track):
                continue
            if (track, space) in taken:
                out.append(f"two pawns share a non-start space on the {track} track")
            taken.add((track, space))
            if not 0 <= space < lengths.get(track, space + 1):
                out.append(f"a pawn is off the {track} track")
    owned_by: dict[str, int] = {}
    for seat, p in enumerate(state.players):
        for key in p.owned:
            if key in owned_by:
                out.append(f"{key} is owned twice")
            owned_by[key] = seat
    if owned_by != state.owners:
        out.append("the owners on the board do not match what the players own")
    for key in state.owners:
        track, _, _ = key.partition("/")
        if track not in state.markers:
            out.append(f"owned space {key} is on a track without markers")
    for track, marks in state.markers.items():
        if len(set(marks)) != len(marks):
            out.append(f"a space on the {track} track is marked twice")
    if state.stage == OVER:
        live_seats = {i for i, p in enumerate(state.players) if not p.out}
        if not set(state.winners) <= live_seats:
            out.append("a winner is not a player still in the game")
    return out


def check_copy(state: State) -> list[str]:
    """A copy equals its original and shares no list or dict with it."""
    c = state.copy()
    out = []
    if c != state:
        out.append("a copy of the state differs from its original")
    shared = (c.markers is state.markers or c.owners is state.owners
              or c.winners is state.winners or c.players is state.players
              or any(c.markers[k] is v for k, v in state.markers.items()))
    for a, b in zip(state.players, c.players, strict=True):
        shared = shared or a is b or a.stats is b.stats or a.pos is b.pos \
            or a.powers is b.powers or a.owned is b.owned
    if shared:
        out.append("a copy of the state shares data with its original")
    return out


def check_roundtrip(state: State) -> list[str]:
    """Serialising to JSON text and back gives an equal state."""
    back = State.from_json(json.loads(json.dumps(state.to_json())))
    return [] if back == state else ["serialize then deserialize changes the state"]


class StepChecker:
    """The step hook of a self-played game: phase order always, full checks every or sampled."""

    def __init__(self, meta: GameMeta, mode: str, seed: int, state: State):
        if mode not in MODES:
            raise ValueError(f"invariants must be one of {', '.join(MODES)}, not {mode!r}")
        self.meta = meta
        self.mode = mode
        self.offset = seed % SAMPLE_EVERY
        phases = meta.phases
        #: label -> the label due next ("pregame" is followed by the first phase)
        self.after = {"pregame": phases[0] if phases else ""}
        for i, ph in enumerate(phases):
            self.after[ph] = phases[(i + 1) % len(phases)]
        self.first = phases[0] if phases else ""
        self.expect = "pregame" if state.stage == PREGAME else phases[state.phase]
        self.turn = state.turn

    def __call__(self, ctx: Context, label: str) -> None:
        st = ctx.state
        if label != self.expect:
            ctx.violate(f"phases out of order: {label} came where {self.expect} was due")
        nxt = self.after.get(label, self.first)
        if label == "pregame":
            if st.turn != 1:
                ctx.violate("the first turn after the pregame is not turn 1")
        elif nxt == self.first and st.stage != OVER and st.turn != self.turn + 1:
            ctx.violate("the turn number did not advance by one after the last phase")
        self.turn = st.turn
        self.expect = nxt
        mode = self.mode
        if mode == "none":
            return
        k = ctx.steps + self.offset
        if mode == "sample" and k % SAMPLE_EVERY:
            return
        deep = mode == "all" or k % (SAMPLE_EVERY * ROUNDTRIP_EVERY) == 0
        for message in full_check(st, self.meta, label, deep):
            ctx.violate(message)


def full_check(state: State, meta: GameMeta, label: str = "", deep: bool = True) -> list[str]:
    """Every state invariant at once (`deep=False` skips the JSON round trip, the costly one)."""
    out = check_state(state, meta) + check_copy(state)
    if deep:
        out += check_roundtrip(state)
    if label == (meta.phases[-1] if meta.phases else "") and any(p.powers for p in state.players):
        out.append("powers of the turn outlived the End Phase")
    return out
