// A refused action's reason (the engine's, from the server) is what the table says.
import { test } from "node:test";
import assert from "node:assert/strict";
import { api, ApiError, errorText } from "../../static/js/lib/api.mjs";

const reason = { code: "touches_own", facts: { squares: [[6, 6]] }, text: "Touches your own Dragon at G7." };

test("an HTTP refusal carries the reason, and its text is shown", async () => {
  const body = { error: { code: "illegal_placement", message: "place ...", reason } };
  const fetchImpl = async () => ({ ok: false, status: 422, statusText: "", json: async () => body });
  await assert.rejects(api("/x", { fetchImpl }), (e) => {
    assert.deepEqual(e.reason, reason);
    assert.equal(errorText(e), reason.text);
    return true;
  });
});

test("without a reason the code's sentence stays", () => {
  assert.equal(errorText(new ApiError(422, "cannot_afford", "m")), "Not enough Gold for that placement.");
});
