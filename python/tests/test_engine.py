"""The engine and the endgame tables through the Python API."""

import os
import random
import signal
import threading
import time

import pytest

import oware

# South to move; F captures 4 and reaches 25 (R10).
WIN_IN_ONE = "0-0-0-0-0-2-1-1-0-0-4-0-21-19-S"


@pytest.fixture(scope="module")
def engine():
    return oware.Engine(hash_mb=16)


@pytest.fixture(scope="module")
def tables():
    return oware.Tablebase.build(8)


def test_search_depth_gives_a_legal_move_and_its_pv(engine):
    g = oware.Game(moves="FfBe")
    r = engine.search(g, depth=8)
    assert r.best in g.legal_moves() and r.pv[0] == r.best and r.depth == 8
    assert r.nodes > 0 and r.elapsed >= 0
    # The PV is a legal line.
    replay = g.copy()
    for mv in r.pv:
        replay.play(mv)
    assert engine.best_move(g, depth=8) == r.best
    assert engine.search(str(g.position), depth=4).best in g.legal_moves()


def test_search_finds_a_win_in_one(engine):
    r = engine.search(WIN_IN_ONE, depth=6)
    assert r.best == "F"
    assert r.score.is_proven and r.score.plies_to_end == 1
    assert str(r.score) == "win in 1" and r.score.centiseeds > 9000


def test_search_of_a_finished_game_has_no_move(engine):
    r = engine.search("1-0-0-0-1-0-0-0-0-0-0-0-23-23-S", depth=4)
    assert r.best is None and r.pv == []


def test_analyze_values_every_legal_move_best_first(engine):
    g = oware.Game(moves="FfBe")
    moves = engine.analyze(g, depth=6)
    assert sorted(m.move for m in moves) == sorted(g.legal_moves())
    scores = [m.score for m in moves]
    assert scores == sorted(scores, reverse=True)
    assert all(m.pv[0] == m.move for m in moves)


def test_node_and_time_limits(engine):
    r = engine.search(oware.Position(), nodes=20_000)
    assert 0 < r.nodes <= 40_000
    t0 = time.monotonic()
    r = engine.search(oware.Position(), movetime=0.2)
    assert time.monotonic() - t0 < 2.0 and r.best is not None


def test_levels(engine):
    assert (oware.MIN_LEVEL, oware.MAX_LEVEL) == (1, 10)
    p = oware.level_profile(1)
    assert p["depth"] == 2 and p["temperature"] > 0 and p["movetime"] > 0
    assert 0 < p["notice"] < 100 and 0 < p["read"] < 100
    assert oware.level_profile(10)["notice"] == 100
    assert oware.level_profile(10)["depth"] is None
    g = oware.Game(moves="FfBe")
    picks = {engine.search(g, level=1, seed=s).best for s in range(30)}
    assert picks <= set(g.legal_moves()) and len(picks) > 1, "level 1 is not deterministic over seeds"
    assert engine.search(g, level=1, seed=7).best == engine.search(g, level=1, seed=7).best
    assert engine.search(g, level=5, depth=3).depth <= 3


def test_bad_limits_are_errors(engine):
    for kwargs, code in [
        ({}, "no_limit"),
        ({"level": 11}, "bad_level"),
        ({"movetime": -1.0}, "bad_movetime"),
        ({"depth": 0}, "bad_depth"),
    ]:
        with pytest.raises(oware.EngineError) as e:
            engine.search(oware.Position(), **kwargs)
        assert e.value.code == code and e.value.message
    with pytest.raises(oware.EngineError):
        oware.level_profile(0)


def test_search_releases_the_gil_and_stops():
    eng = oware.Engine(hash_mb=8)
    out = {}

    def run():
        out["result"] = eng.search(oware.Position(), movetime=60.0)

    t = threading.Thread(target=run)
    t0 = time.monotonic()
    t.start()
    # This loop runs only if the search let go of the GIL.
    ticks = 0
    while time.monotonic() - t0 < 0.5:
        ticks += 1
    eng.stop()
    t.join(timeout=10)
    assert not t.is_alive() and time.monotonic() - t0 < 10
    assert ticks > 1000
    assert out["result"].best in list("ABCDEF")


def test_ctrl_c_interrupts_a_search():
    eng = oware.Engine(hash_mb=8)
    # A process started in the background by a non-interactive shell
    # inherits SIGINT ignored, and Python then leaves it so: give it the
    # handler an interactive Python has, for this test only.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    t0 = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            eng.analyze(oware.Position(), movetime=60.0)
    finally:
        timer.join()
        signal.signal(signal.SIGINT, previous)
    assert time.monotonic() - t0 < 10
    # The engine is usable afterwards.
    assert eng.search(oware.Position(), depth=4).best is not None


def test_perft_releases_the_gil():
    done = []
    t = threading.Thread(target=lambda: done.append(oware.perft(9)))
    t.start()
    ticks = 0
    while t.is_alive():
        ticks += 1
    t.join()
    # 8 plies is 711,414 in the core's perft vectors; 9 is the same count the
    # `oware perft 9` command prints.
    assert done == [3_592_872]
    assert ticks > 1000


def small_positions(n, max_seeds, seed=1):
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        k = rng.randint(1, max_seeds)
        houses = [0] * 12
        for _ in range(k):
            houses[rng.randrange(12)] += 1
        # Stores of at most 24 each: the game is not decided yet.
        south = rng.randint(max(0, 24 - k), 24)
        out.append(
            oware.Position.from_houses(houses, (south, 48 - k - south), rng.choice("SN"))
        )
    return out


def test_tablebase_probe_and_moves(tables):
    assert tables.max_seeds == 8 and repr(tables) == "Tablebase(max_seeds=8)"
    assert tables.probe(oware.Position()) is None
    assert tables.move_values(oware.Position()) is None
    entry = tables.probe(WIN_IN_ONE)
    assert entry.seeds == 8 and entry.result == "win" and entry.lower <= entry.upper
    assert tables.best_moves(WIN_IN_ONE) == ["F"]
    values = tables.move_values(WIN_IN_ONE)
    assert [v["move"] for v in values] == oware.Position(WIN_IN_ONE).legal_moves()
    assert {"F": 4} == {v["move"]: v["captured"] for v in values if v["captured"]}
    for pos in small_positions(200, 8):
        e = tables.probe(pos)
        assert e is not None and e.seeds == pos.seeds_on_board
        assert e.lower <= e.estimate <= e.upper and e.exact == (e.lower == e.upper)
        assert e.final_total == pos.store(pos.to_move) + e.estimate
        assert e.result in ("win", "draw", "loss", "win_or_draw", "draw_or_loss", "unresolved")
        best = tables.best_moves(pos)
        assert set(best) <= set(pos.legal_moves())


def test_engine_with_tables_agrees_on_decided_results(tables):
    eng = oware.Engine(hash_mb=8, tablebase=tables)
    assert eng.tablebase_seeds == 8
    checked = 0
    for pos in small_positions(200, 8, seed=2):
        e = tables.probe(pos)
        if pos.is_decided or not pos.legal_moves() or e.result not in ("win", "loss"):
            continue
        r = eng.search(pos, depth=6)
        assert r.score.is_proven, (str(pos), e, str(r.score))
        assert (r.score.centiseeds > 0) == (e.result == "win"), (str(pos), e, str(r.score))
        checked += 1
    assert checked >= 10
    eng.set_tablebase(None)
    assert eng.tablebase_seeds == 0


def test_tablebase_files(tmp_path, tables):
    d = tmp_path / "tb"
    built = oware.Tablebase.build(6, d)
    assert built.max_seeds == 6 and len(list(d.glob("*"))) == 7
    opened = oware.Tablebase.open(d)
    assert oware.Tablebase.open(str(d)).max_seeds == 6
    for pos in small_positions(100, 6, seed=3):
        a, b = opened.probe(pos), tables.probe(pos)
        assert (a.lower, a.upper, a.result) == (b.lower, b.upper, b.result)
    assert oware.Engine(tablebase=str(d)).tablebase_seeds == 6


def test_tablebase_errors(tmp_path):
    with pytest.raises(oware.TablebaseError) as e:
        oware.Tablebase.open(tmp_path)
    assert e.value.code == "no_tables"
    with pytest.raises(oware.TablebaseError) as e:
        oware.Tablebase.build(99)
    assert e.value.code == "too_many_seeds" and "99" in e.value.message
    oware.Tablebase.build(2, tmp_path / "t")
    first = sorted((tmp_path / "t").iterdir())[0]
    first.write_bytes(b"not a table")
    with pytest.raises(oware.TablebaseError) as e:
        oware.Tablebase.open(tmp_path / "t")
    assert e.value.code == "corrupt" and first.name in e.value.message
    with pytest.raises(oware.TablebaseError):
        oware.Engine(tablebase=tmp_path)
