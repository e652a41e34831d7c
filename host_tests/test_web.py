"""The web page in a real browser (Debian's Chromium, driven by playwright-core): the proofs of
issue 12. The checks are host_tests/web/web_play.mjs (the canvas against the golden screens and
how well a highlighted row reads, whole games by mouse, keys and touch, the hint, key repeat and
quick presses) and
host_tests/web/web_page.mjs (what the page adds: settings kept across a reload and forgotten,
the demo after idling, dimming and sleep, the error screen) and host_tests/web/web_device.mjs
(sound through WebAudio and mute, the board option, the phone layout) and
host_tests/web/web_coach.mjs (issue 21: the tree explorer against a minimax and an alpha-beta of
the test's own, host_tests/web/coachcheck.mjs; the keyboard, a phone) and
host_tests/web/web_coachgrid.mjs (the coach beside the glass: in a game, with the device's Coach
setting off and on, in its review; where the grid stays) and
host_tests/web/web_load.mjs (issue 26: what the first frame fetches and imports, and when the
rest, the coach's grid and the explorer come). Each class runs in one
Chromium; under pytest-xdist the classes run side by side. Where node, npm or Chromium is
missing they skip saying how to get it (webcheck's web_chromium), and fail with CI set.
"""

import pytest
import web_build
import webcheck


@pytest.fixture(scope="session")
def web_site(web_chromium, tmp_path_factory):
    """The site `make web` builds (tools/web_build.py), built once into a pytest folder."""
    out = tmp_path_factory.mktemp("web") / "site"
    web_build.build(out)
    return out


class web_play(webcheck.Checks):
    site = webcheck.fixture("web_site")
    timeout = 20


class web_page(webcheck.Checks):
    site = webcheck.fixture("web_site")
    timeout = 20


class web_device(webcheck.Checks):
    site = webcheck.fixture("web_site")
    timeout = 20


class web_coach(webcheck.Checks):
    site = webcheck.fixture("web_site")
    timeout = 30


class web_coachgrid(webcheck.Checks):
    site = webcheck.fixture("web_site")
    timeout = 30


class web_load(webcheck.Checks):
    site = webcheck.fixture("web_site")
    timeout = 30
