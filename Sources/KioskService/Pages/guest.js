// The booth's page (guest.html): the screens a guest goes through, drawn from the kiosk's status.
// The decisions are guest-logic.js's; this file is the page around them.
import { $, api as request, postJSON as send, followEvents, isStale } from "/assets/common.js";
import { soundWarning, wording, pressCounts, pressAction, countdownBeeps, guestStep, secondsLeft, cutPictures, joined, clearInsets,
         needsConsent, agreeCounts, newButtonPresses, postBody, shootBody, hintKey, shareScreen, effectKey, isLoop, CONSENT_READ_MS, CONSENT_WAIT_MS, MAIL_WAIT_MS } from "/assets/guest-logic.js";
import { shownDate } from "/assets/dates.js";
import { keyRows, keyLabel, press as pressKey, typedKey, looksLikeAddress } from "/assets/mail-keys.js";

// The guest's words in kiosk.language, put into the page by the kiosk as a JSON data block.
const T = JSON.parse($("strings").textContent);
const t = (key, n) => wording(T, key, n, document.documentElement.lang);
for (const el of document.querySelectorAll("[data-t]")) el.textContent = t(el.dataset.t);
for (const el of document.querySelectorAll("[data-t-label]")) el.setAttribute("aria-label", t(el.dataset.tLabel));
$("caption").placeholder = t("caption");
// kiosk.consent: the text a guest agrees to before anything is recorded (null when off), put into
// the page by the kiosk beside the strings.
const CONSENT = JSON.parse($("consent-data").textContent);
if (CONSENT) $("consent-text").textContent = CONSENT.text;
let consentShownAt = 0, agreeTimer = null, buttonSeen;
// mail.*: the thank-you offers "Send it to my email" (null when off): the opt-in words, whether the
// consent text asks to keep the address, the keyboard's domain keys.
const MAIL = JSON.parse($("mail-data").textContent);
// The post the thank-you is for (its guest may have it mailed), and the address being typed.
let postedID = null, mailText = "", mailShift = false;

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
  // Only the thank-you and its mail screen belong to the guest who posted.
  if (phase !== "done" && phase !== "mail") postedID = null;
  $("mail-open").hidden = !(MAIL && postedID && phase === "done");
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
  // (the booth's own list: the feed itself is the operator's)
  api("/api/attract").then((r) => {
    loopPosts = r.posts.map((p) => p.id);
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

// A refusal carries the key of the guest's sentence: "notReady" when this screen is not logged in.
function refused(error) {
  error.key = error.status === 401 ? "notReady" : ((error.body && error.body.guestKey) || "tryAgain");
  throw error;
}
const api = (path, options) => request(path, options).catch(refused);
const postJSON = (path, object) => send(path, object).catch(refused);

function render(s) {
  if (isStale(status, s)) return;
  // The kiosk started again (the operator page's restart takes saved settings, between guests):
  // this page's words, consent text and mail offer are the old run's, so it loads again.
  if (status && s.run && status.run && s.run !== status.run) { location.reload(); return; }
  status = s;
  // The booth's button, pressed while no yes holds: the kiosk started nothing and hands the press
  // to the page, which asks (or, on the consent screen, takes it as the yes).
  const presses = newButtonPresses(buttonSeen, s);
  buttonSeen = presses.seen;
  if (presses.fresh > 0) press();
  const shot = s.currentShot;
  // What was there when the page opened is not this guest's: never reviewed, never played.
  if (knownShot === undefined) knownShot = shot ? shot.id : null;
  $("invite").textContent = t("invite", Math.round(s.shotSeconds));
  showEffects(s.booth);
  $("hint").textContent = t(hintKey(s));
  // kiosk.prompts: the question a shot started now would answer (the kiosk's, so the button and the
  // screen agree), kept through the countdown and the recording.
  $("prompt").textContent = s.prompt ? s.prompt.text : "";
  $("prompt").hidden = !s.prompt;
  const phase = document.body.dataset.phase;
  $("notice").textContent = s.disk.low ? t("lowSpace") : "";
  $("notice").style.display = s.disk.low && phase === "attract" ? "block" : "none";
  const step = guestStep(s, { phase, knownShot, shownFailure, sharing, messageShowing: !!phaseTimer });
  switch (step.kind) {
    case "countdown": {
      const shown = $("count").textContent;
      $("count").textContent = step.count;
      // (setPhase beeps for the first number; each later one beeps here)
      if (countdownBeeps(phase, shown, step.count)) beep(660);
      setPhase("countdown");
      return;
    }
    case "recording":
      document.querySelector("#ring .done").setAttribute("stroke-dashoffset", String(step.progress.dashOffset));
      $("left").textContent = String(step.progress.left);
      $("left-label").textContent = t("secondsLeft", step.progress.left);
      setPhase("recording");
      return;
    case "saving": setPhase("saving"); return;
    case "away":
      // Out of service: "back in a moment" until the kiosk says it is back (no recording offered,
      // presses do nothing), then the start screen by itself.
      setPhase("away");
      return;
    case "failed":
      // The last shot failed: said once, then the booth invites the next try.
      shownFailure = step.failure;
      problem(step.key);
      return;
    case "none": return;
  }
  if (step.share) showShare(sharing);
  knownShot = step.knownShot;
  if (step.review) review(step.review);
  else if (step.then === "problem") problem(step.key);
  else if (step.then === "attract") setPhase("attract");
}

// kiosk.effects: the start screen's choice, each in the page's language; the kiosk keeps the choice,
// so the booth's button records with it too. A new guest starts from the first one.
function showEffects(booth) {
  const box = $("effects");
  const names = booth.effects || [];
  box.hidden = names.length < 2;
  if (box.dataset.names !== names.join()) {
    box.dataset.names = names.join();
    box.replaceChildren(...names.map((name) => {
      const b = document.createElement("button");
      b.type = "button"; b.setAttribute("role", "radio"); b.dataset.effect = name;
      b.textContent = t(effectKey(name));
      b.onclick = (e) => { e.stopPropagation(); chooseEffect(name); };
      return b;
    }));
  }
  for (const b of box.children) b.setAttribute("aria-checked", String(b.dataset.effect === booth.effect));
  document.body.dataset.effect = booth.effect;
}
function chooseEffect(name) {
  postJSON("/api/effect", { effect: name }).then(render).catch((e) => problem(e.key));
}
// The next guest chooses afresh.
function forgetEffect() {
  if (status && (status.booth.effects || []).length > 1) postJSON("/api/effect", { effect: null }).then(render).catch(() => {});
}

// The post's QR code and link, as soon as the kiosk gives one (a share page it serves: at once, from
// its outbox; a link to the video itself: once the post is in the store), and 30 s to scan. With the
// booth's own Wi-Fi (kiosk.wifi_ssid), its code comes first: 1. join, 2. open; and a minute. A link
// no phone can open (this machine's loopback) gets no code: the guest is sent to the staff.
function showShare(id) {
  sharing = null;
  api("/api/posts/" + encodeURIComponent(id) + "/share").then((r) => {
    if (document.body.dataset.phase !== "done") return;
    const wifi = status && status.booth.wifi;
    const shown = shareScreen(r, wifi);
    $("share").classList.toggle("two", shown.wifi);
    $("wifi-step").hidden = !shown.wifi;
    $("video-step").hidden = !shown.code;
    $("ask-staff").hidden = !shown.askStaff;
    $("video-title").hidden = !shown.wifi;
    $("scan-hint").hidden = shown.wifi;
    document.body.dataset.shareShown = shown.code ? "code" : "ask-staff";
    if (shown.wifi) {
      $("wifi-qr").src = "/api/wifi/qr.svg";
      $("wifi-name").textContent = t("wifiName", wifi.name);
      $("wifi-password").textContent = wifi.password ? t("wifiPassword", wifi.password) : t("wifiOpen");
      $("wifi-password").toggleAttribute("data-password", !!wifi.password);
    }
    if (shown.code) {
      $("qr").src = "/api/posts/" + encodeURIComponent(id) + "/qr.svg";
      $("share-link").textContent = r.shareURL;
      $("share-until").textContent = r.shareExpiresAt ? t("linkUntil", shownDate(r.shareExpiresAt, document.documentElement.lang)) : "";
    } else {
      $("qr").removeAttribute("src");
      $("share-link").textContent = "";
      $("share-until").textContent = "";
    }
    $("share").hidden = false;
    document.body.dataset.shared = id;
    clearTimeout(phaseTimer);
    phaseTimer = setTimeout(() => { phaseTimer = null; setPhase("attract"); }, shown.wifi ? 60000 : shown.code ? 30000 : 10000);
  }).catch(() => {
    // No link yet (it waits for the upload): the upload's status event asks again.
    if (document.body.dataset.phase === "done" && !(status && status.outbox.lastUploaded === id)) sharing = id;
  });
}

function review(shot) {
  setPhase("review");
  reviewShot = shot.id;
  // The silent-take guard: a take nobody can hear is said now, while a retake is one tap away.
  const warning = soundWarning(shot);
  $("sound-warning").hidden = !warning;
  $("sound-warning").textContent = warning ? t(warning) : "";
  touchReview();
  const v = $("clip");
  v.src = shot.videoURL;
  v.muted = false;
  // A boomerang is a loop: it goes on until the guest decides.
  v.loop = isLoop(shot);
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
  leftReview(id);
}
// The review of shot `id` is over without a Post or Delete: the clip is kept or discarded as
// kiosk.review_unposted says, and its guest's yes ends (the next one is asked again).
function leftReview(id) {
  forgetEffect();
  if (id && status.booth.reviewUnposted === "discard") postJSON("/api/shot/current/discard", { id }).catch(() => {});
  if (CONSENT) postJSON("/api/consent", { answer: "done" }).catch(() => {});
}
setInterval(() => {
  if (document.body.dataset.phase !== "review") return;
  const left = secondsLeft(reviewDeadline, Date.now());
  $("returning").textContent = t("returning", left);
  if (left <= 0) endReview();
}, 250);
for (const kind of ["pointerdown", "keydown", "input"]) {
  document.addEventListener(kind, () => { if (document.body.dataset.phase === "review") touchReview(); }, true);
}

// A press that records (kind "press"), or the review's Retake ("retake"), which names the shot
// under review: only that starts a shot under the yes its guest gave (the kiosk decides).
function record(kind) {
  if (kind !== "retake" && needsConsent(status)) return askConsent();
  const body = shootBody(kind, reviewShot);
  setPhase("countdown");
  $("count").textContent = "";
  // (a yes that lapsed meanwhile: the kiosk refuses, and the guest is asked again)
  postJSON("/api/shoot", body).then(render).catch((e) => (e.key === "consentFirst" ? askConsent() : problem(e.key)));
}

// kiosk.consent: the text, No and I agree. I agree takes a moment to become active (the tap that
// opened the screen is never a yes); no answer for a minute and the start screen comes back.
function askConsent() {
  if (!CONSENT) return problem("consentFirst");
  // A press during a review may be the next person's: the review ends, and they are asked.
  if (document.body.dataset.phase === "review") leftReview(reviewShot);
  setPhase("consent");
  consentShownAt = Date.now();
  $("consent-text").scrollTop = 0;
  $("agree-hint").hidden = !(status && (status.trigger || status.booth.triggerKey));
  $("agree").disabled = true;
  clearTimeout(agreeTimer);
  agreeTimer = setTimeout(() => { $("agree").disabled = false; }, CONSENT_READ_MS);
  phaseTimer = setTimeout(() => { phaseTimer = null; setPhase("attract"); }, CONSENT_WAIT_MS);
}
function agree() {
  if (document.body.dataset.phase !== "consent" || !agreeCounts(consentShownAt, Date.now())) return;
  postJSON("/api/consent", { answer: "yes", textSha256: CONSENT.sha256 }).then((s) => {
    render(s);
    document.body.dataset.consented = String(+(document.body.dataset.consented || 0) + 1);
    setPhase("countdown");
    $("count").textContent = "";
    return postJSON("/api/shoot", {}).then(render);
  }).catch((e) => {
    // The operator changed the text: the page shows the new one.
    if (e.key === "consentChanged") { problem(e.key); setTimeout(() => location.reload(), 4000); } else problem(e.key);
  });
}
function decline() {
  postJSON("/api/consent", { answer: "no" }).catch(() => {});
  setPhase("attract");
}
function stop() { postJSON("/api/stop", {}).catch((e) => problem(e.key)); }
// One press, however it comes (touch, Space, Enter, the booth's button): what it means depends on
// where the guest is. Held keys repeat and buttons chatter: one press per 400 ms.
function press() {
  const now = Date.now();
  if (!pressCounts(lastPress, now)) return;
  lastPress = now;
  const action = pressAction(document.body.dataset.phase);
  if (action === "stop") stop();
  else if (action === "record") record("press");
  else if (action === "agree") agree();
}
$("record").onclick = press;
$("stop").onclick = press;
$("retake").onclick = () => record("retake");
$("agree").onclick = agree;
$("decline").onclick = decline;
$("post").onclick = () => {
  const id = reviewShot, caption = $("caption").value;
  $("post").disabled = true;
  postJSON("/api/post", postBody(id, caption)).then((queued) => {
    $("done-title").textContent = t("thanks");
    $("done-detail").textContent = caption ? "“" + caption + "”" : t("thanksDetail");
    document.body.dataset.posted = id;
    postedID = queued.id;
    forgetEffect();
    showFor("done", 8);
    showShare(queued.id);
  }).catch((e) => problem(e.key)).finally(() => { $("post").disabled = false; });
};
$("delete").onclick = () => {
  const id = reviewShot;
  postJSON("/api/shot/current/discard", { id }).then(() => {
    forgetEffect();
    $("done-title").textContent = t("deleted");
    $("done-detail").textContent = "";
    showFor("done", 4);
  }).catch((e) => problem(e.key));
};
document.addEventListener("keydown", (e) => {
  // The mail screen: a real keyboard types too (Backspace deletes); nothing there records or sends.
  if (document.body.dataset.phase === "mail") {
    e.preventDefault();
    if (e.key === "Backspace") typeOnMail("backspace");
    else if (typedKey(e.key)) typeOnMail(e.key);
    return;
  }
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

// "Send it to my email": the address typed on the booth's own keyboard (a kiosk-mode browser shows
// none), the opt-in words above it, Send once it looks like an address (the kiosk checks it in
// full). The screen goes back to the start after MAIL_WAIT_MS without a key.
function mailIdle() {
  clearTimeout(phaseTimer);
  phaseTimer = setTimeout(() => { phaseTimer = null; setPhase("attract"); }, MAIL_WAIT_MS);
}
function showMail() {
  $("mail-address").textContent = mailText;
  $("mail-send").disabled = !looksLikeAddress(mailText);
  for (const key of document.querySelectorAll("#keyboard .key")) {
    key.textContent = keyLabel(key.dataset.key, mailShift);
    if (key.dataset.key === "shift") key.setAttribute("aria-pressed", String(mailShift));
  }
}
function openMail() {
  if (!postedID) return;
  setPhase("mail");
  mailText = ""; mailShift = false;
  $("mail-problem").hidden = true;
  showMail();
  mailIdle();
}
function typeOnMail(key) {
  ({ text: mailText, shift: mailShift } = pressKey(mailText, key, mailShift));
  $("mail-problem").hidden = true;
  showMail();
  mailIdle();
}
function sendMail() {
  if (!looksLikeAddress(mailText) || !postedID) return;
  const id = postedID;
  $("mail-send").disabled = true;
  postJSON("/api/mail", { id, address: mailText }).then(() => {
    mailText = "";
    document.body.dataset.mailed = id;
    $("done-title").textContent = t("thanks");
    $("done-detail").textContent = t("mailQueued");
    postedID = null;
    showFor("done", 8);
  }).catch((e) => {
    if (e.key === "mailInvalid" || e.key === "mailTooMany") {
      $("mail-problem").textContent = t(e.key);
      $("mail-problem").hidden = false;
      $("mail-send").disabled = !looksLikeAddress(mailText);
    } else problem(e.key);
  });
}
function cancelMail() {
  const id = postedID;
  mailText = "";
  showFor("done", 30);
  showShare(id);
}
if (MAIL) {
  $("mail-opt-in").textContent = MAIL.optIn;
  $("keyboard").setAttribute("aria-label", t("mailTitle"));
  for (const row of keyRows(MAIL.domains)) {
    const line = document.createElement("div");
    line.className = "key-row";
    for (const key of row) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = key.length > 1 && key !== "shift" && key !== "backspace" ? "key word" : "key";
      button.dataset.key = key;
      if (key === "shift") button.setAttribute("aria-label", t("mailShift"));
      if (key === "backspace") button.setAttribute("aria-label", t("mailBackspace"));
      button.onclick = () => typeOnMail(key);
      line.append(button);
    }
    $("keyboard").append(line);
  }
  showMail();
}
$("mail-open").onclick = openMail;
$("mail-send").onclick = sendMail;
$("mail-cancel").onclick = cancelMail;

// The live mirror: /api/preview.mjpeg read as a stream (multipart, one JPEG per camera picture)
// and painted on a canvas as each arrives; a picture that comes while the last is still being
// decoded is skipped, so the mirror never lags behind. Counts for the tests: data-frames (painted)
// and data-latency (ms from the camera's picture to the paint).
let liveReader = null, liveOpening = false, decoding = false, painted = 0;
async function liveStream() {
  const phase = document.body.dataset.phase;
  if (liveReader || liveOpening || document.hidden || phase === "review" || phase === "away" || document.body.dataset.loop === "on" || !status || !status.camera.present) return;
  // One stream at a time: a second call while this one is still being opened returns above.
  liveOpening = true;
  const opened = fetch("/api/preview.mjpeg", { credentials: "same-origin", cache: "no-store" });
  try {
    const response = await opened;
    if (!response.ok || !response.body) return;
    const reader = response.body.getReader();
    liveReader = reader;
    liveOpening = false;
    let buffer = new Uint8Array(0);
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      const cut = cutPictures(joined(buffer, value));
      buffer = cut.rest;
      for (const picture of cut.pictures) paint(picture.jpeg, picture.ageMs, performance.now(), picture.mirrored, picture.clear);
    }
  } catch (_) {
    // (the stream ended or was cancelled: liveStream opens it again when it is wanted)
  } finally {
    liveOpening = false;
    liveReader = null;
  }
}
function paint(jpeg, age, received, mirrored, clear) {
  if (decoding) return;
  decoding = true;
  createImageBitmap(new Blob([jpeg], { type: "image/jpeg" })).then((bitmap) => {
    const canvas = $("live");
    // (mirrored by the kiosk under a branding frame: the page leaves it as it is, guest.css)
    canvas.toggleAttribute("data-mirrored", !!mirrored);
    if (canvas.width !== bitmap.width || canvas.height !== bitmap.height) {
      canvas.width = bitmap.width; canvas.height = bitmap.height;
      notePictureBottom();
    }
    if (JSON.stringify(clear) !== JSON.stringify(frameClear)) { frameClear = clear; noteFrameClear(); }
    canvas.getContext("2d").drawImage(bitmap, 0, 0);
    bitmap.close();
    painted++;
    document.body.dataset.frames = String(painted);
    document.body.dataset.latency = String(Math.round(age + performance.now() - received));
  }).catch(() => {}).finally(() => { decoding = false; });
}
// Where the live picture ends on screen (upright, the question card goes just below it and the
// countdown over it: guest.css's --picture-bottom): at the start, when the camera's pictures change
// shape, and when the screen turns. (Hidden, as in the review, it keeps the last.)
function notePictureBottom() {
  const bottom = Math.round($("live").getBoundingClientRect().bottom);
  if (bottom > 0) document.body.style.setProperty("--picture-bottom", bottom + "px");
}
window.addEventListener("resize", notePictureBottom);
notePictureBottom();
// Where the branding frame leaves the picture clear, on screen (guest.css keeps the words and
// buttons there, never over the frame's text): kept through the review, whose clip has the frame
// where the mirror had it. data-frame tells the tests.
let frameClear = null;
function noteFrameClear() {
  const canvas = $("live"), box = canvas.getBoundingClientRect();
  // (hidden, in the review: the insets stay as the mirror last had them)
  if (!box.width) return;
  const insets = clearInsets(frameClear, box, canvas.width, canvas.height, window.innerWidth, window.innerHeight);
  for (const edge of ["top", "bottom", "left", "right"]) document.body.style.setProperty("--clear-" + edge, insets[edge] + "px");
  document.body.dataset.frame = frameClear ? "on" : "";
}
window.addEventListener("resize", noteFrameClear);

const refreshStatus = () => api("/api/status").then(render).catch((e) => {
  $("problem-text").textContent = t(e.key === "notReady" ? "notReady" : "notAnswering");
  // A screen that is not logged in: the staff log it in once (/login, with the booth's token).
  $("login-link").hidden = e.key !== "notReady";
  setPhase("problem");
});

followEvents(render, refreshStatus);
// What the browser tests reach into (a module's names are its own).
window.kioskPage = { postJSON, status: () => status, render };
setInterval(() => { if (status && ["recording", "countdown", "starting", "finishing"].includes(status.state)) refreshStatus(); }, 250);
setInterval(refreshStatus, 5000);
// (the stream ends when the camera gave nothing for 2 s, or the kiosk restarted: open it again)
setInterval(liveStream, 1000);
