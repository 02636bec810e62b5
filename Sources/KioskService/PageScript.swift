/// Script both pages share, put into them where they say `/*EVENTS*/`.
enum PageScript {
    /// Follows `/api/events` (Server-Sent Events): every event carries the whole status, given to
    /// the page's `render`; on an error the status is read once (`refreshStatus`) while the
    /// browser reconnects by itself. `stale(s)` says a status is older than the one the page shows
    /// (statuses are read while requests overlap: a slow poll can be answered after a newer event),
    /// and each page's `render` drops such a one.
    static let events = #"""
function stale(s) { return !!status && s.run === status.run && s.revision < status.revision; }
let events = null;
function connect() {
  if (events) events.close();
  events = new EventSource("/api/events");
  for (const kind of ["status", "state", "shot", "posted", "outbox"]) {
    events.addEventListener(kind, (e) => { try { render(JSON.parse(e.data)); } catch (_) {} });
  }
  events.onerror = () => { refreshStatus(); };
  refreshStatus();
}
"""#
}
