# Tic-tac-toe engine: a perfect, allocation-free negamax with alpha-beta on a packed board.
# SPDX-License-Identifier: MIT
#
# Public board: an int, cell i (0..8, row-major, 0 = top-left) in bits 2i..2i+1: 0b00 empty,
# 0b01 X, 0b10 O. In the search a side is a 9-bit mask in move order - bit 0 the centre, bits
# 1-4 the corners, bits 5-8 the edges - so taking the lowest empty bit first is a good fixed
# order for free. A node is (me, opp), me to move; a move is made as `me | bit` in the call and
# unmade by returning. Win, threat and fork tests are lookups in bytes tables built at import.
# Nothing in the search creates an object, and the recursive function keeps its frame within
# the ~11 words MicroPython places on the C stack, so a search allocates nothing at all.
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
# Difficulty, weakest first (the table is in _MAP below), each picking at random among its
# equal-best moves:  easy     depth 1 (takes a win, blocks nothing), a random move 1 in 2
#                    medium   depth 2 (takes wins, blocks threats),  a random move 1 in 4
#                    hard     depth 4 (sees forks both ways),        a random move 1 in 8
#                    perfect  depth 9, never a random move: it cannot lose
LEVELS = ("easy", "medium", "hard", "perfect")

_INF = const(1000)
_SYMS = const(512)  # where the symmetry images start in _SETS
_BY8 = const(20)  # the lines through internal bit 8 (cell 7): row 6-7-8 and column 1-4-7
# Internal bit j is public cell _MAP[j]; public cell i is internal bit _MAP[9 + i]; level L
# searches _MAP[18 + 2L] plies and plays at random with chance _MAP[19 + 2L] in 256.
_MAP = (
    b"\x04\x00\x02\x06\x08\x01\x03\x05\x07\x01\x05\x02\x06\x00\x07\x03\x08\x04"
    b"\x01\x80\x02\x40\x04\x20\x09\x00"
)


def _tables(cells):
    # Per 9-bit mask m: its pieces; the lines (8-bit sets) it misses; those it meets twice.
    # _SETS, per line set s: the cells it covers at s, the cells on two of its lines at 256 + s
    # (both without bit 8, which is cheap to test directly); per symmetry s (cells: images of
    # cells 0..8 as digits) the image of the corners (bits 1-4 shifted down) at 512 + 16s + m,
    # of the edges (bits 5-8 shifted down) at 640 + 16s + m.
    lines = [sum(1 << _MAP[9 + c] for c in line) for line in WIN_LINES]
    n, free, two = bytearray(512), bytearray(512), bytearray(512)
    for m in range(512):
        n[m] = n[m >> 1] + (m & 1)
        for i in range(8):
            if not m & lines[i]:
                free[m] |= 1 << i
            elif n[m & lines[i]] == 2:  # m & line <= m: already counted
                two[m] |= 1 << i
    sets = bytearray(_SYMS + 240)
    for s in range(256):
        for i in range(8):
            if s >> i & 1:
                sets[256 + s] |= sets[s] & lines[i]
                sets[s] |= lines[i] & 255
    for s in range(7):
        for j in range(1, 9):
            c = 1 << _MAP[9 + cells[s][_MAP[j]] - 48]
            for m in range(16):
                if m >> (j - 1) % 4 & 1:
                    sets[_SYMS | (j > 4) << 7 | s << 4 | m] |= c >> 1 if j < 5 else c >> 5
    return n, free, two, sets  # kept as built: no second copy at import


# The 7 symmetries of the square other than the identity: the image of each cell 0..8.
_NP, _FREE, _TWO, _SETS = _tables(
    (b"258147036", b"876543210", b"630741852", b"210543876",
     b"678345012", b"036147258", b"852741630")
)  # fmt: skip
del _tables, const  # const() is only needed while the module loads

# Root scratch: per internal bit the move's score + 128 (0 taken, 1 proven worse); then the
# symmetries (bit s) that map the root position onto itself; the best score so far + 128; and
# 1 to search every move with a full window (exact scores for all, used by the tests).
_scores = bytearray(12)
_nodes = 0
_horizon = 0  # at this many empty cells the search stops and evaluates
_symk = 0  # empty cells at the root's children (which skip twin moves), R - 1


def _search(me, opp, alpha, beta):
    # Negamax value for `me`, fail-hard below alpha. A win n plies from the root scores 100 - n,
    # a loss -(100 - n). Each shortcut returns what a full-width search to the same depth would.
    global _nodes
    _nodes += 1
    e = 511 ^ me ^ opp
    if _NP[e] <= _horizon:
        return _NP[_FREE[opp]] - _NP[_FREE[me]]  # lines open to me - lines open to opp
    if _TWO[me] & _FREE[opp]:
        return 98 - _symk + _NP[e]  # a win on this move, R - k + 1 plies from the root
    m = _TWO[opp] & _FREE[me]  # lines where the opponent threatens to win
    if m:
        if _NP[e] > _horizon + 1:  # ...and we see its reply
            m = (_SETS[m] | (m & _BY8 and 256)) & e
            if m & (m - 1):
                return _symk - 97 - _NP[e]  # two threats: lost in 2 plies
            if _NP[e] == 2:
                return 0  # block, and the opponent's last move cannot win
            return -_search(opp, me | m, -beta, -alpha)  # only the block avoids that
    elif _NP[e] > _horizon + 2:
        m = _FREE[opp] & ~(_FREE[me] | _TWO[me])  # lines where one more piece makes a threat
        if (_SETS[256 | m] | (m & _BY8 == _BY8) << 8) & e:
            return 96 - _symk + _NP[e]  # a fork: two threats win in 3 plies
    if not _FREE[opp]:  # we can no longer win: a draw at best
        if alpha >= 0 or not _FREE[me]:
            return 0
    elif beta <= 0 and not _FREE[me]:  # the opponent can no longer win
        return 0
    if _NP[e] < 3 and not _horizon:
        return 0  # no threat either way and at most our move and one reply left: a draw
    if _NP[e] >= _symk:  # a child of the root: twin moves have twin values
        e = _distinct(me, opp, e)
    while e:
        m = e & -e  # the lowest bit: centre, then corners, then edges
        e ^= m
        m = -_search(opp, me | m, -beta, -alpha)
        if m > alpha:
            if m >= beta:
                return m
            alpha = m
    return alpha


def _stabiliser(me, opp):
    # The symmetries (bit s) that map the position onto itself; all of them fix the centre.
    st = 0
    for s in range(7):
        if (
            _SETS[_SYMS | s << 4 | me >> 1 & 15] << 1 | _SETS[_SYMS + 128 | s << 4 | me >> 5] << 5
            == me & 510
        ):
            if (
                _SETS[_SYMS | s << 4 | opp >> 1 & 15] << 1
                | _SETS[_SYMS + 128 | s << 4 | opp >> 5] << 5
                == opp & 510
            ):
                st |= 1 << s
    return st


def _twin(m, st):
    # The lowest cell (a bit) onto which a symmetry in st maps the cell m.
    r = m
    for s in range(7):
        if st >> s & 1:
            t = (
                _SETS[_SYMS | s << 4 | m >> 1 & 15] << 1
                | _SETS[_SYMS + 128 | s << 4 | m >> 5] << 5
                | m & 1
            )
            if t < r:
                r = t
    return r


def _distinct(me, opp, e):
    # The cells of e that are the lowest of their twins in this position.
    st = _stabiliser(me, opp)
    if not st:
        return e
    r = 0
    while e:
        m = e & -e
        e ^= m
        if _twin(m, st) == m:
            r |= m
    return r


def _root(me, opp):
    # Fill _scores[0..8] with each root move's score + 128 (0 taken, 1 proven worse); a twin
    # copies its score. Unless _scores[11] (exact) is set, a move that wins at once leaves the
    # others unsearched, and each move is searched with alpha = best - 1: a tie of the best
    # gets its exact score. (Few locals: the frame must stay off the heap.)
    global _nodes
    _nodes = 1
    _scores[9] = _stabiliser(me, opp)
    _scores[10] = 0
    for j in range(9):
        r = 1 << j
        if (me | opp) & r:
            r = 0
        elif _twin(r, _scores[9]) < r:
            r = _twin(r, _scores[9])
            r = _scores[_NP[r - 1]]
        elif _FREE[511 ^ me ^ r]:
            r = 227  # a win on this move: 99
        elif _TWO[me] & _FREE[opp] and not _scores[11]:
            r = 1
        else:
            r = _INF if _scores[11] else 129 - _scores[10]  # beta for the reply: -(best - 1)
            r = -_search(opp, me | 1 << j, -_INF, r)
            r += 128
            if r < _scores[10] and not _scores[11]:
                r = 1
        if r > _scores[10]:
            _scores[10] = r
        _scores[j] = r


def _choose(rng):
    # A public cell of the best score: the first in move order, or uniform with rng.
    best = n = 0
    for j in range(9):
        if _scores[j] > best:
            best = _scores[j]
            n = 0
        if _scores[j] == best:
            n += 1
    if rng is None or n < 2:
        n = 0
    else:
        r = rng.getrandbits(4)
        while r >= n:  # uniform by rejection
            r = rng.getrandbits(4)
        n = r
    for j in range(9):
        if _scores[j] == best:
            if not n:
                return _MAP[j]
            n -= 1


def _sides(board):
    # Check a board; return X's mask | O's mask << 9.
    if not isinstance(board, int) or isinstance(board, bool) or board < 0 or board >> 18:
        raise ValueError("board must be an int, 0 <= board < 2**18")
    xo = 0
    for i in range(9):
        if board >> 2 * i & 3 == 3:
            raise ValueError("cell %d is 0b11: allowed 0b00, 0b01 X, 0b10 O" % i)
        if board >> 2 * i & 3:
            xo |= 1 << _MAP[9 + i] + 9 * (board >> 2 * i & 3) - 9
    if not 0 <= _NP[xo & 511] - _NP[xo >> 9] <= 1:
        raise ValueError("impossible counts: X moves first, so X has as many as O or one more")
    return xo


def _setup(board, player, depth):
    # Check a position to move from; set the search's globals; return me | opp << 9.
    global _horizon, _symk
    xo = _sides(board)
    if player != X and player != O:
        raise ValueError("player must be X (1) or O (2)")
    if _NP[xo & 511] - _NP[xo >> 9] != player - 1:
        raise ValueError("player is not the side to move")
    if _FREE[511 ^ xo & 511] or _FREE[511 ^ xo >> 9] or (xo | xo >> 9) & 511 == 511:
        raise ValueError("the game is over")
    if not isinstance(depth, int) or not 0 < depth < 10:
        raise ValueError("depth must be 1..9")
    _symk = 8 - _NP[xo & 511] - _NP[xo >> 9]
    _horizon = _symk + 1 - depth if _symk >= depth else 0
    return xo if player == X else xo >> 9 | (xo & 511) << 9


def best_move(board, player, depth=9, rng=None):
    """The cell (0..8) for `player`, who must be the side to move; depth 9 plays perfectly.

    Scores are depth-aware (a win in n plies scores 100 - n, a loss -(100 - n)): it takes
    the fastest win and the slowest loss. Among equal-best moves it takes the first of centre,
    corners, edges, or with `rng` (anything with getrandbits) one uniformly at random.
    ValueError for a malformed board, a wrong player, a finished game or a bad depth.
    Allocates nothing."""
    board = _setup(board, player, depth)
    _scores[11] = 0
    _root(board & 511, board >> 9)
    return _choose(rng)


def last_nodes():
    """The positions the last search visited, the root included."""
    return _nodes


def level_move(board, player, level, rng=None):
    """The move at difficulty LEVELS[level] (0 = weakest): its depth and its random chance."""
    if not isinstance(level, int) or not 0 <= level < len(LEVELS):
        raise ValueError("level must index LEVELS")
    if rng is None or rng.getrandbits(8) >= _MAP[19 + 2 * level]:
        return best_move(board, player, _MAP[18 + 2 * level], rng)
    board = _setup(board, player, 9)
    for j in range(9):  # every empty cell ties
        _scores[j] = 0 if (board | board >> 9) >> j & 1 else 1
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
    xo = _sides(board)
    return X if _FREE[511 ^ xo & 511] else O if _FREE[511 ^ xo >> 9] else EMPTY


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
    xo = _sides(board)
    return X if _NP[xo & 511] == _NP[xo >> 9] else O


def evaluate(board, player):
    """Static score for `player` (X or O): 100 with three in a row, -100 if the opponent has
    three, else the lines still open to player minus those open to the opponent (-8..8)."""
    if player != X and player != O:
        raise ValueError("player must be X (1) or O (2)")
    xo = _sides(board)
    if player == O:
        xo = xo >> 9 | (xo & 511) << 9
    if _FREE[511 ^ xo & 511] or _FREE[511 ^ xo >> 9]:  # lines that miss the empty cells
        return 100 if _FREE[511 ^ xo & 511] else -100
    return _NP[_FREE[xo >> 9]] - _NP[_FREE[xo & 511]]
