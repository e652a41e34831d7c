# What the board runs at power-on. MicroPython compiles main.py from source at every boot, so
# it only starts the compiled boot code (oxo.py, deployed as oxo.mpy).
# SPDX-License-Identifier: MIT
import oxo

oxo.main()
