// What the booth's page and the operator's page share: the API's JSON, logging in, and following
// the kiosk's status as it changes. Nothing here touches the page until it is called, so node's
// test runner imports it too (Tests/pages).

/** The element with `id`. */
export const $ = (id) => document.getElementById(id);

/**
 * A request to the kiosk's API with the session cookie; resolves with the JSON body. A refusal
 * rejects with an Error whose message is the kiosk's own sentence (`error`), carrying the HTTP
 * `status` and the whole `body` (the guest's wording is in `guestKey`/`guestMessage`).
 */
export function api(path, options = {}) {
  const request = Object.assign({}, options, { credentials: "same-origin" });
  request.headers = Object.assign({ "Accept": "application/json" }, options.headers || {});
  if (personActive(Date.now())) request.headers["X-Recorder-Person"] = "1";
  return fetch(path, request).then(async (response) => {
    const body = await response.json().catch(() => ({}));
    if (!response.ok) {
      const error = new Error(body.error || ("HTTP " + response.status));
      error.status = response.status;
      error.body = body;
      throw error;
    }
    return body;
  });
}

// When a person last used this page (a key, a touch, a click). Only requests made within a minute
// of it say so (X-Recorder-Person), and only those keep an operator's session from ending after 12
// hours: a page's own refreshes, and the booth's page polling while nobody is at it, do not.
let lastPerson = -Infinity;
let watching = false;

/** Whether a person used the page within the minute before `now` (starts watching on first call). */
export function personActive(now) {
  if (!watching && typeof document !== "undefined") {
    watching = true;
    for (const type of ["pointerdown", "keydown"]) document.addEventListener(type, () => { lastPerson = Date.now(); }, true);
  }
  return now - lastPerson < 60000;
}

/** Notes a person's use of the page at `now` (the listeners do; tests call it). */
export function notePerson(now) { lastPerson = now; }

/** POSTs `object` as JSON (the browser adds Origin, which the kiosk asks of a cookie's request). */
export function postJSON(path, object) {
  return api(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(object) });
}

/**
 * Logs this browser in with a token: the kiosk answers with its session cookie (HttpOnly, so no
 * script here ever holds the token after this call) and the role it gives ("booth" or "operator").
 */
export function login(token) {
  return postJSON("/login", { token: String(token).trim() }).then((answer) => answer.role);
}

/** Logs this browser out (the kiosk clears the cookie). */
export function logout() {
  return postJSON("/logout", {});
}

/**
 * Whether status `next` is older than `current` (statuses are read while requests overlap: a slow
 * poll can be answered after a newer event). Another run of the kiosk (a restart) is never stale.
 */
export function isStale(current, next) {
  return !!current && !!next && next.run === current.run && next.revision < current.revision;
}

/**
 * Follows `/api/events` (Server-Sent Events): every event carries the whole status, given to
 * `render`; on an error the status is read once (`refresh`) while the browser reconnects by
 * itself. Returns a function that connects again (after a login, say).
 */
export function followEvents(render, refresh) {
  let events = null;
  function connect() {
    if (events) events.close();
    events = new EventSource("/api/events");
    for (const kind of ["status", "state", "shot", "posted", "outbox"]) {
      events.addEventListener(kind, (e) => {
        let parsed = null;
        try { parsed = JSON.parse(e.data); } catch (_) { return; }
        render(parsed);
      });
    }
    events.onerror = () => { refresh(); };
    refresh();
  }
  connect();
  return connect;
}

/** Sizes as the CLI prints them (SystemSupport's ByteCount): binary units, three significant digits. */
export function byteCount(bytes) {
  const units = ["bytes", "KiB", "MiB", "GiB", "TiB"];
  let value = bytes, unit = 0;
  while (value >= 1024 && unit < units.length - 1) { value /= 1024; unit++; }
  return unit === 0 ? bytes + " bytes" : value.toFixed(value < 10 ? 2 : value < 100 ? 1 : 0) + " " + units[unit];
}

/**
 * Whether a token typed on a page at `place` (a Location or URL) would cross a network unencrypted:
 * plain http to anything but this machine's own loopback.
 */
export function tokenTravelsInClear(place) {
  if (place.protocol !== "http:") return false;
  const host = place.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return !(host === "localhost" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host));
}
