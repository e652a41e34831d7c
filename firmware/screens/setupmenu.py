# The settings screen: contrast with a live preview, backlight, sound, level, who starts, coach,
# scores.
# SPDX-License-Identifier: MIT
# Loaded each time it opens, and let go when it is left (app.App.show): a game never
# holds this code in RAM.
import buttons
import engine
from menu import Menu, choice, cycle
from menurow import STARTS_LABELS, menu_row
from micropython import const
from screen import DONE, MENU, SAME, Screen
from settings import CONTRAST_MAX, KEYS

# Rows, each an index into _LABELS.
_CONTRAST = const(0)
_LIGHT = const(1)
_SOUND = const(2)
_LEVEL = const(3)
_STARTS = const(4)
_COACH = const(5)
_RESET = const(6)
_BACK = const(7)
_LABELS = const(("Contr", "Light", "Sound", "Level", "Start", "Coach", "Scores", "Back"))
_ROWS = const((_CONTRAST, _LIGHT, _SOUND, _LEVEL, _STARTS, _COACH, _RESET, _BACK))
_SHOWN = const(6)  # rows on the glass (8 pixels each); the list scrolls to the highlight
# What the coach's marks mean (coach.py), told once per device when it is first turned on: a
# mark (small font) and its meaning a line, the meanings lined up after the widest mark.
_TELL = const(
    (
        (b"", b"Coach: how each move"),
        (b"", b"ends, with best play:"),
        (b"W2", b"your 2nd move wins"),
        (b"L1", b"their 1st move wins"),
        (b"D", b"a draw"),
        (b"", b"Boxed: the best move"),
        (b"", b"Press a key"),
    )
)
_TELL_X = const(12)  # where a meaning starts after its mark


class SetupMenu(Screen):
    """The settings screen. SELECT changes the highlighted value (Contr: SELECT, then PREV/NEXT,
    SELECT again; Scores: press twice); the contrast and the backlight change on the glass at
    once, the sound is heard at once; the first time the coach is turned on, what its marks
    mean shows until a press; Back (or PREV+NEXT together) returns to the main menu. Each change
    is saved once made (screen.Shared.save_soon: in the next quiet gap), so a power cut keeps
    it; the contrast once its adjustment ends (SELECT again, or Back; set with LEFT/RIGHT, once
    the highlight moves on), not at every step. The glass follows the contrast and the
    backlight as they are set (app.App._event): the live preview."""

    def __init__(self, shared):
        super().__init__(shared)
        self.settings = shared.settings
        self.rows = Menu(_ROWS)
        self.editing = False  # the contrast is being adjusted with PREV/NEXT
        self.confirm = False  # "clear the scores?" asked once
        self.telling = False  # what the coach's marks mean is on the glass

    def enter(self, now, came_from):
        self.rows.select(_CONTRAST)
        self.editing = False
        self.confirm = False
        self.telling = False

    def event(self, ev, now):
        b = buttons.button_of(ev)
        kind = buttons.kind_of(ev)
        if self.telling:
            if kind == buttons.PRESS:  # any button, and the rest of its hold does nothing
                self.telling = False
                return DONE
            return None
        if kind == buttons.PRESS or kind == buttons.REPEAT:
            if b != buttons.SELECT:
                return self._move(b, now)
        elif kind == buttons.CLICK:
            if b == buttons.SELECT:
                went = self._select(now)
                self.shared.sound("PLACE")  # after: "Sound OFF" is not heard
                return went
        elif kind == buttons.CHORD:
            return self._back(now)
        return None

    def _move(self, b, now):
        step = buttons.direction(b)
        item = self.rows.current()
        if self.editing or b == buttons.LEFT or b == buttons.RIGHT:
            self._adjust(item, step)
            if item != _CONTRAST:
                self.shared.save_soon(now)
        else:
            self.rows.move(step)
            self.confirm = False  # moving away cancels the question
            self.shared.save_soon(now)  # a contrast set with LEFT/RIGHT (nothing if unchanged)
        self.shared.sound("MOVE")
        return SAME

    def _select(self, now):
        item = self.rows.current()
        if item == _CONTRAST:
            self.editing = not self.editing
            if not self.editing:
                self.shared.save_soon(now)  # the adjustment ends: its value is kept
        elif item == _RESET:
            if self.confirm:
                # Every tally the settings keep ("Scores": here, not a Settings method, which
                # a game would hold).
                for key in KEYS:
                    if key.startswith("tally"):
                        self.settings.set(key, (0, 0, 0))
                self.shared.save_soon(now)
            self.confirm = not self.confirm
        elif item == _BACK:
            return self._back(now)
        else:
            self._adjust(item, 1)
            self.shared.save_soon(now)
        return SAME

    def _adjust(self, item, step):
        s = self.settings
        if item == _CONTRAST:
            vop = s.get("contrast") + step
            if 0 <= vop <= CONTRAST_MAX:
                s.set("contrast", vop)  # on the glass at once: the live preview
        elif item == _LIGHT:
            s.set("backlight", not s.get("backlight"))
        elif item == _SOUND:
            s.set("sound", not s.get("sound"))
        elif item == _COACH:
            on = not s.get("coach")
            s.set("coach", on)
            if on and not s.get("coach_told"):
                s.set("coach_told", True)  # saved with the coach: told once per device
                self.telling = True
        elif item == _LEVEL:
            cycle(s, "level", engine.LEVELS, step)
        elif item == _STARTS:
            cycle(s, "starts", STARTS_LABELS, step)

    def _back(self, now):
        self.editing = False
        self.shared.save_soon(now)  # a contrast still being adjusted
        return MENU

    def draw(self, fb):
        fb.fill(0)
        if self.telling:
            _tell(fb)
            return
        s = self.settings
        rows = self.rows
        top = rows.index - _SHOWN + 1 if rows.index >= _SHOWN else 0  # the highlight shows
        for row in range(_SHOWN):
            item = rows.items[top + row]
            if item == _CONTRAST:
                value = s.get("contrast")
            elif item == _LIGHT:
                value = "ON" if s.get("backlight") else "OFF"
            elif item == _SOUND:
                value = "ON" if s.get("sound") else "OFF"
            elif item == _COACH:
                value = "ON" if s.get("coach") else "OFF"
            elif item == _LEVEL:
                value = choice(s, "level", engine.LEVELS)
            elif item == _STARTS:
                value = choice(s, "starts", STARTS_LABELS)
            elif item == _RESET:
                value = "CLR?" if self.confirm else "CLR"
            else:
                value = None
            menu_row(fb, row, _LABELS[item], value, top + row == rows.index, self.editing)


def _tell(fb):
    # What the coach's marks mean, in the small font (loaded here: the menu rows do not use it).
    import smallfont

    y = 0
    for mark, meaning in _TELL:
        smallfont.text(fb, mark, 0, y)
        smallfont.text(fb, meaning, _TELL_X if mark else 0, y)
        y += smallfont.LINE
