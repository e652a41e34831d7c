# web/coachtree.py (the page's tree explorer) under MicroPython: what the browser checks cannot
# reach. Every score, count and cut-off mark is checked in Chromium (host_tests/web/web_coach.mjs).
# SPDX-License-Identifier: MIT
import json

import coachtree
import gameboard
import mptest
from engine import O, X  # noqa: E741 - the pieces' names
from mptest import check


def board_of(cells):
    return gameboard.pack([" XO".index(c) for c in cells])


def test_a_node_must_be_listed_before_it_is_expanded():
    tree = coachtree.Tree(0, X)
    for path in ("4", "44", "x"):
        try:
            tree.expand(path)
        except ValueError as exc:
            check("is not listed" in str(exc), str(exc))
        else:
            check(False, "expanded %r before its parent" % path)
    check(len(json.loads(tree.expand(""))) == 9)
    check(len(json.loads(tree.expand("4"))) == 8)


def test_a_finished_game_has_no_moves_and_the_engine_no_count():
    won = board_of("XXXOO    ")  # X has the top row
    tree = coachtree.Tree(won, O)
    root = json.loads(tree.root())
    check(root["over"] and root["line"] == "" and root["engine"] is None, str(root))
    check(root["minimax"] == 1, "a finished game is one position: %r" % root["minimax"])
    check(tree.expand("") == "[]")


def test_a_winning_move_ends_its_branch():
    tree = coachtree.Tree(board_of("XX OO    "), X)  # X completes the top row at 2
    moves = {m["cell"]: m for m in json.loads(tree.expand(""))}
    win = moves[2]
    check(win["over"] and win["score"] == 99 and win["mark"] == "W1" and win["line"], str(win))
    check(win["minimax"] == 1 and win["engine"] is None, str(win))
    check(tree.expand("2") == "[]")
    # Every other move lets O complete its row at 5: a loss in 2 plies, L1.
    for cell in (6, 7, 8):
        check(moves[cell]["mark"] == "L1" and moves[cell]["score"] == -98, str(moves[cell]))


mptest.run(globals())
