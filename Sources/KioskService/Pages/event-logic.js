// The operator page's Event section without the page: which fields the organiser changed (what
// PUT /api/admin/settings is sent), where each value comes from in words, which of the kiosk's
// findings belong to which field, and what the restart is waiting for. No DOM here, so node's
// test runner checks it (Tests/pages/event-logic.test.mjs); event.js draws the section.

/** Where a value comes from (a setting's `origin`), in a few words. */
export function originText(origin) {
  if (!origin || origin === "default") return "the default";
  if (origin === "flag" || origin === "the command line") return "set on recorder kiosk's command line";
  if (origin.startsWith("RECORDER_")) return "set by " + origin + " in the kiosk's environment";
  if (origin.startsWith("operator page, ")) return "saved here " + origin.slice("operator page, ".length);
  return "from " + origin;
}

/**
 * The changes to send, one per field that differs from what was loaded: `fields` are
 * `{key, edit, initial, current}` with `edit` as the kiosk names it (value, choice, toggle, secret,
 * text, frame, login). A secret or a login typed in is sent (blank: unchanged); a frame is sent
 * when one was uploaded (`{upload}`) or removed (""); a text as `{text}`.
 */
export function changesOf(fields) {
  const changes = {};
  for (const f of fields) {
    switch (f.edit) {
      case "secret":
        if (f.current) changes[f.key] = f.current;
        break;
      case "login":
        if (f.current === "") changes[f.key] = "";
        else if (f.current && (f.current.user || f.current.password)) changes[f.key] = { user: f.current.user, password: f.current.password };
        break;
      case "frame":
        if (f.current !== undefined && f.current !== null) changes[f.key] = f.current === "" ? "" : { upload: f.current };
        break;
      case "text":
        if (normalised(f.current) !== normalised(f.initial)) changes[f.key] = { text: f.current };
        break;
      default:
        if (String(f.current) !== String(f.initial)) changes[f.key] = String(f.current);
    }
  }
  return changes;
}

// (the browser's textarea turns line ends into \n; a last line's end is no change)
function normalised(text) {
  return String(text || "").replace(/\r\n/g, "\n").replace(/\s+$/, "");
}

/**
 * The kiosk's findings by key: `{key: [words...]}` for each key in `keys` a finding concerns; a
 * finding none of them names is under "" (the section's own line). A check that reads several keys
 * (the Wi-Fi's: its name, security, password and the share link) reports on each; its words name
 * the one at fault, and only that field gets them, not every field the check read.
 */
export function findingsByKey(findings, keys) {
  const byKey = {};
  for (const finding of findings || []) {
    const read = (finding.keys || []).filter((k) => keys.includes(k));
    const named = read.filter((k) => String(finding.error).includes(k));
    const mine = named.length ? named : read;
    for (const key of mine.length ? mine : [""]) (byKey[key] = byKey[key] || []).push(finding.error);
  }
  return byKey;
}

/** What phones will open (`shareLinks`: an example link, and whether a phone can open it), in words. */
export function shareText(reach) {
  if (!reach) return "This store gives guests no link: set a share link address, or use an S3 store.";
  return reach.opensOnPhones ? "Phones open links like " + reach.example
    : "Phones cannot open " + reach.example + ": it is this machine's own address. Give an address phones on the event's network reach.";
}

/** What a guest being at the booth means for the restart, in words (`waitingFor`: the kiosk's presence). */
export function waitingText(waitingFor) {
  switch (waitingFor) {
    case "agreed": return "a guest has agreed and may start a shot";
    case "shooting": return "a shot is being recorded";
    case "reviewing": return "a guest is watching their video";
    case "thanked": return "a guest's thank-you with their link is on the screen";
    default: return "a guest";
  }
}

/** The section's state line: saved settings waiting for a restart, a restart under way, or none. */
export function restartText(restart, pending) {
  if (restart && restart.stopping) return "Restarting the booth now: it is back in a few seconds.";
  if (restart && restart.requested) return "The booth restarts as soon as nobody is at it (now: " + waitingText(restart.waitingFor) + ").";
  if (pending && pending.length) return "Saved. The booth takes " + pending.join(", ") + " when it restarts: between guests, nothing recorded or queued is lost.";
  return "";
}
