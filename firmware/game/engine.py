# Tic-tac-toe engine: a perfect negamax with alpha-beta on a packed board, leaving no garbage.
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
# Memory. A search leaves no garbage (gc.mem_alloc() is unchanged by it), and its frames fit
# the 11 words that MicroPython keeps on the C stack (py/objfun.c, VM_MAX_STATE_ON_STACK),
# _search's exactly; a bigger frame is taken from the heap for the length of the call. The
# tables are const() bytes: they live with the code's constants and cost no global name;
# every other global costs a dict entry and a qstr.
from micropython import const

EMPTY = const(0)
X = const(1)
O = const(2)  # noqa: E741 - the contract names the pieces X and O

WIN_LINES = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6),
)  # fmt: skip
# Difficulty, weakest first, each picking at random among its equal-best moves:
#   EASY  depth 1 (takes a win, blocks nothing), a random move 1 in 2
#   MED   depth 2 (takes wins, blocks threats),  a random move 1 in 4
#   HARD  depth 4 (sees forks both ways),        a random move 1 in 8
#   PERF  depth 9, never a random move: it cannot lose (perfect)
# The levels' one home: their names as the glass shows them (the status column's 4 characters;
# beside the mover's mark in the demo it has room for 3), their count len(LEVELS).
LEVELS = ("EASY", "MED", "HARD", "PERF")
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


# The tables, constants in the code (tools/engine_tables.py builds them from WIN_LINES and
# _ORDER and writes them below; a host test checks them). They are the bulk of this file and
# stay in it: mpy-cross folds a const() into the code of its own module only, and from another
# module each lookup in the search would be a global and an attribute (and a file more to
# open at boot). By a 9-bit mask m:
#   _POPCOUNT[m]        the bits set in m
#   _LINES_AVOIDING[m]  the lines with no cell in m
#   _LINES_WITH_TWO[m]  the lines with two cells in m
# By a set of lines l, as cells in bits 0-7 (bit 8, which a byte cannot hold, from _BIT8_LINES):
#   _LINE_CELLS[l]      the cells the lines cover
#   _CROSSINGS[l]       the cells where two of the lines cross
# The symmetry maps, by symmetry s (the square's 7 other than the identity, all fixing the
# centre) and a set of corners c (bits 1-4 >> 1) or of edges e (bits 5-8 >> 5):
#   _IMAGES[32s + c]    the image of the corners c; _IMAGES[32s + 16 + e]: of the edges e
# -- begin tables: written by tools/engine_tables.py from WIN_LINES and _ORDER --
_POPCOUNT = const(
    b"\x00\x01\x01\x02\x01\x02\x02\x03\x01\x02\x02\x03\x02\x03\x03\x04\x01\x02\x02\x03\x02\x03"
    b"\x03\x04\x02\x03\x03\x04\x03\x04\x04\x05\x01\x02\x02\x03\x02\x03\x03\x04\x02\x03\x03\x04"
    b"\x03\x04\x04\x05\x02\x03\x03\x04\x03\x04\x04\x05\x03\x04\x04\x05\x04\x05\x05\x06\x01\x02"
    b"\x02\x03\x02\x03\x03\x04\x02\x03\x03\x04\x03\x04\x04\x05\x02\x03\x03\x04\x03\x04\x04\x05"
    b"\x03\x04\x04\x05\x04\x05\x05\x06\x02\x03\x03\x04\x03\x04\x04\x05\x03\x04\x04\x05\x04\x05"
    b"\x05\x06\x03\x04\x04\x05\x04\x05\x05\x06\x04\x05\x05\x06\x05\x06\x06\x07\x01\x02\x02\x03"
    b"\x02\x03\x03\x04\x02\x03\x03\x04\x03\x04\x04\x05\x02\x03\x03\x04\x03\x04\x04\x05\x03\x04"
    b"\x04\x05\x04\x05\x05\x06\x02\x03\x03\x04\x03\x04\x04\x05\x03\x04\x04\x05\x04\x05\x05\x06"
    b"\x03\x04\x04\x05\x04\x05\x05\x06\x04\x05\x05\x06\x05\x06\x06\x07\x02\x03\x03\x04\x03\x04"
    b"\x04\x05\x03\x04\x04\x05\x04\x05\x05\x06\x03\x04\x04\x05\x04\x05\x05\x06\x04\x05\x05\x06"
    b"\x05\x06\x06\x07\x03\x04\x04\x05\x04\x05\x05\x06\x04\x05\x05\x06\x05\x06\x06\x07\x04\x05"
    b"\x05\x06\x05\x06\x06\x07\x05\x06\x06\x07\x06\x07\x07\x08\x01\x02\x02\x03\x02\x03\x03\x04"
    b"\x02\x03\x03\x04\x03\x04\x04\x05\x02\x03\x03\x04\x03\x04\x04\x05\x03\x04\x04\x05\x04\x05"
    b"\x05\x06\x02\x03\x03\x04\x03\x04\x04\x05\x03\x04\x04\x05\x04\x05\x05\x06\x03\x04\x04\x05"
    b"\x04\x05\x05\x06\x04\x05\x05\x06\x05\x06\x06\x07\x02\x03\x03\x04\x03\x04\x04\x05\x03\x04"
    b"\x04\x05\x04\x05\x05\x06\x03\x04\x04\x05\x04\x05\x05\x06\x04\x05\x05\x06\x05\x06\x06\x07"
    b"\x03\x04\x04\x05\x04\x05\x05\x06\x04\x05\x05\x06\x05\x06\x06\x07\x04\x05\x05\x06\x05\x06"
    b"\x06\x07\x05\x06\x06\x07\x06\x07\x07\x08\x02\x03\x03\x04\x03\x04\x04\x05\x03\x04\x04\x05"
    b"\x04\x05\x05\x06\x03\x04\x04\x05\x04\x05\x05\x06\x04\x05\x05\x06\x05\x06\x06\x07\x03\x04"
    b"\x04\x05\x04\x05\x05\x06\x04\x05\x05\x06\x05\x06\x06\x07\x04\x05\x05\x06\x05\x06\x06\x07"
    b"\x05\x06\x06\x07\x06\x07\x07\x08\x03\x04\x04\x05\x04\x05\x05\x06\x04\x05\x05\x06\x05\x06"
    b"\x06\x07\x04\x05\x05\x06\x05\x06\x06\x07\x05\x06\x06\x07\x06\x07\x07\x08\x04\x05\x05\x06"
    b"\x05\x06\x06\x07\x05\x06\x06\x07\x06\x07\x07\x08\x05\x06\x06\x07\x06\x07\x07\x08\x06\x07"
    b"\x07\x08\x07\x08\x08\x09"
)
_LINES_AVOIDING = const(
    b"\xff\x2d\xb6\x24\x5e\x0c\x16\x04\x73\x21\x32\x20\x52\x00\x12\x00\x9b\x09\x92\x00\x1a\x08"
    b"\x12\x00\x13\x01\x12\x00\x12\x00\x12\x00\xee\x2c\xa6\x24\x4e\x0c\x06\x04\x62\x20\x22\x20"
    b"\x42\x00\x02\x00\x8a\x08\x82\x00\x0a\x08\x02\x00\x02\x00\x02\x00\x02\x00\x02\x00\xf5\x25"
    b"\xb4\x24\x54\x04\x14\x04\x71\x21\x30\x20\x50\x00\x10\x00\x91\x01\x90\x00\x10\x00\x10\x00"
    b"\x11\x01\x10\x00\x10\x00\x10\x00\xe4\x24\xa4\x24\x44\x04\x04\x04\x60\x20\x20\x20\x40\x00"
    b"\x00\x00\x80\x00\x80\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\xdd\x0d\x94\x04"
    b"\x5c\x0c\x14\x04\x51\x01\x10\x00\x50\x00\x10\x00\x99\x09\x90\x00\x18\x08\x10\x00\x11\x01"
    b"\x10\x00\x10\x00\x10\x00\xcc\x0c\x84\x04\x4c\x0c\x04\x04\x40\x00\x00\x00\x40\x00\x00\x00"
    b"\x88\x08\x80\x00\x08\x08\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\xd5\x05\x94\x04\x54\x04"
    b"\x14\x04\x51\x01\x10\x00\x50\x00\x10\x00\x91\x01\x90\x00\x10\x00\x10\x00\x11\x01\x10\x00"
    b"\x10\x00\x10\x00\xc4\x04\x84\x04\x44\x04\x04\x04\x40\x00\x00\x00\x40\x00\x00\x00\x80\x00"
    b"\x80\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\xeb\x29\xa2\x20\x4a\x08\x02\x00"
    b"\x63\x21\x22\x20\x42\x00\x02\x00\x8b\x09\x82\x00\x0a\x08\x02\x00\x03\x01\x02\x00\x02\x00"
    b"\x02\x00\xea\x28\xa2\x20\x4a\x08\x02\x00\x62\x20\x22\x20\x42\x00\x02\x00\x8a\x08\x82\x00"
    b"\x0a\x08\x02\x00\x02\x00\x02\x00\x02\x00\x02\x00\xe1\x21\xa0\x20\x40\x00\x00\x00\x61\x21"
    b"\x20\x20\x40\x00\x00\x00\x81\x01\x80\x00\x00\x00\x00\x00\x01\x01\x00\x00\x00\x00\x00\x00"
    b"\xe0\x20\xa0\x20\x40\x00\x00\x00\x60\x20\x20\x20\x40\x00\x00\x00\x80\x00\x80\x00\x00\x00"
    b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\xc9\x09\x80\x00\x48\x08\x00\x00\x41\x01\x00\x00"
    b"\x40\x00\x00\x00\x89\x09\x80\x00\x08\x08\x00\x00\x01\x01\x00\x00\x00\x00\x00\x00\xc8\x08"
    b"\x80\x00\x48\x08\x00\x00\x40\x00\x00\x00\x40\x00\x00\x00\x88\x08\x80\x00\x08\x08\x00\x00"
    b"\x00\x00\x00\x00\x00\x00\x00\x00\xc1\x01\x80\x00\x40\x00\x00\x00\x41\x01\x00\x00\x40\x00"
    b"\x00\x00\x81\x01\x80\x00\x00\x00\x00\x00\x01\x01\x00\x00\x00\x00\x00\x00\xc0\x00\x80\x00"
    b"\x40\x00\x00\x00\x40\x00\x00\x00\x40\x00\x00\x00\x80\x00\x80\x00\x00\x00\x00\x00\x00\x00"
    b"\x00\x00\x00\x00\x00\x00"
)
_LINES_WITH_TWO = const(
    b"\x00\x00\x00\x40\x00\x80\x01\xc1\x00\x80\x08\xc8\x80\x00\x89\x49\x00\x40\x40\x00\x20\xe0"
    b"\x61\xa1\x04\xc4\x4c\x8c\xa4\x64\xed\x2d\x00\x10\x01\x51\x01\x91\x00\xd0\x00\x90\x09\xd9"
    b"\x81\x11\x88\x58\x00\x50\x41\x11\x21\xf1\x60\xb0\x04\xd4\x4d\x9d\xa5\x75\xec\x3c\x00\x02"
    b"\x08\x4a\x00\x82\x09\xcb\x08\x8a\x00\xc2\x88\x0a\x81\x43\x00\x42\x48\x0a\x20\xe2\x69\xab"
    b"\x0c\xce\x44\x86\xac\x6e\xe5\x27\x00\x12\x09\x5b\x01\x93\x08\xda\x08\x9a\x01\xd3\x89\x1b"
    b"\x80\x52\x00\x52\x49\x1b\x21\xf3\x68\xba\x0c\xde\x45\x97\xad\x7f\xe4\x36\x00\x02\x00\x42"
    b"\x20\xa2\x21\xe3\x00\x82\x08\xca\xa0\x22\xa9\x6b\x20\x62\x60\x22\x00\xc2\x41\x83\x24\xe6"
    b"\x6c\xae\x84\x46\xcd\x0f\x00\x12\x01\x53\x21\xb3\x20\xf2\x00\x92\x09\xdb\xa1\x33\xa8\x7a"
    b"\x20\x72\x61\x33\x01\xd3\x40\x92\x24\xf6\x6d\xbf\x85\x57\xcc\x1e\x02\x00\x0a\x48\x22\xa0"
    b"\x2b\xe9\x0a\x88\x02\xc0\xaa\x28\xa3\x61\x22\x60\x6a\x28\x02\xc0\x4b\x89\x2e\xec\x66\xa4"
    b"\x8e\x4c\xc7\x05\x02\x10\x0b\x59\x23\xb1\x2a\xf8\x0a\x98\x03\xd1\xab\x39\xa2\x70\x22\x70"
    b"\x6b\x39\x03\xd1\x4a\x98\x2e\xfc\x67\xb5\x8f\x5d\xc6\x14\x00\x10\x00\x50\x00\x90\x01\xd1"
    b"\x04\x94\x0c\xdc\x84\x14\x8d\x5d\x04\x54\x44\x14\x24\xf4\x65\xb5\x00\xd0\x48\x98\xa0\x70"
    b"\xe9\x39\x10\x00\x11\x41\x11\x81\x10\xc0\x14\x84\x1d\xcd\x95\x05\x9c\x4c\x14\x44\x55\x05"
    b"\x35\xe5\x74\xa4\x10\xc0\x59\x89\xb1\x61\xf8\x28\x00\x12\x08\x5a\x00\x92\x09\xdb\x0c\x9e"
    b"\x04\xd6\x8c\x1e\x85\x57\x04\x56\x4c\x1e\x24\xf6\x6d\xbf\x08\xda\x40\x92\xa8\x7a\xe1\x33"
    b"\x10\x02\x19\x4b\x11\x83\x18\xca\x1c\x8e\x15\xc7\x9d\x0f\x94\x46\x14\x46\x5d\x0f\x35\xe7"
    b"\x7c\xae\x18\xca\x51\x83\xb9\x6b\xf0\x22\x00\x12\x00\x52\x20\xb2\x21\xf3\x04\x96\x0c\xde"
    b"\xa4\x36\xad\x7f\x24\x76\x64\x36\x04\xd6\x45\x97\x20\xf2\x68\xba\x80\x52\xc9\x1b\x10\x02"
    b"\x11\x43\x31\xa3\x30\xe2\x14\x86\x1d\xcf\xb5\x27\xbc\x6e\x34\x66\x75\x27\x15\xc7\x54\x86"
    b"\x30\xe2\x79\xab\x91\x43\xd8\x0a\x02\x10\x0a\x58\x22\xb0\x2b\xf9\x0e\x9c\x06\xd4\xae\x3c"
    b"\xa7\x75\x26\x74\x6e\x3c\x06\xd4\x4f\x9d\x2a\xf8\x62\xb0\x8a\x58\xc3\x11\x12\x00\x1b\x49"
    b"\x33\xa1\x3a\xe8\x1e\x8c\x17\xc5\xbf\x2d\xb6\x64\x36\x64\x7f\x2d\x17\xc5\x5e\x8c\x3a\xe8"
    b"\x73\xa1\x9b\x49\xd2\x00"
)
_LINE_CELLS = const(
    b"\x00\x26\xc1\xe7\x18\x3e\xd9\xff\x4a\x6e\xcb\xef\x5a\x7e\xdb\xff\x21\x27\xe1\xe7\x39\x3f"
    b"\xf9\xff\x6b\x6f\xeb\xef\x7b\x7f\xfb\xff\x94\xb6\xd5\xf7\x9c\xbe\xdd\xff\xde\xfe\xdf\xff"
    b"\xde\xfe\xdf\xff\xb5\xb7\xf5\xf7\xbd\xbf\xfd\xff\xff\xff\xff\xff\xff\xff\xff\xff\x13\x37"
    b"\xd3\xf7\x1b\x3f\xdb\xff\x5b\x7f\xdb\xff\x5b\x7f\xdb\xff\x33\x37\xf3\xf7\x3b\x3f\xfb\xff"
    b"\x7b\x7f\xfb\xff\x7b\x7f\xfb\xff\x97\xb7\xd7\xf7\x9f\xbf\xdf\xff\xdf\xff\xdf\xff\xdf\xff"
    b"\xdf\xff\xb7\xb7\xf7\xf7\xbf\xbf\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x0d\x2f\xcd\xef"
    b"\x1d\x3f\xdd\xff\x4f\x6f\xcf\xef\x5f\x7f\xdf\xff\x2d\x2f\xed\xef\x3d\x3f\xfd\xff\x6f\x6f"
    b"\xef\xef\x7f\x7f\xff\xff\x9d\xbf\xdd\xff\x9d\xbf\xdd\xff\xdf\xff\xdf\xff\xdf\xff\xdf\xff"
    b"\xbd\xbf\xfd\xff\xbd\xbf\xfd\xff\xff\xff\xff\xff\xff\xff\xff\xff\x1f\x3f\xdf\xff\x1f\x3f"
    b"\xdf\xff\x5f\x7f\xdf\xff\x5f\x7f\xdf\xff\x3f\x3f\xff\xff\x3f\x3f\xff\xff\x7f\x7f\xff\xff"
    b"\x7f\x7f\xff\xff\x9f\xbf\xdf\xff\x9f\xbf\xdf\xff\xdf\xff\xdf\xff\xdf\xff\xdf\xff\xbf\xbf"
    b"\xff\xff\xbf\xbf\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff"
)
_CROSSINGS = const(
    b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x40\x42\x08\x0a\x48\x4a\x00\x20\x01\x21\x00\x20"
    b"\x01\x21\x00\x22\x41\x63\x08\x2a\x49\x6b\x00\x04\x80\x84\x10\x14\x90\x94\x00\x06\xc0\xc6"
    b"\x18\x1e\xd8\xde\x00\x24\x81\xa5\x10\x34\x91\xb5\x00\x26\xc1\xe7\x18\x3e\xd9\xff\x00\x02"
    b"\x01\x03\x10\x12\x11\x13\x02\x02\x43\x43\x1a\x1a\x5b\x5b\x01\x23\x01\x23\x11\x33\x11\x33"
    b"\x03\x23\x43\x63\x1b\x3b\x5b\x7b\x10\x16\x91\x97\x10\x16\x91\x97\x12\x16\xd3\xd7\x1a\x1e"
    b"\xdb\xdf\x11\x37\x91\xb7\x11\x37\x91\xb7\x13\x37\xd3\xf7\x1b\x3f\xdb\xff\x00\x04\x01\x05"
    b"\x08\x0c\x09\x0d\x08\x0e\x49\x4f\x08\x0e\x49\x4f\x01\x25\x01\x25\x09\x2d\x09\x2d\x09\x2f"
    b"\x49\x6f\x09\x2f\x49\x6f\x04\x04\x85\x85\x1c\x1c\x9d\x9d\x0c\x0e\xcd\xcf\x1c\x1e\xdd\xdf"
    b"\x05\x25\x85\xa5\x1d\x3d\x9d\xbd\x0d\x2f\xcd\xef\x1d\x3f\xdd\xff\x01\x07\x01\x07\x19\x1f"
    b"\x19\x1f\x0b\x0f\x4b\x4f\x1b\x1f\x5b\x5f\x01\x27\x01\x27\x19\x3f\x19\x3f\x0b\x2f\x4b\x6f"
    b"\x1b\x3f\x5b\x7f\x15\x17\x95\x97\x1d\x1f\x9d\x9f\x1f\x1f\xdf\xdf\x1f\x1f\xdf\xdf\x15\x37"
    b"\x95\xb7\x1d\x3f\x9d\xbf\x1f\x3f\xdf\xff\x1f\x3f\xdf\xff"
)
_IMAGES = const(
    b"\x00\x02\x08\x0a\x01\x03\x09\x0b\x04\x06\x0c\x0e\x05\x07\x0d\x0f\x00\x04\x01\x05\x08\x0c"
    b"\x09\x0d\x02\x06\x03\x07\x0a\x0e\x0b\x0f\x00\x08\x04\x0c\x02\x0a\x06\x0e\x01\x09\x05\x0d"
    b"\x03\x0b\x07\x0f\x00\x08\x04\x0c\x02\x0a\x06\x0e\x01\x09\x05\x0d\x03\x0b\x07\x0f\x00\x04"
    b"\x01\x05\x08\x0c\x09\x0d\x02\x06\x03\x07\x0a\x0e\x0b\x0f\x00\x02\x08\x0a\x01\x03\x09\x0b"
    b"\x04\x06\x0c\x0e\x05\x07\x0d\x0f\x00\x02\x01\x03\x08\x0a\x09\x0b\x04\x06\x05\x07\x0c\x0e"
    b"\x0d\x0f\x00\x01\x04\x05\x02\x03\x06\x07\x08\x09\x0c\x0d\x0a\x0b\x0e\x0f\x00\x08\x02\x0a"
    b"\x04\x0c\x06\x0e\x01\x09\x03\x0b\x05\x0d\x07\x0f\x00\x04\x08\x0c\x01\x05\x09\x0d\x02\x06"
    b"\x0a\x0e\x03\x07\x0b\x0f\x00\x04\x08\x0c\x01\x05\x09\x0d\x02\x06\x0a\x0e\x03\x07\x0b\x0f"
    b"\x00\x08\x02\x0a\x04\x0c\x06\x0e\x01\x09\x03\x0b\x05\x0d\x07\x0f\x00\x01\x04\x05\x02\x03"
    b"\x06\x07\x08\x09\x0c\x0d\x0a\x0b\x0e\x0f\x00\x02\x01\x03\x08\x0a\x09\x0b\x04\x06\x05\x07"
    b"\x0c\x0e\x0d\x0f"
)
# -- end tables --
del const  # const() is only needed while the module loads


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
    board, a wrong player, a finished game or a bad depth. Leaves no garbage."""
    board = _setup(board, player, depth)
    _root(board & _ALL, board >> 9, False)
    return _choose(rng)


def scores_into(out, board, player, depth=9):
    """The exact score of every move for `player`, the side to move, searching `depth` plies,
    into `out` (a bytearray of 9, by cell): a score + 128, 0 for a taken cell. A win in n plies
    scores 100 - n, a loss -(100 - n), a draw 0 (at depth 9: a loss 30..36, a draw 128, a win
    219..227); a line of play that the depth cuts off scores, where it stops, the lines still
    open to `player` minus those open to the opponent. best_move searches a worse move only
    far enough to rule it out; here every move gets a full window, and last_nodes() counts
    that whole search. ValueError as for best_move. Leaves no garbage."""
    board = _setup(board, player, depth)
    _root(board & _ALL, board >> 9, True)
    for i in range(9):  # by cell
        out[i] = _scores[_ORDER.index(i)]  # _TAKEN is 0, _OFFSET 128


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
