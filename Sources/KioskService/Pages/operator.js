// The operator's page (operator.html): the booth's state in full, the shot, the outbox, the
// overview, and the gallery with moderation.
import { $, api as request, postJSON as send, followEvents, isStale, byteCount as mb, login, logout, tokenTravelsInClear } from "/assets/common.js";
import { shownDate, localDay, startOfDay } from "/assets/dates.js";
import { feedProblem } from "/assets/feed-problem.js";

let status = null, myPost = null, showingPlayback = false, playedShot = null, previewBusy = false;

// Dates as the page's language writes them, to the minute, in this browser's time zone.
const when = (iso) => shownDate(iso, document.documentElement.lang) || iso || "";

// Logged in ("in"), or not ("out": the login form alone, at the top, in plain words; nothing that
// cannot load is shown broken). `why` is the form's first sentence.
function setAuth(state, why) {
  document.body.dataset.auth = state;
  if (state === "out") {
    $("state").textContent = "not logged in";
    $("login-why").textContent = why || "This is the booth's operator page. Log in with the operator's token to use it.";
  }
}

// The operator reads the whole error (what happened, what to change); the guest's sentence is
// kept as `guest`. A refusal for want of a token opens the login form.
function refused(error) {
  if (error.status === 401) setAuth("out");
  error.guest = (error.body && error.body.guestMessage) || "";
  throw error;
}
const api = (path, options) => request(path, options).catch(refused);
const postJSON = (path, object) => send(path, object).catch(refused);
// The operator's words in full (paths, settings, errno).
function banner(text, isError) {
  const b = $("banner");
  b.textContent = text || "";
  b.className = isError ? "error" : "";
  b.style.display = text ? "block" : "none";
}

// One reason the booth is out of service, with its numbers.
function serviceCause(c) {
  switch (c.cause) {
    case "camera": return "The camera is missing: " + c.message + ".";
    case "disk": return "The disk is nearly full: " + mb(c.freeBytes) + " free in " + c.path + ", one more shot needs " + mb(c.neededBytes) + ".";
    case "store": return "The store keeps failing: " + c.queued + " post(s) waiting, the oldest for " + Math.floor(c.waitingSeconds / 60) +
      " min, and the guests' links open only from the store. Last error: " + c.message;
    default: return c.cause + ".";
  }
}

function render(s) {
  if (isStale(status, s)) return;
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
  // Problems first: out of service (which and how far), the camera, the disk, then a failed
  // shot; in the operator's words.
  const away = s.service && s.service.causes && s.service.causes.length ? s.service.causes : null;
  if (away) banner("Out of service: the guest page says “back in a moment” and takes no shot, until this clears by itself. " +
    away.map(serviceCause).join(" "), true);
  else if (!s.camera.present) banner("No camera: " + (s.message || s.camera.device), true);
  else if (s.disk.low) banner("Too little free space for one more shot: see Disk.", true);
  else if (s.state === "failed") banner("The last shot failed: " + s.message, true);
  else if (s.state === "idle" && s.message) banner("The last shot was not kept: " + s.message, false);
  else banner("");
  scheduleOverview();

  const shot = s.currentShot;
  if (shot) {
    $("shot-info").textContent = shot.durationSeconds.toFixed(1) + " s · " + shot.width + "×" + shot.height + " · " +
      shot.frames + " frames (" + shot.framesDropped + " dropped) · " + mb(shot.byteSize) +
      (shot.audio && silentEffect(shot) ? " · silent (the take's sound is kept with the take" + loudnessFragment(shot.audio) + ")"
        : shot.audio ? " · sound" + loudnessFragment(shot.audio) + (shot.audio.check && shot.audio.check.result !== "ok" ? " (" + shot.audio.check.result + ", loudest " +
        shot.audio.check.loudestDBFS + " dBFS)" : "") : " · no sound") +
      (shot.endedEarly ? " · ended early: " + shot.endedEarly : "") +
      (shot.postedAs ? " · posted as " + shot.postedAs + (shot.postDeletedAt ? ", deleted " + when(shot.postDeletedAt) : "") : "");
    // (for the tests: posted, or posted and its post deleted since)
    $("shot-panel").dataset.posted = !shot.postedAs ? "" : shot.postDeletedAt ? "deleted" : "posted";
    showEffect(shot);
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
  if (o.lastUploaded && o.lastUploaded !== galleryNewest) { galleryNewest = o.lastUploaded; loadGallery(true); }
  showLastPosted();
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

// (a refusal for want of a login is the form's to say, not the banner's)
function refreshStatus() {
  return api("/api/status").then(render).catch((e) => { if (e.status !== 401) banner("The kiosk is not answering: " + e.message, true); });
}

$("record").onclick = () => {
  showLive();
  postJSON("/api/shoot", {}).then(render).catch((e) => banner(e.message, true));
};
$("stop").onclick = () => postJSON("/api/stop", {}).then(refreshStatus).catch((e) => banner(e.message, true));
$("live").onclick = showLive;
$("caption").oninput = () => { $("caption-count").textContent = [...$("caption").value].length + " / 2200"; };
$("post").onclick = () => {
  $("post").disabled = true;
  // The shot this page shows: a Post never publishes one that replaced it meanwhile (409).
  postJSON("/api/post", { id: status && status.currentShot ? status.currentShot.id : "", caption: $("caption").value }).then((r) => {
    myPost = r.id;
    $("post-message").textContent = "Queued as " + r.id + ".";
    $("caption").value = ""; $("caption-count").textContent = "0 / 2200";
    return refreshStatus();
  }).catch((e) => { $("post-message").textContent = e.message; $("post").disabled = false; });
};
// Logging in: the kiosk sets its session cookie (HttpOnly: no script here keeps the token).
$("token-save").onclick = () => {
  const token = $("token").value;
  $("token").value = "";
  login(token).then((role) => {
    $("token-message").textContent = role === "operator" ? "" : "That is the booth's token: this page needs the operator's.";
    if (role === "operator") {
      setAuth("in"); reconnect(); loadGallery(true); loadHidden(); loadOverview(); loadReel(); loadPreflight();
      // (the Event section, event.js, reads its settings now)
      document.dispatchEvent(new Event("operator-login"));
    }
  }).catch((e) => { $("token-message").textContent = e.message; });
};
$("clear-text").hidden = !tokenTravelsInClear(location);
$("logout").onclick = () => { logout().finally(() => { location.reload(); }); };

// The gallery: 12 posts a page from /api/feed, newest first; "More" appends the next page.
let galleryPage = 0, galleryBusy = false, galleryNewest = null;
// The posts the page has listed (the gallery's pages read so far, and the hidden list), by id:
// "Last posted" names its post by caption, and forgets a post once it is gone from both. Until
// this kiosk sends one, it is the gallery's newest (posted before a restart, or by another booth).
let listed = new Map(), hiddenListed = new Map(), galleryRead = false, galleryAgain = false, galleryFirst = null;
function showLastPosted() {
  const id = (status && status.outbox.lastUploaded) || galleryFirst;
  const post = id ? listed.get(id) || hiddenListed.get(id) : null;
  // (until the gallery has been read, an id the page knows nothing of yet is shown as it is)
  const gone = !!id && !post && galleryRead && (galleryNewest === id || galleryFirst === id) && !galleryBusy;
  $("posted-caption").textContent = !id || gone ? "–" : post ? (post.caption || "(no caption)") + (hiddenListed.has(id) ? " (hidden)" : "") : id;
  $("posted-id").textContent = post ? post.id : "";
  document.body.dataset.lastPosted = !id || gone ? "" : id;
}
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
  caption.textContent = p.problem ? p.id + ": " + feedProblem(p.problem) : (p.caption || "(no caption)");
  card.appendChild(caption);
  if (p.prompt && !p.problem) {
    // The question the guest answered (kiosk.prompts).
    const prompt = document.createElement("div");
    prompt.className = "prompt muted";
    prompt.dir = "auto";
    prompt.textContent = "Q: " + p.prompt;
    card.appendChild(prompt);
  }
  const meta = document.createElement("div");
  meta.className = "muted";
  meta.textContent = p.problem ? "" : when(p.createdAt) + " · " +
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
  $("lightbox-caption").textContent = (p.prompt ? "Q: " + p.prompt + " · " : "") + (p.caption || "");
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
    hiddenListed = new Map(r.posts.map((p) => [p.id, p]));
    showLastPosted();
  }).catch((e) => { $("hidden").textContent = "The hidden posts cannot be listed: " + e.message; });
}
function loadGallery(reset) {
  // (a fresh read asked for while one is under way comes after it: that one may predate a new post)
  if (galleryBusy) { galleryAgain = galleryAgain || reset; return Promise.resolve(); }
  galleryBusy = true;
  const next = reset ? 1 : galleryPage + 1;
  return api("/api/feed?page=" + next).then((r) => {
    const list = $("gallery");
    if (reset) { list.textContent = ""; listed = new Map(); galleryFirst = r.posts.length ? r.posts[0].id : null; }
    for (const p of r.posts) { list.appendChild(postCard(p)); listed.set(p.id, p); }
    if (reset && r.posts.length === 0) list.innerHTML = '<span class="muted">Nothing posted yet.</span>';
    galleryPage = r.page;
    $("more").style.display = r.hasMore ? "inline-block" : "none";
    document.body.dataset.galleryPages = String(galleryPage);
    galleryRead = true;
  }).catch((e) => { $("gallery").textContent = "The posts cannot be listed: " + e.message; })
    .finally(() => {
      galleryBusy = false;
      if (galleryAgain) { galleryAgain = false; loadGallery(true); } else showLastPosted();
    });
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
// The last purge of expired posts (retention.days): what it deleted and left, or why it deleted
// nothing (this machine's clock in doubt: said in full, as the journal says it).
function showRetention(on, r) {
  const cell = $("retention");
  cell.classList.toggle("warn-text", !!(r && r.refused));
  document.body.dataset.retention = !on ? "off" : !r ? "none" : (r.refused ? "refused" : "ran");
  if (!on) { cell.textContent = "off: posts are kept until somebody deletes them (retention.days)"; return; }
  if (!r) { cell.textContent = "no purge yet (retention.days: at the start, then once an hour)"; return; }
  if (r.refused) { cell.textContent = "paused at " + when(r.at) + ": " + r.refusedBecause; return; }
  cell.textContent = "deleted " + r.deleted + " expired post(s) at " + when(r.at) + " (" +
    (r.scope === "own" ? "this kiosk's, " + r.kiosk : "the whole store") + ")" +
    (r.otherKiosks + r.withoutKiosk ? " · left: " + r.otherKiosks + " of other kiosks, " + r.withoutKiosk + " without a kiosk id" : "");
}
// Guests' mail (mail.* set): waiting (for its post's upload, or for the server) and refused, with
// the address masked; sent, as a count. A refused one waits for `recorder outbox mail --retry`.
function showMail(m) {
  $("mail-panel").hidden = !m;
  if (!m) return;
  $("mail-summary").textContent = m.waiting + " waiting · " + m.refused + " refused · " + m.sent + " sent";
  document.body.dataset.mail = m.waiting + "/" + m.refused + "/" + m.sent;
  const list = $("mail-list");
  list.textContent = "";
  if (m.queueProblem) item(list, "the mail queue cannot be used: " + m.queueProblem, "error");
  for (const j of m.jobs) {
    item(list, j.id + " · post " + j.post + " · to " + j.to + " · " + (j.state === "refused" ? "refused" : "waiting") +
      "\nqueued " + j.queuedAt + (j.attempts ? " · " + j.attempts + " attempt(s)" : "") + (j.nextAttemptAt ? " · next " + j.nextAttemptAt : "") +
      (j.lastError ? "\n" + (j.state === "refused" ? "refused: " : "last error: ") + j.lastError : "") +
      (j.state === "refused" ? "\nsend it again once fixed: recorder outbox mail --retry " + j.id : ""),
    j.state === "refused" ? "error" : (j.lastError ? "warning" : ""));
  }
  for (const path of m.unreadable) item(list, "unreadable mail " + path + ": kept, never sent (see `recorder outbox mail`)", "error");
  if (!list.children.length) item(list, "Nothing waiting.", "none");
}
let guestDeletionsSeen = null;
// (the share links' warning above the page says what the preflight's line says: one of them)
// The shot's effect (shoot.effect, kiosk.effects) and its sound's loudness (audio.loudness), in a
// line each: what was made, and what was not and why (a camera too slow for slow motion is said,
// never faked).
const caseOf = (value) => (value && typeof value === "object" ? Object.keys(value)[0] : null);
function effectLine(shot) {
  const e = shot.effect;
  if (!e) return null;
  const why = caseOf(e.notRendered);
  if (why === "cameraTooSlow") {
    return { text: "slow motion: not slowed: the camera's fastest at " + shot.width + "×" + shot.height + " is " + e.notRendered.cameraTooSlow.fastest +
      " fps, no faster than the 30 fps it would play at (nothing is faked; a camera with 60 fps at this size gives 2×)", warn: true };
  }
  if (why === "failure" || why === "failed") {
    // (the failure in the operator's words, from the kiosk: effectFault)
    return { text: e.name + " was not made: the shot is the take as recorded (" + shot.effectFault + ")", warn: true };
  }
  const made = e.renderSeconds !== undefined ? " · made in " + e.renderSeconds.toFixed(2) + " s (" + e.renderRatio.toFixed(2) + "× the take)" : "";
  const take = e.original ? " · take " + e.original.durationSeconds.toFixed(1) + " s kept beside it" : "";
  if (e.name === "boomerang") {
    const b = e.boomerang || {};
    return { text: "boomerang: " + b.cycleFrames + " pictures forward and back, " + b.frames + " in all" + made + take, warn: false };
  }
  const m = e.slowMotion || {};
  return { text: "slow motion " + m.factor + "×: recorded at " + m.recordedFrameRate + " fps, played at " + m.playbackFrameRate + " fps" +
    (m.cameraLimited ? " (the camera's fastest at this size is " + m.recordedFrameRate + " fps, so not 2×)" : "") +
    (m.soundKept ? ", sound stretched" : ", silent") + made + take, warn: m.cameraLimited };
}
// The loudness before and after, short, in the shot's line (audio.loudness; the true peaks and
// the gain are in the post's metadata); a levelling that failed, in a line of its own.
function loudnessFragment(audio) {
  const l = audio && audio.loudness;
  if (!l || !l.after || !l.before) return "";
  return ", " + l.before.integratedLUFS.toFixed(1) + " → " + l.after.integratedLUFS.toFixed(1) + " LUFS" + (l.limited ? " (peaks limited)" : "");
}
function loudnessLine(shot) {
  const l = shot.audio && shot.audio.loudness;
  if (!l || !shot.loudnessFault) return null;
  return { text: "sound left as recorded: levelling it to " + l.targetLUFS + " LUFS failed (" + shot.loudnessFault + ")", warn: true };
}
// (as the guest page has it: a boomerang, and slow motion without its sound kept, play none of the take's)
function silentEffect(shot) {
  const e = shot.effect;
  if (!e || e.notRendered) return false;
  return e.name === "boomerang" || (e.name === "slowmo" && !(e.slowMotion && e.slowMotion.soundKept));
}
function showEffect(shot) {
  for (const [id, line] of [["shot-effect", effectLine(shot)], ["shot-loudness", loudnessLine(shot)]]) {
    $(id).hidden = !line;
    $(id).textContent = line ? line.text : "";
    $(id).classList.toggle("warning", !!(line && line.warn));
  }
}

let preflightShareProblem = false;
function loadOverview() {
  return api("/api/admin/overview").then((o) => {
    setAuth("in");
    const s = o.status;
    // Share links no phone can open (this machine's loopback): the booth shows guests no code.
    const reach = o.shareLinks;
    $("share-warning").hidden = !reach || reach.opensOnPhones || preflightShareProblem;
    $("share-warning").textContent = reach && !reach.opensOnPhones ? "Guests' phones cannot open the share links (" + reach.example + ": this machine's own loopback address), " +
      "so the booth shows no QR code and asks guests to see the staff. Set share.base_url to an address phones reach " +
      "(docs/kiosk.md; the booth's own Wi-Fi: docs/venue.md)." : "";
    // A guest deleted a post from their phone: the gallery (and "Last posted") forget it.
    if (guestDeletionsSeen !== null && o.guestDeletions !== guestDeletionsSeen) loadGallery(true);
    guestDeletionsSeen = o.guestDeletions;
    $("booth-camera").textContent = s.camera.device + (s.camera.present ? "" : " (missing)");
    $("booth-mic").textContent = s.sound.muted ? "off (audio.device = none)" : (s.sound.source || "none: this camera has no microphone of its own");
    const t = s.trigger;
    $("booth-button").textContent = !t ? "none (kiosk.trigger)" :
      t.state + (t.name ? ": " + t.name : "") + (t.device ? " (" + t.device + ")" : "") + " · " + t.presses + " presses" +
      (t.message ? " · " + t.message : "") + (t.state === "waiting" ? " · looking for " + t.setting : "");
    document.body.dataset.button = t ? t.state : "none";
    const effects = s.booth.effects || [];
    $("booth-effects").textContent = effects.length ? effects.join(", ") + " (kiosk.effects) · now: " + s.booth.effect
      : "no choice: every shot is " + s.booth.effect + " (shoot.effect)";
    $("booth-store").textContent = o.store;
    // A count, never which: the guest's delete is theirs.
    $("guest-deletions").textContent = o.guestDeletions + " since the kiosk started (with their share link)";
    showRetention(o.retentionOn, o.retention);
    const list = $("outbox-list");
    list.textContent = "";
    for (const q of o.outbox) {
      item(list, q.id + (q.uploading ? " (uploading)" : "") + " · " + mb(q.bytes) + " · “" + q.caption + "”\nto " + q.destination +
        "\nas " + q.videoURL + "\nqueued " + when(q.queuedAt) + (q.attempts ? " · " + q.attempts + " attempts" : "") +
        (q.lastError ? "\nlast error: " + q.lastError : ""), q.lastError ? "warning" : "");
    }
    for (const dir of o.unreadable) item(list, "unreadable outbox entry " + dir + ": see `recorder outbox list`", "error");
    if (!list.children.length) item(list, "Nothing queued.", "none");
    showMail(o.mail);
    const problems = $("problems");
    problems.textContent = "";
    for (const p of o.problems) item(problems, when(p.at) + " " + p.level + ": " + p.message, p.level);
    if (!o.problems.length) item(problems, "None since the kiosk started.", "none");
    facts($("disk"), o.disk.map((d) => [d.what, d.path, d.freeBytes == null ? "?" : mb(d.freeBytes) + " free"]));
    document.body.dataset.overview = String(Date.now());
  }).catch((e) => {
    // A browser logged in as the booth's screen: this page is the operator's.
    if (e.status === 403) setAuth("out", "This browser is logged in as the booth's screen. This page is the operator's: log in with the operator's token.");
    else if (e.status !== 401) $("problems").textContent = "The overview cannot be read: " + e.message;
  });
}
setInterval(loadOverview, 10000);

// The highlight reel: made by the kiosk in the background (its step read every second until it
// is done), then played here and downloaded from /api/admin/reel.mp4.
let reelTimer = null, shownReel = null;
function showReel(r) {
  document.body.dataset.reel = r.state;
  const text = $("reel-status"), latest = r.latest;
  const made = latest ? "Reel ready" + (latest.posts == null ? "" : ": " + latest.posts + " post(s), " + (Math.round(latest.seconds * 10) / 10) + " s") + "." : "";
  if (r.state === "making") text.textContent = "Making the reel… " + (r.step || "");
  else if (r.state === "failed") text.textContent = "The reel was not made: " + r.error + (latest ? " The last one is still here." : "");
  else if (r.state === "done") {
    text.textContent = made + (r.skipped ? " Left out: " + Object.entries(r.skipped).map(([id, why]) => id + " (" + why + ")").join("; ") : "");
  } else text.textContent = latest ? made : "No reel yet.";
  $("reel-make").disabled = r.state === "making";
  $("reel-video").classList.toggle("off", !latest);
  $("reel-download").classList.toggle("off", !latest);
  // (a new reel under the same address: the query makes the browser fetch it again)
  if (latest && shownReel !== (latest.madeAt || "")) {
    shownReel = latest.madeAt || "";
    $("reel-video").src = "/api/admin/reel.mp4?made=" + encodeURIComponent(shownReel);
  }
  clearTimeout(reelTimer);
  if (r.state === "making") reelTimer = setTimeout(loadReel, 1000);
  // "Posts from": the day of the event's first post in this browser's time zone, until the
  // operator picks one (today's date found nothing after midnight).
  if (r.firstPostAt && !$("reel-since").dataset.chosen) $("reel-since").value = localDay(r.firstPostAt);
}
function loadReel() { return api("/api/admin/reel").then(showReel).catch(() => {}); }
$("reel-since").oninput = () => { $("reel-since").dataset.chosen = "1"; };
// The reel starts at the chosen day's midnight here, sent as a time (the kiosk reads a bare day as
// UTC's); with no day, at the first post.
$("reel-make").onclick = () => postJSON("/api/admin/reel", { since: startOfDay($("reel-since").value), prompt: $("reel-prompt").value })
  .then((r) => { banner(""); showReel(r); })
  .catch((e) => banner("The reel cannot be made: " + e.message, true));

// The preflight (recorder doctor's checks, run inside the kiosk: its camera through its preview,
// its microphone through its meter): errors and warnings listed first, each with what to do; the
// rest folded under one line. Run when the page opens and by "Check again" (a run takes a few
// seconds: the microphone listens for 3).
let preflightBusy = false;
function preflightItem(c) {
  const li = document.createElement("li");
  li.className = c.status;
  li.dataset.check = c.id;
  for (const [name, text] of [["badge", c.status], ["title", c.title], ["what", c.what]]) {
    const span = document.createElement("span");
    span.className = name;
    span.textContent = text;
    li.appendChild(span);
  }
  if (c.fix && (c.status === "error" || c.status === "warning")) {
    const fix = document.createElement("span");
    fix.className = "fix";
    fix.textContent = c.fix;
    li.appendChild(fix);
  }
  return li;
}
function showPreflight(r) {
  const box = $("preflight");
  box.dataset.verdict = r.ready ? "ready" : "not-ready";
  $("preflight-verdict").textContent = (r.ready ? "Ready for the event" : "Not ready: " + r.errors + " error" + (r.errors === 1 ? "" : "s")) +
    (r.warnings ? (r.ready ? " (" : ", ") + r.warnings + " warning" + (r.warnings === 1 ? "" : "s") + (r.ready ? " to look at)" : "") : "");
  const list = $("preflight-list"), fine = $("preflight-ok");
  list.textContent = ""; fine.textContent = "";
  const rest = [];
  for (const c of r.checks) {
    if (c.status === "error" || c.status === "warning") list.appendChild(preflightItem(c));
    else { fine.appendChild(preflightItem(c)); rest.push(c.title); }
  }
  $("preflight-fine").hidden = rest.length === 0;
  $("preflight-fine-summary").textContent = "ok or not checked: " + rest.join(", ");
  // The line the page opens with: each problem by name ("share links", "camera"), as bad as it is.
  const names = $("preflight-names");
  names.textContent = "";
  for (const li of list.children) {
    const span = document.createElement("span");
    span.className = li.className;
    span.textContent = li.querySelector(".title").textContent;
    names.appendChild(span);
  }
  $("preflight-open").hidden = r.checks.length === 0;
  preflightShareProblem = r.checks.some((c) => c.id === "share-links" && (c.status === "error" || c.status === "warning"));
  if (preflightShareProblem) $("share-warning").hidden = true;
  box.dataset.ran = String(Date.now());
}
$("preflight-open").onclick = () => {
  const body = $("preflight-body"), open = body.hidden;
  body.hidden = !open;
  $("preflight-open").setAttribute("aria-expanded", String(open));
  $("preflight-open").textContent = open ? "Fold" : "What to do";
};
function loadPreflight() {
  if (preflightBusy) return Promise.resolve();
  preflightBusy = true;
  $("preflight-run").disabled = true;
  $("preflight-verdict").textContent = "Checking… (the microphone listens for 3 s)";
  return api("/api/admin/preflight").then(showPreflight)
    .catch((e) => { $("preflight").dataset.verdict = "failed"; $("preflight-verdict").textContent = "The checks cannot be run: " + e.message; })
    .finally(() => { preflightBusy = false; $("preflight-run").disabled = false; });
}
$("preflight-run").onclick = loadPreflight;

const reconnect = followEvents(render, refreshStatus);
// What the browser tests reach into (a module's names are its own).
window.kioskPage = { postJSON, status: () => status, render };
loadGallery(true);
loadHidden();
loadReel();
loadPreflight();
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
