// Every page: register the service worker (static/sw.js) so pushes reach this browser with the
// tab closed and the site can be installed. Nothing on a page waits for it or needs it.

import { registerWorker } from "../lib/push.mjs";

registerWorker();
