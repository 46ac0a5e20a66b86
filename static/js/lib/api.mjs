// Thin JSON helpers for the REST API. Errors come back as {error: {code, message}};
// they are thrown as ApiError so callers can switch on the stable code.

import { hasKey, t } from "./i18n.mjs";

export class ApiError extends Error {
  constructor(status, code, message, reason = null) {
    super(message || code);
    this.name = "ApiError";
    this.status = status; // HTTP status (0 when the network failed)
    this.code = code; // stable error code from the server, e.g. "stale_version"
    this.reason = reason; // which rule refused an action: {code, facts, text}, or null
  }
}

/** Call the API and return the parsed JSON body; throws ApiError on any failure. */
export async function api(path, { method = "GET", body, fetchImpl = globalThis.fetch } = {}) {
  let res;
  try {
    res = await fetchImpl(path, {
      method,
      credentials: "same-origin",
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    throw new ApiError(0, "network", `network error: ${e.message}`);
  }
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null; // an empty or non-JSON body (a proxy error page, say)
  }
  if (!res.ok) {
    const err = data?.error ?? {};
    const detail = Array.isArray(data?.detail) ? data.detail.map((d) => d.msg).join("; ") : null;
    throw new ApiError(res.status, err.code ?? `http_${res.status}`, err.message ?? detail ?? res.statusText, err.reason ?? null);
  }
  return data;
}

/** A short human sentence for an ApiError code. */
export function errorText(e) {
  // The engine's own reason for a refused action, when it gave one, says most. The server words
  // its messages in the reader's language; the codes the client gives itself (network, timeout)
  // and a few common ones read best from the catalogue.
  const known = e?.code && hasKey(`errors.${e.code}`) ? t(`errors.${e.code}`) : null;
  return e?.reason?.text ?? known ?? e?.message ?? String(e);
}
