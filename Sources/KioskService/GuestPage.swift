/// The page a guest at the booth uses, served at `/`: self-contained (no CDN, no build step),
/// full screen at any size, in the language of `kiosk.language` (its words come from
/// `GuestStrings`, put into the page when it is served).
///
/// The flow, as photobooth apps do it: attract (the live camera, mirrored, an invitation and the
/// record button), countdown, recording (a ring and the seconds left; a second press stops),
/// saving, review (the clip plays once with sound, then Post, Retake or Delete; with no touch for
/// `kiosk.review_seconds` it returns to attract and keeps or discards the clip as
/// `kiosk.review_unposted` says), then a thank-you and back to attract. A failure is one plain
/// sentence. Space, Enter and `kiosk.trigger_key` work like the button (a USB arcade button is a
/// keyboard). A clip is never shown to the next guest: the page reviews only shots made while it
/// was open, and never plays one on load.
enum GuestPage {
    /// The page with the strings of `language`.
    static func html(language: String) -> String {
        template.replacing("/*STRINGS*/{}", with: GuestStrings.json(language))
            .replacing("/*EVENTS*/", with: PageScript.events)
            .replacing("<html lang=\"en\">", with: "<html lang=\"\(GuestStrings.languages.contains(language) ? language : "en")\">")
    }

    static let template = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, user-scalable=no">
<title>recorder booth</title>
<link rel="icon" href="data:,">
<style>
  :root { color-scheme: dark; --accent: #e53935; --ok: #43a047; --panel: rgba(0, 0, 0, .62); }
  * { box-sizing: border-box; }
  html, body { margin: 0; height: 100%; overflow: hidden; background: #000; color: #fff; }
  /* Readable from 2 m; emoji from Noto Color Emoji (fonts-noto-color-emoji) where system-ui has none. */
  body { font: clamp(20px, 3.2vmin, 34px)/1.3 system-ui, "Noto Sans", sans-serif, "Noto Color Emoji";
         -webkit-user-select: none; user-select: none; -webkit-touch-callout: none; touch-action: manipulation; }
  #stage { position: fixed; inset: 0; }
  #live, #clip { position: absolute; inset: 0; width: 100%; height: 100%; object-fit: contain; }
  /* A mirror on screen, as guests expect; the recording is never mirrored. */
  #live { transform: scaleX(-1); }
  #clip { display: none; background: #000; }
  /* The attract loop: recent posts, muted, over the live camera until somebody comes. */
  #loop { position: absolute; inset: 0; width: 100%; height: 100%; object-fit: contain; display: none; background: #000; }
  body[data-phase="attract"][data-loop="on"] #loop { display: block; }
  body[data-phase="attract"][data-loop="on"] #live { display: none; }
  /* Upright, the picture takes the top and the words and buttons the space below it. */
  @media (orientation: portrait) { #live, #clip { height: 60%; } }
  .overlay { position: absolute; inset: 0; display: none; flex-direction: column; align-items: center; justify-content: flex-end;
             gap: 2.2vmin; padding: 4vmin; text-align: center; }
  body[data-phase="attract"] #attract, body[data-phase="countdown"] #countdown, body[data-phase="recording"] #recording,
  body[data-phase="saving"] #saving, body[data-phase="review"] #review, body[data-phase="done"] #done,
  body[data-phase="problem"] #problem { display: flex; }
  body[data-phase="review"] #clip { display: block; }
  body[data-phase="review"] #live { display: none; }
  .card { background: var(--panel); border-radius: 3vmin; padding: 2.5vmin 4vmin; max-width: 92vw; }
  h1 { font-size: clamp(32px, 6.5vmin, 80px); margin: 0; line-height: 1.15; }
  h2 { font-size: clamp(28px, 5vmin, 64px); margin: 0; }
  p { margin: 0; }
  button { font: inherit; font-weight: 700; border: 0; color: #fff; cursor: pointer; min-width: 64px; min-height: 64px;
           border-radius: 999px; padding: 0 5vmin; background: #444; }
  button:focus-visible { outline: 4px solid #fff; outline-offset: 4px; }
  button:disabled { opacity: .5; }
  #record { width: clamp(120px, 24vmin, 260px); height: clamp(120px, 24vmin, 260px); padding: 0; background: var(--accent);
            box-shadow: 0 0 0 1.2vmin rgba(255, 255, 255, .85); font-size: clamp(22px, 4vmin, 44px); }
  #count { font-size: clamp(120px, 40vmin, 420px); font-weight: 800; line-height: 1; text-shadow: 0 0 4vmin #000; }
  #countdown { justify-content: center; }
  #ring { width: clamp(120px, 22vmin, 240px); height: clamp(120px, 22vmin, 240px); }
  #ring circle { fill: none; stroke-width: 10; }
  #ring .track { stroke: rgba(255, 255, 255, .3); }
  #ring .done { stroke: var(--accent); stroke-linecap: round; transform: rotate(-90deg); transform-origin: 50% 50%; }
  #ring text { fill: #fff; font-size: 44px; font-weight: 800; }
  #recording { justify-content: flex-end; }
  #rec { position: absolute; top: 4vmin; left: 4vmin; background: var(--accent); border-radius: 999px; padding: .2em .8em; font-weight: 800; }
  #stop { min-height: clamp(64px, 11vmin, 120px); background: #222; border: .5vmin solid #fff; }
  .choices { display: flex; gap: 3vmin; flex-wrap: wrap; justify-content: center; }
  .choices button { min-height: clamp(72px, 12vmin, 140px); min-width: clamp(150px, 24vmin, 300px); }
  #post { background: var(--ok); }
  #delete { background: #6d2020; }
  #caption { font: inherit; width: min(80vw, 900px); min-height: 64px; padding: .3em .6em; border-radius: 2vmin; border: 0;
             background: rgba(255, 255, 255, .92); color: #111; -webkit-user-select: text; user-select: text; }
  /* A caption shown back: its own direction, isolated, a few lines at most. */
  .said { unicode-bidi: isolate; display: -webkit-box; -webkit-line-clamp: 3; -webkit-box-orient: vertical; overflow: hidden; }
  #problem, #saving, #done { justify-content: center; }
  /* The share code: big enough to scan from a step away, on white with its quiet zone. */
  #share { display: flex; flex-direction: column; align-items: center; gap: 1.2vmin; margin-top: 2vmin; }
  #share[hidden] { display: none; }
  #qr { width: clamp(180px, 34vmin, 380px); height: clamp(180px, 34vmin, 380px); background: #fff; border-radius: 1vmin; }
  #share-link { font-size: .55em; max-width: min(80vw, 900px); overflow: hidden; text-overflow: ellipsis; white-space: nowrap; opacity: .8; }
  @media (orientation: portrait) { #qr { width: clamp(180px, 48vmin, 420px); height: clamp(180px, 48vmin, 420px); } }
  #notice { position: absolute; top: 2vmin; left: 50%; transform: translateX(-50%); display: none; background: #fb8c00; color: #111;
            border-radius: 2vmin; padding: .4em 1em; font-weight: 700; max-width: 92vw; }
</style>
</head>
<body data-phase="attract">
<div id="stage">
  <canvas id="live" width="640" height="360"></canvas>
  <video id="clip" playsinline preload="auto"></video>
  <video id="loop" playsinline muted preload="auto"></video>
  <div id="attract" class="overlay">
    <div class="card"><h1 data-t="title"></h1><p id="invite"></p></div>
    <button id="record" data-t="record"></button>
    <p class="card" data-t="hint"></p>
  </div>
  <div id="countdown" class="overlay" aria-live="assertive">
    <div id="count"></div>
    <p class="card" data-t="getReady"></p>
  </div>
  <div id="recording" class="overlay">
    <div id="rec">● <span data-t="recording"></span></div>
    <svg id="ring" viewBox="0 0 120 120" role="img">
      <circle class="track" cx="60" cy="60" r="52"></circle>
      <circle class="done" cx="60" cy="60" r="52" stroke-dasharray="326.7" stroke-dashoffset="326.7"></circle>
      <text id="left" x="60" y="75" text-anchor="middle"></text>
    </svg>
    <p id="left-label" class="card"></p>
    <button id="stop" data-t="stop"></button>
  </div>
  <div id="saving" class="overlay"><h2 class="card" data-t="saving"></h2></div>
  <div id="review" class="overlay">
    <h2 class="card" data-t="reviewTitle"></h2>
    <input id="caption" dir="auto" maxlength="2200" autocomplete="off" enterkeyhint="done">
    <div class="choices">
      <button id="post" data-t="post"></button>
      <button id="retake" data-t="retake"></button>
      <button id="delete" data-t="delete"></button>
    </div>
    <p id="returning" class="card"></p>
  </div>
  <div id="done" class="overlay"><div class="card"><h1 id="done-title"></h1><p id="done-detail" class="said" dir="auto"></p>
    <div id="share" hidden><img id="qr" alt=""><p data-t="scanToGet"></p><p id="share-link" dir="ltr"></p><p id="share-until"></p></div>
  </div></div>
  <div id="problem" class="overlay" role="alert"><h2 id="problem-text" class="card"></h2></div>
  <div id="notice" role="status"></div>
</div>
<script>
"use strict";
const T = /*STRINGS*/{};
const $ = (id) => document.getElementById(id);
const t = (key, n) => (T[key] || "").replace("{n}", n);
for (const el of document.querySelectorAll("[data-t]")) el.textContent = t(el.dataset.t);
$("caption").placeholder = t("caption");

let status = null, knownShot, reviewShot = null, reviewDeadline = 0, phaseTimer = null, lastPress = 0;
// The post whose share link the thank-you waits for (shown once it is uploaded).
let sharing = null;
let shownFailure = null;

function setPhase(phase) {
  if (document.body.dataset.phase === phase) return;
  clearTimeout(phaseTimer);
  phaseTimer = null;
  document.body.dataset.phase = phase;
  if (phase !== "review") { const v = $("clip"); v.pause(); v.removeAttribute("src"); v.load(); reviewShot = null; }
  // The review needs no camera: the stream stops, so the kiosk can let the camera go.
  else if (liveReader) liveReader.cancel().catch(() => {});
  if (phase === "attract") { $("caption").value = ""; lastActivity = Date.now(); }
  if (phase !== "done") { $("share").hidden = true; sharing = null; }
  stopLoop();
  liveStream();
  if (phase === "countdown") beep(660);
  if (phase === "recording") beep(990);
}

// kiosk.countdown_sound: a short beep per number, a higher one as recording starts (WebAudio:
// nothing to download). Counted in data-beeps for the tests.
let audio = null, beeps = 0;
function beep(frequency) {
  if (!status || !status.booth.countdownSound) return;
  try {
    audio = audio || new AudioContext();
    const osc = audio.createOscillator(), gain = audio.createGain();
    osc.frequency.value = frequency;
    gain.gain.setValueAtTime(0.25, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.15);
    osc.connect(gain).connect(audio.destination);
    osc.start(); osc.stop(audio.currentTime + 0.16);
    document.body.dataset.beeps = String(++beeps);
  } catch (_) {}
}

// kiosk.attract_seconds: after that long on the start screen with nobody there, the recent posts
// play one after another (muted) over the live camera; a touch or a key brings the camera back.
let lastActivity = Date.now(), loopPosts = [], loopIndex = 0;
function stopLoop() {
  if (document.body.dataset.loop !== "on") return;
  document.body.dataset.loop = "off";
  const v = $("loop"); v.pause(); v.removeAttribute("src"); v.load();
  lastActivity = Date.now();
}
function playNextInLoop() {
  if (document.body.dataset.loop !== "on" || !loopPosts.length) return stopLoop();
  const v = $("loop");
  v.src = "/api/videos/" + encodeURIComponent(loopPosts[loopIndex++ % loopPosts.length]) + ".mp4";
  v.play().catch(() => stopLoop());
  document.body.dataset.loopPlayed = String(loopIndex);
}
$("loop").onended = playNextInLoop;
$("loop").onerror = playNextInLoop;
function startLoop() {
  document.body.dataset.loop = "starting";
  api("/api/feed?page=1").then((r) => {
    loopPosts = r.posts.filter((p) => !p.problem).map((p) => p.id);
    if (document.body.dataset.loop !== "starting" || document.body.dataset.phase !== "attract" || !loopPosts.length) {
      document.body.dataset.loop = "off"; lastActivity = Date.now(); return;
    }
    document.body.dataset.loop = "on";
    if (liveReader) liveReader.cancel().catch(() => {});
    loopIndex = 0;
    playNextInLoop();
  }).catch(() => { document.body.dataset.loop = "off"; lastActivity = Date.now(); });
}
for (const kind of ["pointerdown", "keydown"]) {
  document.addEventListener(kind, (e) => {
    lastActivity = Date.now();
    // The first touch on the loop only brings the camera back; it does not record.
    if (document.body.dataset.loop === "on") { e.preventDefault(); e.stopPropagation(); stopLoop(); liveStream(); }
  }, true);
}
setInterval(() => {
  const seconds = status ? status.booth.attractSeconds : 0;
  if (seconds > 0 && document.body.dataset.phase === "attract" && (document.body.dataset.loop || "off") === "off"
      && Date.now() - lastActivity > seconds * 1000) startLoop();
}, 1000);
// A message, then attract again.
function showFor(phase, seconds) {
  setPhase(phase);
  phaseTimer = setTimeout(() => { phaseTimer = null; setPhase("attract"); }, seconds * 1000);
}
function problem(key) {
  $("problem-text").textContent = t(key) || t("tryAgain");
  showFor("problem", 6);
}

function api(path, options = {}) {
  options.credentials = "same-origin";
  options.headers = Object.assign({ "Accept": "application/json" }, options.headers || {});
  return fetch(path, options).then(async (response) => {
    const body = await response.json().catch(() => ({}));
    if (!response.ok) {
      const error = new Error(body.error || ("HTTP " + response.status));
      error.key = response.status === 401 ? "notReady" : (body.guestKey || "tryAgain");
      throw error;
    }
    return body;
  });
}
const postJSON = (path, object) =>
  api(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(object) });

function render(s) {
  if (stale(s)) return;
  status = s;
  const shot = s.currentShot;
  // What was there when the page opened is not this guest's: never reviewed, never played.
  if (knownShot === undefined) knownShot = shot ? shot.id : null;
  $("invite").textContent = t("invite", Math.round(s.shotSeconds));
  const phase = document.body.dataset.phase;
  $("notice").textContent = s.disk.low ? t("lowSpace") : "";
  $("notice").style.display = s.disk.low && phase === "attract" ? "block" : "none";
  switch (s.state) {
    case "countdown": case "starting": {
      const before = $("count").textContent;
      $("count").textContent = s.countdown || "";
      // (setPhase beeps for the first number; each later one beeps here)
      if (document.body.dataset.phase === "countdown" && s.countdown && String(s.countdown) !== before) beep(660);
      setPhase("countdown");
      return;
    }
    case "recording": {
      const p = s.progress || { elapsedSeconds: 0, totalSeconds: s.shotSeconds };
      const fraction = p.totalSeconds > 0 ? Math.min(p.elapsedSeconds / p.totalSeconds, 1) : 0;
      document.querySelector("#ring .done").setAttribute("stroke-dashoffset", String(326.7 * (1 - fraction)));
      const left = Math.max(0, Math.ceil(p.totalSeconds - p.elapsedSeconds));
      $("left").textContent = String(left);
      $("left-label").textContent = t("secondsLeft", left);
      setPhase("recording");
      return;
    }
    case "finishing": setPhase("saving"); return;
    case "camera-missing":
      // Nothing works until the camera is back: the sentence stays.
      $("problem-text").textContent = t(s.guestKey || "cameraUnavailable");
      setPhase("problem");
      return;
    case "failed":
      // The last shot failed: said once, then the booth invites the next try.
      if (s.message !== shownFailure) { shownFailure = s.message; problem(s.guestKey || "notSaved"); }
      return;
  }
  if (sharing && s.outbox.lastUploaded === sharing && document.body.dataset.phase === "done") showShare(sharing);
  // Idle: a new shot is this guest's to review; a shot that was not kept says why, briefly.
  if (shot && shot.id !== knownShot && shot.videoURL && !shot.postedAs) {
    knownShot = shot.id;
    review(shot);
  } else if (shot && shot.id !== knownShot) {
    knownShot = shot.id;
  } else if (["countdown", "recording", "saving"].includes(phase)) {
    if (s.guestKey) problem(s.guestKey); else setPhase("attract");
  } else if (phase === "problem" && !phaseTimer) {
    setPhase("attract");
  }
}

// Once the post is in the store: its QR code and link (when the store gives one), and 30 s to scan.
function showShare(id) {
  sharing = null;
  api("/api/posts/" + encodeURIComponent(id) + "/share").then((r) => {
    if (document.body.dataset.phase !== "done") return;
    $("qr").src = "/api/posts/" + encodeURIComponent(id) + "/qr.svg";
    $("share-link").textContent = r.shareURL;
    $("share-until").textContent = r.shareExpiresAt ? t("linkUntil", new Date(r.shareExpiresAt).toLocaleString(document.documentElement.lang)) : "";
    $("share").hidden = false;
    document.body.dataset.shared = id;
    clearTimeout(phaseTimer);
    phaseTimer = setTimeout(() => { phaseTimer = null; setPhase("attract"); }, 30000);
  }).catch(() => {});
}

function review(shot) {
  setPhase("review");
  reviewShot = shot.id;
  touchReview();
  const v = $("clip");
  v.src = shot.videoURL;
  v.muted = false;
  // Once, with sound; a browser that refuses sound before a touch plays it muted.
  v.play().catch(() => { v.muted = true; return v.play(); }).catch(() => {});
}
function touchReview() {
  reviewDeadline = Date.now() + status.booth.reviewSeconds * 1000;
  $("returning").textContent = t("returning", status.booth.reviewSeconds);
}
function endReview() {
  const id = reviewShot;
  setPhase("attract");
  if (id && status.booth.reviewUnposted === "discard") postJSON("/api/shot/current/discard", { id }).catch(() => {});
}
setInterval(() => {
  if (document.body.dataset.phase !== "review") return;
  const left = Math.ceil((reviewDeadline - Date.now()) / 1000);
  $("returning").textContent = t("returning", Math.max(left, 0));
  if (left <= 0) endReview();
}, 250);
for (const kind of ["pointerdown", "keydown", "input"]) {
  document.addEventListener(kind, () => { if (document.body.dataset.phase === "review") touchReview(); }, true);
}

function record() {
  setPhase("countdown");
  $("count").textContent = "";
  postJSON("/api/shoot", {}).then(render).catch((e) => problem(e.key));
}
function stop() { postJSON("/api/stop", {}).catch((e) => problem(e.key)); }
// One press, however it comes (touch, Space, Enter, the booth's button): what it means depends on
// where the guest is. Held keys repeat and buttons chatter: one press per 400 ms.
function press() {
  const now = Date.now();
  if (now - lastPress < 400) return;
  lastPress = now;
  const phase = document.body.dataset.phase;
  if (phase === "countdown" || phase === "recording") stop();
  else if (phase === "attract" || phase === "problem" || phase === "done" || phase === "review") record();
}
$("record").onclick = press;
$("stop").onclick = press;
$("retake").onclick = record;
$("post").onclick = () => {
  const id = reviewShot, caption = $("caption").value;
  $("post").disabled = true;
  postJSON("/api/post", { caption }).then((queued) => {
    $("done-title").textContent = t("thanks");
    $("done-detail").textContent = caption ? "“" + caption + "”" : t("thanksDetail");
    document.body.dataset.posted = id;
    showFor("done", 8);
    sharing = queued.id;
    if (status && status.outbox.lastUploaded === sharing) showShare(sharing);
  }).catch((e) => problem(e.key)).finally(() => { $("post").disabled = false; });
};
$("delete").onclick = () => {
  const id = reviewShot;
  postJSON("/api/shot/current/discard", { id }).then(() => {
    $("done-title").textContent = t("deleted");
    $("done-detail").textContent = "";
    showFor("done", 4);
  }).catch((e) => problem(e.key));
};
document.addEventListener("keydown", (e) => {
  const trigger = status && status.booth.triggerKey;
  const isTrigger = trigger && (e.key === trigger || e.code === trigger);
  // Typing a caption: Space, Enter and any character are text there; only a booth key that types
  // nothing (F13, a media key) still presses.
  if (e.target === $("caption") && (!isTrigger || e.key.length === 1)) return;
  if (e.key === " " || e.key === "Enter" || isTrigger) {
    e.preventDefault();
    if (!e.repeat) press();
  }
});
document.addEventListener("contextmenu", (e) => { if (e.target !== $("caption")) e.preventDefault(); });

// The live mirror: /api/preview.mjpeg read as a stream (multipart, one JPEG per camera picture)
// and painted on a canvas as each arrives; a picture that comes while the last is still being
// decoded is skipped, so the mirror never lags behind. Counts for the tests: data-frames (painted)
// and data-latency (ms from the camera's picture to the paint).
let liveReader = null, decoding = false, painted = 0;
const CRLF2 = [13, 10, 13, 10];
function headerEnd(bytes) {
  outer: for (let i = 0; i + 3 < bytes.length; i++) {
    for (let j = 0; j < 4; j++) if (bytes[i + j] !== CRLF2[j]) continue outer;
    return i;
  }
  return -1;
}
async function liveStream() {
  const phase = document.body.dataset.phase;
  if (liveReader || document.hidden || phase === "review" || document.body.dataset.loop === "on" || !status || !status.camera.present) return;
  try {
    const response = await fetch("/api/preview.mjpeg", { credentials: "same-origin", cache: "no-store" });
    if (!response.ok || !response.body) return;
    liveReader = response.body.getReader();
    let buffer = new Uint8Array(0);
    for (;;) {
      const { value, done } = await liveReader.read();
      if (done) break;
      const joined = new Uint8Array(buffer.length + value.length);
      joined.set(buffer); joined.set(value, buffer.length);
      buffer = joined;
      for (;;) {
        const end = headerEnd(buffer);
        if (end < 0) break;
        const head = new TextDecoder().decode(buffer.subarray(0, end));
        const length = +((/Content-Length: *(\d+)/i.exec(head) || [])[1] ?? -1);
        const age = +((/X-Age-Ms: *(\d+)/i.exec(head) || [])[1] ?? 0);
        if (length < 0 || buffer.length < end + 4 + length) break;
        const jpeg = buffer.slice(end + 4, end + 4 + length);
        buffer = buffer.slice(end + 4 + length);
        paint(jpeg, age, performance.now());
      }
    }
  } catch (_) {
  } finally {
    liveReader = null;
  }
}
function paint(jpeg, age, received) {
  if (decoding) return;
  decoding = true;
  createImageBitmap(new Blob([jpeg], { type: "image/jpeg" })).then((bitmap) => {
    const canvas = $("live");
    if (canvas.width !== bitmap.width || canvas.height !== bitmap.height) { canvas.width = bitmap.width; canvas.height = bitmap.height; }
    canvas.getContext("2d").drawImage(bitmap, 0, 0);
    bitmap.close();
    painted++;
    document.body.dataset.frames = String(painted);
    document.body.dataset.latency = String(Math.round(age + performance.now() - received));
  }).catch(() => {}).finally(() => { decoding = false; });
}
const refreshStatus = () => api("/api/status").then(render).catch((e) => {
  $("problem-text").textContent = t(e.key === "notReady" ? "notReady" : "notAnswering");
  setPhase("problem");
});

/*EVENTS*/
connect();
setInterval(() => { if (status && ["recording", "countdown", "starting", "finishing"].includes(status.state)) refreshStatus(); }, 250);
setInterval(refreshStatus, 5000);
// (the stream ends when the camera gave nothing for 2 s, or the kiosk restarted: open it again)
setInterval(liveStream, 1000);
</script>
</body>
</html>
"""#
}
