// Card codes in log lines become previews: only codes the content knows.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { codeKind, codePieces } from "../../static/js/lib/cards.mjs";

const content = JSON.parse(readFileSync(new URL("./fixtures/content.json", import.meta.url)));

test("codes of every kind are found and described; other words stay text", () => {
  const pieces = codePieces(content, "Green placed M30 (4 squares), completed MS07, kept RF11; HT03 and X99 S7");
  const codes = pieces.filter((p) => typeof p !== "string");
  assert.deepEqual(codes.map((p) => [p.code, p.kind]), [["M30", "pattern"], ["MS07", "mission"], ["RF11", "reef"], ["HT03", "treasure"]]);
  assert.equal(pieces.map((p) => (typeof p === "string" ? p : p.code)).join(""), "Green placed M30 (4 squares), completed MS07, kept RF11; HT03 and X99 S7");
  assert.match(codes[0].text, /^Medium Pattern card M30 \(\d squares\)$/);
  assert.match(codes[1].text, /^Mission MS07: .* VP/);
  assert.match(codes[2].text, /^Reef card RF11: /);
  assert.equal(codeKind(content, "S99"), null);
  assert.deepEqual(codePieces(content, "no codes here"), ["no codes here"]);
});
