"""Game-end scoring (penalties, banner sets, card bonuses) and the winners with the
rulebook's tie-breaks."""

from __future__ import annotations

from pnp.engine.api import COMPLETED, OVER

from .pieces import is_damaged, set_flag
from .rules import COLOURS
from .table import Table


class Scoring(Table):
    """Victory points at the end and who won."""

    def banners(self, seat: int) -> dict[str, int]:
        out = dict.fromkeys(COLOURS, 0)
        for c in self.zone("empire", seat) + self.zone("lands", seat):
            for b in self.r.f(c.card, "banners") or ():
                out[b] += 1
        return out

    def score_of(self, seat: int) -> int:
        """Starving and damage penalties, banner sets capped, then card bonuses."""
        rule, f = self.rule, self.r.f
        p = self.st.players[seat]
        starving = sum(1 for c in self.cits(seat) if c[1] == "starving")
        damaged = sum(1 for c in self.zone("empire", seat) if is_damaged(c))
        vp = -rule("scoring", "starving") * starving - rule("scoring", "damaged") * damaged
        banners = self.banners(seat)
        cap = rule("scoring", "banner_cap")
        table = self.r.banner_vp
        vp += sum(table[min(n, cap)] for n in banners.values())
        titans3 = sum(1 for c in self.zone("lands", seat)
                      if self.r.deck_of[c.card].startswith(("titans", "starting-titans"))
                      and len(f(c.card, "banners") or ()) >= 3)
        for c in self.zone("empire", seat):  # every card counts: damage was repaired above
            cid = c.card
            vp += f(cid, "vp")
            ab = f(cid, "ability")
            bonus = f(cid, "bonus_vp")
            needs = str(f(cid, "needs") or "")
            if bonus and needs and ab not in ("five-citizens", "three-citizens", "two-big-titans"):
                if all(banners[col] >= int(k) for col, k in _needs(needs)):
                    vp += bonus
            if ab == "vp-per-3-coins":
                vp += 2 * (p.counters["coins"] // 3)
            elif ab == "vp-per-3-ambrosia":
                vp += 2 * (p.counters["ambrosia"] // 3)
            elif ab == "vp-per-knowledge":
                vp += 2 * p.counters["knowledge"]
            elif ab == "five-citizens" and len(self.cits(seat)) - starving >= 5:
                vp += bonus
            elif ab == "three-citizens" and len(self.cits(seat)) == 3:
                vp += bonus
            elif ab == "two-big-titans" and titans3 >= 2:
                vp += bonus
            elif ab == "vp-per-set":
                vp += f(cid, "set_vp") * min(banners.values())
        return vp

    def score(self) -> None:
        st = self.st
        for seat, p in enumerate(st.players):
            p.counters["victory-points"] = self.score_of(seat)
            for c in self.zone("empire", seat):
                set_flag(c, "damaged", False)
        st.stage, st.ended = OVER, COMPLETED
        st.winners = self.winners()
        if self.r.city_states and self.ctx is not None:
            for w in st.winners:
                self.event(f"win:{st.players[w].vars['city']}", w)

    def winners(self) -> list[int]:
        def key(seat: int) -> tuple:
            p = self.st.players[seat]
            parts = [p.counters["victory-points"]]
            for tb in self.rule("scoring", "tie_breaks"):
                if tb == "cards":
                    parts.append(len(self.zone("empire", seat)) + len(self.zone("lands", seat)))
                else:
                    parts.append(p.counters[tb])
            return tuple(parts)
        best = max(key(s) for s in range(self.n))
        return [s for s in range(self.n) if key(s) == best]


def _needs(text: str) -> list[tuple[str, str]]:
    """'blue 4, red 5' -> [('blue', '4'), ('red', '5')]."""
    out = []
    for part in text.split(","):
        words = part.split()
        if len(words) == 2:
            out.append((words[0], words[1]))
    return out
