"""The suite's tiers: markers a test earns by what it needs, and a guard for what it starts.

A test is in the fast tier (`pytest -m fast`) unless it needs something slow or shared: a
Postgres or Redis service, a server process, a browser, or minutes of CPU. Those needs come from
the fixtures a test uses (so a new test lands in the right tier without saying anything), from
the parameter it runs with (`database_url[postgres]`, a realtime server on the Redis bus), or,
for the few that start a process through a helper rather than a fixture, from an explicit
`@pytest.mark.server` (or `browser`, `postgres`, `redis`). The helpers that start processes call
`starts()`, which fails a test that does so without the marker: the tiers stay honest.
docs/testing.md describes the tiers.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import pytest

# Marker: what the test needs. `fast` is given to every test that needs none of them.
NEEDS = {
    "postgres": "needs the Postgres service (127.0.0.1:5432) or starts a private cluster",
    "redis": "needs the Redis service (127.0.0.1:6379) or starts a private one",
    "server": "starts a server process (uvicorn, redis-server, postgres) of its own",
    "browser": "drives Debian's Chromium through Playwright",
    "slow": "takes many seconds of CPU even on its own (whole bot games, big searches)",
}
FAST = "fast"
# A test that uses `database_url` runs on both databases unless marked with this: its subject
# does not differ by dialect, and the code that does is tested on Postgres elsewhere.
ONE_DATABASE = "one_database"

# Fixtures that bring a need with them, whatever their parameter.
FIXTURE_NEEDS = {
    "postgres_admin_url": ("postgres",),
    "postgres_url": ("postgres",),
    "make_postgres_db": ("postgres",),
    "make_migrated_postgres_db": ("postgres",),
    "redis_url": ("redis",),
    "browser": ("browser",),
    "playwright": ("browser",),
    "real_server": ("server",),
    "own_real_server": ("server",),
    "shared_apps": ("server",),
    "server": ("server",),
    "fresh_server": ("server",),
}
# Parametrised fixtures whose parameter decides: (fixture, parameter value) -> needs.
PARAM_NEEDS = {
    ("database_url", "postgres"): ("postgres",),
    ("empty_database_url", "postgres"): ("postgres",),
    ("server", "redis"): ("redis",),
    ("fresh_server", "redis"): ("redis",),
}

# Hypothesis: the fast tier's profile caps every property test's examples at this many.
FAST_EXAMPLES = 10


def examples(full: int) -> int:
    """A property test's example count: `full` in the whole suite, fewer in the fast tier."""
    from hypothesis import settings

    if settings.get_current_profile_name() == FAST:
        return min(full, FAST_EXAMPLES)
    return full


def register_fast_profile() -> None:
    """The fast tier's Hypothesis profile (few examples, no deadline), for
    `--hypothesis-profile=fast` and for `pytest -m fast`, which loads it."""
    from hypothesis import settings

    settings.register_profile(FAST, max_examples=FAST_EXAMPLES, deadline=None)


def configure(config: pytest.Config) -> None:
    """Register the markers; `-m fast` alone also means the fast Hypothesis profile."""
    described = {
        **NEEDS,
        FAST: "needs none of the others: the tier to run while you work",
        ONE_DATABASE: "database_url on SQLite alone: nothing the test checks differs by dialect",
    }
    for name, why in described.items():
        config.addinivalue_line("markers", f"{name}: {why}")
    if (config.getoption("markexpr", "") or "").strip() == FAST:
        from hypothesis import settings

        settings.load_profile(FAST)


def keep_bytecode() -> None:
    """Let this run and the processes it starts write Python's bytecode caches.

    With PYTHONDONTWRITEBYTECODE set (this machine's environment sets it), nothing is kept:
    each worker rewrote every test module's assertions and compiled it again at collection,
    15 s of a worker's start where the kept files make it 5 s, and every server process a test
    started compiled the app again. The files go to `__pycache__/` (ignored by git).
    """
    sys.dont_write_bytecode = False
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


# Parallel runs (pytest-xdist): at most this many workers, whatever the machine has.
MAX_WORKERS = 4


def worker_index() -> int:
    """This process's worker number in a parallel run (0 when not parallel)."""
    name = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    return int(name[2:]) if name[2:].isdigit() else 0


def default_workers(config: pytest.Config) -> None:
    """Run on every core (the whole suite one worker more; up to MAX_WORKERS) when pytest is
    run on the suite or a tier as a whole, i.e. with no paths: the README's command and
    `pytest -m fast`. Paths given (one file, one test) run in this process, as does anything
    with `-n` given, `-p no:xdist`, a debugger or --collect-only. SEADRAGONS_TEST_WORKERS=N
    sets the count (0: no workers)."""
    option = config.option
    if not hasattr(option, "numprocesses") or option.numprocesses is not None:
        return  # xdist absent or disabled, or the count given on the command line
    if hasattr(config, "workerinput") or "PYTEST_XDIST_WORKER" in os.environ:
        return  # a worker itself: it runs what it is sent, in its own process
    if config.args_source is not pytest.Config.ArgsSource.TESTPATHS:
        return
    if option.collectonly or getattr(option, "usepdb", False):
        return
    wanted = os.environ.get("SEADRAGONS_TEST_WORKERS")
    # The whole suite takes one worker more than the cores: the browser lane (`browser_lane`)
    # alone keeps about one and a half busy, and the other tests wait on servers and outages;
    # on 2 cores, 3 workers kept them 96 % busy where 2 left them idle a quarter of the time.
    # A tier chosen by marker (`-m fast`) has no browser lane: one worker a core.
    lane = not (config.getoption("markexpr", "") or "").strip()
    cores = os.cpu_count() or 1
    count = int(wanted) if wanted else min(MAX_WORKERS, cores + 1 if lane else cores)
    if count > 1:
        option.numprocesses = count
        # A module's tests on one worker: its module-scoped fixtures (a browser, a server) are
        # made once, not once per worker; long browser modules go in groups (`make_scheduler`).
        option.dist = "loadscope"
        option.loadscopereorder = False
        option.seadragons_groups = True
        # The lane only in the whole suite: a tier chosen by marker may keep a few tests of
        # tests/e2e that need no browser (the README's commands), and a lane for those alone
        # would leave the tier one worker short.
        option.seadragons_lane = lane


# Parallel runs hand each module's tests to one worker, except the browser modules: those go in
# groups of at most this many tests, so both workers end together (a long module of browser
# tests sent whole kept one worker busy for minutes after the other had ended).
GROUP_SIZE = 12
SPLIT_UNDER = "tests/e2e/"


def run_order(item: pytest.Item) -> tuple[bool, bool]:
    """Sort key: the browser tests last (the slowest, with an event loop of their own), and of
    those the real-server ones first: they take longest, so the short stub-server tests left at
    the end let both workers finish together."""
    browser = SPLIT_UNDER in item.nodeid.replace("\\", "/")
    return browser, browser and item.get_closest_marker("server") is None


def groups(nodeids: list[str]) -> dict[str, str]:
    """Each test's group (what one worker runs, in order): its module, or for a module under
    tests/e2e/ (whose tests share the worker's browser, not a module's, and few module-scoped
    fixtures) its module cut into groups of GROUP_SIZE tests in collection order."""
    seen: dict[str, int] = {}
    found = {}
    for nodeid in nodeids:
        module = nodeid.split("::", 1)[0]
        index = seen.get(module, 0)
        seen[module] = index + 1
        split = SPLIT_UNDER in module.replace("\\", "/")
        found[nodeid] = f"{module}#{index // GROUP_SIZE}" if split else module
    return found


def make_scheduler(config: pytest.Config, log: object) -> object | None:
    """The scheduler of a run `default_workers` made parallel: xdist's loadscope over `groups`,
    in collection order (not its default of the scopes with the most tests first, which sent
    the longest browser tests, alone in their modules, last). None: xdist's own choice."""
    if not getattr(config.option, "seadragons_groups", False):
        return None
    from xdist.scheduler import LoadScopeScheduling

    class GroupScheduling(LoadScopeScheduling):
        _groups: dict[str, str] = {}

        def _split_scope(self, nodeid: str) -> str:
            return self._groups.get(nodeid) or nodeid.split("::", 1)[0]

        _browser_lane: Any = None

        def schedule(self) -> None:
            if self.collection is None and self.registered_collections:
                collection = list(next(iter(self.registered_collections.values())))
                self._groups = groups(collection)
                if getattr(self.config.option, "seadragons_lane", False):
                    self._browser_lane = browser_lane(self.nodes, collection)
            super().schedule()

        def _assign_work_unit(self, node: Any) -> None:
            scope = next_scope(list(self.workqueue), browser_only=node is self._browser_lane)
            if scope is None:  # the browser lane with no browser test left: its work is done
                node.shutdown()
                return
            self.workqueue.move_to_end(scope, last=False)
            super()._assign_work_unit(node)

        def remove_node(self, node: Any) -> str | None:
            # A crashed worker's test is reported once, as xdist's default scheduler does, and
            # only its groups with tests left are handed on. Loadscope would hand on the
            # crashing test too (each new worker crashed in turn until xdist stopped making
            # them) and, when it was its group's last, a group with nothing left to run: the
            # worker sent it never reported back, so nothing was handed out again and the run
            # waited forever.
            work = self.assigned_work.get(node, {})
            crashed = crash_item(work)
            for scope, unit in list(work.items()):
                if crashed in unit:
                    unit[crashed] = True
                if all(unit.values()):
                    del work[scope]
            super().remove_node(node)
            return crashed

    return GroupScheduling(config, log)


def browser_lane(nodes: list[Any], collection: list[str]) -> Any:
    """The worker that runs browser tests from the start, beside the others' other tests: None
    unless there are two workers or more and both kinds of test.

    A worker that has run a browser test runs no other test after it (Playwright's event loop
    stays in its thread, under which the asyncio tests fail), so without a lane every worker
    ran the browser tests at the end, together: the cores were a tenth idle in the first part
    (tests waiting on servers and outages) and the browser tests alone filled them after."""
    if len(nodes) < 2:
        return None
    kinds = {SPLIT_UNDER in nodeid.replace("\\", "/") for nodeid in collection}
    return nodes[0] if kinds == {True, False} else None


def next_scope(queue: list[str], browser_only: bool) -> str | None:
    """The group a worker gets next: the browser lane's next browser group; another worker's
    next group of other tests, or when none is left, the next browser group."""
    browser = [scope for scope in queue if SPLIT_UNDER in scope.replace("\\", "/")]
    if browser_only:
        return browser[0] if browser else None
    others = [scope for scope in queue if scope not in browser]
    return (others or browser or [None])[0]


def crash_item(workload: dict[str, dict[str, bool]]) -> str | None:
    """The test a worker was running when it went down: the first of its work not done."""
    for unit in workload.values():
        for nodeid, done in unit.items():
            if not done:
                return nodeid
    return None


# The test being run in this process (set by the conftest's runtest hooks), for `starts()`.
_current: pytest.Item | None = None


def needs_of(item: pytest.Item) -> set[str]:
    """The needs a test brings by its fixtures, parameters and own markers."""
    found = {name for name in NEEDS if item.get_closest_marker(name) is not None}
    if item.get_closest_marker("e2e") is not None:
        found.add("browser")
    for name in getattr(item, "fixturenames", ()):
        found.update(FIXTURE_NEEDS.get(name, ()))
    callspec = getattr(item, "callspec", None)
    if callspec is not None:
        for name, value in callspec.params.items():
            if isinstance(value, str):
                found.update(PARAM_NEEDS.get((name, value), ()))
    return found


def mark_tiers(items: list[pytest.Item]) -> None:
    """Add each test's needs as markers, and `fast` to those that need nothing."""
    for item in items:
        needs = needs_of(item)
        for name in sorted(needs):
            if item.get_closest_marker(name) is None:
                item.add_marker(name)
        if not needs:
            item.add_marker(FAST)


def set_current(item: pytest.Item | None) -> None:
    """Remember the test being run (None after it)."""
    global _current
    _current = item


def starts(need: str, what: str) -> None:
    """Called by a helper about to start or hand out `what`: the running test must be marked
    `need`.

    Without the marker the test would sit in the fast tier and slow it down (or fail where the
    service is absent), so it fails here with the fix to make.
    """
    if _current is not None and need not in needs_of(_current):
        pytest.fail(
            f"{_current.nodeid} uses {what} but is not marked `{need}`: add "
            f"@pytest.mark.{need} to the test (or pytestmark to its module); see docs/testing.md",
            pytrace=False,
        )
