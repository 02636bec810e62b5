// The Event section's logic (Sources/KioskService/Pages/event-logic.js): node --test Tests/pages
import { test } from "node:test";
import assert from "node:assert/strict";
import { originText, changesOf, findingsByKey, shareText, restartText } from "../../Sources/KioskService/Pages/event-logic.js";

test("an origin says where the value comes from", () => {
  assert.equal(originText("default"), "the default");
  assert.equal(originText("operator page, 2026-11-29 14:02"), "saved here 2026-11-29 14:02");
  assert.equal(originText("/etc/recorder/recorder.conf:12"), "from /etc/recorder/recorder.conf:12");
  assert.equal(originText("RECORDER_KIOSK_SECONDS"), "set by RECORDER_KIOSK_SECONDS in the kiosk's environment");
  assert.equal(originText("flag"), "set on recorder kiosk's command line");
});

test("only what differs is sent, each in the form its field takes", () => {
  const fields = [
    { key: "event.name", edit: "value", initial: "", current: "Anna & Ben" },
    { key: "kiosk.seconds", edit: "value", initial: "15", current: "15" },
    { key: "kiosk.prompts", edit: "text", initial: "Q1\n", current: "Q1\r\n" },
    { key: "kiosk.consent", edit: "text", initial: "", current: "I agree." },
    { key: "kiosk.wifi_password", edit: "secret", initial: "", current: "" },
    { key: "mail.credentials_file", edit: "login", initial: "", current: { user: "booth", password: "pw" } },
    { key: "shoot.overlay", edit: "frame", initial: "", current: "0123456789abcdef01234567" },
    { key: "mail.insecure", edit: "toggle", initial: "false", current: true },
  ];
  assert.deepEqual(changesOf(fields), {
    "event.name": "Anna & Ben",
    "kiosk.consent": { text: "I agree." },
    "mail.credentials_file": { user: "booth", password: "pw" },
    "shoot.overlay": { upload: "0123456789abcdef01234567" },
    "mail.insecure": "true",
  });
});

test("a secret typed in is sent, a frame removed is empty, an untouched frame is not sent", () => {
  assert.deepEqual(changesOf([
    { key: "kiosk.wifi_password", edit: "secret", initial: "", current: "long enough" },
    { key: "shoot.overlay", edit: "frame", initial: "/x.png", current: "" },
    { key: "mail.credentials_file", edit: "login", initial: "", current: { user: "", password: "" } },
  ]), { "kiosk.wifi_password": "long enough", "shoot.overlay": "" });
  assert.deepEqual(changesOf([{ key: "shoot.overlay", edit: "frame", initial: "/x.png", current: undefined }]), {});
});

test("findings go under the fields they concern, the others under the section", () => {
  const findings = [
    { keys: ["kiosk.wifi_ssid", "kiosk.wifi_password", "share.base_url"], error: "too short" },
    { keys: ["backend"], error: "no store" },
  ];
  assert.deepEqual(findingsByKey(findings, ["kiosk.wifi_password", "event.name"]), { "kiosk.wifi_password": ["too short"], "": ["no store"] });
});

test("a check that read several fields marks the one its words name, or each it read when they name none", () => {
  const wifi = ["kiosk.wifi_ssid", "kiosk.wifi_security", "kiosk.wifi_password", "share.base_url"];
  const short = "kiosk.wifi_password (from operator page, 2026-11-29 05:28) is 5 characters: WPA2 takes 8 to 63.";
  const both = "kiosk.wifi_ssid is set (from operator page) but share.base_url has no {token}.";
  assert.deepEqual(findingsByKey([{ keys: wifi, error: short }], wifi), { "kiosk.wifi_password": [short] });
  assert.deepEqual(findingsByKey([{ keys: wifi, error: both }], wifi), { "kiosk.wifi_ssid": [both], "share.base_url": [both] });
  assert.deepEqual(findingsByKey([{ keys: ["kiosk.wifi_ssid", "share.base_url"], error: "unnamed" }], wifi),
    { "kiosk.wifi_ssid": ["unnamed"], "share.base_url": ["unnamed"] });
});

test("the share link and the restart in words", () => {
  assert.match(shareText({ example: "http://10.42.0.1/s/x", opensOnPhones: true }), /^Phones open links like http:\/\/10\.42\.0\.1\/s\/x$/);
  assert.match(shareText({ example: "http://127.0.0.1:8080/s/x", opensOnPhones: false }), /^Phones cannot open/);
  assert.equal(restartText({ requested: false }, []), "");
  assert.match(restartText({ requested: false }, ["event.name"]), /event\.name/);
  assert.match(restartText({ requested: true, waitingFor: "reviewing" }, ["event.name"]), /watching their video/);
  assert.match(restartText({ requested: true, stopping: true }, []), /^Restarting/);
});
