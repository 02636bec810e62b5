// The fleet page's rows (Sources/FleetPage/Pages/fleet-logic.js), with node's own test runner:
// node --test Tests/pages
import { test } from "node:test";
import assert from "node:assert/strict";
import { ago, standing, statusText, cameraText, outboxText, diskText, summaryText, facts } from "../../Sources/FleetPage/Pages/fleet-logic.js";

const heartbeat = {
  kiosk: "booth-a", name: "Booth A", version: "0.5.0", state: "idle", outOfService: [], at: "2026-11-29T10:00:00Z", intervalSeconds: 60,
  camera: { device: "/dev/video0", present: true, missingSeconds: 0, streamingSeconds: 30, framesDelivered: 900, framesDropped: 3, fps: 29.97, nominalFPS: 30, encoder: "libx264" },
  microphone: { choice: "auto", source: "hw:CARD=C920,DEV=0" }, disk: { freeBytes: 1e10, hoursLeft: 5.55, low: false },
  outbox: { depth: 2, oldestSeconds: 300, storeFailing: true }, clock: { synchronised: false }, mail: { waiting: 1, refused: 0 },
};

test("a booth is offline, in trouble or well, and its status column says which", () => {
  assert.equal(standing({ online: false, problems: [] }), "offline");
  assert.equal(standing({ online: true, problems: [{ problem: "disk-low" }] }), "trouble");
  assert.equal(standing({ online: true, problems: [] }), "well");
  assert.equal(statusText({ online: false, problems: [] }), "OFFLINE");
  assert.equal(statusText({ online: true, problems: [{}, {}], state: "idle" }), "2 problems");
  assert.equal(statusText({ online: true, problems: [], state: "recording" }), "recording");
});

test("ages switch unit at 2 minutes, 2 hours and 2 days", () => {
  assert.deepEqual([119, 120, 7199, 7200, 172799, 172800].map(ago), ["119 s ago", "2 min ago", "119 min ago", "2 h ago", "47 h ago", "2 d ago"]);
  assert.equal(ago(-3), "0 s ago");
});

test("the camera, outbox and disk columns come from the heartbeat's numbers", () => {
  assert.equal(cameraText(heartbeat), "30.0 fps, 3 dropped");
  assert.equal(cameraText({ camera: { present: false } }), "missing");
  assert.equal(cameraText({ camera: { present: true, fps: null, streamingSeconds: 0 } }), "present");
  assert.equal(outboxText(heartbeat), "2 waiting, oldest 5 min");
  assert.equal(outboxText({ outbox: { depth: 0 } }), "empty");
  assert.equal(diskText(heartbeat), "5.5 h");
  assert.equal(diskText({ disk: { hoursLeft: 240.4 } }), "240 h");
  assert.equal(diskText(undefined), "");
});

test("the summary counts the booths, the offline and those with problems", () => {
  assert.equal(summaryText({ booths: [{}, {}, {}], offline: 1, troubled: 1 }), "3 booths, 1 offline, 1 with problems");
  assert.equal(summaryText({ booths: [], offline: 0, troubled: 0 }), "No booths yet");
});

test("an opened row lists the booth's facts and leaves out what it does not know", () => {
  const list = facts({ kiosk: "booth-a", heartbeat });
  const labels = list.map(([label]) => label);
  assert.ok(labels.includes("Clock") && labels.includes("Mail") && labels.includes("Camera"));
  assert.ok(!labels.includes("Button") && !labels.includes("Last preflight") && !labels.includes("Last post"));
  assert.deepEqual(facts({ kiosk: "k-unreadable", heartbeat: null }), [["Booth", "k-unreadable"]]);
});
