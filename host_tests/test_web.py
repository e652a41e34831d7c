"""The web page: its MicroPython half (web/oxoweb.py's Page, web/coachtree.py's explorer) under
the unix port, and the page itself in a real browser (Debian's Chromium, driven by
playwright-core): each web_ class runs the checks of host_tests/web/<class name>.mjs, whose
header says what they prove, in one Chromium; under pytest-xdist the classes run side by side.
Where node, npm or Chromium is missing they skip saying how to get it (webcheck.chromium), and
fail with CI set. The page served is webcheck's web_site: the site `make web` builds.
"""

from pathlib import Path

import mpcheck
import webcheck

WEB = Path(__file__).resolve().parents[1] / "web"


class mp_web_coachtree(mpcheck.Script):
    """coachtree.py's boundaries and finished games (web_coach checks every node the page shows
    against a minimax and an alpha-beta of its own)."""

    heapsize = "256k"
    paths = (WEB,)


class mp_web_page(mpcheck.Script):
    """oxoweb.Page's coach and link cable, on the host board's machine."""

    heapsize = "1024k"
    paths = (mpcheck.fixture("hostboard"), WEB)
    args = (mpcheck.TMPDIR,)  # the folder the page's files (settings.json) are written in


class web_play(webcheck.Checks):
    timeout = 20


class web_page(webcheck.Checks):
    timeout = 20


class web_device(webcheck.Checks):
    timeout = 20


class web_coach(webcheck.Checks):
    pass


class web_link(webcheck.Checks):
    pass
