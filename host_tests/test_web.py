"""The web page in a real browser (Debian's Chromium, driven by playwright-core): each class runs
the checks of host_tests/web/<class name>.mjs, whose header says what they prove, in one
Chromium; under pytest-xdist the classes run side by side. Where node, npm or Chromium is
missing they skip saying how to get it (webcheck.chromium), and fail with CI set. The page
served is webcheck's web_site: the site `make web` builds.
"""

import webcheck


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
