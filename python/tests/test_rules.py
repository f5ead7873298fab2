"""The rules through the Python API: the core's data-driven rule and
example files (R1-R13, E1-E12), perft vectors, positions, games, errors."""

import copy
import pickle
import re

import pytest

import oware
from conftest import CORE_DATA, read_cases

# IllegalMove variants as written in the data files -> the binding's codes.
CODES = {
    "GameOver": "game_over",
    "NotYourHouse": "not_your_house",
    "EmptyHouse": "empty_house",
    "MustFeed": "must_feed",
}


def rule_cases():
    out = []
    for name in ("examples.txt", "rules.txt"):
        for case in read_cases(CORE_DATA / name):
            case_id = dict(case).get("id", "?")
            out.append(pytest.param(case, id=f"{name}:{case_id}"))
    return out


@pytest.mark.parametrize("case", rule_cases())
def test_rule_case(case):
    game = None
    last_captured = None
    last_trace = None
    for key, value in case:
        if key in ("id", "rules"):
            continue
        if key == "pos":
            game = oware.Game(None if value == "start" else value)
        elif key == "invalid":
            with pytest.raises(oware.PositionParseError) as err:
                oware.Position(value)
            assert err.value.code in ("wrong_total", "bad_count", "field_count", "bad_side")
        elif key == "moves":
            for letter in value.replace(" ", ""):
                last_trace = game.play_traced(letter)
                last_captured = last_trace.captured_seeds
        elif key == "after":
            assert str(game.position) == value
        elif key == "captured":
            assert last_captured == int(value)
        elif key == "sown":
            assert "".join(last_trace.sown) == value
        elif key == "legal":
            assert "".join(game.legal_moves()) == ("" if value == "-" else value)
        elif key == "illegal":
            mv, why = value.split()
            before = str(game.position)
            with pytest.raises(oware.IllegalMoveError) as err:
                game.play(mv)
            assert err.value.code == CODES[why]
            assert err.value.rule.startswith("R")
            assert str(game.position) == before
            with pytest.raises(oware.IllegalMoveError):
                game.position.play(mv)
        elif key == "to-move":
            assert game.to_move == value
        elif key == "action":
            words = value.split()
            if words[0] == "agree":
                game.agree_to_stop()
            elif words[0] == "pass":
                game.pass_turn()
            elif words[0] == "resign":
                game.resign(words[1])
            elif words[0] == "time":
                game.lose_on_time(words[1])
            else:
                pytest.fail(f"unknown action {value}")
        elif key == "final":
            totals, reason, winner = value.split()
            s, n = map(int, totals.split("-"))
            out = game.outcome
            assert out is not None
            assert out.totals == (s, n)
            assert out.reason == reason
            assert out.winner == (None if winner == "draw" else winner)
            assert out.value == {"S": 1, "N": -1, "draw": 0}[winner]
            assert game.is_over and game.legal_moves() == []
        elif key == "ongoing":
            assert not game.is_over and game.outcome is None
        elif key == "over-at":
            n = int(value)
            assert len(game) == n and game.is_over
            if n > 0:
                replay = oware.Game(game.start, game.plies[: n - 1])
                assert not replay.is_over
        else:
            pytest.fail(f"unknown key {key}")


def perft_cases():
    out = []
    for case in read_cases(CORE_DATA / "perft.txt"):
        d = dict(case)
        for key, value in case:
            if key == "perft":
                depth, nodes = map(int, value.split())
                if nodes <= 2_000_000:
                    out.append(pytest.param(d["pos"], depth, nodes, id=f"{d['id']}-{depth}"))
    return out


@pytest.mark.parametrize("pos,depth,nodes", perft_cases())
def test_perft_vectors(pos, depth, nodes):
    assert oware.perft(depth, pos) == nodes
    assert oware.Position(pos).perft(depth) == nodes
    if depth >= 1:
        assert sum(oware.divide(depth, pos).values()) == nodes


def test_position_basics():
    p = oware.Position()
    assert p == oware.Position.start() == oware.Position(oware.START)
    assert p.houses == (4,) * 12 and p.stores == (0, 0) and p.to_move == "S"
    assert p.legal_moves() == list("ABCDEF") and p.legal_actions() == [0, 1, 2, 3, 4, 5]
    assert p.legal_mask == 0b111111
    q = p.play("F")
    assert str(q) == "4-4-4-4-4-0-5-5-5-5-4-4-0-0-N"
    assert p.play(5) == q and p.play_action(5) == q
    assert q.play_action(0) == q.play("a")
    assert str(p) == oware.START, "play returns a new position"
    assert q.seeds("a") == 5 and q.seeds(6) == 5 and q.store("S") == 0
    assert q.seeds_on_board == 48 and not q.is_decided
    assert hash(q) == hash(oware.Position(str(q))) and len({p, q, p.play("F")}) == 2
    assert pickle.loads(pickle.dumps(q)) == q and copy.deepcopy(q) == q
    assert repr(q) == "Position('4-4-4-4-4-0-5-5-5-5-4-4-0-0-N')"
    assert "A" in p.diagram() and "f" in p.diagram()
    assert q.with_to_move("S").to_move == "S"
    built = oware.Position.from_houses([0, 0, 0, 0, 0, 2, 1, 1, 0, 0, 4, 0], (20, 20), "S")
    assert str(built) == "0-0-0-0-0-2-1-1-0-0-4-0-20-20-S"


def test_trace_capture_and_grand_slam():
    # E2: F sows a, b and captures 2 + 2.
    t = oware.Position("0-0-0-0-0-2-1-1-0-0-4-0-20-20-S").trace("F")
    assert t.move == "F" and t.sown == ["a", "b"] and t.last == "b"
    assert t.captured == [("b", 2), ("a", 2)] and t.captured_seeds == 4
    assert not t.grand_slam and str(t.after) == "0-0-0-0-0-0-0-0-0-0-4-0-24-20-N"
    # A capture of the whole opposing row is cancelled (R7).
    slam = oware.Position("0-0-0-0-0-2-1-1-0-0-0-0-22-22-S").trace("F")
    assert slam.grand_slam and slam.captured == [] and slam.after.stores == (22, 22)


def test_errors_carry_code_and_message():
    with pytest.raises(oware.PositionParseError) as e:
        oware.Position("4-4-4-x-4-4-4-4-4-4-4-4-0-0-S")
    assert e.value.code == "bad_count" and e.value.column == 7
    assert "house D" in str(e.value) and e.value.message == str(e.value)
    with pytest.raises(oware.PositionParseError) as e:
        oware.Position.from_houses([4] * 12, (1, 0))
    assert e.value.code == "wrong_total" and "49" in e.value.message
    with pytest.raises(oware.MoveParseError) as e:
        oware.Game(moves="FfXe")
    assert e.value.code == "bad_letter" and e.value.column == 3
    with pytest.raises(oware.IllegalMoveError) as e:
        oware.Position().play("a")
    assert (e.value.code, e.value.rule) == ("not_your_house", "R3")
    assert "illegal move a" in str(e.value)
    with pytest.raises(oware.GameStateError) as e:
        oware.Game().undo()
    assert e.value.code == "nothing_to_undo"
    with pytest.raises(oware.OwareError) as e:
        oware.Position().play(12)
    assert e.value.code == "bad_house"
    with pytest.raises(oware.OwareError) as e:
        oware.Position().play_action(6)
    assert e.value.code == "bad_action"
    with pytest.raises(TypeError):
        oware.Position().play(1.5)
    # Every oware error is a ValueError too.
    assert issubclass(oware.IllegalMoveError, oware.OwareError)
    assert issubclass(oware.OwareError, ValueError)


def test_game_history_undo_and_outcome():
    g = oware.Game(moves="FfBe")
    assert g.plies == list("FfBe") and g.moves == "FfBe" and len(g) == 4
    assert [str(p) for p in g.positions][0] == oware.START and len(g.positions) == 5
    assert g.position == g.positions[-1] and g.to_move == "S"
    c = g.copy()
    assert g.undo() == "e" and g.moves == "FfB" and c.moves == "FfBe"
    assert copy.deepcopy(c).moves == "FfBe"
    assert g.play("e") == 0 and g.captured_by(3) == 0
    with pytest.raises(IndexError):
        g.captured_by(10)
    # A game that ends on the third occurrence (E11) can be undone and reopened.
    g = oware.Game("0-0-0-0-0-0-1-0-0-0-0-1-23-23-N", "fAaBbCcDdEeFfAaBbCcDdEeFf")
    assert g.outcome.reason == "repetition" and g.outcome.rule == "R11"
    with pytest.raises(oware.GameStateError) as e:
        g.play("A")
    assert e.value.code == "game_over"
    g.undo()
    assert not g.is_over and g.legal_moves()
    assert len(g.since_last_capture) == len(g.positions)


def test_ogn_round_trip_and_errors():
    g = oware.Game(moves="FfBeCd")
    text = g.to_ogn([("South", "Ann"), ("North", "Kofi")])
    rec = oware.read_ogn(text)
    assert rec.tags["South"] == "Ann" and rec.tag("North") == "Kofi"
    assert rec.game.moves == "FfBeCd" and rec.result == "*"
    assert rec.write() == text and oware.Record.parse(text).write() == text
    rec.set_tag("Event", "club")
    assert oware.read_ogn(rec.write()).tag("Event") == "club"
    both = oware.read_ogn_all(text + "\n" + text)
    assert len(both) == 2
    finished = oware.Game("0-0-0-0-0-0-1-0-0-0-0-1-23-23-N", "fAaBbCcDdEeFfAaBbCcDdEeFf")
    rec = oware.Record.from_game(finished)
    assert rec.result == "24-24" and oware.read_ogn(rec.write()).game.outcome.reason == "repetition"
    with pytest.raises(oware.OgnParseError) as e:
        oware.read_ogn('[Variant "Abapa"]\n\n1. F f 2. a *\n')
    assert e.value.code == "not_your_house" and e.value.rule == "R3"
    assert (e.value.line, e.value.column) == (3, 11)
    assert re.match(r"line 3, column 11: illegal move a", str(e.value))
    with pytest.raises(oware.OgnParseError) as e:
        oware.read_ogn("")
    assert e.value.code == "empty"


def test_parse_moves():
    assert oware.parse_moves("F f B e") == list("FfBe")
    with pytest.raises(oware.MoveParseError):
        oware.parse_moves("Fg")


def test_games_pickle_with_their_history_and_outcome():
    games = [oware.Game(moves="FfBe"), oware.Game()]
    g = oware.Game(moves="FfB")
    g.pass_turn()
    games.append(g)
    g = oware.Game(moves="Ff")
    g.resign("N")
    games.append(g)
    games.append(oware.Game("0-0-0-0-0-0-1-0-0-0-0-1-23-23-N", "fAaBbCcDdEeFfAaBbCcDdEeFf"))
    for g in games:
        h = pickle.loads(pickle.dumps(g))
        assert h.plies == g.plies and h.start == g.start and h.outcome == g.outcome
        assert h.positions == g.positions
    assert oware.Game.from_ogn(games[0].to_ogn()).moves == "FfBe"
