// The booth page's decisions, apart from the page itself so that node's test runner checks them
// (Tests/pages/guest-logic.test.mjs): which screen a status means, what a press does, the
// countdown's beeps, the recording ring, the words with their numbers, and the live mirror's
// stream cut into pictures. No DOM here.

/** The guest's screens, in the order a shot goes through them. */
export const PHASES = ["attract", "consent", "countdown", "recording", "saving", "review", "done", "mail", "problem", "away"];

/**
 * A guest string with its number: `{n}` in the text becomes `n`. A string with a count has a form
 * for each plural category of the page's `language` (GuestStrings.counted: `{one, other}`): the
 * one `n` takes, by the browser's CLDR rules ("1 second", "2 seconds"). An unknown key is "".
 */
export function wording(strings, key, n, language = "en") {
  let text = strings[key] || "";
  if (typeof text === "object") text = text[new Intl.PluralRules(language).select(n)] || text.other || "";
  // (a function, so a "$" in the value - a Wi-Fi password's "$$" - is taken as it is, not as a pattern)
  return text.replace("{n}", () => n);
}

/**
 * The start screen's hint: it names the booth's button only when the booth has one - read by the
 * kiosk (kiosk.trigger: `status.trigger`) or a key the page reads (kiosk.trigger_key) - and
 * otherwise only the screen's own button.
 */
export function hintKey(status) {
  return status && (status.trigger || (status.booth && status.booth.triggerKey)) ? "hint" : "hintTouch";
}

/**
 * What the thank-you shows for a post's share link `answer` (GET /api/posts/{id}/share) on a booth
 * whose own Wi-Fi is `wifi` (status.booth.wifi, or null): the link's code (`code`), the Wi-Fi's
 * code before it (`wifi`); for a link no phone can open (`opensOnPhones` false: it names this
 * machine's own loopback) neither - a dead code is worse than none - and the sentence that sends
 * the guest to the staff (`askStaff`).
 */
export function shareScreen(answer, wifi) {
  const opens = !!answer && answer.opensOnPhones !== false;
  return { code: opens, wifi: opens && !!wifi, askStaff: !opens };
}

/** Held keys repeat and buttons chatter: a press within this many milliseconds of the last is not one. */
export const PRESS_GAP_MS = 400;

/** Whether a press at `now` counts, the last one counted having been at `last`. */
export function pressCounts(last, now) {
  return now - last >= PRESS_GAP_MS;
}

/**
 * What one press means on screen `phase` (a touch, Space, Enter, the booth's button alike):
 * "stop" while counting down or recording, "record" where a guest can start, else nothing.
 */
export function pressAction(phase) {
  if (phase === "countdown" || phase === "recording") return "stop";
  if (phase === "consent") return "agree";
  if (phase === "attract" || phase === "problem" || phase === "done" || phase === "review") return "record";
  // ("away": the booth is out of service; a press does nothing until it is back)
  return null;
}

/**
 * The body of a guest's Post: the shot they reviewed and their message. The kiosk posts that shot
 * only while it is the current one, so a Post that arrives late (retried, or from a review that
 * has ended) never publishes the next guest's shot.
 */
export function postBody(reviewShot, caption) {
  return { id: reviewShot, caption };
}

/**
 * What a record press sends to /api/shoot: the on-screen Retake (`kind` "retake") names the shot
 * under review, which under kiosk.consent lets the kiosk start it under that guest's yes; any other
 * press (the booth's button, Space, a touch on Record) names nothing, since whoever presses may be
 * the next person, whom the kiosk then asks for a yes of their own.
 */
export function shootBody(kind, reviewShot) {
  return kind === "retake" && reviewShot ? { retake: reviewShot } : {};
}

/** The guest's word for an effect (kiosk.effects): a key of the strings. */
export function effectKey(name) {
  return { none: "effectNone", boomerang: "effectBoomerang", slowmo: "effectSlowmo" }[name] || "effectNone";
}

/** Whether what `shot` plays has none of its take's sound: a boomerang (silent, or the chosen
 * effect.sound) and slow motion (unless effect.slowmo_sound keeps it). */
export function effectIsSilent(shot) {
  const e = shot && shot.effect;
  if (!e || e.notRendered) return false;
  if (e.name === "boomerang") return true;
  if (e.name === "slowmo") return !(e.slowMotion && e.slowMotion.soundKept);
  return false;
}

/** Whether the review plays `shot` over and over: a boomerang that was made (a loop). */
export function isLoop(shot) {
  return !!(shot && shot.effect && shot.effect.name === "boomerang" && !shot.effect.notRendered);
}

/** Whether a countdown number is new and so beeps (the first one beeps as the screen opens). */
export function countdownBeeps(phase, shown, countdown) {
  return phase === "countdown" && !!countdown && String(countdown) !== shown;
}

/** The recording ring's circumference in the page's SVG (r = 52). */
export const RING = 326.7;

/**
 * The recording's progress as the ring shows it: the fraction done (0...1), the whole seconds
 * left, and the ring's dash offset.
 */
export function recordingProgress(progress, shotSeconds) {
  const p = progress || { elapsedSeconds: 0, totalSeconds: shotSeconds };
  const fraction = p.totalSeconds > 0 ? Math.min(Math.max(p.elapsedSeconds / p.totalSeconds, 0), 1) : 0;
  const left = Math.max(0, Math.ceil(p.totalSeconds - p.elapsedSeconds));
  return { fraction, left, dashOffset: RING * (1 - fraction) };
}

/** Whole seconds left until `deadline` (never below 0). */
export function secondsLeft(deadline, now) {
  return Math.max(0, Math.ceil((deadline - now) / 1000));
}

/**
 * What the kiosk's status `s` means for the booth's screen, which shows `page`:
 * `{ phase, knownShot, shownFailure, sharing, messageShowing }` (messageShowing: a message is on
 * screen for a while, and goes back to attract by itself). The answer's `kind`:
 * - "countdown" (`count`), "recording" (`progress`), "saving": the shot under way;
 * - "away": the booth is out of service (`outOfService`), until it is back (then "idle" says attract);
 * - "failed" (`key`, `failure`): said once per failure; "none" when it was already said;
 * - "idle": then `review` (a new shot of this guest's to review), `knownShot` (the shot now
 *   known), `then` ("attract", or "problem" with `key`, or null to stay) and `share` (the post
 *   being shared has arrived in the store: show its code).
 * A shot that was there when the page opened (`knownShot` undefined then) is never this guest's.
 */
export function guestStep(s, page) {
  // Out of service (the camera gone, the disk nearly full, the store failing): a calm "back in a
  // moment" instead of the start screen, until the kiosk says it is back. A guest's review or
  // thank-you on screen (and its mail screen) goes on; the next screen is this one.
  if (outOfService(s) && page.phase !== "review" && page.phase !== "done" && page.phase !== "mail" && !isShooting(s)) return { kind: "away" };
  switch (s.state) {
    case "countdown": case "starting":
      return { kind: "countdown", count: s.countdown || "" };
    case "recording":
      return { kind: "recording", progress: recordingProgress(s.progress, s.shotSeconds) };
    case "finishing":
      return { kind: "saving" };
    case "camera-missing":
      // (out of service: "away" above, unless a review or thank-you is on screen)
      break;
    case "failed":
      return s.message !== page.shownFailure ? { kind: "failed", key: s.guestKey || "notSaved", failure: s.message } : { kind: "none" };
  }
  const shot = s.currentShot;
  const known = page.knownShot === undefined ? (shot ? shot.id : null) : page.knownShot;
  const step = { kind: "idle", review: null, knownShot: known, then: null, key: null,
                 share: !!page.sharing && !!s.outbox && s.outbox.lastUploaded === page.sharing && page.phase === "done" };
  if (shot && shot.id !== known) {
    step.knownShot = shot.id;
    if (shot.videoURL && !shot.postedAs) step.review = shot;
  } else if (page.phase === "countdown" || page.phase === "recording" || page.phase === "saving") {
    // The shot ended with nothing new to review: it was not kept, and the kiosk says why.
    if (s.guestKey) { step.then = "problem"; step.key = s.guestKey; } else step.then = "attract";
  } else if ((page.phase === "problem" && !page.messageShowing) || page.phase === "away") {
    step.then = "attract";
  }
  return step;
}

/** Whether status `s` says the booth cannot take a guest now (`service.causes`, or its camera is gone). */
export function outOfService(s) {
  return !!(s.service && s.service.causes && s.service.causes.length) || s.state === "camera-missing";
}

function isShooting(s) {
  return s.state === "countdown" || s.state === "starting" || s.state === "recording" || s.state === "finishing";
}

const HEAD_END = [13, 10, 13, 10];

/** Where the blank line ending a part's head starts in `bytes`, or -1. */
export function headEnd(bytes) {
  outer: for (let i = 0; i + 3 < bytes.length; i++) {
    for (let j = 0; j < 4; j++) if (bytes[i + j] !== HEAD_END[j]) continue outer;
    return i;
  }
  return -1;
}

/**
 * Cuts the live mirror's stream (multipart: a head with Content-Length and X-Age-Ms, a blank
 * line, a JPEG) into its whole pictures: `{ pictures: [{ jpeg, ageMs }], rest }`, `rest` being the
 * bytes of a picture still arriving. A head without a length ends the cutting (the rest waits).
 */
export function cutPictures(bytes) {
  const pictures = [];
  let buffer = bytes;
  for (;;) {
    const end = headEnd(buffer);
    if (end < 0) break;
    const head = new TextDecoder().decode(buffer.subarray(0, end));
    const lengthMatch = /Content-Length: *(\d+)/i.exec(head);
    const ageMatch = /X-Age-Ms: *(\d+)/i.exec(head);
    const length = lengthMatch ? +lengthMatch[1] : -1;
    if (length < 0 || buffer.length < end + 4 + length) break;
    // (X-Mirrored: the kiosk mirrored the picture itself, under a branding frame that must read
    // as it will be recorded: shown as it comes. X-Frame-Clear: where that frame leaves it clear.)
    const clearMatch = /X-Frame-Clear: *([\d.]+) +([\d.]+) +([\d.]+) +([\d.]+)/i.exec(head);
    pictures.push({ jpeg: buffer.slice(end + 4, end + 4 + length), ageMs: ageMatch ? +ageMatch[1] : 0,
                    mirrored: /X-Mirrored: *1/i.test(head),
                    clear: clearMatch ? { top: +clearMatch[1], bottom: +clearMatch[2], left: +clearMatch[3], right: +clearMatch[4] } : null });
    buffer = buffer.slice(end + 4 + length);
  }
  return { pictures, rest: buffer };
}

/**
 * Where the page keeps its words and buttons under a branding frame, as insets from the screen's
 * edges in px: the frame's clear area (`clear`, shares of the picture: X-Frame-Clear) on the
 * picture as the screen shows it (a `pictureWidth` x `pictureHeight` picture fitted into `box`,
 * the canvas's box on screen, as object-fit: contain fits it), on a `screenWidth` x
 * `screenHeight` screen. No frame: no insets.
 */
export function clearInsets(clear, box, pictureWidth, pictureHeight, screenWidth, screenHeight) {
  if (!clear || !pictureWidth || !pictureHeight || !box.width || !box.height) return { top: 0, bottom: 0, left: 0, right: 0 };
  const scale = Math.min(box.width / pictureWidth, box.height / pictureHeight);
  const width = pictureWidth * scale, height = pictureHeight * scale;
  const left = box.left + (box.width - width) / 2, top = box.top + (box.height - height) / 2;
  return {
    top: Math.max(0, Math.round(top + clear.top * height)),
    bottom: Math.max(0, Math.round(screenHeight - (top + height - clear.bottom * height))),
    left: Math.max(0, Math.round(left + clear.left * width)),
    right: Math.max(0, Math.round(screenWidth - (left + width - clear.right * width))),
  };
}

/** `a` and `b` joined. */
export function joined(a, b) {
  const out = new Uint8Array(a.length + b.length);
  out.set(a); out.set(b, a.length);
  return out;
}

/**
 * What the review says of the take's sound (the kiosk's silent-take guard, `audio.check`): the
 * guest string's key, or null when there is nothing to say (it was fine, or has no sound at all).
 */
export function soundWarning(shot) {
  // (an effect that plays none of the take's sound: nothing of it to hear, nothing to warn of)
  if (effectIsSilent(shot)) return null;
  const result = shot && shot.audio && shot.audio.check ? shot.audio.check.result : "ok";
  return { silent: "notHeard", clipping: "tooLoud", "ended-early": "soundCut" }[result] || null;
}

/** A press on the consent screen counts as a yes only after this many milliseconds of it showing: the press that opened it, or a chattering button, is not a yes. */
export const CONSENT_READ_MS = 1500;

/** How long the consent screen waits for an answer before going back to the start screen. */
export const CONSENT_WAIT_MS = 60000;

/** How long the mail screen waits for the next key before going back to the start screen. */
export const MAIL_WAIT_MS = 90000;

/**
 * Whether a record press must first show the consent text (kiosk.consent): the kiosk asks for
 * one (`status.consent`) and no guest's yes holds now that a press may start a shot under: none,
 * or one a shot was already recorded under (`retakesOnly`: it starts only its guest's Retake, and
 * whoever presses may be the next person).
 */
export function needsConsent(status) {
  return !!(status && status.consent && (!status.consent.given || status.consent.retakesOnly));
}

/**
 * Whether a yes may be taken at `now` from the consent screen shown since `shownAt` (a button or
 * key press; the I agree button itself is always a yes).
 */
export function agreeCounts(shownAt, now) {
  return now - shownAt >= CONSENT_READ_MS;
}

/**
 * The booth's button presses the kiosk handed to the page (it started nothing: no yes yet) since
 * `seen`: how many are new in `status`. The first status only sets the mark (`seen` undefined).
 */
export function newButtonPresses(seen, status) {
  const now = status && status.consent ? status.consent.buttonPresses : 0;
  return { fresh: seen === undefined ? 0 : Math.max(0, now - seen), seen: now };
}
