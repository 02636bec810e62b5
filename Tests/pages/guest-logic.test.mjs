// The booth page's decisions (Sources/KioskService/Pages/guest-logic.js) and the pages' shared
// module, with node's own test runner: node --test Tests/pages
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { hintKey, shareScreen, effectKey, isLoop, effectIsSilent, needsConsent, agreeCounts, newButtonPresses, postBody, shootBody, CONSENT_READ_MS, soundWarning, wording, pressCounts, pressAction, countdownBeeps, recordingProgress, secondsLeft, guestStep, cutPictures, joined, headEnd, clearInsets, PHASES, RING }
  from "../../Sources/KioskService/Pages/guest-logic.js";
import { isStale, tokenTravelsInClear, byteCount, personActive, notePerson } from "../../Sources/KioskService/Pages/common.js";

const idle = (more = {}) => Object.assign({ state: "idle", run: "r1", revision: 5, currentShot: null, outbox: { lastUploaded: null }, shotSeconds: 15 }, more);
const shot = (id, more = {}) => Object.assign({ id, videoURL: "/api/shot/current/video.mp4", postedAs: null }, more);
const page = (more = {}) => Object.assign({ phase: "attract", knownShot: null, shownFailure: null, sharing: null, messageShowing: false }, more);

test("words get their number", () => {
  assert.equal(wording({ left: "{n} s left" }, "left", 3), "3 s left");
  assert.equal(wording({}, "missing", 3), "");
});

test("a count's words take the form the count takes in the page's language", () => {
  const strings = { invite: { one: "talk for {n} second", other: "talk for {n} seconds" }, sprich: { one: "{n} Sekunde", other: "{n} Sekunden" } };
  assert.equal(wording(strings, "invite", 1, "en"), "talk for 1 second");
  assert.equal(wording(strings, "invite", 2, "en"), "talk for 2 seconds");
  assert.equal(wording(strings, "invite", 0, "en"), "talk for 0 seconds");
  assert.equal(wording(strings, "sprich", 1, "de"), "1 Sekunde");
  assert.equal(wording(strings, "sprich", 15, "de"), "15 Sekunden");
  // (a language with forms the table lacks falls back to the general one)
  assert.equal(wording(strings, "invite", 3, "pl"), "talk for 3 seconds");
});

// The page's real words (GuestStrings.json, kept by the Swift suite's EdgeWordsTests as a
// snapshot): each string with a number in it, at 1 and at 2. Its words for 1 are not its words for
// 2 with the 1 put in, unless the number is no count (a date, a name, a password) or a count with a
// unit's symbol ("{n} s"), which has one form.
test("every count in the guest's words has its own words for 1, in every language", () => {
  const pages = JSON.parse(readFileSync(new URL("../RecorderCLITests/Snapshots/guest-strings.json", import.meta.url)));
  const oneForm = new Set(["secondsLeft", "returning", "linkUntil", "galleryUntil", "wifiName", "wifiPassword", "shareTitleAtEvent"]);
  const same = [];
  assert.deepEqual(Object.keys(pages).sort(), ["de", "en"]);
  for (const [language, strings] of Object.entries(pages)) {
    for (const key of Object.keys(strings)) {
      if (!JSON.stringify(strings[key]).includes("{n}") || oneForm.has(key)) continue;
      if (wording(strings, key, 1, language) === wording(strings, key, 2, language).replace("2", "1")) same.push(`${language} ${key}`);
    }
  }
  assert.deepEqual(same, []);
  // (and the counts the check knows of have their forms: it looked at them)
  for (const language of ["en", "de"]) assert.equal(typeof pages[language].invite, "object", language);
});

test("a value is put in as it is: a Wi-Fi password's $ signs are not replacement patterns", () => {
  assert.equal(wording({ p: "Password: {n}" }, "p", "pa$$w0rd$&$'$`"), "Password: pa$$w0rd$&$'$`");
  assert.equal(wording({ p: "Wi-Fi: {n}" }, "p", "{n} booth"), "Wi-Fi: {n} booth");
});

test("a press means stop while counting down or recording, record where a guest can start, nothing while saving", () => {
  assert.equal(pressAction("countdown"), "stop");
  assert.equal(pressAction("recording"), "stop");
  for (const phase of ["attract", "problem", "done", "review"]) assert.equal(pressAction(phase), "record", phase);
  assert.equal(pressAction("saving"), null);
  assert.equal(pressAction("consent"), "agree");
  assert.equal(pressAction("away"), null, "out of service a press does nothing");
  // Typing an address: the booth's button neither records nor sends.
  assert.equal(pressAction("mail"), null);
  assert.deepEqual([...PHASES].sort(), ["attract", "away", "consent", "countdown", "done", "mail", "problem", "recording", "review", "saving"]);
});

test("a button's chatter within 400 ms is one press", () => {
  assert.equal(pressCounts(1000, 1399), false);
  assert.equal(pressCounts(1000, 1400), true);
  assert.equal(pressCounts(0, 5000), true);
});

test("each new countdown number beeps once, and only on the countdown screen", () => {
  assert.equal(countdownBeeps("countdown", "3", 2), true);
  assert.equal(countdownBeeps("countdown", "2", 2), false);
  assert.equal(countdownBeeps("attract", "", 3), false);
  assert.equal(countdownBeeps("countdown", "1", 0), false);
});

test("the ring fills with the recording and counts whole seconds down", () => {
  assert.deepEqual(recordingProgress({ elapsedSeconds: 0, totalSeconds: 15 }, 15), { fraction: 0, left: 15, dashOffset: RING });
  const half = recordingProgress({ elapsedSeconds: 7.5, totalSeconds: 15 }, 15);
  assert.equal(half.fraction, 0.5);
  assert.equal(half.left, 8);
  assert.ok(Math.abs(half.dashOffset - RING / 2) < 1e-9);
  // Past the end (a late status), and no progress yet: never beyond the ring, never negative.
  assert.deepEqual(recordingProgress({ elapsedSeconds: 16, totalSeconds: 15 }, 15), { fraction: 1, left: 0, dashOffset: 0 });
  assert.equal(recordingProgress(null, 15).left, 15);
  assert.equal(recordingProgress({ elapsedSeconds: 1, totalSeconds: 0 }, 0).fraction, 0);
});

test("the review's seconds left never go below 0", () => {
  assert.equal(secondsLeft(10500, 10000), 1);
  assert.equal(secondsLeft(10000, 12000), 0);
});

test("statuses from another run are never stale; an older revision of the same run is", () => {
  assert.equal(isStale(null, idle()), false);
  assert.equal(isStale(idle({ revision: 5 }), idle({ revision: 4 })), true);
  assert.equal(isStale(idle({ revision: 5 }), idle({ revision: 5 })), false);
  assert.equal(isStale(idle({ revision: 5 }), idle({ revision: 6 })), false);
  assert.equal(isStale(idle({ revision: 50 }), idle({ run: "r2", revision: 1 })), false);
});

test("a shot under way shows its screen", () => {
  assert.deepEqual(guestStep(idle({ state: "countdown", countdown: 3 }), page()), { kind: "countdown", count: 3 });
  assert.deepEqual(guestStep(idle({ state: "starting" }), page()), { kind: "countdown", count: "" });
  assert.equal(guestStep(idle({ state: "recording", progress: { elapsedSeconds: 3, totalSeconds: 15 } }), page()).kind, "recording");
  assert.deepEqual(guestStep(idle({ state: "finishing" }), page()), { kind: "saving" });
});

test("out of service the booth says it is back in a moment, and comes back by itself", () => {
  const away = { kind: "away" };
  assert.deepEqual(guestStep(idle({ state: "camera-missing" }), page()), away);
  const disk = idle({ service: { causes: [{ cause: "disk", freeBytes: 1, neededBytes: 2 }] } });
  assert.deepEqual(guestStep(disk, page()), away);
  assert.deepEqual(guestStep(disk, page({ phase: "problem" })), away);
  // A review or thank-you on screen (its mail screen too), or a shot under way, goes on.
  assert.notDeepEqual(guestStep(disk, page({ phase: "review" })), away);
  assert.notDeepEqual(guestStep(disk, page({ phase: "done" })), away);
  assert.notDeepEqual(guestStep(disk, page({ phase: "mail" })), away);
  assert.equal(guestStep({ ...disk, state: "recording", progress: { elapsedSeconds: 1, totalSeconds: 5 } }, page()).kind, "recording");
  // Back in service: the start screen, with no reload.
  assert.equal(guestStep(idle({ service: null }), page({ phase: "away" })).then, "attract");
  assert.equal(guestStep(idle({ service: { causes: [] } }), page({ phase: "away" })).then, "attract");
});

test("a failure is said once", () => {
  const failed = idle({ state: "failed", message: "disk full", guestKey: "storageFull" });
  assert.deepEqual(guestStep(failed, page()), { kind: "failed", key: "storageFull", failure: "disk full" });
  assert.deepEqual(guestStep(failed, page({ shownFailure: "disk full" })), { kind: "none" });
});

test("a new shot of this guest's is reviewed; one already posted, or there when the page opened, is not", () => {
  const fresh = guestStep(idle({ currentShot: shot("B") }), page({ phase: "saving", knownShot: "A" }));
  assert.equal(fresh.review.id, "B");
  assert.equal(fresh.knownShot, "B");
  const posted = guestStep(idle({ currentShot: shot("B", { postedAs: "P1" }) }), page({ knownShot: "A" }));
  assert.equal(posted.review, null);
  assert.equal(posted.knownShot, "B");
  // The page just opened (knownShot undefined): the shot there belongs to the last guest.
  const opened = guestStep(idle({ currentShot: shot("A") }), page({ knownShot: undefined }));
  assert.equal(opened.review, null);
  assert.equal(opened.knownShot, "A");
  // The same shot again: nothing to review twice.
  assert.equal(guestStep(idle({ currentShot: shot("B") }), page({ phase: "review", knownShot: "B" })).review, null);
});

test("a shot that ends with nothing to review says why, or goes back to attract", () => {
  const said = guestStep(idle({ guestKey: "tooShort" }), page({ phase: "recording" }));
  assert.deepEqual([said.then, said.key], ["problem", "tooShort"]);
  assert.equal(guestStep(idle(), page({ phase: "saving" })).then, "attract");
  // A message on screen for a while is left to its timer; one that stays (camera back) ends now.
  assert.equal(guestStep(idle(), page({ phase: "problem", messageShowing: true })).then, null);
  assert.equal(guestStep(idle(), page({ phase: "problem" })).then, "attract");
  assert.equal(guestStep(idle(), page({ phase: "attract" })).then, null);
});

test("the thank-you shows the share code once its post is in the store", () => {
  assert.equal(guestStep(idle({ outbox: { lastUploaded: "P1" } }), page({ phase: "done", sharing: "P1" })).share, true);
  assert.equal(guestStep(idle({ outbox: { lastUploaded: "P0" } }), page({ phase: "done", sharing: "P1" })).share, false);
  assert.equal(guestStep(idle({ outbox: { lastUploaded: "P1" } }), page({ phase: "attract", sharing: "P1" })).share, false);
});

const encoder = new TextEncoder();
const part = (bytes, age) => joined(encoder.encode(`--frame\r\nContent-Type: image/jpeg\r\nContent-Length: ${bytes.length}\r\nX-Age-Ms: ${age}\r\n\r\n`), bytes);

test("the live mirror's stream is cut into whole pictures, however it arrives", () => {
  const a = Uint8Array.from([0xff, 0xd8, 1, 2, 3, 0xff, 0xd9]), b = Uint8Array.from([0xff, 0xd8, 13, 10, 13, 10, 0xff, 0xd9]);
  const stream = joined(part(a, 12), part(b, 40));
  const whole = cutPictures(stream);
  assert.equal(whole.pictures.length, 2);
  assert.deepEqual([...whole.pictures[0].jpeg], [...a]);
  assert.equal(whole.pictures[0].ageMs, 12);
  // A picture holding CR LF CR LF itself is cut by its length, not by its bytes.
  assert.deepEqual([...whole.pictures[1].jpeg], [...b]);
  assert.equal(whole.rest.length, 0);
  // Byte by byte: the same pictures, none early.
  let buffer = new Uint8Array(0), got = [];
  for (const byte of stream) {
    const cut = cutPictures(joined(buffer, Uint8Array.of(byte)));
    buffer = cut.rest;
    got = got.concat(cut.pictures);
  }
  assert.deepEqual(got.map((p) => [...p.jpeg]), [[...a], [...b]]);
  // A head without a length waits (nothing is made up).
  assert.equal(cutPictures(encoder.encode("--frame\r\nContent-Type: image/jpeg\r\n\r\nxx")).pictures.length, 0);
  assert.equal(headEnd(encoder.encode("ab\r\n\r\n")), 2);
  assert.equal(headEnd(encoder.encode("ab\r\n\r")), -1);
});

test("a branding frame's clear area is where the screen shows it, in px from each edge", () => {
  // 640x360 fitted into a 1280x800 screen: 1280x720, 40 px above and below. The frame's band is
  // the bottom sixth, its border a fiftieth of each side.
  const clear = { top: 0.02, bottom: 1 / 6, left: 0.02, right: 0.02 };
  assert.deepEqual(clearInsets(clear, { left: 0, top: 0, width: 1280, height: 800 }, 640, 360, 1280, 800),
                   { top: 54, bottom: 160, left: 26, right: 26 });
  // Upright: the picture across the top (800x450); the band ends 830 px above the screen's bottom.
  assert.deepEqual(clearInsets(clear, { left: 0, top: 0, width: 800, height: 450 }, 640, 360, 800, 1280),
                   { top: 9, bottom: 905, left: 16, right: 16 });
  // No frame, or no picture yet: nothing kept clear.
  assert.deepEqual(clearInsets(null, { left: 0, top: 0, width: 1280, height: 800 }, 640, 360, 1280, 800), { top: 0, bottom: 0, left: 0, right: 0 });
  assert.deepEqual(clearInsets(clear, { left: 0, top: 0, width: 0, height: 0 }, 640, 360, 1280, 800), { top: 0, bottom: 0, left: 0, right: 0 });
});

test("a picture the kiosk mirrored under a branding frame says so; a plain one does not", () => {
  const jpeg = Uint8Array.from([0xff, 0xd8, 7, 0xff, 0xd9]);
  const framed = joined(encoder.encode(`--frame\r\nContent-Type: image/jpeg\r\nContent-Length: ${jpeg.length}\r\nX-Age-Ms: 5\r\nX-Mirrored: 1\r\n\r\n`), jpeg);
  const cut = cutPictures(joined(framed, part(jpeg, 6)));
  assert.deepEqual(cut.pictures.map((p) => [p.mirrored, p.ageMs]), [[true, 5], [false, 6]]);
  const clearHead = `--frame\r\nContent-Type: image/jpeg\r\nContent-Length: ${jpeg.length}\r\nX-Mirrored: 1\r\nX-Frame-Clear: 0.0222 0.1667 0.0125 0.0125\r\n\r\n`;
  assert.deepEqual(cutPictures(joined(encoder.encode(clearHead), jpeg)).pictures[0].clear, { top: 0.0222, bottom: 0.1667, left: 0.0125, right: 0.0125 });
  assert.equal(cut.pictures[1].clear, null);
});

test("a token typed into a page over plain http to another machine travels in clear", () => {
  assert.equal(tokenTravelsInClear(new URL("http://192.168.1.20:8080/admin")), true);
  assert.equal(tokenTravelsInClear(new URL("http://booth.local:8080/login")), true);
  assert.equal(tokenTravelsInClear(new URL("http://127.0.0.1:8080/admin")), false);
  assert.equal(tokenTravelsInClear(new URL("http://127.8.9.10/admin")), false);
  assert.equal(tokenTravelsInClear(new URL("http://localhost:8080/login")), false);
  assert.equal(tokenTravelsInClear(new URL("http://[::1]:8080/login")), false);
  assert.equal(tokenTravelsInClear(new URL("https://booth.example/admin")), false);
  // A name that only starts like loopback is not loopback.
  assert.equal(tokenTravelsInClear(new URL("http://127.0.0.1.evil.example/admin")), true);
});

test("sizes read as the CLI prints them", () => {
  assert.equal(byteCount(512), "512 bytes");
  assert.equal(byteCount(1536), "1.50 KiB");
  assert.equal(byteCount(20 * 1024 * 1024), "20.0 MiB");
  assert.equal(byteCount(300 * 1024 * 1024), "300 MiB");
});

test("the review warns of a take nobody can hear, one that clipped, or whose sound stopped, and of nothing else", () => {
  const take = (result) => ({ audio: { check: { result, loudestDBFS: -3, clippedPercent: 0 } } });
  assert.equal(soundWarning(take("silent")), "notHeard");
  assert.equal(soundWarning(take("clipping")), "tooLoud");
  assert.equal(soundWarning(take("ended-early")), "soundCut");
  assert.equal(soundWarning(take("ok")), null);
  // A shot without sound, or from a kiosk before the guard: nothing to say.
  assert.equal(soundWarning({ audio: null }), null);
  assert.equal(soundWarning({ audio: { codec: "aac" } }), null);
  assert.equal(soundWarning(null), null);
  assert.equal(soundWarning(take("something new")), null);
});

test("consent is asked only when the kiosk wants it and no yes holds", () => {
  assert.equal(needsConsent(idle()), false);
  assert.equal(needsConsent(idle({ consent: null })), false);
  assert.equal(needsConsent(idle({ consent: { textSha256: "a", given: false, buttonPresses: 0 } })), true);
  assert.equal(needsConsent(idle({ consent: { textSha256: "a", given: true, buttonPresses: 0 } })), false);
  assert.equal(needsConsent(null), false);
});

test("the press that opened the consent screen, or a chattering button, is not a yes", () => {
  assert.equal(agreeCounts(10000, 10000), false);
  assert.equal(agreeCounts(10000, 10000 + CONSENT_READ_MS - 1), false);
  assert.equal(agreeCounts(10000, 10000 + CONSENT_READ_MS), true);
  // A second press within the consent screen's first moments: the first opened it, neither agrees.
  assert.equal(pressCounts(10000, 10450) && agreeCounts(10000, 10450), false);
});

test("the button's handed-over presses are counted from the first status the page sees", () => {
  const s = (n) => idle({ consent: { textSha256: "a", given: false, buttonPresses: n } });
  assert.deepEqual(newButtonPresses(undefined, s(7)), { fresh: 0, seen: 7 });
  assert.deepEqual(newButtonPresses(7, s(7)), { fresh: 0, seen: 7 });
  assert.deepEqual(newButtonPresses(7, s(9)), { fresh: 2, seen: 9 });
  // A kiosk restarted counts from 0 again: nothing new, the mark follows it.
  assert.deepEqual(newButtonPresses(9, s(0)), { fresh: 0, seen: 0 });
  assert.deepEqual(newButtonPresses(3, idle()), { fresh: 0, seen: 0 });
});

test("a Post names the shot its guest reviewed", () => {
  assert.deepEqual(postBody("1795741255-555039609-18098", "Hallo 👋"), { id: "1795741255-555039609-18098", caption: "Hallo 👋" });
  assert.deepEqual(postBody("s1", ""), { id: "s1", caption: "" });
});

test("only the review's own Retake names its shot; a press, which may be the next person's, names none", () => {
  assert.deepEqual(shootBody("retake", "s1"), { retake: "s1" });
  assert.deepEqual(shootBody("press", "s1"), {});
  assert.deepEqual(shootBody("retake", null), {});
  // The kiosk's status after a shot under a yes: the yes holds, but only for that guest's Retake,
  // so a press in review asks the person at the booth first.
  const reviewing = idle({ currentShot: shot("s1"), consent: { textSha256: "a", given: true, retakesOnly: true, buttonPresses: 0 } });
  assert.equal(needsConsent(reviewing), true);
  assert.equal(needsConsent(idle({ consent: { textSha256: "a", given: true, retakesOnly: false, buttonPresses: 0 } })), false);
});

test("the start screen names the booth's button only when there is one", () => {
  const booth = (more = {}) => Object.assign({ reviewSeconds: 30, language: "en", triggerKey: null }, more);
  assert.equal(hintKey({ booth: booth() }), "hintTouch");
  assert.equal(hintKey({ booth: booth(), trigger: null }), "hintTouch");
  assert.equal(hintKey({ booth: booth({ triggerKey: "KeyB" }) }), "hint");
  assert.equal(hintKey({ booth: booth(), trigger: { state: "ready", presses: 0 } }), "hint");
  // (a button configured but unplugged is still the booth's button: it comes back by itself)
  assert.equal(hintKey({ booth: booth(), trigger: { state: "unplugged", presses: 0 } }), "hint");
  assert.equal(hintKey(null), "hintTouch");
});

test("a link no phone can open gets no code, and the guest is sent to the staff", () => {
  const wifi = { name: "Booth", password: "tanzen-bis-4" };
  const link = (opensOnPhones) => ({ id: "p", shareURL: "http://x/s/t", opensOnPhones });
  assert.deepEqual(shareScreen(link(true), null), { code: true, wifi: false, askStaff: false });
  assert.deepEqual(shareScreen(link(true), wifi), { code: true, wifi: true, askStaff: false });
  // Joining the booth's Wi-Fi would not help either: no code at all.
  assert.deepEqual(shareScreen(link(false), wifi), { code: false, wifi: false, askStaff: true });
  assert.deepEqual(shareScreen(link(false), null), { code: false, wifi: false, askStaff: true });
  // (an answer from a kiosk that does not say is taken as a link that opens, as before)
  assert.deepEqual(shareScreen({ id: "p", shareURL: "http://x/s/t" }, null), { code: true, wifi: false, askStaff: false });
});

test("each effect has its guest's word, and an unknown one reads as none", () => {
  assert.equal(effectKey("none"), "effectNone");
  assert.equal(effectKey("boomerang"), "effectBoomerang");
  assert.equal(effectKey("slowmo"), "effectSlowmo");
  assert.equal(effectKey("sepia"), "effectNone");
});

test("the review loops a boomerang that was made, nothing else", () => {
  assert.equal(isLoop(shot("a", { effect: { name: "boomerang", original: { file: "take.mp4" } } })), true);
  assert.equal(isLoop(shot("a", { effect: { name: "boomerang", notRendered: { failed: { operation: "x", detail: "y" } } } })), false);
  assert.equal(isLoop(shot("a", { effect: { name: "slowmo", original: {} } })), false);
  assert.equal(isLoop(shot("a")), false);
  assert.equal(isLoop(null), false);
});

test("an effect that plays none of the take's sound warns of nothing about it", () => {
  const mute = { result: "silent", loudestDBFS: -90, clippedPercent: 0 };
  assert.equal(soundWarning(shot("a", { audio: { check: mute } })), "notHeard");
  assert.equal(soundWarning(shot("a", { audio: { check: mute }, effect: { name: "boomerang", boomerang: {} } })), null);
  assert.equal(soundWarning(shot("a", { audio: { check: mute }, effect: { name: "boomerang", boomerang: { sound: "/srv/w.wav" } } })), null);
  assert.equal(soundWarning(shot("a", { audio: { check: mute }, effect: { name: "slowmo", slowMotion: { soundKept: true } } })), "notHeard");
  assert.equal(effectIsSilent(shot("a", { effect: { name: "slowmo", slowMotion: { soundKept: false } } })), true);
  assert.equal(effectIsSilent(shot("a", { effect: { name: "slowmo", notRendered: { cameraTooSlow: { fastest: 30 } } } })), false);
});

test("a page's requests say a person used it only within the minute after a key or a touch (an operator's idle time)", () => {
  assert.equal(personActive(1000000), false, "nobody yet: a page's own refreshes are no person's");
  notePerson(1000000);
  assert.equal(personActive(1000000 + 59000), true);
  assert.equal(personActive(1000000 + 61000), false, "a minute later the page refreshes by itself again");
});
