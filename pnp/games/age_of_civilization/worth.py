"""Greedy bot: what a civilization's abilities are worth over the rest of the game, read from
the ability data (what each gives per use, per round, per war or at the game end) and the
rounds left, in the bot's own units (BOT_VALUES: points, coins, workers, power).

The rising abilities are counted where a civilization is taken (civilizations.py); this module
counts what lasts: the main ability for as long as the civilization stays on top, the legacy
ability to the game's end. It uses only what every player sees: the time track, the market,
the players' cards and counters.
"""

from __future__ import annotations

from pnp.engine.api import PlayerState

from .rules import BOT_VALUES, POWER_TECH, military
from .table import Table

#: greedy bot: the share of the rounds an action is open in which a player works it. Greedy
#: bots at 4 players end the game with 4.4 technologies from two Research slots a round
#: (about 0.4 of the slot-rounds); a bonus on an action is counted at that rate
USE = 0.4
#: greedy bot: the share of turns a player rests (greedy bots rest in about a quarter of their
#: turns at 3 and 4 players)
REST = 0.25
#: greedy bot: where the counts a game-end ability multiplies usually stand at the end of a
#: 4-player game of greedy bots (1,000 games, seed 1: 19.7 points, 0.87 wonders, 3.4 coins
#: and 2.2 workers a player). Points and wonders grow evenly over the rounds (GROWN); coins
#: and workers are spent as they come, so the end finds about as many as ever (SPENT)
GROWN = {"points": 19.7, "wonders": 0.87}
SPENT = {"coins": 3, "workers": 2}

W_POINTS, W_COINS, W_WORKERS = (BOT_VALUES[k] for k in ("points", "coins", "workers"))


class Worth(Table):
    """The lasting worth of a civilization card to a player, in points-equivalents."""

    def round_now(self) -> int:
        """The round being played (1 while the draft is dealt, before round 1)."""
        return max(1, self.state.turn)

    def rounds_left(self) -> int:
        """Rounds still to play, this one included (a civilization is taken before the
        round's actions)."""
        return max(0, self.r.rounds - self.round_now() + 1)

    def main_rounds(self, p: PlayerState) -> float:
        """How long a civilization risen now stays on top: the rounds left shared with the
        rises its free slots still allow (a player holds at most max_civilizations)."""
        after = max(0, self.r.max_civs - len(p.zones["civilizations"]) - 1)
        return self.rounds_left() / (1 + after)

    def civ_worth(self, p: PlayerState, cid: str, rise: bool) -> float:
        """What card `cid` adds from now to the game's end: its legacy ability always; risen,
        its main ability for as long as it stays on top, less the main ability it covers."""
        h = self.rounds_left()
        worth = sum(self.ability_worth(p, a, h, cid) for a in self.r.legacy.get(cid, ()))
        if rise:
            hm = self.main_rounds(p)
            worth += sum(self.ability_worth(p, a, hm, cid) for a in self.r.main.get(cid, ()))
            civs = p.zones["civilizations"]
            if civs:
                old = civs[0].card
                worth -= sum(self.ability_worth(p, a, hm, old) for a in self.r.main.get(old, ()))
        return worth

    # ------------------------------------------------------------------ one ability
    def ability_worth(self, p: PlayerState, a: dict, h: float, cid: str) -> float:
        """One ability working for `h` of the rounds left (a share when h is not whole)."""
        when = a["when"]
        share = h / self.rounds_left() if self.rounds_left() else 0.0
        chance = self.most_chance(p, a, cid)
        if when == "action":
            return chance * self.use_worth(a) * self.uses(p, a, share)
        if when == "always":
            worth = 0.0
            if a.get("military"):
                n = a["military"]
                if a.get("per") == "technologies":
                    n *= self.projected(p, "technologies", cid, h / 2) / a.get("each", 1)
                worth += n * self.military_worth(share)
            if a.get("slot"):
                worth += self.slot_worth(a["slot"], share)
            if a.get("upcoming"):
                worth += self.upcoming_worth(share)
            return worth
        if when == "turn-end":
            return chance * h * self.turn_end_worth(p, a, cid, h / 2)
        if when == "rest":
            return h * REST * (a.get("points", 0) * W_POINTS + a.get("coins", 0) * W_COINS)
        if when == "war":
            wars = self.wars_left() * share
            if a.get("immune"):
                return wars * self.r.round_end["war_sacrifice"] * W_WORKERS / self.rivals()
            per = self.projected(p, a["per"], cid) / a.get("each", 1) if a.get("per") else 1
            return wars * a.get("coins", 0) * per * W_COINS
        if when == "game-end":
            per = self.projected(p, a["per"], cid) / a.get("each", 1) if a.get("per") else 1
            return share * a.get("points", 0) * per * W_POINTS
        return 0.0  # rise (counted where the card is taken), gained (technologies only)

    def use_worth(self, a: dict) -> float:
        """What one use of an action gains from an action ability."""
        spec = self.r.actions[a["action"]]
        worth = a.get("points", 0) * W_POINTS + a.get("coins", 0) * W_COINS
        worth += (spec["cost"] if a.get("free") else min(a.get("discount", 0), spec["cost"])) * W_COINS
        worth += a.get("workers", 0) * W_WORKERS
        if spec["sacrifice"]:
            if a.get("keep_workers"):
                worth += spec["workers"] * W_WORKERS
            worth -= a.get("extra_workers", 0) * W_WORKERS
        if a.get("perform"):
            worth += max(0.0, self.action_worth(a["perform"]))
        return worth

    def uses(self, p: PlayerState, a: dict, share: float) -> float:
        """How often an action ability is used: USE of the action's slots in the rounds it is
        open, and no more often than it has technologies left to act on."""
        n = USE * self.open_rounds(a["action"]) * self.r.actions[a["action"]]["slots"] * share
        techs = a.get("technologies")
        if techs is not None:
            n = min(n, len(set(techs) - set(p.vars["techs"])))
        return n

    def action_worth(self, act: str) -> float:
        """An action's own gain less its price (Aksum's and Education's free Culture)."""
        spec = self.r.actions[act]
        worth = spec["gain"].get("points", 0) * W_POINTS
        worth += (spec["gain"].get("coins", 0) - spec["cost"]) * W_COINS
        if spec["sacrifice"]:
            worth -= spec["workers"] * W_WORKERS
        return worth

    def turn_end_worth(self, p: PlayerState, a: dict, cid: str, ahead: float) -> float:
        """One turn end's gain, counted where the player will stand `ahead` rounds on."""
        if a.get("technology"):
            return a["technology"] * POWER_TECH
        if a.get("pay_bonus"):
            return max(0.0, a.get("points", 0) * W_POINTS - a["pay_bonus"] * W_COINS)
        if a.get("perform"):
            return max(0.0, self.action_worth(a["perform"]))
        per = self.projected(p, a["per"], cid, ahead) / a.get("each", 1) if a.get("per") else 1
        return (a.get("coins", 0) * W_COINS + a.get("points", 0) * W_POINTS) * per

    # ------------------------------------------------------------------ the table
    def open_rounds(self, act: str) -> int:
        """Rounds from this one to the last in which `act` is open: every round for an
        action of the permanent card, else the rounds its time-track card is uncovered."""
        if act in self.r.permanent:
            return self.rounds_left()
        track = self.state.zones["time-track"]
        n = 0
        for t in range(self.round_now(), self.r.rounds + 1):
            window = track[t - 1:t - 1 + self.r.open_cards]
            n += any(self.r.action_cards[c.card]["action"] == act for c in window)
        return n

    def wars_left(self) -> int:
        """Wars still to come: the war cards the permanent card will uncover at the round
        ends still to play (the last round end uncovers none)."""
        track = self.state.zones["time-track"]
        n = 0
        for t in range(self.round_now(), self.r.rounds):
            k = t - 1 + self.r.open_cards
            if k < len(track) and self.r.action_cards[track[k].card]["event"] == "war":
                n += 1
        return n

    def rivals(self) -> int:
        """Those a military comparison is made against, the player included (the solo game's
        virtual opponent is one rival)."""
        return max(2, self.n)

    def military_worth(self, share: float) -> float:
        """One military strength over a share of the rounds left: a Conquest (its points) in
        USE of the rounds it is open, and a worker kept in each war, each as likely as being
        the one a comparison picks out among the rivals."""
        conquest = self.r.actions["conquest"]
        points = conquest["gain"].get("points", 0) * W_POINTS
        gain = USE * self.open_rounds("conquest") * points
        gain += self.wars_left() * self.r.round_end["war_sacrifice"] * W_WORKERS
        return share * gain / self.rivals()

    def slot_worth(self, act: str, share: float) -> float:
        """An action slot of one's own: the action in USE of the rounds it is not open."""
        closed = self.rounds_left() - self.open_rounds(act)
        return share * USE * closed * max(0.0, self.action_worth(act))

    def upcoming_worth(self, share: float) -> float:
        """Slots on the upcoming cards (Maya): in USE of the rounds left, the best action
        that is upcoming but not open."""
        track = self.state.zones["time-track"]
        total = 0.0
        for t in range(self.round_now(), self.r.rounds + 1):
            first = t - 1 + self.r.open_cards
            open_now = {self.r.action_cards[c.card]["action"] for c in track[t - 1:first]}
            later = {self.r.action_cards[c.card]["action"] for c in track[first:]}
            best = [self.action_worth(x) for x in later - open_now - {"none"}]
            total += max([0.0, *best])
        return share * USE * total

    def most_chance(self, p: PlayerState, a: dict, cid: str) -> float:
        """1 for an ability that needs no comparison; for one that needs the most military
        strength, the share of the other players the holder is at least as strong as now
        (with the card's own strength)."""
        if a.get("only_if") != "most-military":
            return 1.0
        own = military(self.r, p) + sum(b.get("military", 0) for b in self.r.legacy.get(cid, ())
                                        if b["when"] == "always")
        others = [military(self.r, q) for q in self.state.players if q is not p]
        if self.solo:
            others.append(self.state.vars["opponent"])
        return sum(own >= x for x in others) / len(others) if others else 1.0

    def projected(self, p: PlayerState, per: str, cid: str, ahead: float | None = None) -> float:
        """A count an ability is multiplied by, as it will likely stand `ahead` rounds on
        (default: at the game's end; an ability counted every round for h rounds looks h/2
        ahead): civilizations fill every slot, technologies grow by USE of the Research slots
        a round, points and wonders evenly towards GROWN (wonders also by those card `cid`
        brings on rising);
        coins and workers end near SPENT unless this is the last round; every other count is
        taken as it stands."""
        left = self.rounds_left()
        ahead = left if ahead is None else ahead
        if per in GROWN:
            brings = sum(a.get("wonder", 0) for a in self.r.main.get(cid, ())
                         if a["when"] == "rise") if per == "wonders" else 0
            return self.count(p, per) + brings + GROWN[per] / self.r.rounds * ahead
        if per in SPENT and left > 1:
            return SPENT[per]
        if per == "civilizations":
            return self.r.max_civs
        if per == "technologies":
            research = self.r.actions["research"]["slots"]
            return len(p.vars["techs"]) + USE * research * ahead
        if per == "future-rounds":
            return self.future_cards()
        return self.count(p, per)
