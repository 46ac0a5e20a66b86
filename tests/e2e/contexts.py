"""Browser contexts and pages shared by the browser tests of a module, handed out as good as new.

A new context and a new page are most of what a browser test's page load costs: a storage
partition, a renderer process and the driver's set-up of the page, and every one of the client's
modules fetched and compiled again with cold caches (docs/testing.md has the figures). So
`browser.new_context(...)`, `browser.new_page(...)` and `context.new_page()` in a browser test
take a context, and a page in it, from this pool when one with the same options is free; a test's
contexts go back when the test ends (or when the test closes them).

Handed out again, a context has no cookie, no permission and no stored data for any test server's
origin (local and session storage, IndexedDB, caches, service workers), and its page shows
about:blank with none of the last test's listeners or routes: what a test can see of those before
it is the browser's HTTP and code caches of the static files, which the server lets every browser
cache anyway. A test that changes a context or a page for good (an init script, headers,
permissions granted, a clock, the viewport, listeners on the context) makes it the test's alone:
it is closed at the end, not shared. Options the pool does not know (a video, a stored state,
blocked service workers) get a context of their own, as before.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable
from typing import Any

# What a context is made with that no reset changes: contexts are shared between tests asking
# for the same values of these (and for none of any other option).
SHAREABLE_OPTIONS = frozenset(
    {
        "viewport",
        "screen",
        "locale",
        "timezone_id",
        "has_touch",
        "is_mobile",
        "device_scale_factor",
        "reduced_motion",
        "color_scheme",
        "forced_colors",
        "user_agent",
        "java_script_enabled",
        "base_url",
    }
)

# A context's methods and properties that change it beyond what a reset undoes: once used, the
# context is not handed to another test.
CHANGES_FOR_GOOD = frozenset(
    {
        "add_init_script",
        "expose_binding",
        "expose_function",
        "set_extra_http_headers",
        "set_geolocation",
        "set_offline",
        "grant_permissions",
        "route",
        "route_from_har",
        "route_web_socket",
        "clock",
        "tracing",
        "on",
        "once",
        "set_default_timeout",
        "set_default_navigation_timeout",
        "new_cdp_session",
    }
)


# The same for a page (its listeners and routes are taken off when the test ends).
PAGE_CHANGES_FOR_GOOD = frozenset(
    {
        "add_init_script",
        "expose_binding",
        "expose_function",
        "set_extra_http_headers",
        "route_from_har",
        "route_web_socket",
        "clock",
        "set_viewport_size",
        "emulate_media",
        "set_default_timeout",
        "set_default_navigation_timeout",
    }
)


def _frozen(value: Any) -> Any:
    if isinstance(value, dict):
        return tuple(sorted((k, _frozen(v)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return tuple(_frozen(v) for v in value)
    return value


class SharedPage:
    """A page of a pooled context as a test sees it: the real page's, with its listeners and
    routes remembered (to take them off at the end) and PAGE_CHANGES_FOR_GOOD noticed."""

    def __init__(self, real: Any) -> None:
        self._real = real
        self._dirty = False
        self._routed = False
        self._listeners: list[tuple[str, Any]] = []

    def __getattr__(self, name: str) -> Any:
        if name in PAGE_CHANGES_FOR_GOOD:
            self._dirty = True
        elif name in ("route", "unroute"):
            self._routed = True
        return getattr(self._real, name)

    def on(self, event: str, f: Any) -> None:
        self._listeners.append((event, f))
        self._real.on(event, f)

    def once(self, event: str, f: Any) -> None:
        self._listeners.append((event, f))
        self._real.once(event, f)

    add_listener = on

    def remove_listener(self, event: str, f: Any) -> None:
        self._listeners = [(e, g) for e, g in self._listeners if (e, g) != (event, f)]
        self._real.remove_listener(event, f)

    def cleared(self) -> bool:
        """The page with the test's listeners and routes off, on about:blank (so nothing of the
        last test runs or talks to a server). False: not fit to share (closed or changed)."""
        if self._dirty or self._real.is_closed():
            return False
        try:
            for event, f in self._listeners:
                with contextlib.suppress(Exception):  # a `once` that has fired
                    self._real.remove_listener(event, f)
            if self._routed:
                self._real.unroute_all(behavior="ignoreErrors")
            self._real.goto("about:blank")
            self._real.mouse.move(0, 0)  # where a new page's pointer is: no hover left over
            return True
        except Exception:  # a crashed page
            return False


class SharedContext:
    """A pooled BrowserContext as a test sees it: everything is the real context's, except
    `close`, which hands it back, `new_page`, which hands out its kept page first, and the calls
    in CHANGES_FOR_GOOD, which keep it from being shared again."""

    def __init__(self, pool: ContextPool, real: Any, key: Any, kept: Any | None) -> None:
        self._pool, self._real, self._key = pool, real, key
        self._kept = kept  # a page of an earlier test, cleared, not yet handed out
        self._pages: list[SharedPage] = []
        self._dirty = False

    def __getattr__(self, name: str) -> Any:
        if name in CHANGES_FOR_GOOD:
            self._dirty = True
        return getattr(self._real, name)

    def new_page(self) -> SharedPage:
        real, self._kept = self._kept, None
        if real is None or real.is_closed():
            real = self._real.new_page()
        page = SharedPage(real)
        self._pages.append(page)
        return page

    def close(self, **_: Any) -> None:
        self._pool.release(self)


class ContextPool:
    """The contexts of one browser: free ones by options, and those the current test holds.
    `launch()`: the browser (again, if it has gone); `origins()`: every test server's origin,
    whose stored data a reset clears."""

    def __init__(self, launch: Callable[[], Any], origins: Callable[[], Iterable[str]]) -> None:
        self._launch = launch
        self._browser: Any = None
        self._origins = origins
        self._free: dict[Any, list[Any]] = {}
        self._held: list[SharedContext] = []
        self._own: list[Any] = []  # contexts a test asked for with options not shared
        self.made = 0  # contexts created, shared or not

    # What a test calls, in place of the browser's own.
    def new_context(self, **options: Any) -> Any:
        if not set(options) <= SHAREABLE_OPTIONS:
            real = self._browser.new_context(**options)
            self.made += 1
            self._own.append(real)
            return real
        key = _frozen(options)
        free = self._free.get(key, [])
        kept = None
        while free:
            real, kept = free.pop()
            if _usable(real):
                break
        else:
            real, kept = self._browser.new_context(**options), None
            self.made += 1
        shared = SharedContext(self, real, key, kept)
        self._held.append(shared)
        return shared

    def new_page(self, **options: Any) -> Any:
        return self.new_context(**options).new_page()

    def __getattr__(self, name: str) -> Any:  # the browser's other methods and properties
        return getattr(self._browser, name)

    # What the fixtures call.
    def connected(self) -> ContextPool:
        """The pool, its browser launched (again, after a crash: the free contexts went with
        the old one)."""
        if self._browser is None or not self._browser.is_connected():
            self._free.clear()
            self._held.clear()
            self._own.clear()
            self._browser = self._launch()
        return self

    def release(self, shared: SharedContext) -> None:
        """The test is done with `shared`: reset it and keep it for another, or close it."""
        if shared not in self._held:
            return  # closed twice: the second is nothing, as for a real context
        self._held.remove(shared)
        real = shared._real
        kept = self._keep_one(shared) if not shared._dirty and _usable(real) else None
        if kept is None or not self._reset(real, kept):
            with contextlib.suppress(Exception):
                real.close()
            return
        self._free.setdefault(shared._key, []).append((real, kept))

    def release_all(self) -> None:
        """The test has ended: every context it took goes back (or is closed)."""
        for shared in list(self._held):
            self.release(shared)
        for real in self._own:
            with contextlib.suppress(Exception):
                real.close()
        self._own.clear()

    def open_pages(self) -> list[Any]:
        """The pages the current test has open, in the contexts it took (to save a failed
        test's screens before they are handed back)."""
        contexts = [shared._real for shared in self._held] + self._own
        pages = []
        for real in contexts:
            with contextlib.suppress(Exception):
                pages += [page for page in real.pages if not page.is_closed()]
        return pages

    def close(self) -> None:
        self.release_all()
        self._free.clear()
        if self._browser is not None:
            with contextlib.suppress(Exception):
                self._browser.close()
            self._browser = None

    @staticmethod
    def _keep_one(shared: SharedContext) -> Any | None:
        """The context's one page to keep, cleared (its others closed); None: none fit."""
        real = shared._real
        keep = None
        for page in shared._pages:
            if keep is None and page.cleared():
                keep = page._real
        for page in list(real.pages):
            if page is not keep:
                with contextlib.suppress(Exception):
                    page.close()
        if keep is None:
            with contextlib.suppress(Exception):
                keep = real.new_page()  # the reset below needs a page; the next test gets it
        return keep

    def _reset(self, real: Any, page: Any) -> bool:
        """As good as new: no cookie, permission or stored data. False if that failed."""
        try:
            origins = {o for o in self._origins() if o}
            cdp = real.new_cdp_session(page)
            for origin in sorted(origins):
                cdp.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
            cdp.detach()
            real.clear_cookies()
            real.clear_permissions()
            return True
        except Exception:  # a crashed page or context: it is closed, not reused
            return False


def _usable(real: Any) -> bool:
    try:
        return real.browser is not None and real.browser.is_connected() and _open(real)
    except Exception:
        return False


def _open(real: Any) -> bool:
    # Playwright keeps no public "closed" flag on a context: a closed one has left the browser's
    # list of contexts.
    return real in real.browser.contexts
