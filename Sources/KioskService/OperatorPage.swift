/// The operator's page, served at `/admin`: self-contained (no CDN, no build step).
///
/// It follows `/api/events` (Server-Sent Events) and re-reads `/api/status` while recording or
/// uploading, refreshes the preview picture, records, plays the shot back, and posts it, with the
/// detail a guest does not see (frames, drops, sizes, ids, uploads, errors in full). Beside it,
/// `/api/admin/overview`: the camera, microphone and button, the outbox post by post with where
/// each goes, the last warnings and errors in full, free space and the configuration (secrets
/// masked). Below, a gallery of the posts in the store (`/api/feed`, 12 a page) plays them through
/// the cache, and moderates them: hide, show again, delete from the store (confirmed). Guests use
/// `GuestPage`.
enum OperatorPage {
    static let html = template.replacing("/*EVENTS*/", with: PageScript.events)

    static let template = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>recorder kiosk: operator</title>
<link rel="icon" href="data:,">
<style>
  :root { color-scheme: dark; --accent: #e53935; --ok: #43a047; --warn: #fb8c00; }
  * { box-sizing: border-box; }
  body { margin: 0; font: 18px/1.4 system-ui, sans-serif; background: #111; color: #eee; }
  header { display: flex; justify-content: space-between; align-items: center; padding: 10px 18px; background: #1c1c1c; }
  header h1 { font-size: 20px; margin: 0; }
  #state { font-weight: 600; }
  main { display: grid; grid-template-columns: minmax(0, 2fr) minmax(280px, 1fr); gap: 18px; padding: 18px; }
  @media (max-width: 800px) { main { grid-template-columns: 1fr; } }
  .stage { position: relative; background: #000; border-radius: 10px; overflow: hidden; aspect-ratio: 16 / 9; }
  .stage img, .stage video { width: 100%; height: 100%; object-fit: contain; display: block; }
  #countdown { position: absolute; inset: 0; display: none; align-items: center; justify-content: center;
               font-size: 160px; font-weight: 800; color: #fff; text-shadow: 0 0 30px #000; }
  #rec-dot { position: absolute; top: 14px; left: 14px; display: none; padding: 4px 12px; border-radius: 16px;
             background: var(--accent); font-weight: 700; }
  .controls { display: flex; gap: 12px; margin-top: 14px; align-items: center; flex-wrap: wrap; }
  button { font: inherit; border: 0; border-radius: 999px; padding: 12px 22px; cursor: pointer; background: #333; color: #eee; }
  button:disabled { opacity: .4; cursor: not-allowed; }
  #record { width: 110px; height: 110px; background: var(--accent); font-size: 20px; font-weight: 700; }
  #post { background: var(--ok); font-weight: 700; }
  #progress { flex: 1; min-width: 160px; }
  progress { width: 100%; height: 14px; }
  .panel { background: #1c1c1c; border-radius: 10px; padding: 14px; margin-bottom: 14px; }
  .panel h2 { font-size: 16px; margin: 0 0 8px; color: #aaa; text-transform: uppercase; letter-spacing: .05em; }
  textarea { width: 100%; min-height: 90px; font: inherit; background: #0c0c0c; color: #eee; border: 1px solid #444;
             border-radius: 8px; padding: 8px; }
  #banner { display: none; margin: 18px 18px 0; padding: 12px 16px; border-radius: 8px; background: var(--warn); color: #111; font-weight: 600; }
  #banner.error { background: var(--accent); color: #fff; }
  .muted { color: #999; font-size: 15px; }
  #posted-id { font-family: ui-monospace, monospace; font-weight: 700; }
  #token-form { display: none; }
  #gallery-section { padding: 0 18px 18px; }
  #gallery-section h2 { font-size: 16px; color: #aaa; text-transform: uppercase; letter-spacing: .05em; }
  #gallery { display: grid; grid-template-columns: repeat(auto-fill, minmax(220px, 1fr)); gap: 12px; }
  .post { background: #1c1c1c; border-radius: 10px; padding: 12px; display: flex; flex-direction: column; gap: 6px; }
  .post .caption { font-weight: 600; overflow-wrap: anywhere; }
  .post.damaged .caption { color: var(--warn); }
  #more { margin-top: 12px; display: none; }
  .post img.poster { width: 100%; aspect-ratio: 16 / 9; object-fit: cover; border-radius: 6px; background: #000; cursor: pointer; }
  /* A post plays over the page, wherever the gallery is scrolled to. */
  #lightbox { border: 0; padding: 0; background: #000; border-radius: 12px; max-width: 94vw; max-height: 94vh; }
  #lightbox::backdrop { background: rgba(0, 0, 0, .8); }
  #lightbox video { display: block; max-width: 94vw; max-height: calc(94vh - 56px); }
  #lightbox-bar { display: flex; justify-content: space-between; align-items: center; gap: 12px; padding: 8px 12px; color: #ddd; }
  #sound { display: flex; align-items: center; gap: 8px; }
  #sound-meter { width: 120px; height: 14px; }
  .log { margin: 0; padding-left: 18px; font-size: 14px; max-height: 260px; overflow: auto; }
  .log li { white-space: pre-wrap; overflow-wrap: anywhere; margin-bottom: 6px; }
  .log .error, .log .critical { color: #ff8a80; }
  .log .warning { color: #ffcc80; }
  .log .none { list-style: none; margin-left: -18px; color: #999; }
  #disk td:last-child { white-space: nowrap; }
  table.facts { width: 100%; font-size: 14px; border-collapse: collapse; }
  table.facts td { padding: 2px 6px 2px 0; vertical-align: top; overflow-wrap: anywhere; }
  table.facts td:first-child { color: #aaa; white-space: nowrap; }
  .post .actions { display: flex; gap: 8px; flex-wrap: wrap; }
  .post .actions button { padding: 8px 14px; }
  button.danger { background: #7f1d1d; }
  #hidden-section { padding: 0 18px 18px; }
  #hidden-section h2 { font-size: 16px; color: #aaa; text-transform: uppercase; letter-spacing: .05em; }
  #hidden { display: grid; grid-template-columns: repeat(auto-fill, minmax(220px, 1fr)); gap: 12px; }
</style>
</head>
<body>
<header><h1>recorder kiosk: operator</h1><div>state: <span id="state">connecting…</span></div></header>
<div id="banner" role="alert"></div>
<main>
  <section>
    <div class="stage">
      <img id="preview" alt="live camera preview">
      <video id="playback" controls playsinline style="display:none"></video>
      <div id="countdown" aria-live="assertive"></div>
      <div id="rec-dot">● REC</div>
    </div>
    <div class="controls">
      <button id="record" title="Record a shot">REC</button>
      <button id="stop" disabled>Stop</button>
      <button id="live" style="display:none">Back to camera</button>
      <div id="progress" class="muted"></div>
      <div id="sound" class="muted"><span id="sound-label">sound</span><meter id="sound-meter" min="-60" max="0" low="-20" high="-6" optimum="-30" value="-60" aria-label="sound level"></meter></div>
    </div>
  </section>
  <aside>
    <div class="panel" id="shot-panel">
      <h2>Shot</h2>
      <div id="shot-info" class="muted">No shot yet. Press REC.</div>
    </div>
    <div class="panel">
      <h2>Post</h2>
      <textarea id="caption" maxlength="2200" placeholder="Write a caption…"></textarea>
      <div class="controls"><button id="post" disabled>Post</button><span id="caption-count" class="muted">0 / 2200</span></div>
      <div id="post-message" class="muted"></div>
    </div>
    <div class="panel">
      <h2>Uploads</h2>
      <div id="upload" class="muted">Nothing queued.</div>
      <progress id="upload-progress" max="1" value="0" style="display:none"></progress>
      <div>Last posted: <span id="posted-id">–</span></div>
    </div>
    <div class="panel" id="booth-panel">
      <h2>Booth</h2>
      <table class="facts"><tr><td>camera</td><td id="booth-camera">–</td></tr><tr><td>microphone</td><td id="booth-mic">–</td></tr>
        <tr><td>button</td><td id="booth-button">–</td></tr><tr><td>store</td><td id="booth-store">–</td></tr></table>
    </div>
    <div class="panel">
      <h2>Outbox</h2>
      <ol id="outbox-list" class="log"></ol>
    </div>
    <div class="panel">
      <h2>Warnings and errors</h2>
      <ol id="problems" class="log"></ol>
    </div>
    <div class="panel">
      <h2>Disk</h2>
      <table id="disk" class="facts"></table>
    </div>
    <div class="panel">
      <details id="config-panel"><summary>Configuration</summary><table id="config" class="facts"></table></details>
    </div>
    <div class="panel" id="token-form">
      <h2>API token</h2>
      <input id="token" type="password" autocomplete="off" style="width:100%">
      <div class="controls"><button id="token-save">Use token</button></div>
    </div>
  </aside>
</main>
<section id="gallery-section">
  <h2>Posted</h2>
  <div id="gallery" aria-live="polite"><span class="muted">Loading the posts…</span></div>
  <button id="more">More</button>
</section>
<dialog id="lightbox" aria-label="Playing a post">
  <video id="lightbox-video" controls playsinline></video>
  <div id="lightbox-bar"><span id="lightbox-caption" dir="auto"></span><button id="lightbox-close">Close</button></div>
</dialog>
<section id="hidden-section">
  <h2>Hidden from the gallery</h2>
  <div id="hidden"><span class="muted">None.</span></div>
</section>
<script>
"use strict";
const $ = (id) => document.getElementById(id);
let status = null, myPost = null, showingPlayback = false, playedShot = null, previewBusy = false;

function api(path, options = {}) {
  options.credentials = "same-origin";
  options.headers = Object.assign({ "Accept": "application/json" }, options.headers || {});
  return fetch(path, options).then(async (response) => {
    const body = await response.json().catch(() => ({}));
    if (response.status === 401) { $("token-form").style.display = "block"; }
    // The operator reads the whole error (what happened, what to change); the guest's sentence
    // is kept as `guest`.
    if (!response.ok) {
      const error = new Error(body.error || ("HTTP " + response.status));
      error.guest = body.guestMessage || "";
      throw error;
    }
    return body;
  });
}
function postJSON(path, object) {
  return api(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(object) });
}
// The operator's words in full (paths, settings, errno).
function banner(text, isError) {
  const b = $("banner");
  b.textContent = text || "";
  b.className = isError ? "error" : "";
  b.style.display = text ? "block" : "none";
}
// The same sizes as the CLI (SystemSupport's ByteCount): binary units, three significant digits.
function mb(bytes) {
  const units = ["bytes", "KiB", "MiB", "GiB", "TiB"];
  let value = bytes, unit = 0;
  while (value >= 1024 && unit < units.length - 1) { value /= 1024; unit++; }
  return unit === 0 ? bytes + " bytes" : value.toFixed(value < 10 ? 2 : value < 100 ? 1 : 0) + " " + units[unit];
}

function render(s) {
  if (stale(s)) return;
  status = s;
  document.body.dataset.state = s.state;
  $("state").textContent = s.state + (s.camera.present ? "" : " (no camera)");
  const busy = ["countdown", "starting", "recording", "finishing"].includes(s.state);
  $("record").disabled = busy || !s.camera.present;
  $("stop").disabled = !busy || s.state === "finishing";
  $("countdown").style.display = s.state === "countdown" ? "flex" : "none";
  $("countdown").textContent = s.state === "countdown" ? String(s.countdown) : "";
  $("rec-dot").style.display = s.state === "recording" ? "block" : "none";
  if (s.progress && s.state === "recording") {
    $("progress").textContent = s.progress.elapsedSeconds.toFixed(1) + " / " + s.progress.totalSeconds.toFixed(0) +
      " s · " + s.progress.frames + " frames · " + s.progress.dropped + " dropped";
  } else if (s.state === "finishing") {
    $("progress").textContent = "finishing the video…";
  } else {
    $("progress").textContent = "";
  }
  // The sound: off by configuration, or its level while recording (peak, -60 to 0 dBFS).
  const muted = s.sound && s.sound.muted, source = s.sound && s.sound.source;
  $("sound-label").textContent = muted ? "sound off" : source ? "sound" : "no microphone";
  $("sound").title = source ? "sound from " + source : "";
  $("sound-meter").style.display = muted || !source ? "none" : "inline-block";
  if (s.state === "recording") showLevel(s.progress ? s.progress.soundPeakDBFS : null);
  // Problems first: the camera, then the disk, then a failed shot; in the operator's words.
  if (!s.camera.present) banner("No camera: " + (s.message || s.camera.device), true);
  else if (s.disk.low) banner("Too little free space for one more shot: see Disk.", true);
  else if (s.state === "failed") banner("The last shot failed: " + s.message, true);
  else if (s.state === "idle" && s.message) banner("The last shot was not kept: " + s.message, false);
  else banner("");
  scheduleOverview();

  const shot = s.currentShot;
  if (shot) {
    $("shot-info").textContent = shot.durationSeconds.toFixed(1) + " s · " + shot.width + "×" + shot.height + " · " +
      shot.frames + " frames (" + shot.framesDropped + " dropped) · " + mb(shot.byteSize) +
      (shot.audio ? " · sound" : " · no sound") +
      (shot.endedEarly ? " · ended early: " + shot.endedEarly : "") + (shot.postedAs ? " · posted as " + shot.postedAs : "");
    if (shot.videoURL && shot.id !== playedShot && !busy) {
      playedShot = shot.id;
      showPlayback(shot.videoURL);
    }
  }
  $("post").disabled = busy || !shot || !!shot.postedAs || !shot.videoURL;
  if (busy && showingPlayback) showLive();

  const o = s.outbox;
  const progressBar = $("upload-progress");
  if (o.uploading) {
    const fraction = o.uploadingTotal > 0 ? Math.min(o.uploadingBytes / o.uploadingTotal, 1) : 0;
    $("upload").textContent = "uploading " + o.uploading + ": " + Math.round(fraction * 100) + "% of " + mb(o.uploadingTotal) +
      (o.depth > 1 ? " (" + (o.depth - 1) + " more queued)" : "");
    progressBar.style.display = "block"; progressBar.value = fraction;
  } else if (o.depth > 0) {
    $("upload").textContent = o.depth + " queued" + (o.lastError ? " · waiting to retry" + (o.retryInSeconds != null ? " in " + Math.ceil(o.retryInSeconds) + " s" : "") : "");
    $("upload").title = o.lastError || "";
    progressBar.style.display = "none";
  } else {
    $("upload").textContent = o.uploaded > 0 ? "All posts are uploaded." : "Nothing queued.";
    progressBar.style.display = "none";
  }
  if (o.lastUploaded) $("posted-id").textContent = o.lastUploaded;
  if (o.lastUploaded && o.lastUploaded !== galleryNewest) { galleryNewest = o.lastUploaded; loadGallery(true); }
  if (myPost) {
    if (o.lastUploaded === myPost || (o.queued.indexOf(myPost) < 0 && o.uploading !== myPost && o.uploaded > 0)) {
      $("post-message").textContent = "Posted as " + myPost + ".";
      document.body.dataset.posted = myPost;
    } else if (o.uploading === myPost) {
      $("post-message").textContent = "Uploading " + myPost + "…";
    } else {
      $("post-message").textContent = "Queued as " + myPost + (o.lastError ? " (the store is unreachable; it will be sent when it is back)" : "") + ".";
    }
  }
}

function showPlayback(url) {
  showingPlayback = true;
  const video = $("playback");
  video.src = url;
  video.style.display = "block";
  $("preview").style.display = "none";
  $("live").style.display = "inline-block";
  video.play().catch(() => {});
}
function showLive() {
  showingPlayback = false;
  const video = $("playback");
  video.pause();
  video.removeAttribute("src");
  video.load();
  video.style.display = "none";
  $("preview").style.display = "block";
  $("live").style.display = "none";
}

function refreshPreview() {
  if (showingPlayback || previewBusy || document.hidden || !status || !status.camera.present) return;
  previewBusy = true;
  fetch("/api/preview.jpg?t=" + Date.now(), { credentials: "same-origin" }).then((r) => r.ok ? r.blob() : null).then((blob) => {
    if (blob) {
      const img = $("preview"), old = img.src;
      img.src = URL.createObjectURL(blob);
      if (old.startsWith("blob:")) URL.revokeObjectURL(old);
    }
  }).catch(() => {}).finally(() => { previewBusy = false; });
}

function refreshStatus() { return api("/api/status").then(render).catch((e) => banner("The kiosk is not answering: " + e.message, true)); }

$("record").onclick = () => {
  showLive();
  postJSON("/api/shoot", {}).then(render).catch((e) => banner(e.message, true));
};
$("stop").onclick = () => postJSON("/api/stop", {}).then(refreshStatus).catch((e) => banner(e.message, true));
$("live").onclick = showLive;
$("caption").oninput = () => { $("caption-count").textContent = [...$("caption").value].length + " / 2200"; };
$("post").onclick = () => {
  $("post").disabled = true;
  postJSON("/api/post", { caption: $("caption").value }).then((r) => {
    myPost = r.id;
    $("post-message").textContent = "Queued as " + r.id + ".";
    $("caption").value = ""; $("caption-count").textContent = "0 / 2200";
    return refreshStatus();
  }).catch((e) => { $("post-message").textContent = e.message; $("post").disabled = false; });
};
$("token-save").onclick = () => {
  document.cookie = "recorder_token=" + encodeURIComponent($("token").value.trim()) + "; path=/; SameSite=Strict";
  $("token-form").style.display = "none";
  connect();
};

// The gallery: 12 posts a page from /api/feed, newest first; "More" appends the next page.
let galleryPage = 0, galleryBusy = false, galleryNewest = null;
function postCard(p, hidden = false) {
  const card = document.createElement("div");
  card.className = "post" + (p.problem ? " damaged" : "");
  card.dataset.id = p.id;
  if (p.thumbnailKey && !p.problem && !hidden) {
    const poster = document.createElement("img");
    poster.className = "poster";
    poster.alt = "";
    poster.loading = "lazy";
    poster.src = "/api/thumbs/" + encodeURIComponent(p.id) + ".jpg";
    poster.onclick = () => openLightbox(p);
    card.appendChild(poster);
  }
  const caption = document.createElement("div");
  caption.className = "caption";
  caption.textContent = p.problem ? p.id + ": " + p.problem : (p.caption || "(no caption)");
  card.appendChild(caption);
  const meta = document.createElement("div");
  meta.className = "muted";
  meta.textContent = p.problem ? "" : p.createdAt.replace("T", " ").replace("Z", " UTC") + " · " +
    (p.durationSeconds || 0).toFixed(1) + " s · " + mb(p.byteSize || 0) + (p.author ? " · " + p.author : "");
  card.appendChild(meta);
  const actions = document.createElement("div");
  actions.className = "actions";
  if (!p.problem && !hidden) actions.appendChild(button("Play", "play", () => openLightbox(p)));
  if (hidden) actions.appendChild(button("Show again", "show", () => moderate(p.id, "show")));
  else actions.appendChild(button("Hide", "hide", () => moderate(p.id, "hide")));
  actions.appendChild(button("Delete", "delete danger", () => {
    if (confirm("Delete post " + p.id + (p.caption ? " (“" + p.caption + "”)" : "") + " from the store? This cannot be undone.")) moderate(p.id, "delete");
  }));
  card.appendChild(actions);
  return card;
}
// A post plays in a dialog over the page; Close, Escape or a click beside it ends it.
function openLightbox(p) {
  const video = $("lightbox-video");
  video.src = "/api/videos/" + encodeURIComponent(p.id) + ".mp4";
  if (p.thumbnailKey) video.poster = "/api/thumbs/" + encodeURIComponent(p.id) + ".jpg"; else video.removeAttribute("poster");
  $("lightbox-caption").textContent = p.caption || "";
  $("lightbox").showModal();
  video.play().catch(() => {});
}
$("lightbox").addEventListener("close", () => {
  const video = $("lightbox-video");
  video.pause();
  video.removeAttribute("src");
  video.load();
});
$("lightbox-close").onclick = () => $("lightbox").close();
$("lightbox").onclick = (e) => { if (e.target === $("lightbox")) $("lightbox").close(); };
function button(text, className, onclick) {
  const b = document.createElement("button");
  b.textContent = text;
  b.className = className;
  b.onclick = onclick;
  return b;
}
// Hide, show again, delete: the gallery and the hidden list are read again afterwards.
function moderate(id, action) {
  const body = action === "delete" ? { confirm: id } : {};
  return postJSON("/api/admin/posts/" + encodeURIComponent(id) + "/" + action, body).then(() => {
    banner("");
    document.body.dataset.moderated = action + ":" + id;
    return Promise.all([loadGallery(true), loadHidden()]);
  }).catch((e) => banner("Could not " + action + " post " + id + ": " + e.message, true));
}
function loadHidden() {
  return api("/api/admin/hidden").then((r) => {
    const list = $("hidden");
    list.textContent = "";
    for (const p of r.posts) list.appendChild(postCard(p, true));
    if (r.posts.length === 0) list.innerHTML = '<span class="muted">None.</span>';
  }).catch((e) => { $("hidden").textContent = "The hidden posts cannot be listed: " + e.message; });
}
function loadGallery(reset) {
  if (galleryBusy) return Promise.resolve();
  galleryBusy = true;
  const next = reset ? 1 : galleryPage + 1;
  return api("/api/feed?page=" + next).then((r) => {
    const list = $("gallery");
    if (reset) list.textContent = "";
    for (const p of r.posts) list.appendChild(postCard(p));
    if (reset && r.posts.length === 0) list.innerHTML = '<span class="muted">Nothing posted yet.</span>';
    galleryPage = r.page;
    $("more").style.display = r.hasMore ? "inline-block" : "none";
    document.body.dataset.galleryPages = String(galleryPage);
  }).catch((e) => { $("gallery").textContent = "The posts cannot be listed: " + e.message; })
    .finally(() => { galleryBusy = false; });
}
$("more").onclick = () => loadGallery(false);

// The overview: read again a second after a change (at most once a second), and every 10 s.
let overviewTimer = null;
function scheduleOverview() {
  if (!overviewTimer) overviewTimer = setTimeout(() => { overviewTimer = null; loadOverview(); }, 1000);
}
function facts(table, rows) {
  table.textContent = "";
  for (const cells of rows) {
    const tr = table.insertRow();
    for (const text of cells) tr.insertCell().textContent = text;
  }
}
function item(list, text, className) {
  const li = document.createElement("li");
  li.textContent = text;
  if (className) li.className = className;
  list.appendChild(li);
}
function loadOverview() {
  return api("/api/admin/overview").then((o) => {
    const s = o.status;
    $("booth-camera").textContent = s.camera.device + (s.camera.present ? "" : " (missing)");
    $("booth-mic").textContent = s.sound.muted ? "off (audio.device = none)" : (s.sound.source || "none: this camera has no microphone of its own");
    const t = s.trigger;
    $("booth-button").textContent = !t ? "none (kiosk.trigger)" :
      t.state + (t.name ? ": " + t.name : "") + (t.device ? " (" + t.device + ")" : "") + " · " + t.presses + " presses" +
      (t.message ? " · " + t.message : "") + (t.state === "waiting" ? " · looking for " + t.setting : "");
    document.body.dataset.button = t ? t.state : "none";
    $("booth-store").textContent = o.store;
    const list = $("outbox-list");
    list.textContent = "";
    for (const q of o.outbox) {
      item(list, q.id + (q.uploading ? " (uploading)" : "") + " · " + mb(q.bytes) + " · “" + q.caption + "”\nto " + q.destination +
        "\nas " + q.videoURL + "\nqueued " + q.queuedAt + (q.attempts ? " · " + q.attempts + " attempts" : "") +
        (q.lastError ? "\nlast error: " + q.lastError : ""), q.lastError ? "warning" : "");
    }
    for (const dir of o.unreadable) item(list, "unreadable outbox entry " + dir + ": see `recorder outbox list`", "error");
    if (!list.children.length) item(list, "Nothing queued.", "none");
    const problems = $("problems");
    problems.textContent = "";
    for (const p of o.problems) item(problems, p.at.replace("T", " ").replace("Z", " UTC") + " " + p.level + ": " + p.message, p.level);
    if (!o.problems.length) item(problems, "None since the kiosk started.", "none");
    facts($("disk"), o.disk.map((d) => [d.what, d.path, d.freeBytes == null ? "?" : mb(d.freeBytes) + " free"]));
    facts($("config"), o.configuration.map((c) => [c.key, c.value == null ? "(not set)" : c.value, c.origin]));
    document.body.dataset.overview = String(Date.now());
  }).catch((e) => { $("problems").textContent = "The overview cannot be read: " + e.message; });
}
setInterval(loadOverview, 10000);

/*EVENTS*/
connect();
loadGallery(true);
loadHidden();
// The sound meter: the peak of the last half second, -60 to 0 dBFS.
function showLevel(peak) {
  $("sound-meter").value = peak == null ? -60 : Math.max(-60, Math.min(0, peak));
  $("sound-meter").dataset.peak = peak == null ? "" : String(peak);
}
// While idle, the microphone's level four times a second (the kiosk opens it for the meter and
// lets go of it when a shot starts or nobody asks).
let soundBusy = false;
setInterval(() => {
  if (soundBusy || !status || document.hidden || status.state !== "idle" || !status.sound || !status.sound.source) return;
  soundBusy = true;
  api("/api/sound").then((l) => showLevel(l.peakDBFS)).catch(() => {}).finally(() => { soundBusy = false; });
}, 250);
// Progress, the sound meter and upload percentages change between events: re-read while something
// moves (four times a second while recording, for the meter).
setInterval(() => {
  if (status && status.state === "recording") refreshStatus();
}, 250);
setInterval(() => {
  if (status && (["countdown", "starting", "finishing"].includes(status.state) || status.outbox.uploading || status.outbox.depth > 0)) refreshStatus();
}, 700);
setInterval(refreshStatus, 5000);
setInterval(refreshPreview, 500);
</script>
</body>
</html>
"""#
}
