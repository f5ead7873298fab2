"""PettingZoo: the AEC environment passes api_test and plays full games
whose results are the rules core's."""

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test  # noqa: E402

import oware  # noqa: E402
from oware.pettingzoo import env, raw_env  # noqa: E402


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_api_test():
    api_test(env(), num_cycles=1000, verbose_progress=False)
    api_test(raw_env(), num_cycles=200, verbose_progress=False)


def test_masked_random_games_reach_the_rules_end():
    e = env()
    rng = np.random.default_rng(3)
    for episode in range(20):
        e.reset(seed=episode)
        mirror = oware.Game()
        totals = {a: 0 for a in e.possible_agents}
        for agent in e.agent_iter():
            obs, reward, term, trunc, info = e.last()
            totals[agent] += reward
            if term or trunc:
                e.step(None)
                continue
            assert agent == ("player_0" if mirror.to_move == "S" else "player_1")
            mask = obs["action_mask"]
            assert [i for i in range(6) if mask[i]] == mirror.legal_actions()
            assert obs["observation"].sum() == 48
            action = int(rng.choice(np.flatnonzero(mask)))
            mirror.play_action(action)
            e.step(action)
        assert mirror.is_over
        v = mirror.outcome.value
        assert totals == {"player_0": v, "player_1": -v}


def test_truncation_and_render():
    e = raw_env(max_plies=4, render_mode="ansi")
    e.reset()
    for _ in range(4):
        obs = e.observe(e.agent_selection)
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert all(e.truncations.values()) and not any(e.terminations.values())
    assert "A" in e.render()
