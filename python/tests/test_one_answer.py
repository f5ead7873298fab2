"""One answer everywhere (issue 36): `Engine.analyze` gives the values and
the move order of `oware analyze --depth D --json` with the same tables,
whatever the Python engine's table size and what it searched before.

The command line is the `oware` binary of this clone: `OWARE_BIN`, which
scripts/test-python.sh sets after building it. The Rust side (the server,
the coach, the browser's module, the terminal) is compared with the same
command by crates/oware/tests/one_answer_everywhere.rs.
"""

import json
import os
import pathlib
import random
import subprocess

import pytest

import oware

from conftest import REPO

# The issue's example: at depth 14 the command line said B -4.04, A -4.56
# and the server A -2.10, B -3.75.
ISSUE = "1-2-0-5-3-1-2-0-4-1-2-3-12-12-S"
START = "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S"


def oware_bin() -> str:
    path = os.environ.get("OWARE_BIN") or str(REPO / "target" / "ci" / "oware")
    assert pathlib.Path(path).is_file(), (
        f"no oware binary at {path}: run scripts/test-python.sh, or set OWARE_BIN"
    )
    return path


@pytest.fixture(scope="module")
def table_dir(tmp_path_factory) -> pathlib.Path:
    d = tmp_path_factory.mktemp("tables")
    subprocess.run(
        [oware_bin(), "tablebase", "build", "--max-seeds", "10", "--dir", str(d)],
        check=True,
        capture_output=True,
    )
    return d


def cases():
    """The issue's position, then positions of seeded random games with
    their moves (the history since the last capture counts)."""
    out = [(ISSUE, "", 14), ("0-0-0-0-0-0-1-0-0-0-0-1-23-23-N", "fAaBbCcDdEeF", 12)]
    rng = random.Random(36)
    while len(out) < 22:
        g = oware.Game()
        moves = ""
        for _ in range(rng.randrange(20, 80)):
            legal = g.legal_moves()
            if g.is_over or not legal:
                break
            mv = rng.choice(legal)
            g.play(mv)
            moves += mv
        if not g.is_over and len(g.legal_moves()) > 1:
            out.append((START, moves, 10))
    return out


def cli_answer(start: str, moves: str, depth: int, tables: pathlib.Path):
    cmd = [oware_bin(), "analyze", "--position", start, "--depth", str(depth)]
    cmd += ["--json", "--tablebases", str(tables)]
    if moves:
        cmd += ["--moves", moves]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True)
    return [(m["move"], m["score_cp"]) for m in json.loads(out.stdout)["moves"]]


def test_one_answer_everywhere_python_and_the_command_line(table_dir):
    # A table size unlike the command line's, on an engine that has
    # searched other positions first.
    engine = oware.Engine(hash_mb=64, tablebase=str(table_dir))
    engine.search(oware.Game(), depth=12)
    differing = []
    all_cases = cases()
    assert len(all_cases) >= 20
    for start, moves, depth in all_cases:
        game = oware.Game(start, moves or None)
        mine = [(m.move, m.score.centiseeds) for m in engine.analyze(game, depth=depth)]
        theirs = cli_answer(start, moves, depth, table_dir)
        assert len(theirs) == len(game.legal_moves())
        if mine != theirs:
            differing.append(f"{start} {moves} d{depth}: cli {theirs}, python {mine}")
        engine.search(game, depth=8)
    assert not differing, "\n".join(differing)
