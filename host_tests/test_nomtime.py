"""deploy_chains sends tools/nomtime.py (deploy's remount of a board's littlefs root without
modification times) to the board before deploy and mip copy. The remount itself, on a
Pico-shaped RAM flash under MicroPython: mp/mp_nomtime.py."""

import deploy_chains


def test_deploy_and_mip_remount_before_they_copy(tmp_path):
    mpy = tmp_path / "app.mpy"
    mpy.write_bytes(b"")
    cmd = deploy_chains.deploy_commands("PORT", [mpy], tmp_path / "board.mpy", tmp_path / "m.py")
    first = cmd[cmd.index("exec") + 1]
    assert "mtime=False" in first and "main(['app.mpy', 'board.mpy', 'main.py'])" in first
    assert cmd.index("exec") < cmd.index("cp")
    mip, _ = deploy_chains.commands("mip", "pico", "PORT", tmp_path)
    assert mip.index("exec") < mip.index("mip") and "mtime=False" in mip[mip.index("exec") + 1]
