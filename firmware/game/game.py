# One game of tic-tac-toe as the app plays it: board, move history, undo, result and tally.
# SPDX-License-Identifier: MIT
import engine
from micropython import const
from valid import int_in

# Modes.
ONE_PLAYER = const(0)  # the human against the CPU
TWO_PLAYERS = const(1)  # two humans on one device
DEMO = const(2)  # the CPU against itself
LINK = const(3)  # against the player of another board, over the link cable (linkplay.py)
# Results: 0 while the game runs, else the winner (engine.X / engine.O) or DRAW.
PLAYING = const(0)
DRAW = const(3)
# Who starts a one-player game (the settings key "starts").
START_YOU = const(0)
START_CPU = const(1)
START_ALTERNATE = const(2)


class Game:
    """A game in progress. The board is the engine's packed int; X always moves first."""

    def __init__(self):
        self.moves = bytearray(9)  # cells in the order they were played
        self.count = 0
        self.board = 0
        self.mode = ONE_PLAYER
        self.human = engine.X  # the human's mark in a one-player game
        self.level = 0
        self.result = PLAYING
        self.line = None  # the winning line (3 cells) once someone has won
        self.games = 0  # one-player games begun (who starts, when it alternates)

    def begin(self, mode, settings):
        """A new game of `mode` (ONE_PLAYER or TWO_PLAYERS) at the level of `settings`
        (settings.Settings), the human starting as its "starts" says against the CPU."""
        human = engine.X
        if mode == ONE_PLAYER:
            if not first_player(settings.get("starts"), self.games):
                human = engine.O
            self.games += 1
        self.start(mode, human, settings.get("level"))

    def start(self, mode, human=engine.X, level=0):
        """A new game of `mode` (ONE_PLAYER, TWO_PLAYERS, DEMO, LINK), the human playing `human`
        (engine.X or O), at index `level` of engine.LEVELS; ValueError for anything else (the
        one range check, valid.int_in: its message is the only copy in RAM; it allocates
        nothing, and the review restarts a game per step)."""
        int_in("mode", mode, ONE_PLAYER, LINK)
        int_in("human", human, engine.X, engine.O)
        int_in("level", level, 0, len(engine.LEVELS) - 1)
        self.mode = mode
        self.human = human
        self.level = level
        self.count = 0
        self.board = 0
        self.result = PLAYING
        self.line = None

    def turn(self):
        """The mark to move next (X on even move counts)."""
        return engine.O if self.count & 1 else engine.X

    def over(self):
        return self.result != PLAYING

    def cpu_to_move(self):
        if self.result != PLAYING:
            return False
        if self.mode == DEMO:
            return True
        return self.mode == ONE_PLAYER and self.turn() != self.human

    def free(self, i):
        return self.result == PLAYING and (self.board >> (2 * i)) & 3 == 0

    def play(self, i):
        """Put the mark of the side to move on cell i; return the result afterwards."""
        if not self.free(int_in("cell", i, 0, 8)):
            raise ValueError("cell %d is taken or the game is over" % i)
        self.board |= self.turn() << (2 * i)
        self.moves[self.count] = i
        self.count += 1
        self._settle()
        return self.result

    def cpu_move(self, level, rng):
        """The engine's move for the side to move at level index `level` (not yet played)."""
        return engine.level_move(self.board, self.turn(), level, rng)

    def hint(self):
        """The perfect move for the side to move (for the hint), or -1 if the game is over."""
        if self.result != PLAYING:
            return -1
        return engine.best_move(self.board, self.turn())

    def undo_to(self):
        """How many moves undo() would leave, or -1 if it has nothing to take back: then
        moves[undo_to()] is the human move it takes back."""
        keep = self.count - 1
        if self.mode == ONE_PLAYER:
            # Move k was played by X when k is even.
            while keep >= 0 and (engine.O if keep & 1 else engine.X) != self.human:
                keep -= 1
        elif self.mode == DEMO:
            return -1  # two players: the last move; a link game: this board's, refused there
        return keep

    def undo(self):
        """Take back the last human move (and, against the CPU, the reply after it).

        Returns True if anything was taken back. Against the CPU, a CPU move with no human move
        before it (the CPU's opening) stays on the board.
        """
        keep = self.undo_to()
        if keep < 0:
            return False
        board = 0
        for k in range(keep):
            board |= (engine.O if k & 1 else engine.X) << (2 * self.moves[k])
        self.board = board
        self.count = keep
        self._settle()
        return True

    def _settle(self):
        won = engine.winner(self.board)
        if won != engine.EMPTY:
            self.result = won
            self.line = engine.winning_line(self.board)
        else:
            self.result = DRAW if self.count == 9 else PLAYING
            self.line = None

    def tally_slot(self):
        """Which tally to bump for the finished game: (settings key, index) or None (the demo; a
        link game's tally is linkplay.py's)."""
        if self.mode == ONE_PLAYER:
            if self.result == DRAW:
                return "tally1", 1
            return "tally1", 0 if self.result == self.human else 2
        if self.mode == TWO_PLAYERS:
            # tally2 is [x_wins, o_wins, draws]: X=1 -> 0, O=2 -> 1, DRAW=3 -> 2.
            return "tally2", self.result - 1
        return None


def first_player(starts, game_number):
    """Whether the human moves first in a one-player game under the "starts" setting.

    With START_ALTERNATE the human starts games 0, 2, 4, ... of the session.
    """
    if starts == START_YOU:
        return True
    if starts == START_CPU:
        return False
    return game_number & 1 == 0


def next_free(game, cell, step):
    """The next free cell after `cell` going by step (+1/-1) in reading order, wrapping;
    `cell` itself if no other cell is free."""
    c = cell
    for _ in range(8):
        c = (c + step) % 9
        if game.free(c):
            return c
    return cell


def toward(game, cell, drow, dcol):
    """The nearest free cell in a direction (one of drow, dcol is +1/-1, the other 0).

    Cells straight ahead come first, then ahead on a neighbouring row or column; the board
    wraps around, so a move never gets stuck while some cell in that direction is free.
    Returns `cell` if no free cell lies in that direction at all.
    """
    row = cell // 3
    col = cell % 3
    best = cell
    best_key = 99
    for c in range(9):
        if c == cell or not game.free(c):
            continue
        dr = c // 3 - row
        dc = c % 3 - col
        if drow:
            ahead = (dr * drow) % 3
            side = dc
        else:
            ahead = (dc * dcol) % 3
            side = dr
        if ahead:
            key = ahead * 3 + (side if side >= 0 else -side)
            if key < best_key:
                best_key = key
                best = c
    return best
