"""Game options the engine cannot read are `invalid_options`, never a crash."""

from __future__ import annotations

import pytest

from app.services.tables.lobby import game_options
from app.shared.errors import ServiceError


@pytest.mark.parametrize("layouts", [["", "", "", ""], ["1A", "", "3A", "4A"], [None] * 4])
def test_unreadable_layouts_are_invalid_options(layouts: list) -> None:
    with pytest.raises(ServiceError) as err:
        game_options(3, False, {"layouts": layouts})
    assert err.value.code == "invalid_options"
