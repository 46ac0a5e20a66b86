"""The code's layers and the absence of import circles, held by import-linter's contracts in
pyproject.toml ([tool.importlinter]): run here so a change that breaks them fails the suite."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CONTRACTS = ("layers", "services", "models", "pure-engine", "acyclic")
pytestmark = pytest.mark.timeout(120)


def _lint(cwd: Path) -> subprocess.CompletedProcess[str]:
    command = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    assert command, "import-linter is installed with the dev extras"
    return subprocess.run(
        [command, "--no-cache"], cwd=cwd, capture_output=True, text=True, timeout=110
    )


def test_every_contract_is_kept() -> None:
    done = _lint(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    kept = [line for line in done.stdout.splitlines() if line.endswith(" KEPT")]
    assert len(kept) == len(CONTRACTS), done.stdout


@pytest.mark.parametrize(
    ("module", "line", "broken"),
    [
        # The engine reaching up into the web layer.
        ("app/engine/board.py", "import app.web.errors", "The app's layers"),
        # The live core and the web routes importing each other.
        ("app/realtime/recent.py", "import app.web.errors", "The app's layers"),
        # A service importing the live core.
        ("app/services/tables/names.py", "import app.realtime.codec", "The app's layers"),
        # The lobby reaching up into the play service.
        ("app/services/tables/names.py", "import app.services.play.road", "The services"),
        # One domain's tables importing another's (they name each other's tables by string).
        ("app/db/models/ratings.py", "import app.db.models.games", "The tables by domain"),
        # The engine touching the database.
        ("app/engine/board.py", "import sqlalchemy", "The rules engine and the bots do no I/O"),
        # A circle inside one package, through a type-only import.
        (
            "app/shared/errors.py",
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import app.shared.notify",
            "No import circles",
        ),
    ],
)
def test_a_broken_layer_is_caught(tmp_path: Path, module: str, line: str, broken: str) -> None:
    """The contracts can fail: each kind of breach, planted in a copy of the tree, is named."""
    shutil.copytree(ROOT / "app", tmp_path / "app", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    target = tmp_path / module
    target.write_text(target.read_text() + "\n" + line + "\n")
    if "notify" in line:  # and the other half of the circle
        notify = tmp_path / "app/shared/notify.py"
        notify.write_text(notify.read_text() + "\nimport app.shared.errors\n")
    done = _lint(tmp_path)
    assert done.returncode != 0
    assert f"{broken}" in done.stdout.split("Broken contracts", 1)[1], done.stdout


def test_the_moves_road_loads_no_ratings_review_or_bot_search() -> None:
    """What a finished game sets off is registered at start-up, not imported by the move's
    module: loading the road loads neither the rating model (openskill) nor the bots' search."""
    code = (
        "import sys, app.services.play.road; "
        "print(sorted(m for m in ('openskill', 'app.bots.expert', 'app.services.ratings.results',"
        " 'app.services.reviews.analysis') if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
