# Tic-tac-toe engine: a perfect, allocation-free negamax with alpha-beta on a packed board.
# SPDX-License-Identifier: MIT
#
# Layout. The public board holds cell i (0..8, row-major) in bits 2i..2i+1: 0b00 empty, 0b01
# X, 0b10 O. The search holds each side as a 9-bit mask in move order - bit 0 the centre,
# bits 1-4 the corners, 5-8 the edges - so the lowest empty bit is the next move to try. A
# set of lines is 8 bits (bit i: WIN_LINES[i]). Byte tables indexed by masks replace loops.
# Shortcuts, each exact to the depth searched: a move that completes a line ends the search;
# against a threat only the block is searched; a fork wins; a side that can complete no line
# draws at best; a move that a symmetry maps onto an earlier one is not searched again.
# Memory. Nothing is allocated: every frame fits the 11 words MicroPython keeps on the C
# stack. A const() name costs no RAM, every other global a qstr: the root's scratch values
# live in named slots of _scores.
try:
    from micropython import const
except ImportError:

    def const(x):
        return x


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

_ALL = const(511)  # the nine cells
_RIM = const(510)  # all but the centre
_WIN = const(100)  # a win n plies from the root scores _WIN - n, a loss -(_WIN - n)
_INF = const(1000)  # beyond every score
_BIT8_LINES = const(20)  # the lines through bit 8 (cell 7), which _CELLS leaves out
# _CELLS[lines] is the cells the lines cover; the sections after it:
_CROSSINGS = const(256)  # + lines: the cells where two of them cross
_CORNER_MAP = const(512)  # + 16s + c: the image of corners c (bits 1-4 >> 1) by symmetry s
_EDGE_MAP = const(640)  # + 16s + e: the image of edges e (bits 5-8 >> 5) by symmetry s
# _ORDER[j] is the public cell of bit j; the sections after it:
_BIT_OF_CELL = const(9)  # + i: the bit of cell i
_LEVEL_DEPTH = const(18)  # + 2L: the plies level L searches
_LEVEL_CHANCE = const(19)  # + 2L: its chance in 256 of a random move instead
_ORDER = (
    b"\x04\x00\x02\x06\x08\x01\x03\x05\x07\x01\x05\x02\x06\x00\x07\x03\x08\x04"
    b"\x01\x80\x02\x40\x04\x20\x09\x00"
)
# _scores[bit] is the root move's score + _OFFSET, _TAKEN or _WORSE (below the best); then:
_OFFSET = const(128)
_TAKEN = const(0)
_WORSE = const(1)
_ROOT_SYMMETRIES = const(9)  # bit s: symmetry s maps the root position onto itself
_BEST = const(10)  # the best root score so far + _OFFSET
_EXACT = const(11)  # 1: every root score exact (a full window; for tests and the benchmark)


def _tables():
    # The 7 symmetries of the square other than the identity, as the images of cells 0..8:
    images = b"258147036876543210630741852210543876678345012036147258852741630"
    lines = [sum(1 << _ORDER[_BIT_OF_CELL + c] for c in line) for line in WIN_LINES]
    count, avoiding, two = bytearray(512), bytearray(512), bytearray(512)
    for m in range(512):
        count[m] = count[m >> 1] + (m & 1)
        for i in range(8):
            if not m & lines[i]:
                avoiding[m] |= 1 << i
            elif count[m & lines[i]] == 2:  # m & line <= m: already counted
                two[m] |= 1 << i
    cells = bytearray(_EDGE_MAP + 7 * 16)
    for s in range(256):
        for i in range(8):
            if s >> i & 1:
                cells[_CROSSINGS + s] |= cells[s] & lines[i]
                cells[s] |= lines[i] & 255
    for s in range(7):
        for j in range(1, 9):
            c = 1 << _ORDER[_BIT_OF_CELL + images[9 * s + _ORDER[j]] - 48]
            for m in range(16):
                if m >> (j - 1) % 4 & 1:
                    cells[_CORNER_MAP | (j > 4) << 7 | s << 4 | m] |= c >> 1 if j < 5 else c >> 5
    return count, avoiding, two, cells  # kept as built: no second copy at import


_scores = bytearray(12)
_nodes = 0
_horizon = 0  # at this many empty cells the search stops and evaluates
_child_empty = 0  # the empty cells of the root's children: R - 1 for R at the root
# Per 9-bit mask m: the bits set, the lines with no cell in m, the lines with two of m.
_POPCOUNT, _LINES_AVOIDING, _LINES_WITH_TWO, _CELLS = _tables()
del _tables, const  # const() is only needed while the module loads


def _search(me, opp, alpha, beta):
    # The value for `me`: exact inside (alpha, beta), else <= alpha or >= beta. A win with k
    # empty cells left scores _WIN - 1 - _child_empty + k. A third local would not fit the
    # frame, so `scratch` holds in turn a set of lines, the cells to block, a child's score.
    global _nodes
    _nodes += 1
    empty = _ALL ^ me ^ opp
    if _POPCOUNT[empty] <= _horizon:  # the depth limit: my open lines - the opponent's
        return _POPCOUNT[_LINES_AVOIDING[opp]] - _POPCOUNT[_LINES_AVOIDING[me]]
    if _LINES_WITH_TWO[me] & _LINES_AVOIDING[opp]:
        return _WIN - 2 - _child_empty + _POPCOUNT[empty]  # I complete a line: k - 1 left
    scratch = _LINES_WITH_TWO[opp] & _LINES_AVOIDING[me]  # the lines the opponent can complete
    if scratch:
        if _POPCOUNT[empty] > _horizon + 1:  # ...and we see it do so
            scratch = (_CELLS[scratch] | (scratch & _BIT8_LINES and 1 << 8)) & empty
            if scratch & (scratch - 1):  # two cells to block: it wins on its move
                return _child_empty - (_WIN - 3) - _POPCOUNT[empty]  # k - 2 cells left
            if _POPCOUNT[empty] == 2:
                return 0  # block, and the opponent's last move cannot win
            return -_search(opp, me | scratch, -beta, -alpha)  # only the block avoids that
    elif _POPCOUNT[empty] > _horizon + 2:
        # The lines where one more piece makes a threat; a cell on two of them forks.
        scratch = _LINES_AVOIDING[opp] & ~(_LINES_AVOIDING[me] | _LINES_WITH_TWO[me])
        if (_CELLS[_CROSSINGS | scratch] | (scratch & _BIT8_LINES == _BIT8_LINES) << 8) & empty:
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
        row = _CORNER_MAP | s << 4  # symmetry s; row | _EDGE_MAP for the edges
        if _CELLS[row | me >> 1 & 15] << 1 | _CELLS[row | _EDGE_MAP | me >> 5] << 5 != me & _RIM:
            continue
        if (
            _CELLS[row | opp >> 1 & 15] << 1 | _CELLS[row | _EDGE_MAP | opp >> 5] << 5
            == opp & _RIM
        ):
            fixed |= 1 << s
    return fixed


def _twin(cell, symmetries):
    # The lowest cell (a bit) onto which one of the symmetries maps `cell`.
    lowest = cell
    for s in range(7):
        if symmetries >> s & 1:
            image = (
                _CELLS[_CORNER_MAP | s << 4 | cell >> 1 & 15] << 1
                | _CELLS[_EDGE_MAP | s << 4 | cell >> 5] << 5
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


def _root(me, opp):
    # Score every move into _scores[bit]. Unless _EXACT, a move that wins at once makes the
    # others _WORSE, and alpha = best - 1 gives a tie its exact score, a worse move _WORSE.
    global _nodes
    _nodes = 1
    _scores[_ROOT_SYMMETRIES] = _symmetries(me, opp)
    _scores[_BEST] = 0
    for j in range(9):
        move = 1 << j
        if (me | opp) & move:
            score = _TAKEN
        elif _twin(move, _scores[_ROOT_SYMMETRIES]) < move:  # a symmetry maps it lower
            move = _twin(move, _scores[_ROOT_SYMMETRIES])  # that earlier twin, already scored
            score = _scores[_POPCOUNT[move - 1]]  # a bit's index: the bits below it
        elif _LINES_AVOIDING[_ALL ^ me ^ move]:  # it completes a line: a win in 1 ply
            score = _OFFSET + _WIN - 1
        elif _LINES_WITH_TWO[me] & _LINES_AVOIDING[opp] and not _scores[_EXACT]:
            score = _WORSE  # another move completes a line
        else:  # search it, giving the reply beta = -(best - 1), as score + _OFFSET terms go
            score = _INF if _scores[_EXACT] else _OFFSET + 1 - _scores[_BEST]  # that beta
            score = -_search(opp, me | move, -_INF, score) + _OFFSET
            if score < _scores[_BEST] and not _scores[_EXACT]:
                score = _WORSE
        if score > _scores[_BEST]:
            _scores[_BEST] = score
        _scores[j] = score


def _choose(rng):
    # A public cell of the best score: the first in move order, or uniform with rng.
    ties = 0
    for j in range(9):
        if _scores[j] == _scores[_BEST]:
            ties += 1
    pick = 0 if rng is None or ties < 2 else ties  # the pick-th of the equal-best moves
    while pick >= ties:  # uniform by rejection
        pick = rng.getrandbits(4)
    for j in range(9):
        if _scores[j] == _scores[_BEST]:
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
            sides |= 1 << _ORDER[_BIT_OF_CELL + i] + 9 * (board >> 2 * i & 3) - 9
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
    _scores[_EXACT] = 0
    _root(board & _ALL, board >> 9)
    return _choose(rng)


def last_nodes():
    """The positions the last search visited, the root included."""
    return _nodes


def level_move(board, player, level, rng=None):
    """The move at difficulty LEVELS[level] (0 = weakest): its depth and its random chance."""
    if not isinstance(level, int) or not 0 <= level < len(LEVELS):
        raise ValueError("level must index LEVELS")
    # (2 * level + ... takes one stack slot less than ... + 2 * level: an 11-word frame.)
    if rng is None or rng.getrandbits(8) >= _ORDER[2 * level + _LEVEL_CHANCE]:
        return best_move(board, player, _ORDER[2 * level + _LEVEL_DEPTH], rng)
    board = _setup(board, player, 9)
    _scores[_BEST] = _WORSE  # every empty cell ties
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
    return [board >> 2 * i & 3 for i in range(9)]


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
