"""web/coachtree.py, the page's tree explorer, under the MicroPython unix port: its
boundaries and finished games (the browser checks, test_web.py's web_coach, check every node
the page shows against a minimax and an alpha-beta of their own)."""

from pathlib import Path

import mpcheck

WEB = Path(__file__).resolve().parents[1] / "web"


class mp_web_coachtree(mpcheck.Script):
    """Its checks, each a pytest item: mp_web_coachtree.py under MicroPython."""

    heapsize = "256k"
    paths = (WEB,)


class mp_web_page(mpcheck.Script):
    """oxoweb.Page's coach under MicroPython (mp_web_page.py), on the host board's machine."""

    heapsize = "1024k"
    paths = (mpcheck.fixture("hostboard"), WEB)
    args = (mpcheck.TMPDIR,)  # the folder the page's files (settings.json) are written in
