# Test scaffolding only: a board file whose build() fails (a wiring or driver error at boot).
# SPDX-License-Identifier: MIT
LCD_DC = 20
BTN_SELECT = 14


def build():
    raise OSError(19)  # ENODEV
