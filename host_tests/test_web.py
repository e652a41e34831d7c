"""The web page in a real browser (Debian's Chromium, driven by playwright-core): each class runs
the checks of host_tests/web/<class name>.mjs, whose header says what they prove, in one
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


class _Page(webcheck.Checks):
    site = webcheck.fixture("web_site")


class web_play(_Page):
    timeout = 20


class web_page(_Page):
    timeout = 20


class web_device(_Page):
    timeout = 20


class web_coach(_Page):
    pass


class web_link(_Page):
    pass
