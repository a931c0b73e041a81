"""War: the declaration's odds for the greedy bot (over the loss and roll dice), the war
itself (losses, the roll-off, the bonus, steals) and `take`, the steal every option uses."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pnp.engine.api import DELTA, ENUMERATED, Ops, add_dice, compare, mean_delta

from .common import Outcomes, _faces

if TYPE_CHECKING:
    from .rules import Rules


def _war_judge(v: int) -> dict[str, float]:
    """A war roll's worth to a power holder: the roll itself."""
    return {"war": float(v)}


def roll_odds(faces: Outcomes, bonus: int) -> dict[int, tuple[float, float]]:
    """The war roll-off's odds: the aggressor's roll bonus (-bonus, 0 or +bonus) ->
    (P(aggressor wins), P(defender wins)), over every combination of small dice or the
    distributions of large ones."""
    odds = {}
    for b in {-bonus, 0, bonus}:
        if isinstance(faces, dict):
            wins, losses, _ = compare({a + b: p for a, p in faces.items()}, faces)
            odds[b] = (wins, losses)
            continue
        diffs = [a - d + b for a in faces for d in faces]
        odds[b] = (sum(x > 0 for x in diffs) / len(diffs), sum(x < 0 for x in diffs) / len(diffs))
    return odds


def loss_faces(ops: Ops, stat: str) -> Outcomes:
    """Every equally likely total change of `stat` that ops bring (the war loss); past
    dice.ENUMERATED combinations, the distribution of the total."""
    mine = [op for op in ops if op[0] == DELTA and op[1] == stat]
    combinations = 1
    for op in mine:
        combinations *= op[4] ** abs(op[3]) if op[3] else 1
    if combinations > ENUMERATED:
        dist = {0: 1.0}
        for op in mine:
            dist = {t + op[2]: p for t, p in dist.items()}
            if op[3]:
                dist = add_dice(dist, abs(op[3]), op[4], -1 if op[3] < 0 else 1)
        return dist
    totals = [0]
    for op in mine:
        sign = -1 if op[3] < 0 else 1
        faces = _faces(abs(op[3]), op[4]) if op[3] else [0]
        totals = [t + op[2] + sign * f for t in totals for f in faces]
    return totals


def war_odds_at(r: Rules, mine: int, theirs: int) -> tuple[float, float]:
    """(P(aggressor wins), P(defender wins)) from the two Military scores at declaration:
    the +2 goes by the scores after both losses (interpretation war-bonus-timing), so the
    chances are averaged over the loss dice; before-loss compares the scores as they are."""
    key = (mine, theirs)
    hit = r.war_odds_memo.get(key)
    if hit is not None:
        return hit
    bonus = r.war_bonus
    if not r.war_bonus_after_loss:
        odds = r.war_odds[bonus if mine > theirs else -bonus if theirs > mine else 0]
    else:
        lo, hi = r.bounds[r.war_stat]
        def after(v: int) -> int:
            return max(lo, v) if hi is None else min(hi, max(lo, v))
        faces = r.war_loss_faces
        if isinstance(faces, dict):  # large loss dice: the two scores' distributions
            mine_after: dict[int, float] = {}
            theirs_after: dict[int, float] = {}
            for la, p in faces.items():
                a, d = after(mine + la), after(theirs + la)
                mine_after[a] = mine_after.get(a, 0.0) + p
                theirs_after[d] = theirs_after.get(d, 0.0) + p
            ahead, behind, level = compare(mine_after, theirs_after)
            total = ahead + behind + level or 1.0
            odds = tuple((ahead * r.war_odds[bonus][k] + behind * r.war_odds[-bonus][k]
                          + level * r.war_odds[0][k]) / total for k in (0, 1))
            if len(r.war_odds_memo) < 4096:
                r.war_odds_memo[key] = odds
            return odds
        pw = pl = 0.0
        for la in faces:
            a = after(mine + la)
            for ld in faces:
                d = after(theirs + ld)
                w, lose = r.war_odds[bonus if a > d else -bonus if d > a else 0]
                pw += w
                pl += lose
        n = len(faces) ** 2
        odds = (pw / n, pl / n)
    if len(r.war_odds_memo) < 4096:
        r.war_odds_memo[key] = odds
    return odds


class War:
    """ACGame's wars: one part of ACGame (game.py), whose state they read."""

    def war_estimate(self, seat: int, other: int) -> dict[str, float]:
        """Greedy's view of declaring war: win chance from the Military gap as the bonus rule
        compares it (after both losses), the expected loss."""
        r = self.r
        if other < 0:
            return {}
        mine = self.players[seat].counters[r.war_stat]
        theirs = self.players[other].counters[r.war_stat]
        pw, pl = war_odds_at(r, mine, theirs)
        out = mean_delta(r.war_loss)
        for stat, k in r.war_steals.items():
            out[stat] = out.get(stat, 0.0) + k * (pw - pl)
        for stat, k in r.war_aggressor_steals.items():
            out[stat] = out.get(stat, 0.0) + k * pw
        return out

    def war(self, aggressor: int, defender: int) -> None:
        """War: both lose 1D6 Military, both roll 2D6 and the higher Military adds 2 (compared
        after the loss, interpretation war-bonus-timing; before it in war-bonus-before-loss); the higher roll wins, a tie has no winner; the winner steals 2 VP, a winning
        aggressor also 1 Territory. A steal takes only what the loser has."""
        r = self.r
        self.event("war", aggressor)
        ma = self.players[aggressor].counters[r.war_stat]
        md = self.players[defender].counters[r.war_stat]
        for seat in (aggressor, defender):
            self.apply(seat, r.war_loss, "war loss")
        if self.players[aggressor].out or self.players[defender].out:
            return
        rolls = []
        for seat in (aggressor, defender):
            judge = _war_judge if self.players[seat].vars["powers"] else None
            rolls.append(self.player_roll(seat, r.war_count, r.war_sides, "war roll", judge))
        if r.war_bonus_after_loss:
            ma = self.players[aggressor].counters[r.war_stat]
            md = self.players[defender].counters[r.war_stat]
        if ma > md:
            rolls[0] += r.war_bonus
        elif md > ma:
            rolls[1] += r.war_bonus
        if rolls[0] == rolls[1]:
            self.event("war-tie", aggressor)
            return
        winner, loser = (aggressor, defender) if rolls[0] > rolls[1] else (defender, aggressor)
        self.take(winner, loser, r.war_steals)
        if winner == aggressor:
            self.take(winner, loser, r.war_aggressor_steals)
            self.event("war-won-aggressor", aggressor)
        else:
            self.event("war-won-defender", defender)
        if r.eliminate_now:
            self.eliminations_now()

    def take(self, winner: int, loser: int, amounts: dict[str, int]) -> None:
        """Move stat points from loser to winner: only what the loser has; caps still apply."""
        add = self.book.add
        for stat, k in amounts.items():
            taken = -add(self.players[loser].counters, stat, -k)
            add(self.players[winner].counters, stat, taken)
