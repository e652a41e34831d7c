"""The web page in a real browser (Debian's Chromium, driven by playwright-core): the proofs of
issue 12. The checks are host_tests/web/web_play.mjs (the canvas against the golden screens,
whole games by mouse, keys and touch, the hint, key repeat and quick presses), in one Chromium.
Where node, npm or Chromium is missing they skip saying how to get it (webcheck's
web_chromium), and fail with CI set.
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

