// The host's gallery (gallery.html, gallery.js): what the page works out without the DOM, so
// node's test runner checks it (Tests/pages/gallery-logic.test.mjs).

/** A clip's length as the page shows it: "0:07", "1:05", "12:00"; "" for none. */
export function durationText(seconds) {
  if (!Number.isFinite(seconds) || seconds < 0) return "";
  const whole = Math.round(seconds);
  const minutes = Math.floor(whole / 60);
  const rest = whole % 60;
  return `${minutes}:${String(rest).padStart(2, "0")}`;
}

/** The address of the page of posts after cursor `next` (none: the first page) under `base`. */
export function pageAddress(base, next) {
  return next ? `${base}/posts?after=${encodeURIComponent(next)}` : `${base}/posts`;
}

/** A post's own addresses under the gallery's `base`: its video and its poster. */
export function postAddresses(base, id) {
  const safe = encodeURIComponent(id);
  return { video: `${base}/${safe}/video.mp4`, poster: `${base}/${safe}/poster.jpg` };
}

/**
 * The posts of a new page that are not shown yet (`shown`: a Set of ids): a post listed twice
 * (one made while the host scrolled moves the cursor's neighbours) is shown once.
 */
export function unseen(posts, shown) {
  const fresh = [];
  for (const post of Array.isArray(posts) ? posts : []) {
    if (!post || typeof post.id !== "string" || shown.has(post.id)) continue;
    shown.add(post.id);
    fresh.push(post);
  }
  return fresh;
}
