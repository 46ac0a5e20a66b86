// Web Push in the browser: the service worker's registration, this browser's subscription and
// the server's record of it (POST/DELETE /api/me/devices). The browser asks for permission only
// inside `enablePush`, which is called from a click on "Notify me", never on page load.

import { api } from "./api.mjs";

const DEVICE_KEY = "sd_push_device"; // this browser's device id at the server

/** Whether this browser can take pushes at all (a service worker, the Push API, notices). */
export function pushSupported(win = globalThis) {
  return Boolean(win.navigator?.serviceWorker && win.PushManager && win.Notification);
}

/** A base64url string as bytes (the VAPID key a subscription is made with). */
export function keyBytes(base64url) {
  const padded = base64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (base64url.length % 4)) % 4);
  const raw = atob(padded);
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

/** What the offer shows: "unsupported", "denied" (blocked in the browser), "on" (this browser
 * is subscribed and known to the server) or "off". */
export function pushState({ supported, permission, subscribed, known }) {
  if (!supported) return "unsupported";
  if (permission === "denied") return "denied";
  return subscribed && known ? "on" : "off";
}

/** Register the service worker (every page does, quietly: pages work the same without it). */
export async function registerWorker(win = globalThis) {
  if (!win.navigator?.serviceWorker) return null;
  try {
    return await win.navigator.serviceWorker.register("/sw.js", { scope: "/" });
  } catch {
    return null;
  }
}

/** This browser's current state (no prompt). */
export async function currentPush(win = globalThis) {
  const supported = pushSupported(win);
  if (!supported) return { state: "unsupported" };
  const reg = await win.navigator.serviceWorker.getRegistration("/");
  const sub = reg ? await reg.pushManager.getSubscription() : null;
  const known = win.localStorage.getItem(DEVICE_KEY) !== null;
  return { state: pushState({ supported, permission: win.Notification.permission, subscribed: Boolean(sub), known }), sub };
}

/** From a click: ask permission, subscribe with the server's key, record the device. Returns
 * the new state ("on", "denied"); throws ApiError when the server refuses. */
export async function enablePush(win = globalThis) {
  const permission = await win.Notification.requestPermission();
  if (permission !== "granted") return "denied";
  await registerWorker(win);
  const reg = await win.navigator.serviceWorker.ready;
  const { public_key: key } = await api("/api/push/key");
  let sub = await reg.pushManager.getSubscription();
  if (!sub) sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
  const out = await api("/api/me/devices", { method: "POST", body: sub.toJSON() });
  if (out.added != null) win.localStorage.setItem(DEVICE_KEY, String(out.added));
  return "on";
}

/** Turn pushes off on this browser: unsubscribe and remove its device at the server. */
export async function disablePush(win = globalThis) {
  const id = win.localStorage.getItem(DEVICE_KEY);
  win.localStorage.removeItem(DEVICE_KEY);
  const reg = await win.navigator.serviceWorker.getRegistration("/");
  const sub = reg ? await reg.pushManager.getSubscription() : null;
  if (sub) await sub.unsubscribe();
  if (id !== null) await api(`/api/me/devices/${encodeURIComponent(id)}`, { method: "DELETE" }).catch(() => null);
  return "off";
}

/** Forget this browser's device id when the server no longer lists it (removed elsewhere). */
export function forgetUnlisted(devices, win = globalThis) {
  const id = win.localStorage.getItem(DEVICE_KEY);
  if (id !== null && !devices.some((d) => String(d.id) === id)) win.localStorage.removeItem(DEVICE_KEY);
}

/** The device id this browser has at the server, or null. */
export function thisDevice(win = globalThis) {
  const id = win.localStorage.getItem(DEVICE_KEY);
  return id === null ? null : Number(id);
}
