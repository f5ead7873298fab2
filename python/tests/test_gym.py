"""Gymnasium: the single-agent environment passes gymnasium's checker and
plays full games against a random player and against the engine."""

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import oware.gym  # noqa: E402, F401  (registers oware/Abapa-v0)
from oware.gym import OwareEnv  # noqa: E402


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_check_env():
    check_env(OwareEnv(), skip_render_check=True)
    check_env(OwareEnv(opponent=1, agent_side="N"), skip_render_check=True)


def play(env, seed):
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total, steps = 0.0, 0
    while True:
        assert obs.sum() == 48
        mask = info["action_mask"]
        assert np.array_equal(mask, env.unwrapped.action_masks()) and mask.any()
        obs, reward, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        total += reward
        steps += 1
        if term or trunc:
            return total, info, steps


def test_full_games_against_random_and_engine():
    env = gymnasium.make("oware/Abapa-v0")
    for seed in range(5):
        total, info, _ = play(env, seed)
        out = info["outcome"]
        assert total == out.value and "illegal" not in info
    env = gymnasium.make("oware/Abapa-v0", opponent=5, agent_side="N")
    results = [play(env, seed)[0] for seed in range(2)]
    # A random player does not beat level 5.
    assert all(r <= 0 for r in results)


def test_illegal_action_ends_the_episode():
    env = OwareEnv(start="0-0-0-0-0-2-1-1-0-0-4-0-20-20-S")
    env.reset(seed=0)
    _, reward, term, _, info = env.step(0)
    assert (reward, term, info["illegal"]) == (-1.0, True, True)
    with pytest.raises(ValueError):
        OwareEnv(opponent=11)
