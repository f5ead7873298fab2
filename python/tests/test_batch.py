"""The batch API: random games played in Rust, returned as NumPy arrays,
checked position by position against the Game API."""

import numpy as np
import pytest

import oware


def expected_observation(pos):
    h, s = pos.houses, pos.stores
    if pos.to_move == "S":
        return list(h) + [s[0], s[1]]
    return list(h[6:]) + list(h[:6]) + [s[1], s[0]]


@pytest.fixture(scope="module")
def batch():
    return oware.play_random_games(300, seed=42)


def test_shapes_and_offsets(batch):
    p = batch["observations"].shape[0]
    assert batch["observations"].shape == (p, 14) and batch["observations"].dtype == np.uint8
    assert batch["masks"].shape == (p, 6) and batch["masks"].dtype == np.bool_
    for key in ("to_move", "actions"):
        assert batch[key].shape == (p,)
    assert batch["offsets"].shape == (301,) and batch["offsets"][0] == 0 and batch["offsets"][-1] == p
    assert np.array_equal(np.diff(batch["offsets"]), batch["lengths"].astype(np.int64) + 1)
    assert batch["totals"].shape == (300, 2)
    assert (batch["observations"].sum(axis=1) == 48).all()


def test_every_game_replays_through_the_game_api(batch):
    off = batch["offsets"]
    for i in range(300):
        game = oware.Game()
        for j in range(off[i], off[i + 1]):
            pos = game.position
            assert list(batch["observations"][j]) == expected_observation(pos)
            assert np.array_equal(batch["observations"][j], oware.observation(pos))
            mask = [bool(game.legal_mask >> b & 1) for b in range(6)]
            assert list(batch["masks"][j]) == mask
            assert batch["to_move"][j] == (0 if pos.to_move == "S" else 1)
            a = int(batch["actions"][j])
            if j == off[i + 1] - 1:
                assert a == -1
            else:
                assert mask[a]
                game.play_action(a)
        out = game.outcome
        assert out is not None, "a random game without a ply cap is played to its end"
        assert batch["outcomes"][i] == out.value
        assert oware.END_REASONS[batch["reasons"][i]] == out.reason
        assert tuple(batch["totals"][i]) == out.totals
        assert batch["lengths"][i] == len(game)


def test_outcomes_cover_several_end_rules(batch):
    reasons = {oware.END_REASONS[r] for r in batch["reasons"]}
    assert {"majority", "no-moves"} <= reasons
    assert set(np.unique(batch["outcomes"])) <= {-1, 0, 1}


def test_reproducible_from_the_seed():
    a = oware.play_random_games(50, seed=7)
    b = oware.play_random_games(50, seed=7)
    c = oware.play_random_games(50, seed=8)
    for k in a:
        assert np.array_equal(a[k], b[k])
    assert not np.array_equal(a["lengths"], c["lengths"])
    # Game i does not depend on how many games are in the batch.
    d = oware.play_random_games(10, seed=7)
    assert np.array_equal(d["lengths"], a["lengths"][:10])


def test_ply_cap_and_start_position():
    b = oware.play_random_games(100, seed=1, max_plies=20)
    assert (b["lengths"] <= 20).all()
    cut = b["reasons"] == -1
    assert cut.any() and (b["lengths"][cut] == 20).all() and (b["outcomes"][cut] == 0).all()
    start = "0-0-0-0-0-2-1-1-0-0-4-0-21-19-S"
    b = oware.play_random_games(5, seed=1, start=start)
    assert list(b["observations"][0]) == expected_observation(oware.Position(start))
    assert (b["lengths"] == 1).all(), "the only legal move F captures 4: 25 seeds end the game"
    empty = oware.play_random_games(0)
    assert empty["observations"].shape == (0, 14) and empty["offsets"].tolist() == [0]
