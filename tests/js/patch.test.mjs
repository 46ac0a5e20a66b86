// RFC 6902 applier: the examples of RFC 6902 appendix A plus failure atomicity.
import { test } from "node:test";
import assert from "node:assert/strict";
import { applyPatch, parsePointer, PatchError } from "../../static/js/lib/patch.mjs";

test("add an object member (A.1)", () => {
  assert.deepEqual(applyPatch({ foo: "bar" }, [{ op: "add", path: "/baz", value: "qux" }]), { foo: "bar", baz: "qux" });
});

test("add an array element and append with - (A.2)", () => {
  const doc = { foo: ["bar", "baz"] };
  assert.deepEqual(applyPatch(doc, [{ op: "add", path: "/foo/1", value: "qux" }]).foo, ["bar", "qux", "baz"]);
  assert.deepEqual(applyPatch(doc, [{ op: "add", path: "/foo/-", value: "end" }]).foo, ["bar", "baz", "end"]);
});

test("remove member and element (A.3, A.4)", () => {
  assert.deepEqual(applyPatch({ baz: "qux", foo: "bar" }, [{ op: "remove", path: "/baz" }]), { foo: "bar" });
  assert.deepEqual(applyPatch({ foo: ["bar", "qux", "baz"] }, [{ op: "remove", path: "/foo/1" }]), { foo: ["bar", "baz"] });
});

test("replace, move, copy (A.5, A.6, A.7)", () => {
  assert.deepEqual(applyPatch({ baz: "qux", foo: "bar" }, [{ op: "replace", path: "/baz", value: "boo" }]), { baz: "boo", foo: "bar" });
  const moved = applyPatch(
    { foo: { bar: "baz", waldo: "fred" }, qux: { corge: "grault" } },
    [{ op: "move", from: "/foo/waldo", path: "/qux/thud" }],
  );
  assert.deepEqual(moved, { foo: { bar: "baz" }, qux: { corge: "grault", thud: "fred" } });
  assert.deepEqual(applyPatch({ foo: ["all", "grass", "cows", "eat"] }, [{ op: "move", from: "/foo/1", path: "/foo/3" }]).foo, [
    "all",
    "cows",
    "eat",
    "grass",
  ]);
  assert.deepEqual(applyPatch({ a: [1, 2] }, [{ op: "copy", from: "/a", path: "/b" }]), { a: [1, 2], b: [1, 2] });
});

test("test op passes and fails (A.8, A.9)", () => {
  const doc = { baz: "qux", foo: ["a", 2, "c"] };
  assert.deepEqual(applyPatch(doc, [{ op: "test", path: "/foo", value: ["a", 2, "c"] }]), doc);
  assert.throws(() => applyPatch(doc, [{ op: "test", path: "/baz", value: "bar" }]), PatchError);
});

test("escaped pointer tokens ~0 and ~1 (RFC 6901)", () => {
  assert.deepEqual(parsePointer("/a~1b/m~0n/~01"), ["a/b", "m~n", "~1"]);
  assert.deepEqual(applyPatch({ "a/b": 1 }, [{ op: "replace", path: "/a~1b", value: 2 }]), { "a/b": 2 });
});

test("whole-document replace with the empty pointer", () => {
  assert.deepEqual(applyPatch({ a: 1 }, [{ op: "replace", path: "", value: [1] }]), [1]);
});

test("errors: missing path, bad index, unknown op, and the document is left untouched", () => {
  const doc = { view: { players: [{ gold: 4 }] } };
  const bad = [
    [{ op: "replace", path: "/view/players/0/gold", value: 9 }, { op: "remove", path: "/nope" }],
    [{ op: "add", path: "/view/players/5", value: {} }],
    [{ op: "add", path: "/view/players/01", value: {} }],
    [{ op: "frobnicate", path: "/view" }],
    [{ op: "add", path: "/x/y", value: 1 }],
  ];
  for (const ops of bad) assert.throws(() => applyPatch(doc, ops), PatchError);
  assert.equal(doc.view.players[0].gold, 4);
});

test("values are copied, so later edits of the patch do not leak into the document", () => {
  const value = { cells: [[1, 2]] };
  const out = applyPatch({}, [{ op: "add", path: "/d", value }]);
  value.cells.push([3, 4]);
  assert.equal(out.d.cells.length, 1);
});

test("a realistic view patch: a new dragon, gold change, a ship removed", () => {
  const doc = { view: { board: { dragons: [], ships: [[0, 2, "green"], [0, 5, "red"]] }, players: [{ gold: 4 }] }, legal_actions: [{ type: "pass" }] };
  const out = applyPatch(doc, [
    { op: "add", path: "/view/board/dragons/-", value: { owner: 0, cells: [[0, 2]], head: [0, 2] } },
    { op: "remove", path: "/view/board/ships/0" },
    { op: "replace", path: "/view/players/0/gold", value: 2 },
    { op: "replace", path: "/legal_actions", value: [] },
  ]);
  assert.equal(out.view.board.dragons.length, 1);
  assert.deepEqual(out.view.board.ships, [[0, 5, "red"]]);
  assert.equal(out.view.players[0].gold, 2);
  assert.deepEqual(out.legal_actions, []);
});
