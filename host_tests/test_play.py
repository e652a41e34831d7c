"""play.py: whole games on the board screen under the MicroPython unix port, read off the glass
(the controller model): every level, win, loss, draw, hint, undo and NO UNDO, the cursor after a
hold or a chord, the CPU's turn, a 5-way pad."""

from pathlib import Path

MP = Path(__file__).parent / "mp"


def test_play_on_micropython(micropython, tmp_path):
    out = micropython.run_tests(MP / "mp_play.py", tmp_path, heapsize="512k")
    for name in (
        "test_full_game_at_each_level",
        "test_win_with_blinking_line_then_next_game",
        "test_loss_against_perfect",
        "test_two_players_o_wins",
        "test_two_players_draw",
        "test_hint_blinks_best_move",
        "test_undo_takes_back_move_and_reply",
        "test_cpu_opening_is_not_undone",
        "test_hold_next_then_continue_leaves_the_cursor_where_it_was",
        "test_undo_leaves_the_cursor_where_it_was",
        "test_prev_next_chord_opens_the_menu_and_leaves_the_cursor",
        "test_a_chord_of_two_directions_leaves_the_cursor",
        "test_undo_with_nothing_to_undo_shows_a_sign",
        "test_presses_during_cpu_turn_are_ignored",
        "test_five_way_pad_moves_by_direction",
    ):
        assert "PASS " + name in out
