# Tic-tac-toe engine: a perfect, allocation-free negamax with alpha-beta on a packed board.
# SPDX-License-Identifier: MIT
#
# Boards. The public board is an int: cell i (0..8, row-major from the top-left) in bits
# 2i..2i+1, 0b00 empty, 0b01 X, 0b10 O. The search keeps each side as a 9-bit mask in move
# order - bit 0 the centre, bits 1-4 the corners, bits 5-8 the edges - so the lowest empty bit
# is the next move to try. _search(me, opp, ...) has `me` to move; it makes a move as
# `me | bit` in the call and unmakes it by returning. Lines are 8-bit sets (bit i: WIN_LINES[i]).
#
# Tables, bytes built once at import (the bytearrays indexed by a 9-bit mask m):
#   _POPCOUNT[m]         the bits set in m: pieces, empty cells or lines
#   _LINES_AVOIDING[m]   the lines with no cell in m (_LINES_AVOIDING[opp]: lines open to me)
#   _LINES_WITH_TWO[m]   the lines holding exactly two cells of m
#   _CELLS               cell sets per line set and per symmetry (see _tables)
#   _ORDER               the cell of each bit, the bit of each cell, and the level table
#
# Shortcuts, each giving the value a full-width search to the same depth would: a move that
# completes a line ends the node; against a threat only the block is searched (two threats
# lose); a move that makes two threats wins; a side that can no longer complete a line can
# at best draw; at the root and its children, a move that a symmetry of the position maps
# onto an earlier move is not searched (the root copies its twin's score).
#
# Memory. Nothing in the search creates an object, and each function keeps its arguments,
# locals and evaluation stack within the 11 words MicroPython holds on the C stack (one more
# and every call allocates its frame): _search has room for two locals, _root for three. A
# const() name costs no RAM but every other global costs a qstr, so the root's scratch
# values live in named slots of _scores.
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
# Difficulty, weakest first (depth and chance in _ORDER), each picking at random among its
# equal-best moves:  easy     depth 1 (takes a win, blocks nothing), a random move 1 in 2
#                    medium   depth 2 (takes wins, blocks threats),  a random move 1 in 4
#                    hard     depth 4 (sees forks both ways),        a random move 1 in 8
#                    perfect  depth 9, never a random move: it cannot lose
LEVELS = ("easy", "medium", "hard", "perfect")

_ALL = const(511)  # all nine cells
_WIN = const(100)  # a win n plies from the root scores _WIN - n, a loss -(_WIN - n)
_INF = const(1000)  # beyond every score
_LINES_ON_BIT8 = const(20)  # the lines through bit 8 (cell 7): row 6-7-8, column 1-4-7
# Sections of _CELLS (indexed by a line set or 16 * symmetry + 4 cells; bit 8 is left out):
_CROSSINGS = const(256)  # + lines: the cells where two of the lines cross
_CORNER_IMAGE = const(512)  # + 16s + c: where symmetry s maps the corners c (bits 1-4 >> 1)
_EDGE_IMAGE = const(640)  # + 16s + e: where symmetry s maps the edges e (bits 5-8 >> 5)
# _ORDER[j] is the cell at bit j, in move order; then, per cell and per level:
_BIT_OF_CELL = const(9)  # + i: the bit of cell i
_LEVEL_DEPTH = const(18)  # + 2L: the plies level L searches
_LEVEL_CHANCE = const(19)  # + 2L: its chance in 256 of playing a random move instead
# _scores[bit] is the root move's score + _OFFSET, or _TAKEN, or _WORSE (proven below the
# best); then the root's scratch slots.
_OFFSET = const(128)
_TAKEN = const(0)
_WORSE = const(1)
_ROOT_SYMMETRIES = const(9)  # bit s: symmetry s maps the root position onto itself
_BEST = const(10)  # the best root score so far + _OFFSET
_EXACT = const(11)  # 1: search every root move with a full window (exact scores, for tests)
_ORDER = (
    b"\x04\x00\x02\x06\x08\x01\x03\x05\x07"  # centre, corners, edges
    b"\x01\x05\x02\x06\x00\x07\x03\x08\x04"  # the inverse
    b"\x01\x80\x02\x40\x04\x20\x09\x00"  # easy 1, 1/2; medium 2, 1/4; hard 4, 1/8; perfect 9
)


def _tables():
    # The tables of the header. The 7 symmetries of the square other than the identity, as
    # the image of each cell 0..8 (digits):
    images = (b"258147036", b"876543210", b"630741852", b"210543876",
              b"678345012", b"036147258", b"852741630")  # fmt: skip
    lines = [sum(1 << _ORDER[_BIT_OF_CELL + c] for c in line) for line in WIN_LINES]
    count, avoiding, two = bytearray(512), bytearray(512), bytearray(512)
    for m in range(512):
        count[m] = count[m >> 1] + (m & 1)
        for i in range(8):
            if not m & lines[i]:
                avoiding[m] |= 1 << i
            elif count[m & lines[i]] == 2:  # m & line <= m: already counted
                two[m] |= 1 << i
    cells = bytearray(_EDGE_IMAGE + 7 * 16)
    for s in range(256):
        for i in range(8):
            if s >> i & 1:
                cells[_CROSSINGS + s] |= cells[s] & lines[i]
                cells[s] |= lines[i] & 255
    for s in range(7):
        for j in range(1, 9):
            c = 1 << _ORDER[_BIT_OF_CELL + images[s][_ORDER[j]] - 48]
            for m in range(16):
                if m >> (j - 1) % 4 & 1:
                    cells[_CORNER_IMAGE | (j > 4) << 7 | s << 4 | m] |= c >> 1 if j < 5 else c >> 5
    return count, avoiding, two, cells  # kept as built: no second copy at import


_POPCOUNT, _LINES_AVOIDING, _LINES_WITH_TWO, _CELLS = _tables()
del _tables, const  # const() is only needed while the module loads

_scores = bytearray(12)
_nodes = 0
_horizon = 0  # at this many empty cells the search stops and evaluates
_child_empty = 0  # the empty cells of the root's children (R - 1 for R at the root)


def _search(me, opp, alpha, beta):
    # The value for `me` as the header's _WIN scores it: exact inside (alpha, beta), at most
    # alpha below it, at least beta above it. A win with k empty cells left scores
    # _WIN - 1 - _child_empty + k. Two locals only: `empty`, the empty cells (in the loop,
    # the moves not yet tried), and `scratch`, which holds a line set, the cells that block
    # it, or a child's score in turn.
    global _nodes
    _nodes += 1
    empty = _ALL ^ me ^ opp
    if _POPCOUNT[empty] <= _horizon:  # the depth limit: my open lines - the opponent's
        return _POPCOUNT[_LINES_AVOIDING[opp]] - _POPCOUNT[_LINES_AVOIDING[me]]
    if _LINES_WITH_TWO[me] & _LINES_AVOIDING[opp]:
        return _WIN - 2 - _child_empty + _POPCOUNT[empty]  # I complete a line now
    scratch = _LINES_WITH_TWO[opp] & _LINES_AVOIDING[me]  # the lines the opponent can complete
    if scratch:
        if _POPCOUNT[empty] > _horizon + 1:  # ...and we see it do so
            scratch = (_CELLS[scratch] | (scratch & _LINES_ON_BIT8 and 256)) & empty
            if scratch & (scratch - 1):  # two cells to block: it wins on its move
                return _child_empty - (_WIN - 3) - _POPCOUNT[empty]
            if _POPCOUNT[empty] == 2:
                return 0  # block, and the opponent's last move cannot win
            return -_search(opp, me | scratch, -beta, -alpha)  # only the block avoids that
    elif _POPCOUNT[empty] > _horizon + 2:
        # The lines where one more piece of mine makes a threat; a cell on two of them forks.
        scratch = _LINES_AVOIDING[opp] & ~(_LINES_AVOIDING[me] | _LINES_WITH_TWO[me])
        if (
            _CELLS[_CROSSINGS | scratch] | (scratch & _LINES_ON_BIT8 == _LINES_ON_BIT8) << 8
        ) & empty:
            return _WIN - 4 - _child_empty + _POPCOUNT[empty]  # two threats: I win in 3
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
        if (
            _CELLS[_CORNER_IMAGE | s << 4 | me >> 1 & 15] << 1
            | _CELLS[_EDGE_IMAGE | s << 4 | me >> 5] << 5
            == me & 510
        ):
            if (
                _CELLS[_CORNER_IMAGE | s << 4 | opp >> 1 & 15] << 1
                | _CELLS[_EDGE_IMAGE | s << 4 | opp >> 5] << 5
                == opp & 510
            ):
                fixed |= 1 << s
    return fixed


def _twin(cell, symmetries):
    # The lowest cell (a bit) onto which one of the symmetries maps `cell`.
    lowest = cell
    for s in range(7):
        if symmetries >> s & 1:
            image = (
                _CELLS[_CORNER_IMAGE | s << 4 | cell >> 1 & 15] << 1
                | _CELLS[_EDGE_IMAGE | s << 4 | cell >> 5] << 5
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
    # Score every root move into _scores[bit]; a move with an earlier twin copies its score.
    # Unless _scores[_EXACT] is set, a move that wins at once makes every other move _WORSE,
    # and each move is searched with alpha = best - 1: a move that ties the best gets its
    # exact score, a worse one is only proven _WORSE.
    global _nodes
    _nodes = 1
    _scores[_ROOT_SYMMETRIES] = _symmetries(me, opp)
    _scores[_BEST] = 0
    for j in range(9):
        move = 1 << j
        if (me | opp) & move:
            score = _TAKEN
        elif _twin(move, _scores[_ROOT_SYMMETRIES]) < move:  # a symmetry maps it lower
            move = _twin(move, _scores[_ROOT_SYMMETRIES])
            score = _scores[_POPCOUNT[move - 1]]  # its twin's score, at index popcount(bit - 1)
        elif _LINES_AVOIDING[_ALL ^ me ^ move]:  # no line avoids me | move: it completes one
            score = _OFFSET + _WIN - 1
        elif _LINES_WITH_TWO[me] & _LINES_AVOIDING[opp] and not _scores[_EXACT]:
            score = _WORSE  # another move wins at once
        else:
            # Search the reply with beta = -(my alpha) = -(best - 1), in score + _OFFSET terms.
            score = _INF if _scores[_EXACT] else _OFFSET + 1 - _scores[_BEST]
            score = -_search(opp, me | move, -_INF, score) + _OFFSET
            if score < _scores[_BEST] and not _scores[_EXACT]:
                score = _WORSE
        if score > _scores[_BEST]:
            _scores[_BEST] = score
        _scores[j] = score


def _choose(rng):
    # A public cell of the best score: the first in move order, or uniform with rng.
    best = ties = 0
    for j in range(9):
        if _scores[j] > best:
            best = _scores[j]
            ties = 0
        if _scores[j] == best:
            ties += 1
    pick = 0  # the pick-th of the equal-best moves
    if rng is not None and ties > 1:
        pick = rng.getrandbits(4)
        while pick >= ties:  # uniform by rejection
            pick = rng.getrandbits(4)
    for j in range(9):
        if _scores[j] == best:
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
    if player != X and player != O:
        raise ValueError("player must be X (1) or O (2)")
    if _POPCOUNT[sides & _ALL] - _POPCOUNT[sides >> 9] != player - 1:
        raise ValueError("player is not the side to move")
    if (
        _LINES_AVOIDING[_ALL ^ sides & _ALL]
        or _LINES_AVOIDING[_ALL ^ sides >> 9]
        or (sides | sides >> 9) & _ALL == _ALL
    ):
        raise ValueError("the game is over")
    if not isinstance(depth, int) or not 0 < depth < 10:
        raise ValueError("depth must be 1..9")
    _child_empty = 8 - _POPCOUNT[sides & _ALL] - _POPCOUNT[sides >> 9]
    _horizon = _child_empty + 1 - depth if _child_empty >= depth else 0
    return sides if player == X else sides >> 9 | (sides & _ALL) << 9


def best_move(board, player, depth=9, rng=None):
    """The cell (0..8) for `player`, who must be the side to move; depth 9 plays perfectly.

    Scores are depth-aware (a win in n plies scores 100 - n, a loss -(100 - n)): it takes
    the fastest win and the slowest loss. Among equal-best moves it takes the first of centre,
    corners, edges, or with `rng` (anything with getrandbits) one uniformly at random.
    ValueError for a malformed board, a wrong player, a finished game or a bad depth.
    Allocates nothing."""
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
    if rng is None or rng.getrandbits(8) >= _ORDER[_LEVEL_CHANCE + 2 * level]:
        return best_move(board, player, _ORDER[_LEVEL_DEPTH + 2 * level], rng)
    board = _setup(board, player, 9)
    for j in range(9):  # every empty cell ties
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
    if _LINES_AVOIDING[_ALL ^ sides & _ALL]:  # a line avoids every cell but X's
        return X
    return O if _LINES_AVOIDING[_ALL ^ sides >> 9] else EMPTY


def winning_line(board):
    """A completed line as 3 cells (the first in WIN_LINES), or None."""
    _sides(board)
    for line in WIN_LINES:
        c = board >> 2 * line[0] & 3
        if c and c == board >> 2 * line[1] & 3 and c == board >> 2 * line[2] & 3:
            return line
    return None


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
    if player == O:
        sides = sides >> 9 | (sides & _ALL) << 9
    if _LINES_AVOIDING[_ALL ^ sides & _ALL] or _LINES_AVOIDING[_ALL ^ sides >> 9]:
        return 100 if _LINES_AVOIDING[_ALL ^ sides & _ALL] else -100  # complete lines
    return _POPCOUNT[_LINES_AVOIDING[sides >> 9]] - _POPCOUNT[_LINES_AVOIDING[sides & _ALL]]
