"""Scenario checks and fields: the powers, owned spaces and leader a scenario may set and
expect, checked before play."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pnp.engine.api import GameDef, ScenarioProblem, State, vars_problems

from .rules import rules_for

#: a scenario's space resolver: (reference, tracks to look on) -> 'track/space'
Keyed = Callable[[Any, Any], str]


def _set_powers(game: GameDef, state: State, seat: int, refs: list, keyed: Keyed) -> None:
    powers = rules_for(game).powers
    for ref in refs:
        key = keyed(ref, game.tracks)
        if key not in powers:
            raise ValueError(f"'{ref}' grants no power that lasts the turn")
        state.players[seat].vars["powers"].append(key)


def _set_owned(game: GameDef, state: State, seat: int, refs: list, keyed: Keyed) -> None:
    for ref in refs:
        key = keyed(ref, rules_for(game).owned_tracks)
        track, _, sid = key.partition("/")
        state.players[seat].vars["owned"].append(key)
        state.owners[key] = seat
        index = game.tracks[track].space(sid).index
        marks = state.markers.setdefault(track, [])
        if index not in marks:
            marks.append(index)


def _set_leader(game: GameDef, state: State, seat: int, value: Any, keyed: Keyed) -> None:
    state.players[seat].vars["leader"] = str(value)


def _space_key(game: GameDef, ref: Any, tracks: Any) -> str | None:
    """'track/space' for a scenario's 'space' or 'track/space' (id or name), or None."""
    ref = str(ref).lower()
    if "/" in ref:
        name, _, ref = ref.partition("/")
        tracks = [t.id for t in game.tracks.values()
                  if name in (t.id, t.name.lower(), *(a.lower() for a in t.aliases))]
    for tid in tracks:
        for s in game.tracks[tid].spaces:
            if ref in (s.id, s.name.lower()):
                return f"{tid}/{s.id}"
    return None


def check_scenario(game: GameDef, state: State, spec: dict) -> list[ScenarioProblem]:
    """A scenario's values before play: no vars (powers, owned spaces and the leader have their
    own keys); `powers` name spaces granting a power for the turn, `owned` spaces on a track
    with markers, owned by one seat, `leader` a space of the Leader track."""
    r = rules_for(game)
    hint = "set powers, owned and leader with their own keys"
    out = vars_problems(spec.get("vars"), {}, ("vars",), hint)
    owners: dict[str, int] = {}
    for j, ps in enumerate(spec.get("players") or []):
        out += vars_problems(ps.get("vars"), {}, ("players", j, "vars"), hint)
        for k, ref in enumerate(ps.get("powers") or []):
            key = _space_key(game, ref, game.tracks)
            if key is None or key not in r.powers:
                out.append(ScenarioProblem(("players", j, "powers", k), f"'{ref}' grants no "
                                           "power that lasts the turn",
                                           "powers: " + ", ".join(sorted(r.powers))))
        for k, ref in enumerate(ps.get("owned") or []):
            key = _space_key(game, ref, r.owned_tracks)
            path = ("players", j, "owned", k)
            if key is None:
                out.append(ScenarioProblem(path, f"no space '{ref}' to own on the tracks "
                                           f"{', '.join(r.owned_tracks) or '(none)'}",
                                           "name a wonder (or another space with a marker)"))
            elif key in owners:
                out.append(ScenarioProblem(path, f"{key} is owned by one player only",
                                           "give it to one seat"))
            else:
                owners[key] = j
        if "leader" in ps:
            leaders = ([s.id for s in game.tracks[r.leader_track].spaces]
                       if r.leader_track in game.tracks else [])
            if str(ps["leader"]) not in ("", *leaders):
                out.append(ScenarioProblem(("players", j, "leader"), f"no leader "
                                           f"'{ps['leader']}'", "leaders: "
                                           + (", ".join(leaders) or "none in this game")))
    return out


def scenario_fields() -> dict[str, tuple[Callable, Callable]]:
    """Per-player scenario keys of this game: key -> (set, (expected, actual))."""
    return {
        "powers": (_set_powers, lambda g, st, seat, want, keyed: (
            sorted(keyed(r, g.tracks) for r in want), sorted(st.players[seat].vars["powers"]))),
        "owned": (_set_owned, lambda g, st, seat, want, keyed: (
            sorted(keyed(r, g.tracks) for r in want), sorted(st.players[seat].vars["owned"]))),
        "leader": (_set_leader, lambda g, st, seat, want, keyed: (
            want, st.players[seat].vars["leader"])),
    }
