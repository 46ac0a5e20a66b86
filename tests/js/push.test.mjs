// The page side of Web Push (static/js/lib/push.mjs): the offer's state, the VAPID key's bytes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { keyBytes, pushState, pushSupported } from "../../static/js/lib/push.mjs";

test("the offer's state follows support, the permission and this browser's subscription", () => {
  assert.equal(pushState({ supported: false, permission: "granted", subscribed: true, known: true }), "unsupported");
  assert.equal(pushState({ supported: true, permission: "denied", subscribed: false, known: false }), "denied");
  assert.equal(pushState({ supported: true, permission: "default", subscribed: false, known: false }), "off");
  // Subscribed in the browser but unknown to the server (removed on the account page): off.
  assert.equal(pushState({ supported: true, permission: "granted", subscribed: true, known: false }), "off");
  assert.equal(pushState({ supported: true, permission: "granted", subscribed: true, known: true }), "on");
});

test("support needs a service worker, the Push API and notifications", () => {
  assert.equal(pushSupported({ navigator: {} }), false);
  assert.equal(pushSupported({ navigator: { serviceWorker: {} }, PushManager: function () {}, Notification: function () {} }), true);
  assert.equal(pushSupported({ navigator: { serviceWorker: {} }, PushManager: function () {} }), false);
});

test("a base64url key becomes its bytes (padding and URL alphabet)", () => {
  assert.deepEqual([...keyBytes("BA-_")], [4, 15, 191]);
  assert.equal(keyBytes("B".padEnd(87, "A")).length, 65);
});
