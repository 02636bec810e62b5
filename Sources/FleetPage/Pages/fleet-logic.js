// The fleet page's logic, without the page: what each booth's row says. node's test runner
// imports it (Tests/pages/fleet-logic.test.mjs).

/** "12 s ago", "4 min ago", "3 h ago", "2 d ago". */
export function ago(seconds) {
  const s = Math.max(0, Math.round(seconds));
  if (s < 120) return s + " s ago";
  if (s < 7200) return Math.floor(s / 60) + " min ago";
  if (s < 172800) return Math.floor(s / 3600) + " h ago";
  return Math.floor(s / 86400) + " d ago";
}

/** "well", "trouble" or "offline": the row's class. */
export function standing(booth) {
  if (!booth.online) return "offline";
  return booth.problems.length > 0 ? "trouble" : "well";
}

/** The status column: OFFLINE, the number of problems, or the booth's state. */
export function statusText(booth) {
  if (!booth.online) return "OFFLINE";
  const n = booth.problems.length;
  if (n > 0) return n === 1 ? "1 problem" : n + " problems";
  return booth.state || "ok";
}

/** The camera column: missing, or its rate over the last minute while it streamed, or present. */
export function cameraText(heartbeat) {
  if (!heartbeat) return "";
  const camera = heartbeat.camera;
  if (!camera.present) return "missing";
  if (camera.fps !== null && camera.fps !== undefined && camera.streamingSeconds >= 1) {
    const dropped = camera.framesDropped > 0 ? ", " + camera.framesDropped + " dropped" : "";
    return camera.fps.toFixed(1) + " fps" + dropped;
  }
  return "present";
}

/** The outbox column: how many posts wait, and the oldest's wait. */
export function outboxText(heartbeat) {
  if (!heartbeat) return "";
  const outbox = heartbeat.outbox;
  if (outbox.depth === 0) return "empty";
  const oldest = outbox.oldestSeconds !== null && outbox.oldestSeconds !== undefined ? ", oldest " + ago(outbox.oldestSeconds).replace(" ago", "") : "";
  return outbox.depth + " waiting" + oldest;
}

/** The disk column: hours of recording left. */
export function diskText(heartbeat) {
  if (!heartbeat || heartbeat.disk.hoursLeft === null || heartbeat.disk.hoursLeft === undefined) return "";
  const hours = heartbeat.disk.hoursLeft;
  return (hours >= 100 ? Math.round(hours) : hours.toFixed(1)) + " h";
}

/** The summary line: how many booths, how many offline or with problems. */
export function summaryText(document) {
  const total = document.booths.length;
  if (total === 0) return "No booths yet";
  const parts = [total === 1 ? "1 booth" : total + " booths"];
  parts.push(document.offline + " offline");
  parts.push(document.troubled + " with problems");
  return parts.join(", ");
}

/** The facts a booth's opened row lists, as [label, text] pairs (empty ones left out). */
export function facts(booth) {
  const h = booth.heartbeat;
  if (!h) return [["Booth", booth.kiosk]];
  const list = [
    ["Booth id", h.kiosk],
    ["Version", h.version],
    ["State", h.state + (h.outOfService.length > 0 ? " (out of service: " + h.outOfService.join(", ") + ")" : "")],
    ["Camera", h.camera.device + (h.camera.encoder ? ", encoder " + h.camera.encoder : "")],
    ["Microphone", h.microphone.source || (h.microphone.choice === "none" ? "off" : "none")],
    ["Button", h.button ? h.button.state + (h.button.device ? " (" + h.button.device + ")" : "") : ""],
    ["Last post", h.lastPostAt || ""],
    ["Mail", h.mail ? h.mail.waiting + " waiting, " + h.mail.refused + " refused" : ""],
    ["Clock", h.clock.synchronised === true ? "synchronised" : h.clock.synchronised === false ? "not synchronised" : "unknown"],
    ["Last preflight", h.doctor ? (h.doctor.ready ? "ready" : "not ready") + " (" + h.doctor.errors + " errors, " + h.doctor.warnings + " warnings) at " + h.doctor.at : ""],
    ["Last problem", h.lastError ? h.lastError.message + " (" + h.lastError.at + ")" : ""],
    ["Heartbeat", "every " + h.intervalSeconds + " s, last at " + h.at],
  ];
  return list.filter(([, text]) => text !== "");
}
