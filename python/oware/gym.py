"""Oware Abapa as a single-agent Gymnasium environment: the agent plays one
side against an opponent (uniformly random legal moves, or the engine at a
playing level 1-10).

::

    import gymnasium as gym
    import oware.gym  # registers "oware/Abapa-v0"
    env = gym.make("oware/Abapa-v0", opponent=3)
    obs, info = env.reset(seed=0)
    action = env.action_space.sample(info["action_mask"])

The observation is 14 int8 numbers seen by the agent (its six houses, the
opponent's six, its store, the opponent's store); ``info["action_mask"]``
(and the method ``action_masks()``) flags the legal actions 0-5. The reward
is +1, -1 or 0 at the end of the game (R9-R11, by the Rust core). An illegal
action ends the episode with reward -1 and ``info["illegal"] = True``.
"""

from __future__ import annotations

import gymnasium
import numpy as np
from gymnasium import spaces

from . import Engine, Game, Position

__all__ = ["OwareEnv"]


class OwareEnv(gymnasium.Env):
    """The agent plays `agent_side` ("S" moves first) against `opponent`:
    "random" or a level 1-10 of the engine."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, opponent="random", agent_side="S", start=None,
                 max_plies=None, render_mode=None):
        if opponent != "random" and opponent not in range(1, 11):
            raise ValueError(f"opponent must be 'random' or a level 1-10, found {opponent!r}")
        if agent_side not in ("S", "N"):
            raise ValueError(f"agent_side must be 'S' or 'N', found {agent_side!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render_mode {render_mode!r}")
        self.opponent = opponent
        self.agent_side = agent_side
        self.start = Position(start) if isinstance(start, str) else (start or Position())
        self.max_plies = max_plies
        self.render_mode = render_mode
        self.observation_space = spaces.Box(0, 48, shape=(14,), dtype=np.int8)
        self.action_space = spaces.Discrete(6)
        self._engine = Engine(hash_mb=8) if opponent != "random" else None
        self.game = Game(self.start)

    def _obs(self):
        pos = self.game.position
        h, s = pos.houses, pos.stores
        if self.agent_side == "S":
            obs = list(h) + [s[0], s[1]]
        else:
            obs = list(h[6:]) + list(h[:6]) + [s[1], s[0]]
        return np.array(obs, np.int8)

    def action_masks(self):
        """The legal actions of the agent, as 6 booleans."""
        mask = np.zeros(6, np.int8)
        if not self.game.is_over and self.game.to_move == self.agent_side:
            mask[self.game.legal_actions()] = 1
        return mask

    def _info(self, **extra):
        info = {"action_mask": self.action_masks(), "position": str(self.game.position)}
        info.update(extra)
        return info

    def _opponent_moves(self):
        while not self.game.is_over and self.game.to_move != self.agent_side:
            if self._engine is None:
                actions = self.game.legal_actions()
                self.game.play_action(int(self.np_random.choice(actions)))
            else:
                seed = int(self.np_random.integers(0, 2**63))
                move = self._engine.best_move(self.game, level=self.opponent, seed=seed)
                self.game.play(move)

    def _reward(self):
        out = self.game.outcome
        if out is None:
            return 0.0
        return float(out.value if self.agent_side == "S" else -out.value)

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self.game = Game(self.start)
        if self._engine is not None:
            self._engine.new_game()
        self._opponent_moves()
        return self._obs(), self._info()

    def step(self, action):
        action = int(action)
        if action not in self.game.legal_actions() or self.game.to_move != self.agent_side:
            return self._obs(), -1.0, True, False, self._info(illegal=True)
        self.game.play_action(action)
        self._opponent_moves()
        terminated = self.game.is_over
        truncated = (not terminated and self.max_plies is not None
                     and len(self.game) >= self.max_plies)
        info = self._info()
        if self.game.outcome is not None:
            info["outcome"] = self.game.outcome
        return self._obs(), self._reward(), terminated, truncated, info

    def render(self):
        if self.render_mode == "ansi":
            return self.game.position.diagram()
        return None


gymnasium.register(id="oware/Abapa-v0", entry_point="oware.gym:OwareEnv")
