// RFC 6902 JSON Patch applier (add, remove, replace, move, copy, test) with RFC 6901 pointers.
// The server sends each viewer the ops that turn its previous {view, legal_actions} document
// into the new one. A patch is applied to a copy: if any op fails the caller's document is left
// untouched and a PatchError is thrown, so the connection can ask for a full resync instead of
// drawing a half-patched state.

export class PatchError extends Error {
  constructor(message, op) {
    super(message);
    this.name = "PatchError";
    this.op = op;
  }
}

/** Split an RFC 6901 pointer into unescaped reference tokens ("" is the whole document). */
export function parsePointer(pointer) {
  if (pointer === "") return [];
  if (typeof pointer !== "string" || pointer[0] !== "/") {
    throw new PatchError(`bad JSON pointer ${JSON.stringify(pointer)}`);
  }
  // "~1" must be decoded before "~0" so that "~01" means the literal "~1" (RFC 6901 section 4).
  return pointer.slice(1).split("/").map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
}

function clone(value) {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

function arrayIndex(arr, token, forInsert, op) {
  if (token === "-" && forInsert) return arr.length;
  // Leading zeros and signs are not valid array indices (RFC 6901 section 4).
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new PatchError(`bad array index ${token}`, op);
  const i = Number(token);
  if (i > arr.length || (!forInsert && i === arr.length)) {
    throw new PatchError(`array index ${i} out of range`, op);
  }
  return i;
}

function parentOf(doc, tokens, op) {
  let node = doc;
  for (const t of tokens.slice(0, -1)) {
    if (Array.isArray(node)) node = node[arrayIndex(node, t, false, op)];
    else if (node !== null && typeof node === "object" && Object.hasOwn(node, t)) node = node[t];
    else throw new PatchError(`path ${op.path} does not exist`, op);
  }
  if (node === null || typeof node !== "object") {
    throw new PatchError(`path ${op.path} has no container`, op);
  }
  return node;
}

function getAt(doc, pointer, op) {
  let node = doc;
  for (const t of parsePointer(pointer)) {
    if (Array.isArray(node)) node = node[arrayIndex(node, t, false, op)];
    else if (node !== null && typeof node === "object" && Object.hasOwn(node, t)) node = node[t];
    else throw new PatchError(`path ${pointer} does not exist`, op);
  }
  return node;
}

// Each writer returns the (possibly new) document root, since "" targets the root itself.
function addAt(doc, pointer, value, op) {
  const tokens = parsePointer(pointer);
  if (tokens.length === 0) return value;
  const parent = parentOf(doc, tokens, op);
  const last = tokens[tokens.length - 1];
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, last, true, op), 0, value);
  else parent[last] = value;
  return doc;
}

function removeAt(doc, pointer, op) {
  const tokens = parsePointer(pointer);
  if (tokens.length === 0) return undefined;
  const parent = parentOf(doc, tokens, op);
  const last = tokens[tokens.length - 1];
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, last, false, op), 1);
  else if (Object.hasOwn(parent, last)) delete parent[last];
  else throw new PatchError(`path ${pointer} does not exist`, op);
  return doc;
}

function deepEqual(a, b) {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]));
}

function applyOp(doc, op) {
  if (op === null || typeof op !== "object" || typeof op.path !== "string") {
    throw new PatchError("an operation needs an op and a path", op);
  }
  switch (op.op) {
    case "add":
      if (!("value" in op)) throw new PatchError("add needs a value", op);
      return addAt(doc, op.path, clone(op.value), op);
    case "remove":
      return removeAt(doc, op.path, op);
    case "replace":
      if (!("value" in op)) throw new PatchError("replace needs a value", op);
      getAt(doc, op.path, op); // the target must exist (RFC 6902 section 4.3)
      return addAt(removeAt(doc, op.path, op), op.path, clone(op.value), op);
    case "move": {
      if (op.path.startsWith(op.from + "/")) throw new PatchError("cannot move into itself", op);
      const value = getAt(doc, op.from, op);
      return addAt(removeAt(doc, op.from, op), op.path, value, op);
    }
    case "copy":
      return addAt(doc, op.path, clone(getAt(doc, op.from, op)), op);
    case "test":
      if (!deepEqual(getAt(doc, op.path, op), op.value)) {
        throw new PatchError(`test failed at ${op.path}`, op);
      }
      return doc;
    default:
      throw new PatchError(`unknown op ${JSON.stringify(op.op)}`, op);
  }
}

/** Apply `ops` to a copy of `doc` and return the copy; throws PatchError and leaves doc as is. */
export function applyPatch(doc, ops) {
  if (!Array.isArray(ops)) throw new PatchError("a patch is a list of operations");
  let out = clone(doc);
  for (const op of ops) out = applyOp(out, op);
  return out;
}

export { deepEqual };
