"""Give memory back to the system after many sockets closed.

CPython keeps freed small objects in its own arenas and glibc keeps freed heap pages, so the
resident size of a server that held a thousand sockets stays high after they all left.
`malloc_trim` asks glibc to return the free pages; it is cheap (milliseconds) and harmless, so
the hub calls it when a burst of sockets has closed. Elsewhere (no glibc) it does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import logging

log = logging.getLogger(__name__)

_libc = None
_name = ctypes.util.find_library("c")
if _name:
    try:
        _libc = ctypes.CDLL(_name)
        _libc.malloc_trim.argtypes = [ctypes.c_size_t]
        _libc.malloc_trim.restype = ctypes.c_int
    except (OSError, AttributeError):  # not glibc: nothing to trim
        _libc = None


def release() -> bool:
    """Collect garbage and return free heap pages to the system; True if it could trim."""
    gc.collect()
    if _libc is None:
        return False
    return bool(_libc.malloc_trim(0))
