"""The key-by-key diff of the project's own JSON documents (RFC 6902 ops): what a viewer's
socket receives as a patch, and what a replay sends between positions."""

from __future__ import annotations

from typing import Any


def _token(key: str) -> str:
    # RFC 6901: "~" and "/" are escaped in a JSON Pointer's reference tokens.
    return key.replace("~", "~0").replace("/", "~1") if ("~" in key or "/" in key) else key


# (id(old), id(new), path) -> (old, new, ops): holding both parts keeps their ids from being
# reused by other objects while the memo lives.
Memo = dict[tuple[int, int, str], tuple[Any, Any, list[dict[str, Any]]]]


def diff(old: Any, new: Any, path: str = "", memo: Memo | None = None) -> list[dict[str, Any]]:
    """RFC 6902 ops turning document `old` into `new`, by the documents' known shape.

    Dicts are compared key by key and lists of dicts of the same length item by item; a list
    that only grew gets `add`s of its new items (the board's Dragons, a player's missions);
    anything else that changed is replaced whole. Equal parts cost one C-level `==` (so, as in
    Python, 1 == True: no view field ever changes between a number and a boolean). This is a
    diff of the project's own documents, so it need not find the smallest patch for arbitrary
    JSON (as jsonpatch's does, at ~1 ms per viewer and move): it is exact, and small where the
    game's changes are small.

    `memo`: shared by the diffs of one change's viewer kinds, whose documents share the view's
    public parts (engine `shared_view`): a pair of such parts is diffed once, not once per kind.
    It is keyed by ids (and paths), so it must not outlive the documents it was used with.
    """
    ops: list[dict[str, Any]] = []
    _diff(old, new, path, ops, memo)
    return ops


def _diff(old: Any, new: Any, path: str, ops: list[dict[str, Any]], memo: Memo | None) -> None:
    if old is new or (old == new and type(old) is type(new)):
        return
    if type(old) is dict and type(new) is dict:
        if memo is None:
            _diff_dicts(old, new, path, ops, memo)
            return
        pair = (id(old), id(new), path)
        known = memo.get(pair)
        if known is None:
            known = memo[pair] = (old, new, [])
            _diff_dicts(old, new, path, known[2], memo)
        ops.extend(known[2])
        return
    if type(old) is list and type(new) is list:
        n = len(old)
        if len(new) > n and new[:n] == old:
            ops.extend(
                {"op": "add", "path": f"{path}/{i}", "value": new[i]} for i in range(n, len(new))
            )
            return
        if len(new) == n and n and all(type(x) is dict for x in new):
            for i in range(n):
                _diff(old[i], new[i], f"{path}/{i}", ops, memo)
            return
    ops.append({"op": "replace", "path": path, "value": new})


def _diff_dicts(
    old: dict[str, Any],
    new: dict[str, Any],
    path: str,
    ops: list[dict[str, Any]],
    memo: Memo | None,
) -> None:
    # Most of a document's fields are unchanged by a move: they are skipped here, before any
    # path is built or call made for them (the same test `_diff` starts with).
    kept = 0
    for key, value in new.items():
        if key in old:
            kept += 1
            before = old[key]
            if before is value or (before == value and type(before) is type(value)):
                continue
            _diff(before, value, f"{path}/{_token(key)}", ops, memo)
        else:
            ops.append({"op": "add", "path": f"{path}/{_token(key)}", "value": value})
    if kept < len(old):  # some of the old keys are gone
        for key in old:
            if key not in new:
                ops.append({"op": "remove", "path": f"{path}/{_token(key)}"})
