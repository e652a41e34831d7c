# Tic-tac-toe engine: a perfect, allocation-free negamax with alpha-beta on a packed board.
# SPDX-License-Identifier: MIT
#
# Boards. The public board holds cell i (0..8, row-major) in bits 2i..2i+1: 0b00 empty, 0b01
# X, 0b10 O. The search holds each side as a 9-bit mask in move order (_ORDER) - bit 0 the
# centre, bits 1-4 the corners, 5-8 the edges - so the lowest empty bit is the next move to
# try. A set of lines is 8 bits (bit i: WIN_LINES[i]). Byte tables indexed by masks replace
# loops. Scores: a win n plies from the root scores _WIN - n, a loss -(_WIN - n), a draw 0;
# at the depth limit a position scores the lines open to the side to move minus the other's.
# Shortcuts, each exact to the depth searched: a move that completes a line ends the search;
# against a threat only the block is searched; a fork wins; a side that can complete no line
# draws at best; a move that a symmetry maps onto an earlier one is not searched again.
# Memory. A search allocates nothing: every frame fits the 11 words that MicroPython keeps on
# the C stack (py/objfun.c, VM_MAX_STATE_ON_STACK), _search's exactly; a bigger frame goes on
# the heap. A const() name costs no RAM (a tuple's value lives with the code's constants);
# every other global costs a dict entry and a qstr.
from micropython import const

EMPTY = const(0)
X = const(1)
O = const(2)  # noqa: E741 - the contract names the pieces X and O

WIN_LINES = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6),
)  # fmt: skip
# Difficulty, weakest first, each picking at random among its equal-best moves:
#   easy     depth 1 (takes a win, blocks nothing), a random move 1 in 2
#   medium   depth 2 (takes wins, blocks threats),  a random move 1 in 4
#   hard     depth 4 (sees forks both ways),        a random move 1 in 8
#   perfect  depth 9, never a random move: it cannot lose
LEVELS = ("easy", "medium", "hard", "perfect")
_LEVEL_DEPTH = const((1, 2, 4, 9))  # the plies each level searches
_LEVEL_CHANCE = const((128, 64, 32, 0))  # its chance in 256 of a random move instead

_ORDER = const((4, 0, 2, 6, 8, 1, 3, 5, 7))  # the cell of bit j; cell i's bit: .index(i)
_ALL = const(511)  # the nine cells
_RIM = const(510)  # all but the centre
_WIN = const(100)  # a win n plies from the root scores _WIN - n, a loss -(_WIN - n)
_INF = const(1000)  # beyond every score
_BIT8_LINES = const(20)  # the lines through bit 8 (cell 7), which a byte table cannot hold
_OFFSET = const(128)  # a root move's score + _OFFSET, in a byte, is above these two:
_TAKEN = const(0)  # the cell is taken
_WORSE = const(1)  # the move scores below the best

_nodes = 0  # the positions the last search visited
_horizon = 0  # at this many empty cells the search stops and evaluates
_child_empty = 0  # the empty cells of the root's children: R - 1 for R at the root
_scores = bytearray(9)  # per root move (bit j): its score + _OFFSET, _TAKEN or _WORSE
_best = 0  # the highest of _scores


# The tables, built at import (all at once: fewer holes in a small heap). By a 9-bit mask m:
#   _POPCOUNT[m]        the bits set in m
#   _LINES_AVOIDING[m]  the lines with no cell in m
#   _LINES_WITH_TWO[m]  the lines with two cells in m
# By a set of lines l, as cells in bits 0-7 (bit 8, which a byte cannot hold, from _BIT8_LINES):
#   _LINE_CELLS[l]      the cells the lines cover
#   _CROSSINGS[l]       the cells where two of the lines cross
# The symmetry maps, by symmetry s (the square's 7 other than the identity, all fixing the
# centre) and a set of corners c (bits 1-4 >> 1) or of edges e (bits 5-8 >> 5):
#   _IMAGES[32s + c]    the image of the corners c; _IMAGES[32s + 16 + e]: of the edges e
def _tables():
    popcount, avoiding, two = bytearray(512), bytearray(512), bytearray(512)
    cells, crossings, images = bytearray(256), bytearray(256), bytearray(7 * 32)
    lines = [0] * 8  # WIN_LINES as masks
    for i in range(8):
        for c in WIN_LINES[i]:
            lines[i] |= 1 << _ORDER.index(c)
    for m in range(512):
        popcount[m] = popcount[m >> 1] + (m & 1)
        for i in range(8):
            if not m & lines[i]:
                avoiding[m] |= 1 << i
            elif popcount[m & lines[i]] == 2:  # m & line <= m: already counted
                two[m] |= 1 << i
    for k in range(256):  # every set of lines
        for i in range(8):
            if k >> i & 1:
                crossings[k] |= cells[k] & lines[i]
                cells[k] |= lines[i] & 255
    for s in range(7):  # symmetry s: a mirror image if s >= 3, then (s + 1) % 4 quarter turns
        for j in range(1, 9):
            row, col = divmod(_ORDER[j], 3)
            if s >= 3:
                col = 2 - col
            for _ in range((s + 1) % 4):
                row, col = col, 2 - row
            image = 1 << _ORDER.index(3 * row + col)
            if j < 5:  # a corner, in the sets of corners at 32s + c
                low, at = 1, 32 * s
            else:  # an edge, in the sets of edges at 32s + 16 + e
                low, at = 5, 32 * s + 16
            for m in range(16):
                if m >> j - low & 1:
                    images[at + m] |= image >> low
    return popcount, avoiding, two, cells, crossings, images


_POPCOUNT, _LINES_AVOIDING, _LINES_WITH_TWO, _LINE_CELLS, _CROSSINGS, _IMAGES = _tables()
del _tables, const  # const() is only needed while the module loads


def _search(me, opp, alpha, beta):
    # The value for `me`, the side to move: exact inside (alpha, beta), else <= alpha or >= beta.
    # A win that leaves k cells empty comes _child_empty + 1 - k plies after the root: it scores
    # _WIN - 1 - _child_empty + k. A third local would not fit the frame, so `scratch` holds in
    # turn a set of lines, the cells to block, a child's score.
    global _nodes
    _nodes += 1
    empty = _ALL ^ me ^ opp
    if _POPCOUNT[empty] <= _horizon:  # the depth limit: my open lines - the opponent's
        return _POPCOUNT[_LINES_AVOIDING[opp]] - _POPCOUNT[_LINES_AVOIDING[me]]
    if _LINES_WITH_TWO[me] & _LINES_AVOIDING[opp]:
        return _WIN - 2 - _child_empty + _POPCOUNT[empty]  # I complete a line: k - 1 left
    scratch = _LINES_WITH_TWO[opp] & _LINES_AVOIDING[me]  # the lines the opponent can complete
    if scratch:
        if _POPCOUNT[empty] > _horizon + 1:  # ...and the depth reaches its reply
            # Their empty cells (bit 8 if a line through it is among them): the cells to block.
            scratch = (_LINE_CELLS[scratch] | (scratch & _BIT8_LINES and 1 << 8)) & empty
            if scratch & (scratch - 1):  # two cells to block: it wins on its move
                return _child_empty - (_WIN - 3) - _POPCOUNT[empty]  # k - 2 cells left
            if _POPCOUNT[empty] == 2:
                return 0  # block, and the opponent's last move cannot win
            return -_search(opp, me | scratch, -beta, -alpha)  # only the block avoids that
    elif _POPCOUNT[empty] > _horizon + 2:
        # The lines with one piece of mine and none of the opponent's: one more piece makes a
        # threat, so an empty cell where two of them cross (bit 8 if both its lines) forks.
        scratch = _LINES_AVOIDING[opp] & ~(_LINES_AVOIDING[me] | _LINES_WITH_TWO[me])
        if (_CROSSINGS[scratch] | (scratch & _BIT8_LINES == _BIT8_LINES) << 8) & empty:
            return _WIN - 4 - _child_empty + _POPCOUNT[empty]  # two threats: won, k - 3 left
    if not _LINES_AVOIDING[opp]:  # I can no longer win: a draw at best
        if alpha >= 0 or not _LINES_AVOIDING[me]:
            return 0
    elif beta <= 0 and not _LINES_AVOIDING[me]:  # the opponent can no longer win
        return 0
    if _POPCOUNT[empty] < 3 and not _horizon:
        return 0  # no threat either way and at most my move and one reply left: a draw
    if _POPCOUNT[empty] >= _child_empty:  # a child of the root: twin moves have twin values
        empty = _distinct(me, opp, empty)
    while empty:  # the lowest bit first: centre, then corners, then edges
        scratch = -_search(opp, me | empty & -empty, -beta, -alpha)
        empty &= empty - 1
        if scratch > alpha:
            if scratch >= beta:
                return scratch
            alpha = scratch
    return alpha


def _symmetries(me, opp):
    # The symmetries (bit s) that map the position onto itself; all of them fix the centre.
    fixed = 0
    for s in range(7):
        row = 32 * s  # symmetry s: the images of corners, then of edges at row | 16
        if _IMAGES[row | me >> 1 & 15] << 1 | _IMAGES[row | 16 | me >> 5] << 5 != me & _RIM:
            continue
        if _IMAGES[row | opp >> 1 & 15] << 1 | _IMAGES[row | 16 | opp >> 5] << 5 == opp & _RIM:
            fixed |= 1 << s
    return fixed


def _twin(cell, symmetries):
    # The lowest cell (a bit) onto which one of the symmetries maps `cell`.
    lowest = cell
    for s in range(7):
        if symmetries >> s & 1:
            image = (
                _IMAGES[32 * s | cell >> 1 & 15] << 1
                | _IMAGES[32 * s | 16 | cell >> 5] << 5
                | cell & 1
            )
            if image < lowest:
                lowest = image
    return lowest


def _distinct(me, opp, moves):
    # The cells of `moves` that are the lowest of their twins in this position.
    symmetries = _symmetries(me, opp)
    if not symmetries:
        return moves
    distinct = 0
    while moves:
        move = moves & -moves
        moves ^= move
        if _twin(move, symmetries) == move:
            distinct |= move
    return distinct


def _root(me, opp, exact):
    # Score every move into _scores[bit] and the highest into _best. Unless `exact`, a move
    # that cannot be among the best scores _WORSE: a move that wins at once makes the others
    # _WORSE, and the reply to each gets beta = -(best - 1), exact for a tie, a bound if worse.
    global _nodes, _best
    _nodes = 1
    _best = 0
    symmetries = _symmetries(me, opp)
    move = 1
    while move & _ALL:  # each cell as its bit, in move order
        if (me | opp) & move:
            score = _TAKEN
        elif _twin(move, symmetries) < move:  # a symmetry maps it onto a move already scored
            score = _scores[_POPCOUNT[_twin(move, symmetries) - 1]]
        elif _LINES_AVOIDING[_ALL ^ me ^ move]:  # it completes a line: a win in 1 ply
            score = _OFFSET + _WIN - 1
        elif _LINES_WITH_TWO[me] & _LINES_AVOIDING[opp] and not exact:
            score = _WORSE  # another move completes a line
        else:  # search it, giving the reply beta = -(best - 1), as score + _OFFSET terms go
            score = _INF if exact else _OFFSET + 1 - _best  # that beta
            score = -_search(opp, me | move, -_INF, score) + _OFFSET
            if score < _best and not exact:
                score = _WORSE
        if score > _best:
            _best = score
        _scores[_POPCOUNT[move - 1]] = score  # bit j is at j: the j bits below it
        move <<= 1


def _choose(rng):
    # A public cell of the best score: the first in move order, or uniform with rng.
    ties = 0
    for j in range(9):
        if _scores[j] == _best:
            ties += 1
    pick = 0 if rng is None or ties < 2 else ties  # the pick-th of the equal-best moves
    while pick >= ties:  # uniform by rejection
        pick = rng.getrandbits(4)
    for j in range(9):
        if _scores[j] == _best:
            if not pick:
                return _ORDER[j]
            pick -= 1


def _sides(board):
    # Check a board; return X's mask | O's mask << 9.
    if not isinstance(board, int) or isinstance(board, bool) or board < 0 or board >> 18:
        raise ValueError("board must be an int, 0 <= board < 2**18")
    sides = 0
    for i in range(9):
        if board >> 2 * i & 3 == 3:
            raise ValueError("cell %d is 0b11: allowed 0b00, 0b01 X, 0b10 O" % i)
        if board >> 2 * i & 3:  # X (1) at bit b, O (2) at bit b + 9
            sides |= 1 << _ORDER.index(i) + 9 * (board >> 2 * i & 3) - 9
    if not 0 <= _POPCOUNT[sides & _ALL] - _POPCOUNT[sides >> 9] <= 1:
        raise ValueError("impossible counts: X moves first, so X has as many as O or one more")
    return sides


def _setup(board, player, depth):
    # Check a position to move from; set the search's globals; return me | opp << 9.
    global _horizon, _child_empty
    sides = _sides(board)
    x_mask, o_mask = sides & _ALL, sides >> 9
    if player != X and player != O:
        raise ValueError("player must be X (1) or O (2)")
    if _POPCOUNT[x_mask] - _POPCOUNT[o_mask] != player - 1:
        raise ValueError("player is not the side to move")
    if _LINES_AVOIDING[_ALL ^ x_mask] or _LINES_AVOIDING[_ALL ^ o_mask] or x_mask | o_mask == _ALL:
        raise ValueError("the game is over")
    if not isinstance(depth, int) or not 0 < depth < 10:
        raise ValueError("depth must be 1..9")
    _child_empty = 8 - _POPCOUNT[x_mask] - _POPCOUNT[o_mask]
    _horizon = _child_empty + 1 - depth if _child_empty >= depth else 0
    return sides if player == X else o_mask | x_mask << 9


def best_move(board, player, depth=9, rng=None):
    """The cell (0..8) for `player`, the side to move; depth 9 plays perfectly. A win in n
    plies scores 100 - n, a loss -(100 - n). Of equal-best moves: the first of centre, corners,
    edges, or with `rng` (anything with getrandbits) one at random. ValueError for a malformed
    board, a wrong player, a finished game or a bad depth. Allocates nothing."""
    board = _setup(board, player, depth)
    _root(board & _ALL, board >> 9, False)
    return _choose(rng)


def root_scores(board, player, depth=9):
    """The exact score of every move for `player`, the side to move, searching `depth` plies:
    a new list of 9 by cell (0..8), None for a taken cell. A win in n plies scores 100 - n, a
    loss -(100 - n), a draw 0; a line of play that the depth cuts off scores what evaluate()
    gives `player` where it stops. best_move searches a worse move only far enough to rule it
    out; here every move gets a full window, and last_nodes() counts that whole search.
    ValueError as for best_move. The search allocates nothing; the returned list is new."""
    board = _setup(board, player, depth)
    _root(board & _ALL, board >> 9, True)
    scores = []
    for i in range(9):  # by cell
        score = _scores[_ORDER.index(i)]
        scores.append(None if score == _TAKEN else score - _OFFSET)
    return scores


def last_nodes():
    """The positions the last search visited, the root included."""
    return _nodes


def level_move(board, player, level, rng=None):
    """The move at difficulty LEVELS[level] (0 = weakest): its depth and its random chance."""
    global _best
    if not isinstance(level, int) or not 0 <= level < len(LEVELS):
        raise ValueError("level must index LEVELS")
    if rng is None or rng.getrandbits(8) >= _LEVEL_CHANCE[level]:
        return best_move(board, player, _LEVEL_DEPTH[level], rng)
    board = _setup(board, player, 9)
    _best = _WORSE  # every empty cell ties
    for j in range(9):
        _scores[j] = _TAKEN if (board | board >> 9) >> j & 1 else _WORSE
    return _choose(rng)


def pack(cells):
    """The board int of 9 cell values (EMPTY, X or O), row-major from the top-left."""
    board = 0
    for i in range(9):
        if len(cells) != 9 or cells[i] not in (EMPTY, X, O):
            raise ValueError("pack needs 9 cells, each 0, 1 or 2")
        board |= cells[i] << 2 * i
    return board


def unpack(board):
    """The list of the 9 cell values of a board."""
    _sides(board)
    cells = [0] * 9
    for i in range(9):
        cells[i] = board >> 2 * i & 3
    return cells


def winner(board):
    """X or O if that side has three in a row, else EMPTY."""
    sides = _sides(board)
    if _LINES_AVOIDING[_ALL ^ sides & _ALL]:  # a line that avoids every cell but X's
        return X
    return O if _LINES_AVOIDING[_ALL ^ sides >> 9] else EMPTY


def winning_line(board):
    """A completed line as 3 cells (the first in WIN_LINES), or None."""
    sides = _sides(board)
    lines = _LINES_AVOIDING[_ALL ^ sides & _ALL] | _LINES_AVOIDING[_ALL ^ sides >> 9]  # done
    return WIN_LINES[_POPCOUNT[(lines & -lines) - 1]] if lines else None  # the lowest line


def to_move(board):
    """X or O: whose turn it is by the counts (ValueError for a malformed board)."""
    sides = _sides(board)
    return X if _POPCOUNT[sides & _ALL] == _POPCOUNT[sides >> 9] else O


def evaluate(board, player):
    """Static score for `player` (X or O): 100 with three in a row, -100 if the opponent has
    three, else the lines still open to player minus those open to the opponent (-8..8)."""
    if player != X and player != O:
        raise ValueError("player must be X (1) or O (2)")
    sides = _sides(board)
    me, opp = sides & _ALL, sides >> 9
    if player == O:
        me, opp = opp, me
    if _LINES_AVOIDING[_ALL ^ me] or _LINES_AVOIDING[_ALL ^ opp]:  # a line complete
        return 100 if _LINES_AVOIDING[_ALL ^ me] else -100
    return _POPCOUNT[_LINES_AVOIDING[opp]] - _POPCOUNT[_LINES_AVOIDING[me]]  # open lines
