"""tools/nomtime.py, deploy's remount of a board's littlefs root without modification times, on
a Pico-shaped RAM flash under the MicroPython unix port; deploy_chains sends it to the board.

The script also writes both flash images (mtime.img, nomtime.img) into its TMPDIR, for booting
on an emulated Pico, and checks each read back from its file: the boot times are measured
there, not here."""

from pathlib import Path

import deploy_chains
import mpcheck

TOOLS = Path(__file__).resolve().parents[1] / "tools"


class mp_nomtime(mpcheck.Script):
    """Two deploys of the same files, with and without deploy's remount, and the look-ups."""

    heapsize = "8m"  # two 1408 KB RAM flashes (and a third for the redeploy)
    paths = (TOOLS,)
    args = (mpcheck.fixture("deployed"), mpcheck.TMPDIR)


def test_deploy_and_mip_remount_before_they_copy(tmp_path):
    mpy = tmp_path / "app.mpy"
    mpy.write_bytes(b"")
    cmd = deploy_chains.deploy_commands("PORT", [mpy], tmp_path / "board.mpy", tmp_path / "m.py")
    first = cmd[cmd.index("exec") + 1]
    assert "mtime=False" in first and "main(['app.mpy', 'board.mpy', 'main.py'])" in first
    assert cmd.index("exec") < cmd.index("cp")
    mip, _ = deploy_chains.commands("mip", "pico", "PORT", tmp_path)
    assert mip.index("exec") < mip.index("mip") and "mtime=False" in mip[mip.index("exec") + 1]
