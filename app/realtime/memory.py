"""Memory of a server that holds many sockets: the garbage collector kept off the long-lived
heap, and memory given back after bursts of closes.

An open socket's objects (its task, frames, protocol state, Connection) live as long as it
does. Left to the collector, every full pass walks all of them: with 10,000 spectators about a
million objects, 0.7 to 1 s a pass on this project's 2-core machine, and the garbage every move
leaves (states, documents, frames) brought a full pass every second or two, each a pause for
every socket (docs/benchmarks.md). So once a thousand sockets are open (below that, passes over
them are cheap) the hub freezes the heap (`gc.freeze`) after each burst of opened sockets: full
passes then walk only what came since. A frozen object that becomes cyclic garbage is found
only when the heap is thawed again, so after as many closes as there were sockets open at most
since the last such pass (at least 200) the hub `release`s: thaw, one full pass over
everything (the modules frozen at start-up too, about 0.1 s more), freeze again, and give free
pages back to the system; with no socket frozen, only the unfrozen heap is collected. Such
garbage stays bounded by what that many sockets left (measured: a few thousand objects for
5,000 sockets, and most passes find none), and a crowd of 10,000 that leaves costs one or two
passes, not one per 200 closes.

CPython keeps freed small objects in its own arenas and glibc keeps freed heap pages, so the
resident size of a server that held a thousand sockets stays high after they all left.
`malloc_trim` asks glibc to return the free pages; it is cheap (milliseconds) and harmless.
Elsewhere (no glibc) it does nothing.
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


def freeze() -> None:
    """Keep everything alive now out of the collector's full passes: first the young garbage
    is collected (a pass over the young generations only, milliseconds), so that what is frozen
    is what lives, then the rest is moved aside (a list splice)."""
    gc.collect(1)
    gc.freeze()


def release(thaw: bool = False) -> bool:
    """Collect garbage and return free heap pages to the system; True if it could trim. With
    `thaw`, the frozen heap is collected too (a full pass over everything), then frozen again."""
    if thaw:
        gc.unfreeze()
    gc.collect()
    if thaw:
        gc.freeze()
    if _libc is None:
        return False
    return bool(_libc.malloc_trim(0))
