// The service worker (served as /sw.js, scope "/"): shows a "your turn" push and opens that
// game on a click. It caches nothing and answers no fetch: every page works the same without it,
// and a browser that never registers it loses only the notices.
//
// A push's data is the server's JSON (app/services/notices/push.py turn_payload): the game, its
// turn and seat, the table's path, and a title and line already in the player's language.

"use strict";

/** What to show for a push's JSON (null: nothing usable). Pure, for tests. */
function notificationFor(data) {
  if (!data || data.type !== "turn" || !Number.isInteger(data.game)) return null;
  return {
    title: String(data.title || "Sea Dragons Online"),
    options: {
      body: String(data.body || ""),
      lang: typeof data.lang === "string" ? data.lang : undefined,
      icon: "/static/img/icon-192.png",
      badge: "/static/img/icon-192.png",
      // One notice per game: a newer turn replaces the older one.
      tag: `turn-${data.game}`,
      renotify: true,
      data: { url: `/games/${data.game}` },
    },
  };
}

/** The page a click opens: the game's table on this site, never another origin's page. */
function targetOf(notificationData, origin) {
  const path = notificationData && typeof notificationData.url === "string" ? notificationData.url : "/";
  const url = new URL(path, origin);
  return url.origin === origin ? url.href : new URL("/", origin).href;
}

/** Focus a tab already on `url`, else open it. */
async function openOrFocus(clients, url) {
  const open = await clients.matchAll({ type: "window", includeUncontrolled: true });
  for (const client of open) {
    if (client.url === url && "focus" in client) return client.focus();
  }
  return clients.openWindow(url);
}

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("push", (event) => {
  let data = null;
  try {
    data = event.data ? event.data.json() : null;
  } catch {
    data = null;
  }
  const shown = notificationFor(data);
  if (shown) event.waitUntil(self.registration.showNotification(shown.title, shown.options));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = targetOf(event.notification.data, self.location.origin);
  event.waitUntil(openOrFocus(self.clients, url));
});
