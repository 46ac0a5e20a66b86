// The header's signed-in name on the pages that do not know who is signed in themselves (the
// lobby, the table and the account page fill it as they learn it): one GET /api/session, which
// answers 200 signed in or not.

import { api } from "../lib/api.mjs";

const el = document.getElementById("me");
if (el && !el.textContent) {
  api("/api/session")
    .then((data) => {
      // A page may have filled it meanwhile: its own answer wins.
      if (!el.textContent && data?.user) el.textContent = data.user.display_name;
    })
    .catch(() => {});
}
