// The /watch channel's socket (WS /ws/watch): one per page, reconnecting with backoff.

/**
 * Open `/ws/watch?<query>` and call `onFrame(frame)` for each frame, `onState(text)` with
 * "live" | "reconnecting"; reconnects after a close (1 s doubling to 30 s). Returns `close()`.
 */
export function watchSocket(query, onFrame, onState = () => {}) {
  let ws = null;
  let delay = 1000;
  let stopped = false;
  const open = () => {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    ws = new WebSocket(`${scheme}://${location.host}/ws/watch${query ? `?${query}` : ""}`);
    ws.onopen = () => {
      delay = 1000;
      onState("live");
    };
    ws.onmessage = (ev) => onFrame(JSON.parse(ev.data));
    ws.onclose = (ev) => {
      if (stopped) return;
      onState(ev.code === 1008 ? "refused" : "reconnecting");
      if (ev.code === 1008) return; // a bad query stays bad: do not retry
      setTimeout(open, delay);
      delay = Math.min(delay * 2, 30000);
    };
  };
  open();
  return () => {
    stopped = true;
    ws?.close();
  };
}
