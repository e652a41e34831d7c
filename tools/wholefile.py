"""Write a file whole or not at all: a temp file in the same folder, then a rename.

Used by `make image` and `make firmware`: a failed or stopped build leaves the previous file
(or none) in build/image, never half of one. Both name what they wrote by shown().
"""

import os
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def shown(path):
    """path as from the project's root, as a person there would type it."""
    try:
        return str(Path(path).resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


def _umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_whole(path, data):
    """Write data to path via a temp file in the same folder and a rename: never half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=path.name + ".", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(temp, 0o666 & ~_umask())  # mkstemp's 0600 would keep the file from others
        os.replace(temp, path)
    except BaseException:
        os.unlink(temp)
        raise
