"""Oware Abapa (Awale) for Python.

The exact rules, the engine and the endgame tables of the `oware` Rust
project, compiled into the extension ``oware._oware`` and re-exported here:

- :class:`Position` (immutable), :class:`Game` (history, outcomes under
  R9-R11, undo), :class:`Trace`, :class:`Outcome`, :class:`Record` (OGN),
  :func:`perft`, :func:`divide`;
- :class:`Engine` (search with depth, time or node limits, analysis of every
  move, playing levels 1-10) and :class:`Tablebase` (build, open, probe);
- :func:`play_random_games`, many games played in Rust returned as NumPy
  arrays.

``oware.openspiel`` registers the game with OpenSpiel's ``pyspiel``,
``oware.pettingzoo`` provides a PettingZoo AEC environment and ``oware.gym``
a single-agent Gymnasium environment; each is imported on demand, so those
libraries are optional.
"""

from ._oware import (
    END_REASONS,
    MAX_LEVEL,
    MIN_LEVEL,
    Engine,
    EngineError,
    Game,
    GameStateError,
    IllegalMoveError,
    MoveAnalysis,
    MoveParseError,
    OgnParseError,
    Outcome,
    OwareError,
    Position,
    PositionParseError,
    Record,
    Score,
    SearchResult,
    Tablebase,
    TablebaseEntry,
    TablebaseError,
    Trace,
    divide,
    level_profile,
    observation,
    parse_moves,
    perft,
    play_random_games,
    read_ogn,
    read_ogn_all,
)

START = "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S"

__all__ = [
    "END_REASONS",
    "MAX_LEVEL",
    "MIN_LEVEL",
    "START",
    "Engine",
    "EngineError",
    "Game",
    "GameStateError",
    "IllegalMoveError",
    "MoveAnalysis",
    "MoveParseError",
    "OgnParseError",
    "Outcome",
    "OwareError",
    "Position",
    "PositionParseError",
    "Record",
    "Score",
    "SearchResult",
    "Tablebase",
    "TablebaseEntry",
    "TablebaseError",
    "Trace",
    "divide",
    "level_profile",
    "observation",
    "parse_moves",
    "perft",
    "play_random_games",
    "read_ogn",
    "read_ogn_all",
]
