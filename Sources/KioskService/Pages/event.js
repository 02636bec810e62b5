// The operator page's Event section (operator.html): the event's settings typed in here instead
// of files, saved as the operator's own settings (PUT /api/admin/settings, all or nothing, judged
// as `recorder config check` judges them), the branding frame seen over the camera before it is
// saved, a test mail, and the restart that takes what was saved (between guests); below, every
// other setting read-only with where its value comes from.
import { $, api, postJSON } from "/assets/common.js";
import { originText, changesOf, findingsByKey, shareText, restartText } from "/assets/event-logic.js";

// The section's fields by key: the element that holds each plain value (the others are drawn by hand).
const PLAIN = {
  "event.name": "event-name", "kiosk.seconds": "event-seconds", "kiosk.countdown_seconds": "event-countdown",
  "kiosk.effects": "event-effects",
  "kiosk.language": "event-language", "share.base_url": "event-share", "kiosk.wifi_ssid": "event-wifi-name",
  "kiosk.wifi_security": "event-wifi-security", "kiosk.wifi_password": "event-wifi-password", "mail.smtp_url": "event-smtp",
  "mail.from": "event-from", "retention.days": "event-retention",
};
const KEYS = Object.keys(PLAIN).concat(["kiosk.prompts", "kiosk.consent", "shoot.overlay", "mail.insecure", "mail.credentials_file"]);

let entries = {}, pending = [], restart = null;
// The frame: undefined while unchanged, "" removed, else an upload's id.
let frameUpload, frozen = false, stillBusy = false, stillAgain = false, checkTimer = null, following = null;

const entry = (key) => entries[key] || {};
const box = (key) => document.querySelector('.field[data-key="' + key + '"]');
const yes = (value) => ["true", "yes", "1", "on"].includes(String(value).toLowerCase());

function current(key) {
  switch (key) {
    case "kiosk.prompts": return $("event-prompts").value;
    case "kiosk.consent": return $("event-consent-on").checked ? $("event-consent").value : "";
    case "shoot.overlay": return frameUpload;
    case "mail.insecure": return $("event-insecure").checked ? "true" : "false";
    case "mail.credentials_file": {
      const user = $("event-mail-user").value.trim(), password = $("event-mail-password").value;
      return user || password ? { user, password } : undefined;
    }
    default: return $(PLAIN[key]).value.trim();
  }
}

function initial(key) {
  const e = entry(key);
  if (e.edit === "text") return e.text || "";
  if (key === "mail.insecure") return yes(e.value) ? "true" : "false";
  return e.value == null ? "" : e.value;
}

/** What the organiser changed, as PUT /api/admin/settings takes it. */
function changes(only) {
  const keys = KEYS.filter((k) => entry(k).editable && (!only || only(k)));
  return changesOf(keys.map((key) => ({ key, edit: entry(key).edit, initial: initial(key), current: current(key) })));
}

function fillChoices(select, choices, value) {
  select.textContent = "";
  for (const choice of choices) select.add(new Option(choice === "en" ? "English" : choice === "de" ? "Deutsch" : choice, choice));
  select.value = value;
}

function fill(key) {
  const e = entry(key), field = box(key);
  if (!field) return;
  switch (key) {
    case "kiosk.prompts": $("event-prompts").value = e.text || ""; break;
    case "kiosk.consent":
      $("event-consent-on").checked = !!e.value && e.value !== "off";
      $("event-consent").value = e.text || "";
      break;
    case "shoot.overlay": break;
    case "mail.insecure": $("event-insecure").checked = yes(e.value); break;
    case "mail.credentials_file":
      $("event-mail-user").value = ""; $("event-mail-password").value = "";
      $("event-mail-user").placeholder = e.set ? "set: type to change" : "none";
      $("event-mail-password").placeholder = e.set ? "set: type to change" : "";
      break;
    case "kiosk.wifi_password":
      $("event-wifi-password").value = "";
      $("event-wifi-password").placeholder = e.set ? "set: type a new one to change it" : "8 to 63 characters";
      break;
    default:
      if (e.choices) fillChoices($(PLAIN[key]), e.choices, e.value);
      $(PLAIN[key]).value = e.value == null ? "" : e.value;
  }
  for (const input of field.querySelectorAll("input, textarea, select, button")) input.disabled = !e.editable;
  field.classList.toggle("pinned", !e.editable);
  let origin = field.querySelector(".origin");
  if (!origin) { origin = document.createElement("span"); origin.className = "origin"; field.appendChild(origin); }
  origin.textContent = originText(e.origin) + (e.pending ? " · the booth uses it after its restart" : "") +
    (e.editable ? "" : ": change it there");
}

// The kiosk's findings under the fields they concern (the validator's words), the rest above the form.
function showFindings(findings, unsaved) {
  for (const old of document.querySelectorAll("#event-form .problem")) old.remove();
  const byKey = findingsByKey(findings, KEYS);
  for (const [key, words] of Object.entries(byKey)) {
    if (!key) continue;
    const p = document.createElement("p");
    p.className = "problem";
    p.textContent = words.join(" ");
    box(key).appendChild(p);
  }
  const general = (byKey[""] || []).join(" ");
  $("event-problems").hidden = !general && !unsaved;
  $("event-problems").textContent = unsaved ? "Not saved: " + (general || "see the fields marked below.") : general;
  document.body.dataset.eventFindings = String((findings || []).length);
}

function showRestart() {
  $("event-state").textContent = restartText(restart, pending);
  $("event-restart").hidden = !pending.length || (restart && restart.requested);
  document.body.dataset.restart = restart && restart.stopping ? "stopping" : restart && restart.requested ? "requested" : pending.length ? "needed" : "none";
}

function showTable(doc) {
  const body = $("settings-table").tBodies[0];
  body.textContent = "";
  for (const e of doc.settings) {
    if (e.edit) continue;
    const row = body.insertRow();
    row.dataset.key = e.key;
    const value = e.secret ? (e.set ? "set (never shown)" : "not set") : e.value == null ? "not set" : e.value === "" ? "empty" : e.value;
    for (const [text, className] of [[e.key, "key"], [value, "value"], [originText(e.origin), "from"]]) {
      const cell = row.insertCell();
      cell.className = className;
      if (className !== "value") { cell.textContent = text; continue; }
      // A path or a list breaks after its / | or , (never in the middle of a name).
      text.split(/(?<=[/|,])/).forEach((part, i) => {
        if (i) cell.appendChild(document.createElement("wbr"));
        cell.appendChild(document.createTextNode(part));
      });
    }
  }
  $("settings-file").textContent = doc.file || "no configuration file";
}

function show(doc) {
  entries = Object.fromEntries(doc.settings.map((e) => [e.key, e]));
  pending = doc.pending || [];
  restart = doc.restart;
  for (const key of KEYS) fill(key);
  $("event-consent").disabled = !entry("kiosk.consent").editable || !$("event-consent-on").checked;
  frameUpload = undefined;
  showFrame();
  showFindings(doc.findings, false);
  $("event-share-reach").textContent = shareText(doc.shareLinks);
  showRestart();
  showTable(doc);
  $("event-save").disabled = true;
  document.body.dataset.event = "loaded";
}

function load() {
  return api("/api/admin/settings").then(show).catch((e) => {
    if (e.status !== 401 && e.status !== 403) $("event-state").textContent = "The settings cannot be read: " + e.message;
  });
}

// A change typed: Save is offered, and the kiosk judges it (as a save would) a moment later.
function changed() {
  const asked = changes();
  $("event-save").disabled = Object.keys(asked).length === 0;
  clearTimeout(checkTimer);
  if (!Object.keys(asked).length) return;
  checkTimer = setTimeout(() => {
    postJSON("/api/admin/settings/check", { changes: asked }).then((r) => {
      showFindings(r.findings, false);
      $("event-share-reach").textContent = shareText(r.shareLinks);
    }).catch((e) => { if (e.body && e.body.findings) showFindings(e.body.findings, false); });
  }, 700);
}

$("event-form").addEventListener("input", changed);
$("event-form").addEventListener("change", changed);
$("event-form").addEventListener("submit", (e) => e.preventDefault());
$("event-consent-on").addEventListener("change", () => { $("event-consent").disabled = !$("event-consent-on").checked; });

$("event-save").onclick = () => {
  $("event-save").disabled = true;
  $("event-state").textContent = "Saving…";
  api("/api/admin/settings", { method: "PUT", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ changes: changes() }) })
    .then((saved) => { document.body.dataset.saved = saved.saved.join(","); return load(); })
    .catch((e) => {
      $("event-save").disabled = false;
      if (e.body && e.body.findings) { showFindings(e.body.findings, true); $("event-state").textContent = ""; } else $("event-state").textContent = "Not saved: " + e.message;
    });
};

// The restart: asked for, then followed until the kiosk answers again with nothing waiting.
$("event-restart").onclick = () => {
  postJSON("/api/admin/restart", {}).then((r) => { restart = r; showRestart(); follow(); })
    .catch((e) => { $("event-state").textContent = "The booth cannot restart: " + e.message; });
};
function follow() {
  clearInterval(following);
  following = setInterval(() => {
    api("/api/admin/settings").then((doc) => {
      if (doc.restart.requested) { restart = doc.restart; showRestart(); return; }
      clearInterval(following);
      show(doc);
      $("event-state").textContent = doc.pending.length ? restartText(doc.restart, doc.pending) : "The booth runs with the saved settings.";
      document.body.dataset.restart = "done";
    }).catch(() => { $("event-state").textContent = restartText({ requested: true, stopping: true }, pending); });
  }, 1500);
}

// The branding frame: a PNG uploaded is kept (not saved) and shown over the camera, live or held.
function frameParam() { return frameUpload === undefined ? "saved" : frameUpload === "" ? "none" : frameUpload; }
function showFrame() {
  const framed = frameUpload === undefined ? !!entry("shoot.overlay").value : frameUpload !== "";
  $("frame-none").hidden = framed;
  $("frame-remove").disabled = !framed || !entry("shoot.overlay").editable;
  document.body.dataset.frame = frameParam();
  refreshStill(true);
}
// A still asked for while one is on its way follows it: the one on its way has the frame it was
// asked with, which an upload or a removal meanwhile made the old one (a slow camera is never done).
function refreshStill(force) {
  if ((frozen && !force) || document.hidden || document.body.dataset.auth === "out") return;
  if (stillBusy) { stillAgain = stillAgain || force; return; }
  stillBusy = true;
  const frame = frameParam();
  fetch("/api/admin/frame/still.jpg?frame=" + encodeURIComponent(frame) + "&t=" + Date.now(), { credentials: "same-origin" })
    .then((r) => r.ok ? r.blob() : null).then((blob) => {
      if (!blob) return;
      const img = $("frame-still"), old = img.src;
      img.src = URL.createObjectURL(blob);
      if (old.startsWith("blob:")) URL.revokeObjectURL(old);
      document.body.dataset.still = frame;
    }).catch(() => {}).finally(() => {
      stillBusy = false;
      if (stillAgain) { stillAgain = false; refreshStill(true); }
    });
}
$("frame-file").onchange = () => {
  const file = $("frame-file").files[0];
  $("frame-file").value = "";
  if (!file) return;
  api("/api/admin/frame", { method: "POST", headers: { "Content-Type": "image/png" }, body: file })
    .then((r) => { frameUpload = r.upload; showFrame(); changed(); })
    .catch((e) => showFindings([{ keys: ["shoot.overlay"], error: e.message }], false));
};
$("frame-remove").onclick = () => { frameUpload = ""; showFrame(); changed(); };
$("frame-freeze").onclick = () => {
  frozen = !frozen;
  $("frame-freeze").textContent = frozen ? "Back to the live camera" : "Hold a still";
  if (!frozen) refreshStill(true);
};
// Live while the section is on screen (twice a second, as the camera's own preview).
let frameOnScreen = false;
new IntersectionObserver((seen) => { frameOnScreen = seen.some((s) => s.isIntersecting); }).observe($("frame-still"));
setInterval(() => { if (frameOnScreen) refreshStill(false); }, 500);

// The test mail: with the mail settings as typed (not saved), and what the server said.
$("event-test-mail").onclick = () => {
  const to = $("event-test-to").value.trim();
  const result = $("event-test-result");
  result.className = "reach";
  result.textContent = "Sending…";
  $("event-test-mail").disabled = true;
  postJSON("/api/admin/mail/test", { to, changes: changes((k) => k.startsWith("mail.") || k === "event.name") }).then((r) => {
    result.className = "reach " + (r.sent ? "ok" : "bad");
    result.textContent = r.sent ? "Sent to " + r.to + ". The server said: " + r.reply.code + " " + r.reply.text
      : "Not sent: " + r.error + (r.reply ? " (The server said: " + r.reply.code + " " + r.reply.text + ")" : "");
    document.body.dataset.testMail = r.sent ? "sent" : "refused";
  }).catch((e) => {
    result.className = "reach bad";
    result.textContent = "Not sent: " + (e.body && e.body.findings ? e.body.findings.map((f) => f.error).join(" ") : e.message);
    document.body.dataset.testMail = "refused";
  }).finally(() => { $("event-test-mail").disabled = false; });
};

document.addEventListener("operator-login", load);
load();
