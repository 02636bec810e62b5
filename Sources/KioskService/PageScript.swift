/// Script both pages share, put into them where they say `/*EVENTS*/`.
enum PageScript {
    /// Follows `/api/events` (Server-Sent Events): every event carries the whole status, given to
    /// the page's `render`; on an error the status is read once (`refreshStatus`) while the
    /// browser reconnects by itself.
    static let events = #"""
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
