"""Oware Abapa as a PettingZoo AEC environment, with action masks.

::

    from oware.pettingzoo import env
    e = env()
    e.reset(seed=0)
    for agent in e.agent_iter():
        obs, reward, termination, truncation, info = e.last()
        action = None if termination or truncation else \
            e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Agents are ``"player_0"`` (South, moves first) and ``"player_1"`` (North).
An action is a house of the mover's row, 0-5 (0 = A / a). Each observation
is a dict: ``"observation"``, 14 int8 numbers seen by that agent (its six
houses, the opponent's six, its store, the opponent's store), and
``"action_mask"``, 6 int8 flags of the legal actions. Rewards come at the
end only: +1 to the winner, -1 to the loser, 0 each for a draw. The rules,
repetition (R11) included, are the Rust core's.

``max_plies`` (default ``None``) truncates a game after that many plies.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from . import Game, Position

__all__ = ["OwareEnv", "env", "raw_env"]


def env(**kwargs):
    """The environment with PettingZoo's standard checks wrapped around it."""
    e = raw_env(**kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


class OwareEnv(AECEnv):
    """Two agents sowing in turn; the game ends under R9-R11."""

    metadata = {
        "render_modes": ["human", "ansi"],
        "name": "oware_abapa_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(self, render_mode=None, start=None, max_plies=None):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render_mode {render_mode!r}")
        self.render_mode = render_mode
        self.start = Position(start) if isinstance(start, str) else (start or Position())
        self.max_plies = max_plies
        self.possible_agents = ["player_0", "player_1"]
        self.agents = []
        self._spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0, 48, shape=(14,), dtype=np.int8),
                    "action_mask": spaces.Box(0, 1, shape=(6,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self._action_spaces = {a: spaces.Discrete(6) for a in self.possible_agents}
        self.game = Game(self.start)

    def observation_space(self, agent):
        return self._spaces[agent]

    def action_space(self, agent):
        return self._action_spaces[agent]

    def _agent_to_move(self):
        return self.possible_agents[0 if self.game.to_move == "S" else 1]

    def observe(self, agent):
        pos = self.game.position
        h = pos.houses
        s = pos.stores
        if agent == "player_0":
            obs = list(h) + [s[0], s[1]]
        else:
            obs = list(h[6:]) + list(h[:6]) + [s[1], s[0]]
        mask = np.zeros(6, np.int8)
        if agent == self.agent_selection and not self.game.is_over:
            for a in self.game.legal_actions():
                mask[a] = 1
        return {"observation": np.array(obs, np.int8), "action_mask": mask}

    def reset(self, seed=None, options=None):
        self.game = Game(self.start)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self._agent_to_move()
        self._finish_if_over()

    def _finish_if_over(self):
        """Sets rewards and flags once the game has ended or is cut short."""
        outcome = self.game.outcome
        if outcome is not None:
            v = outcome.value
            self.rewards = {"player_0": v, "player_1": -v}
            self.terminations = {a: True for a in self.agents}
            for a in self.agents:
                self.infos[a] = {"outcome": outcome}
        elif self.max_plies is not None and len(self.game) >= self.max_plies:
            self.truncations = {a: True for a in self.agents}

    def step(self, action):
        if (
            self.terminations[self.agent_selection]
            or self.truncations[self.agent_selection]
        ):
            self._was_dead_step(action)
            return
        self._cumulative_rewards[self.agent_selection] = 0
        self.game.play_action(int(action))
        self._finish_if_over()
        # The next agent is the side the core puts to move.
        self.agent_selection = self._agent_to_move()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        if self.render_mode is None:
            return None
        text = self.game.position.diagram()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        pass


def raw_env(**kwargs):
    """The environment without PettingZoo's wrappers."""
    return OwareEnv(**kwargs)
