"""Write a file whole or not at all: a temp file in the same folder, then a rename.

Used by `make image` and `make firmware`: a failed or stopped build leaves the previous file
(or none) in build/image, never half of one.
"""

import os
import tempfile


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
