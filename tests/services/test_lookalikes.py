"""Lookalike names and invisible characters (Unicode TR39): names mixing scripts are refused,
a name that looks like one already at the table cannot sit there, and chat drops invisible
format characters."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from sqlalchemy.orm import Session

from app.db.models.accounts import User
from app.services.accounts import users
from app.services.tables import chat, lobby, lookalikes
from app.shared.errors import ServiceError

CYRILLIC_A = "\u0410"  # looks like the Latin A
INVISIBLE = ("\u200b", "\u00ad", "\ufeff", "\u2060", "\u200e")  # all of category Cf


@pytest.mark.parametrize(
    ("name", "mixed"),
    [
        ("Ann", False),
        ("José Ñúñez", False),
        ("Ана", False),  # one script, even if not Latin
        ("山田太郎", False),
        ("田中 カナ", False),  # Japanese writes Han and Katakana together
        ("Kim 민수", False),  # Latin with Hangul (UTS #39 "highly restrictive")
        ("Player 2", False),
        (CYRILLIC_A + "nn", True),
        ("Ωmega", True),
        ("Ann Ана", True),
    ],
)
def test_names_in_one_script_pass_and_mixed_ones_are_refused(name: str, mixed: bool) -> None:
    assert lookalikes.mixes_scripts(name) is mixed
    if mixed:
        with pytest.raises(ServiceError) as refused:
            users.clean_display_name(name)
        assert refused.value.code == "mixed_scripts"
    else:
        assert users.clean_display_name(name) == name


@pytest.mark.parametrize(
    ("a", "b", "alike"),
    [
        ("Ann", CYRILLIC_A + "nn", True),
        ("Ann", "Ann", True),
        ("Al", "AI", True),  # l and I
        ("mary", "rnary", True),  # m and "rn"
        ("Bob 0", "Bob O", True),
        ("Ana", CYRILLIC_A + "na", True),
        ("Ann", "Anne", False),
        ("José", "Jose", False),
        ("Ann", "ann", False),
    ],
)
def test_skeletons_tell_names_a_reader_may_mistake(a: str, b: str, alike: bool) -> None:
    assert (lookalikes.lookalike_in(a, ["Zed", b]) == b) is alike
    assert (lookalikes.skeleton(a) == lookalikes.skeleton(b)) is alike


@pytest.mark.parametrize("mark", INVISIBLE)
def test_names_with_invisible_characters_are_refused(mark: str) -> None:
    with pytest.raises(ServiceError) as refused:
        users.clean_display_name(f"An{mark}n")
    assert refused.value.code == "invalid_name"


@pytest.mark.parametrize("mark", INVISIBLE)
def test_chat_drops_invisible_format_characters(mark: str) -> None:
    assert chat.clean(f"h{mark}i {mark}there{mark}") == "hi there"
    assert chat.clean(mark * 3) is None  # nothing visible is no line


def test_chat_keeps_the_joiners_of_emoji_and_words() -> None:
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    persian = "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"  # a word with a ZWNJ
    assert chat.clean(family) == family and chat.clean(persian) == persian
    # Bidirectional overrides and isolates still become spaces (they reorder what follows).
    assert chat.clean("a\u202eb") == "a b"


def test_a_lookalike_of_a_name_at_the_table_cannot_join(
    db: Session, make_user: Callable[[str], User]
) -> None:
    host = make_user("Ann")
    game = lobby.create_game(db, host, 3)
    # Made as a row: a name stored before names were checked for scripts.
    spoof = User(display_name=CYRILLIC_A + "nn")
    db.add(spoof)
    db.commit()
    same = make_user("Ann")
    # The same name is said as such (name_taken); a lookalike of it as a lookalike.
    for user, code in ((spoof, "lookalike_name"), (same, "name_taken")):
        with pytest.raises(ServiceError) as refused:
            lobby.join_game(db, game.id, user)
        assert refused.value.code == code
        assert "Ann" in str(refused.value.message)
    bob = make_user("Bob")
    lobby.join_game(db, game.id, bob)
    seated = {s.user_id for s in lobby.get_game(db, game.id).seats if s.user_id}
    assert seated == {host.id, bob.id}


def test_a_seated_guest_cannot_rename_into_a_lookalike(db: Session) -> None:
    ann, _ = users.start_guest(db, "Ann", None, None)
    bob, bob_token = users.start_guest(db, "Bob", None, None)
    game = lobby.create_game(db, ann, 2)
    lobby.join_game(db, game.id, bob)
    with pytest.raises(ServiceError) as refused:
        users.start_guest(db, "Ann", bob, bob_token)
    assert refused.value.code == "lookalike_name"
    db.refresh(bob)
    assert bob.display_name == "Bob"
    users.start_guest(db, "Robert", bob, bob_token)  # any other name is fine
    assert bob.display_name == "Robert"
