"""The coach (issue 21): time to a position's scores, the frame with the marks, heap on and off.

Run by `make bench` (bench_coach_mp.py is its MicroPython half, the firmware precompiled by
mpy-cross, on the unix port): engine.scores_into (what coach.Coach.read runs once per position)
from the empty board and from the slowest other of the 4,520 positions a game goes on from, each
beside engine.best_move from the same position, with the nodes each visits (last_nodes); the
board frame's drawing with the coach's marks and without; the heap of a two-player game with
the coach on (its code and one position's scores) and turned off again, over the coach off.

What it means on a Pico at 125 MHz: bench_pico.py measures best_move from the empty board on
the emulated Pico (23.9 ms). The coach's search is scaled from it by its nodes over
best_move's and by its unix-port time over best_move's, and the frame by its time; the target
is the scores on the glass within 100 ms of the turn starting."""

import sys

import benchkit
from benchkit import BENCH

PICO_EMPTY_MS = 23.9  # best_move from the empty board at 125 MHz (bench_pico.py, the Pico lab)
TARGET_MS = 100


def main():
    output = benchkit.run_app("bench_coach", BENCH / "bench_coach_mp.py", "2048k", 300)
    if output is None:
        return 0
    got = benchkit.keyed(output)
    best_us, best_nodes, scores_us, scores_nodes = (int(v) for v in got["EMPTY"])
    slow_us, slow_nodes, slow_board, slow_best_us, slow_best_nodes = map(int, got["SLOWEST"])
    most_nodes, most_board, positions = (int(v) for v in got["MOST"])
    off, on, again = (int(v) for v in got["HEAP"][:3])
    loaded = got["HEAP"][3] == "True"  # coach.py or the small font still in sys.modules
    frame_off, frame_on = (int(v) for v in got["FRAME"])
    pico = PICO_EMPTY_MS / best_us  # ms on a Pico per us here, at best_move's ratio
    print("== bench_coach: the coach on the MicroPython unix port (64-bit), mpy-cross firmware ==")
    print("scores of every move (engine.scores_into), fastest of 20 runs:")
    print(
        f"  empty board:      {scores_us:6d} us, {scores_nodes:5d} nodes  (best_move there:"
        f" {best_us:6d} us, {best_nodes:5d} nodes)\n"
        f"  slowest other:    {slow_us:6d} us, {slow_nodes:5d} nodes  (best_move there:"
        f" {slow_best_us:6d} us, {slow_best_nodes:5d} nodes; board {slow_board})\n"
        f"  most nodes of the {positions} positions: {most_nodes} (board {most_board})"
    )
    print("on a Pico at 125 MHz, from best_move's %.1f ms from the empty board:" % PICO_EMPTY_MS)
    for label, nodes, us in (("empty board  ", scores_nodes, scores_us),
                             ("slowest other", slow_nodes, slow_us)):  # fmt: skip
        print(
            "  %s%6.1f ms by nodes, %6.1f ms by time"
            % (label, PICO_EMPTY_MS * nodes / best_nodes, us * pico)
        )
    turn = (max(slow_us, scores_us) + frame_on) * pico  # the slower search, then the frame
    print(
        f"  the frame    {frame_off * pico:6.1f} ms without the marks, {frame_on * pico:.1f} ms"
        f" with them (Play.draw, scores cached: {frame_off} / {frame_on} us here)\n"
        f"  the turn's first frame, slowest search and marks: {turn:.1f} ms (target: within"
        f" {TARGET_MS} ms)"
    )
    print(
        "heap of a two-player game (collected), over the same game with the coach off: on %+d B"
        " (its code and one position's scores), turned off again %+d B (coach.py and the small"
        " font %s)" % (on - off, again - off, "still loaded" if loaded else "let go")
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
