"""OpenSpiel: the game registered through pyspiel's Python-game API, checked
against OpenSpiel's own oware, and played by OpenSpiel's MCTS."""

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import oware  # noqa: E402
import oware.openspiel  # noqa: E402  (registers the game)
from open_spiel.python.algorithms import mcts  # noqa: E402
from open_spiel.python.bots import uniform_random  # noqa: E402


def test_registered_and_described():
    game = pyspiel.load_game("python_oware_abapa")
    assert game.num_players() == 2 and game.num_distinct_actions() == 6
    assert game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    s = game.new_initial_state()
    assert s.current_player() == 0 and s.legal_actions() == [0, 1, 2, 3, 4, 5]
    assert str(s) == oware.START
    c = s.clone()
    c.apply_action(5)
    assert str(s) == oware.START and str(c) == "4-4-4-4-4-0-5-5-5-5-4-4-0-0-N"
    assert c.current_player() == 1 and c.action_to_string(1, 0) == "a"
    assert c.observation_tensor(0)[:6] == [4, 4, 4, 4, 4, 0]
    assert c.observation_tensor(1)[:6] == [5, 5, 5, 5, 4, 4]
    assert c.observation_string(0) == str(c)
    start = "0-0-0-0-0-2-1-1-0-0-4-0-21-19-S"
    g2 = pyspiel.load_game("python_oware_abapa", {"position": start})
    s2 = g2.new_initial_state()
    assert s2.legal_actions() == [5]
    s2.apply_action(5)
    assert s2.is_terminal() and s2.returns() == [1.0, -1.0]


def test_random_playouts_agree_with_openspiel_oware():
    """Board, stores, legal moves and results agree at every ply with
    OpenSpiel's own oware, except that it ends a game on the first
    repetition of a position, where these rules (R11) play on."""
    ours = pyspiel.load_game("python_oware_abapa")
    theirs = pyspiel.load_game("oware")
    rng = random.Random(2024)
    same_end = repetition_ends = 0
    for _ in range(300):
        a, b = ours.new_initial_state(), theirs.new_initial_state()
        while True:
            if b.is_terminal():
                if a.is_terminal():
                    assert a.returns() == b.returns()
                    same_end += 1
                else:
                    # OpenSpiel stopped at a repeated position; the rules
                    # end a game only on its third occurrence.
                    history = a.game.since_last_capture
                    assert history[-1] in history[:-1] or a.game.__len__() >= 1000
                    repetition_ends += 1
                break
            assert not a.is_terminal(), str(a)
            t = b.observation_tensor(0)
            pos = a.game.position
            assert tuple(round(x * 48) for x in t[:12]) == pos.houses
            assert (round(t[12] * 48), round(t[13] * 48)) == pos.stores
            assert a.legal_actions() == b.legal_actions()
            assert a.current_player() == b.current_player()
            action = rng.choice(a.legal_actions())
            a.apply_action(action)
            b.apply_action(action)
    assert same_end > 200 and repetition_ends > 0


def test_mcts_plays_full_games():
    game = pyspiel.load_game("python_oware_abapa")
    rs = np.random.RandomState(7)
    bot = mcts.MCTSBot(
        game,
        uct_c=2.0,
        max_simulations=20,
        evaluator=mcts.RandomRolloutEvaluator(1, rs),
        random_state=rs,
    )
    wins = 0
    for first in (0, 1):
        rand = uniform_random.UniformRandomBot(1 - first, rs)
        state = game.new_initial_state()
        mirror = oware.Game()
        while not state.is_terminal():
            player = state.current_player()
            action = (bot if player == first else rand).step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            mirror.play_action(action)
        returns = state.returns()
        assert mirror.is_over and returns == [mirror.outcome.value, -mirror.outcome.value]
        wins += returns[first] > 0
    # Twenty simulations a move are enough to beat a random player.
    assert wins == 2
