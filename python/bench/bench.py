"""Random playouts per second from Python: this package against OpenSpiel's
own oware in the same run, and the batch API's positions per second.

    python python/bench/bench.py [--seconds S] [--batch-games N]

Each figure is the best of three timed runs of about S seconds, as games
per wall-clock second and per CPU second (the fairer measure on a shared
machine; for the multi-threaded batch API it adds up all threads, so it is
a per-core figure). Set RAYON_NUM_THREADS=1 to run the batch on one thread. Games differ in
length: OpenSpiel's oware ends a game on the first repetition (and at 1,000
plies), these rules on the third occurrence since the last capture (R11),
so plies per second are printed beside games per second.
"""

import argparse
import os
import random
import time

import oware


def timed(fn, seconds):
    """(games, plies, wall seconds, CPU seconds) of the best of three runs
    of about `seconds` (best by games per wall second)."""
    best = None
    for _ in range(3):
        games = plies = 0
        t0, c0 = time.perf_counter(), time.process_time()
        while True:
            plies += fn()
            games += 1
            elapsed = time.perf_counter() - t0
            if elapsed >= seconds:
                break
        cpu = time.process_time() - c0
        if best is None or games / elapsed > best[0] / best[2]:
            best = (games, plies, elapsed, cpu)
    return best


def ours_game_loop(rng):
    """A random game with oware.Game, one Python call per move."""
    g = oware.Game()
    while not g.is_over:
        g.play_action(rng.choice(g.legal_actions()))
    return len(g)


def ours_position_loop(rng):
    """A random game with immutable Positions (no repetition rule: ends only
    by R9/R10 or 1,000 plies), to show the per-call cost."""
    p = oware.Position()
    n = 0
    while n < 1000:
        moves = p.legal_actions()
        if not moves:
            break
        p = p.play_action(rng.choice(moves))
        n += 1
    return n


def spiel_loop(game, rng):
    s = game.new_initial_state()
    n = 0
    while not s.is_terminal():
        s.apply_action(rng.choice(s.legal_actions()))
        n += 1
    return n


def report(name, games, plies, elapsed, cpu):
    """Prints and returns (games per wall second, games per CPU second)."""
    print(
        f"{name:<40} {games / elapsed:>9,.0f} games/s {plies / elapsed:>11,.0f} plies/s"
        f" | {games / cpu:>9,.0f} games/CPU-s  ({plies / games:.1f} plies/game)"
    )
    return games / elapsed, games / cpu


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--batch-games", type=int, default=20_000)
    args = ap.parse_args()
    rng = random.Random(1)
    print(f"load average: {os.getloadavg()}, cpus: {os.cpu_count()}, "
          f"RAYON_NUM_THREADS={os.environ.get('RAYON_NUM_THREADS', 'all')}")

    ours = report("oware.Game, Python loop", *timed(lambda: ours_game_loop(rng), args.seconds))
    report("oware.Position, Python loop", *timed(lambda: ours_position_loop(rng), args.seconds))

    spiel = None
    try:
        import pyspiel

        import oware.openspiel  # noqa: F401

        theirs = pyspiel.load_game("oware")
        spiel = report(
            "pyspiel 'oware' (C++), Python loop",
            *timed(lambda: spiel_loop(theirs, rng), args.seconds),
        )
        py_game = pyspiel.load_game("python_oware_abapa")
        report(
            "pyspiel 'python_oware_abapa' (this), Python loop",
            *timed(lambda: spiel_loop(py_game, rng), args.seconds),
        )
    except ImportError:
        print("open_spiel not installed: no OpenSpiel figures")

    # The batch API: many games in one call, played in Rust. CPU seconds
    # add up every thread's time, so games/CPU-s is per core.
    best = None
    for i in range(3):
        t0, c0 = time.perf_counter(), time.process_time()
        b = oware.play_random_games(args.batch_games, seed=i)
        elapsed, cpu = time.perf_counter() - t0, time.process_time() - c0
        positions = len(b["to_move"])
        if best is None or positions / elapsed > best[0] / best[1]:
            best = (positions, elapsed, cpu)
    positions, elapsed, cpu = best
    n = args.batch_games
    print(
        f"{'oware.play_random_games (batch, Rust)':<40} {n / elapsed:>9,.0f} games/s"
        f" {positions / elapsed:>11,.0f} positions/s | {n / cpu:>9,.0f} games/CPU-s"
        f"  ({n} games, {positions:,} positions)"
    )
    print(f"batch API: {positions / elapsed:,.0f} positions/s, "
          f"{positions / cpu:,.0f} positions/CPU-s")
    if spiel:
        print(
            "per game against pyspiel 'oware' (wall | CPU): "
            f"Python loop {ours[0] / spiel[0]:.1f}x | {ours[1] / spiel[1]:.1f}x, "
            f"batch API {n / elapsed / spiel[0]:.1f}x | {n / cpu / spiel[1]:.1f}x"
        )


if __name__ == "__main__":
    main()
