"""linkgame.py under CPython: two boards' Links over a stand-in cable (testbed/cable.py), stepped
together on one clock, play games to the end through what a wire does: every byte of a game's
traffic flipped, lost or doubled, a cable pulled at every message, noise, a board reset, a board
of another version, a move out of turn or onto a taken cell. Whatever happens, the two games
never differ without both saying so."""

import random

import engine
import linkgame as lg
import linkwire
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from linkpair import CELLS, Faulty, Pair, frame, traffic_bytes


def test_two_boards_join_one_is_x_and_play_a_game_to_the_end():
    p = Pair().joined()
    assert p.states() == [lg.PLAYING, lg.PLAYING]
    assert [link.mine for link in p.links] == [engine.X, engine.O]  # the higher nonce is X
    p.play()
    a, b = p.games
    assert a.count == b.count == 9 and a.board == b.board and a.over() and b.over()
    assert [e for e, _ in p.events[0]].count(lg.ACKED) == 5  # X's five moves
    assert [e for e, _ in p.events[1]].count(lg.MOVED) == 5


@pytest.mark.parametrize("kind", ["flip", "lose", "double"])
def test_a_fault_in_any_byte_of_a_games_traffic_is_got_over(kind):
    total = traffic_bytes()
    for at in range(total):
        p = Pair(Faulty((kind, at, 4))).joined()
        p.play()
        a, b = p.games
        assert a.board == b.board and a.count == b.count == 9, (kind, at)
        assert not any(p.said(lg.OUT_OF_STEP)), (kind, at)


def test_a_cable_pulled_at_every_message_is_noticed_within_2_s_and_the_game_goes_on():
    for moves in range(9):
        p = Pair().joined()
        p.play(patience_ms=0)
        for _ in range(moves):  # the game up to `moves` moves
            link = p.mover()
            link.move(CELLS[link.game.count], p.now)
            p.run(400)
        p.cable.pulled = True
        p.run(lg.LOST_MS + 100)
        assert p.states() == [lg.LOST, lg.LOST], moves
        p.cable.pulled = False
        p.run(500)
        assert p.states() == [lg.PLAYING, lg.PLAYING], moves
        p.play()
        assert p.games[0].board == p.games[1].board and p.games[0].count == 9, moves


def test_a_board_gone_for_a_minute_ends_the_game():
    p = Pair().joined()
    p.cable.pulled = True
    p.run(lg.GONE_MS + 100)
    assert p.states() == [lg.GONE, lg.GONE]


def test_a_board_that_reset_is_not_taken_for_the_game_that_went_on():
    p = Pair().joined()
    link = p.mover()
    link.move(4, p.now)
    p.run(400)
    p.cable.pulled = True
    p.run(lg.LOST_MS + 100)
    p.renew(1, 7)  # b resets: a fresh game and Link on its end of the cable
    p.cable.pulled = False
    p.run(1000)
    assert p.states() == [lg.GONE, lg.WAITING]  # a said its game cannot go on; b waits
    assert [g.count for g in p.games] == [1, 0]


def test_100000_random_bytes_never_change_a_game_nor_raise():
    # Noise on both wires, a burst every 100 ms: a frame it lands in is lost (and with enough
    # of them the link is LOST), but the game is never changed, and once the noise stops the
    # game goes on.
    p = Pair().joined()
    link = p.mover()
    link.move(4, p.now)
    p.run(400)
    before = [(g.board, g.count) for g in p.games]
    rng = random.Random(1)
    for _ in range(100):
        p.cable.a.inbox.extend(rng.randbytes(500))
        p.cable.b.inbox.extend(rng.randbytes(500))
        p.run(100)
    assert [(g.board, g.count) for g in p.games] == before
    assert not any(p.said(lg.OUT_OF_STEP)) and not any(p.said(lg.GONE))
    p.run(1000)
    assert p.states() == [lg.PLAYING, lg.PLAYING]


def forged(link, *message):
    """Put a message on the wire to `link`, as if the other board had sent it."""
    link.wire._uart.inbox.extend(frame(*message))


def test_a_move_out_of_turn_or_onto_a_taken_cell_is_refused_and_the_sender_told():
    p = Pair().joined()
    a, b = p.links
    a.move(4, p.now)  # X in the centre
    p.run(300)
    game = p.games[0]
    # As if b sent: O onto the taken centre, then X's move again from O (out of turn).
    forged(a, lg.VERSION, 2, 9, 4, 2, 0, 0, 0)
    p.links[1] = None  # b is the forger now
    replies = []
    p.cable.fault = lambda end, data: replies.append((end, data)) or data
    a.step(p.now + 10)
    assert game.count == 1, "refused moves are never applied"
    reply = linkwire.Wire(p.cable.b)
    n = reply.receive()
    assert n and reply.message[1] == 4 and reply.message[3] == lg.NO_CELL, bytes(reply.message[:n])


def test_a_board_of_another_version_says_so():
    p = Pair()
    forged(p.links[0], lg.VERSION + 1, 1, 0, 9, 0, 0, 0, 0, 0, 0, 0, 0)
    assert p.links[0].step(10) == lg.STATE
    assert p.links[0].state == lg.OTHER_VERSION and p.links[0].other_version == lg.VERSION + 1


def test_positions_that_disagree_are_said_on_both_boards():
    p = Pair().joined()
    p.games[1].board |= engine.O << 2 * 8  # b's game changed behind the link's back
    p.run(2000)
    assert p.states() == [lg.OUT_OF_STEP, lg.OUT_OF_STEP]


def test_a_rematch_gives_x_to_the_other_board():
    p = Pair().joined()
    p.play()
    firsts = [link.mine for link in p.links]
    for link in p.links:
        link.again(p.now)
    p.run(500)
    assert [link.mine for link in p.links] == firsts[::-1]
    assert [g.count for g in p.games] == [0, 0]
    p.play()
    assert p.games[0].board == p.games[1].board and p.games[0].count == 9


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["flip", "lose", "double", "noise", "pull"]),
            st.integers(0, 400),  # the byte of the traffic it falls on (a pull: starts at)
            st.integers(0, 255),
        ),
        max_size=6,
    )
)
def test_whatever_the_wire_does_the_two_games_never_differ_unsaid(faults):
    # Any mix of faults, anywhere in a game's traffic: after every step, two boards both
    # PLAYING with no move of theirs in flight show the same position; otherwise one says why.
    wire = Faulty(*faults)  # a "pull" it passes over: the cable is out for 60 bytes from there
    pulls = [at for kind, at, _ in faults if kind == "pull"]
    p = Pair(wire)
    for _ in range(200):
        p.cable.pulled = any(at <= wire.count < at + 60 for at in pulls)
        p.turn()
        p.run(50)
        a, b = p.links
        if a.state == b.state == lg.PLAYING and p.settled():
            assert a.game.board == b.game.board and a.game.count == b.game.count
        if a.state == lg.OUT_OF_STEP or b.state == lg.OUT_OF_STEP:
            assert p.said(lg.OUT_OF_STEP) != [False, False]


def test_a_board_that_says_bye_is_gone_at_once_and_once():
    p = Pair().joined()
    p.mover().move(4, p.now)
    p.run(300)
    a, b = p.links
    b.bye(p.now)
    p.run(20)
    assert a.state == lg.GONE and p.events[0][-1] == (lg.STATE, lg.GONE)
    # b comes back as another board (a new nonce): its HELLOs change nothing more on a.
    said = len(p.events[0])
    p.renew(1, 9)
    p.run(2000)
    assert len(p.events[0]) == said, p.events[0][said:]


def test_a_bye_from_another_board_is_not_taken():
    p = Pair().joined()
    a, b = p.links
    b.nonce ^= 0x5A5A  # as another board would say it
    b.bye(p.now)
    p.run(100)
    assert a.state == lg.PLAYING
