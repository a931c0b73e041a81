"""One game of The Ancient World: the table with every part of the rules mixed in. Tests and
the scenario breaks patch its methods by name (`TAW.titan_effect`), wherever they live."""

from __future__ import annotations

from .actions import Actions
from .board import Board
from .card_actions import CardActions
from .combat import Combat
from .rounds import Rounds
from .scoring import Scoring
from .setup_game import Setup
from .titans import Titans


class TAW(Setup, Rounds, Actions, Board, CardActions, Combat, Titans, Scoring):
    """One game being played (or set up, or inspected by the invariants)."""
