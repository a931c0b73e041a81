"""Shared fixtures: every bundled game (and the docs' example games), each definition loaded once
per session, and parametrisation over (game, variant, players).

Parametrising happens at collection, for every test run, so it reads only each game.yaml (its
id, engine, players and variant ids); a GameDef is built when a test first asks for it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest

from pnp.data.game import bundled_games, load_game
from pnp.data.loader import load_file
from pnp.paths import CARDS

AC = CARDS / "ancient-civilizations"
#: the docs' sample games (docs/examples/*/game.yaml): documentation and tests at once
EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"
#: how a parameter names the base game, which has no variant
BASE = "base"


@dataclass(frozen=True)
class Declared:
    """What a game.yaml declares, read without building the game."""

    id: str
    folder: Path
    engine: str
    players_min: int
    players_max: int
    variants: tuple[str, ...]
    #: the player counts a variant is written for (game.yaml `players:` under it), when given
    variant_players: dict[str, tuple[int, ...]] = field(default_factory=dict)

    @property
    def players(self) -> range:
        return range(self.players_min, self.players_max + 1)

    def counts(self, variant: str | None) -> list[int]:
        """The counts a cell of `variant` is played at: the game's, or the variant's own."""
        own = self.variant_players.get(variant or "")
        return [n for n in self.players if not own or n in own]


def declared(folder: Path) -> Declared:
    doc, problems = load_file(folder / "game.yaml")
    assert doc is not None, problems
    data = doc.data
    players = data.get("players") or {}
    return Declared(str(data["id"]), folder, str(data.get("engine", "")),
                    int(players.get("min", 1)), int(players.get("max", 1)),
                    tuple(str(v["id"]) for v in data.get("variants") or ()),
                    {str(v["id"]): tuple(v["players"]) for v in data.get("variants") or ()
                     if v.get("players")})


#: the games under cards/, by id (what pnp list shows)
BUNDLED = {g.id: g for g in map(declared, bundled_games())}
#: every game a test may play: the bundled ones and the docs' examples
PLAYABLE = {**BUNDLED, **{g.id: g for g in map(declared, bundled_games(EXAMPLES))}}


def variant_params(games: dict[str, Declared] = PLAYABLE) -> list:
    """(game id, variant) for the base game and every variant each game declares; the base
    game's variant is None, shown as `base` in test ids."""
    return [pytest.param(g.id, v, id=f"{g.id}/{v or BASE}")
            for g in games.values() for v in (None, *g.variants)]


def cell_params(games: dict[str, Declared] = PLAYABLE) -> list:
    """(game id, variant, players) for every variant of every game at every player count in
    its declared range that the variant is written for."""
    return [pytest.param(g.id, v, n, id=f"{g.id}/{v or BASE}/{n}p")
            for g in games.values() for v in (None, *g.variants) for n in g.counts(v)]


class GameDefs:
    """GameDefs by (game id, variant), each loaded and built once; a game that does not load
    clean fails the test that asked for it, with its diagnostics."""

    def __init__(self, games: dict[str, Declared]):
        self.games = games
        self._loaded: dict[tuple[str, str | None], object] = {}

    def __call__(self, game: str, variant: str | None = None):
        key = (game, variant)
        if key not in self._loaded:
            result = load_game(self.games[game].folder, variant)
            assert result.ok, "\n".join(d.format_text() for d in result.diagnostics)
            self._loaded[key] = result.game
        return self._loaded[key]


@pytest.fixture(scope="session")
def game_defs() -> GameDefs:
    """`game_defs(game_id, variant=None)`: the GameDef, built once per session."""
    return GameDefs(PLAYABLE)


@pytest.fixture(scope="session", params=sorted(BUNDLED))
def bundled_game(request, game_defs):
    """Each bundled game's base GameDef in turn."""
    return game_defs(request.param)


@pytest.fixture(scope="session")
def ac_folder() -> Path:
    return AC


@pytest.fixture(scope="session")
def ac(game_defs):
    return game_defs("ancient-civilizations")


@pytest.fixture
def made(monkeypatch) -> list:
    """Every mcts bot play_game makes in the test, kept so the test can read its counters."""
    from pnp.engine import bots as bots_mod
    from pnp.engine import mcts

    out: list[mcts.MctsBot] = []

    def make(seed, seat, meta, hints, iterations=None):
        bot = mcts.MctsBot(seed, seat, meta, iterations, hints=hints)
        out.append(bot)
        return bot

    monkeypatch.setitem(bots_mod.BOTS, "mcts", make)
    return out


@pytest.fixture(scope="session")
def starter_game(tmp_path_factory):
    """The game `pnp new` makes (a fresh 'caravan' folder), loaded once per session."""
    from pnp.scaffold import scaffold

    folder = tmp_path_factory.mktemp("g") / "caravan"
    scaffold(folder)
    return load_game(folder).game
