/// The operator's page, served at `/admin` (Pages/operator.html, operator.css, operator.js).
///
/// It follows `/api/events` (Server-Sent Events) and re-reads `/api/status` while recording or
/// uploading, refreshes the preview picture, records, plays the shot back, and posts it, with the
/// detail a guest does not see (frames, drops, sizes, ids, uploads, errors in full). Beside it,
/// `/api/admin/overview`: the camera, microphone and button, the outbox post by post with where
/// each goes, the last warnings and errors in full, free space and the configuration (secrets
/// masked). Below, a gallery of the posts in the store (`/api/feed`, 12 a page) plays them through
/// the cache, and moderates them: hide, show again, delete from the store (confirmed). A browser
/// without a session shows the login form (POST /login). Guests use `GuestPage`.
enum OperatorPage {
    static let html = PageFiles.text("operator.html")
}
