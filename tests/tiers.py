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


# Parallel runs (pytest-xdist): at most this many workers, whatever the machine has.
MAX_WORKERS = 4


def worker_index() -> int:
    """This process's worker number in a parallel run (0 when not parallel)."""
    name = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    return int(name[2:]) if name[2:].isdigit() else 0


def default_workers(config: pytest.Config) -> None:
    """Run on every core (up to MAX_WORKERS) when pytest is run on the suite or a tier as a
    whole, i.e. with no paths: the README's command and `pytest -m fast`. Paths given (one file,
    one test) run in this process, as does anything with `-n` given, `-p no:xdist`, a debugger
    or --collect-only. SEADRAGONS_TEST_WORKERS=N sets the count (0: no workers)."""
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
    count = int(wanted) if wanted else min(MAX_WORKERS, os.cpu_count() or 1)
    if count > 1:
        option.numprocesses = count
        # A group's tests on one worker (`xdist_groups`): a module's module-scoped fixtures are
        # made once, while a long module no longer keeps one worker busy after the other ends.
        option.dist = "loadgroup"
        # In the order collected (`run_order`), not xdist's default of the groups with the
        # most tests first: that sent the longest browser tests, alone in their modules, last.
        option.loadscopereorder = False


# Parallel runs hand a module's tests to the workers in groups of at most this many, so both
# end together (a long module of browser tests is a minutes-long tail when sent whole).
GROUP_SIZE = 12
# Module-scoped fixtures cheap enough to make once per group rather than once per module.
CHEAP_PER_GROUP = {"browser"}


def _keeps_module_whole(item: pytest.Item) -> bool:
    """True when the test uses a module- or class-scoped fixture (an analysis, a schema) that a
    split would make twice; a browser is cheap to launch again."""
    defs = getattr(getattr(item, "_fixtureinfo", None), "name2fixturedefs", {})
    for name in getattr(item, "fixturenames", ()):
        if name in CHEAP_PER_GROUP or not defs.get(name):
            continue
        if defs[name][-1].scope in ("module", "class", "package"):
            return True
    return False


def run_order(item: pytest.Item) -> tuple[bool, bool]:
    """Sort key: the browser tests last (the slowest, with an event loop of their own), and of
    those the real-server ones first: they take longest, so the short stub-server tests left at
    the end let both workers finish together."""
    browser = "tests/e2e/" in item.nodeid.replace("\\", "/")
    return browser, browser and item.get_closest_marker("server") is None


def xdist_groups(items: list[pytest.Item]) -> None:
    """Mark each test with its group for `--dist loadgroup`: its module, cut into groups of
    GROUP_SIZE consecutive tests unless a test there keeps the module whole."""
    modules: dict[str, list[pytest.Item]] = {}
    for item in items:
        modules.setdefault(item.nodeid.split("::")[0], []).append(item)
    for module, tests in modules.items():
        size = len(tests) if any(map(_keeps_module_whole, tests)) else GROUP_SIZE
        for index, item in enumerate(tests):
            item.add_marker(pytest.mark.xdist_group(f"{module}#{index // size}"))


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
