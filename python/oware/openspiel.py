"""Oware Abapa as an OpenSpiel game, played by the exact rules of ``oware``.

Importing this module registers ``python_oware_abapa`` with ``pyspiel``
(OpenSpiel's Python-game API), so OpenSpiel's algorithms (MCTS, evaluation,
AlphaZero-style loops) run on it::

    import pyspiel
    import oware.openspiel  # registers the game
    game = pyspiel.load_game("python_oware_abapa")

Unlike OpenSpiel's own ``oware``, which ends a game on the first repetition
of a position, the game ends as the rules say: when a position occurs for
the third time since the last capture (R11), when a player has 25 seeds or
both 24 (R10), or when the mover cannot feed the opponent (R9). Every rule
is applied by the Rust core; this module only maps OpenSpiel's calls to it.

Actions are 0-5: the house of the mover's row to sow (0 = A for South, a for
North, in sowing order). Returns are +1 for the winner, -1 for the loser and
0 for a draw. Observations are 14 numbers seen by the observing player: its
six houses, the opponent's six, its store, the opponent's store.

Game parameters: ``position`` (a position string to start from, default the
start position) and ``max_plies`` (0, the default, plays to the rules' end;
a positive number ends a game after that many plies as a draw, a
truncation the rules do not have, for experiments that need a bound).
"""

from __future__ import annotations

import numpy as np
import pyspiel

from . import Game, Position

__all__ = ["GAME_NAME", "OwareAbapaGame", "OwareAbapaState"]

GAME_NAME = "python_oware_abapa"

_START = str(Position())
_NUM_ACTIONS = 6
# The rules (R11) make every game finite, but no useful bound is known;
# OpenSpiel needs a number for sizing buffers, so this is the longest game
# the parameter `max_plies` may ask for, far beyond what play reaches (the
# longest of 100,000 random games from the start, seed 123 of
# `oware.play_random_games`, has 434 plies). Without `max_plies` a longer
# game is still played to its end.
_MAX_GAME_LENGTH = 10_000

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Oware Abapa (exact rules, Python package oware)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"position": _START, "max_plies": 0},
)


class OwareAbapaGame(pyspiel.Game):
    """The game: its start position and optional ply cap."""

    def __init__(self, params=None):
        params = dict(params or {})
        self.start = Position(str(params.get("position", _START)))
        self.max_plies = int(params.get("max_plies", 0))
        if not 0 <= self.max_plies <= _MAX_GAME_LENGTH:
            raise ValueError(
                f"max_plies must be from 0 to {_MAX_GAME_LENGTH}, found {self.max_plies}"
            )
        info = pyspiel.GameInfo(
            num_distinct_actions=_NUM_ACTIONS,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.max_plies or _MAX_GAME_LENGTH,
        )
        super().__init__(_GAME_TYPE, info, params)

    def new_initial_state(self):
        """A game at the start position."""
        return OwareAbapaState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The board observer (the game has perfect information)."""
        if iig_obs_type is None or (
            iig_obs_type.public_info and not iig_obs_type.perfect_recall
        ):
            return BoardObserver(params)
        from open_spiel.python.observation import IIGObserverForPublicInfoGame

        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class OwareAbapaState(pyspiel.State):
    """A game in progress: an ``oware.Game`` with its history (for R11)."""

    def __init__(self, game: OwareAbapaGame):
        super().__init__(game)
        self.game = Game(game.start)
        self._max_plies = game.max_plies

    def _truncated(self) -> bool:
        return self._max_plies > 0 and len(self.game) >= self._max_plies

    def current_player(self):
        """0 for South, 1 for North, or TERMINAL."""
        if self.game.is_over or self._truncated():
            return pyspiel.PlayerId.TERMINAL
        return 0 if self.game.to_move == "S" else 1

    def _legal_actions(self, player):
        """The mover's legal houses, 0-5, ascending."""
        del player
        return self.game.legal_actions()

    def _apply_action(self, action):
        """Plays house `action` of the mover's row."""
        self.game.play_action(action)

    def _action_to_string(self, player, action):
        """The move's letter (A-F for South, a-f for North)."""
        return ("ABCDEF" if player == 0 else "abcdef")[action]

    def is_terminal(self):
        """True once the rules end the game (or the ply cap is reached)."""
        return self.game.is_over or self._truncated()

    def returns(self):
        """+1 for the winner, -1 for the loser, 0 for a draw (or unfinished)."""
        outcome = self.game.outcome
        if outcome is None:
            return [0.0, 0.0]
        v = float(outcome.value)
        return [v, -v]

    def __str__(self):
        return str(self.game.position)


class BoardObserver:
    """Observer of the board from one player's side (PyObserver interface)."""

    def __init__(self, params):
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        self.tensor = np.zeros(14, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state, player):
        """Fills `tensor`: the player's houses, the opponent's, then stores."""
        pos = state.game.position
        h = pos.houses
        s = pos.stores
        if player == 0:
            self.tensor[:12] = h
            self.tensor[12], self.tensor[13] = s
        else:
            self.tensor[:6] = h[6:]
            self.tensor[6:12] = h[:6]
            self.tensor[12], self.tensor[13] = s[1], s[0]

    def string_from(self, state, player):
        """The position string (the same for both players)."""
        del player
        return str(state.game.position)


pyspiel.register_game(_GAME_TYPE, OwareAbapaGame)
