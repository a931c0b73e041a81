"""This game's own invariants, checked by the harness at steps beside the generic ones."""

from __future__ import annotations

from pnp.engine.api import GameDef, State

from .rules import rules_for


def invariants(game: GameDef, state: State, label: str) -> list[str]:
    """This game's own invariants: one pawn per non-start space of a track, pawns on their
    tracks, each wonder owned once and marked, and no power of the turn outliving the End
    Phase."""
    r = rules_for(game)
    out: list[str] = []
    starts = r.track_starts
    pawns = [(track, space) for p in state.players if not p.out
             for track, space in p.pos.items() if starts.get(track) != space]
    if len(set(pawns)) != len(pawns):  # found again one by one only when something is wrong
        seen: set[tuple[str, int]] = set()
        for pawn in pawns:
            if pawn in seen:
                out.append(f"two pawns share a non-start space on the {pawn[0]} track")
            seen.add(pawn)
    for track, space in pawns:
        tt = r.tracks.get(track)
        if tt is None:
            out.append(f"a pawn is on {track}, which is not a track")
        elif not 0 <= space < tt.n:
            out.append(f"a pawn is off the {track} track")
    owned_by: dict[str, int] = {}
    for seat, p in enumerate(state.players):
        for key in p.vars.get("owned", ()):
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
    if r.phase_ids and label == r.phase_ids[-1] and \
            any(p.vars.get("powers") for p in state.players):
        out.append("powers of the turn outlived the End Phase")
    return out
