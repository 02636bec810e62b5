// The booth's keyboard for a guest's address (Sources/KioskService/Pages/mail-keys.js), with
// node's own test runner: node --test Tests/pages
import { test } from "node:test";
import assert from "node:assert/strict";
import { keyRows, keyLabel, press, typedKey, looksLikeAddress, MAX_ADDRESS } from "../../Sources/KioskService/Pages/mail-keys.js";

const type = (keys, start = "") => keys.reduce((state, key) => press(state.text, key, state.shift), { text: start, shift: false });

test("the keys: digits, letters, shift and backspace, the address's symbols, and four domains", () => {
  const rows = keyRows(["gmail.com", "gmx.de", "web.de", "t-online.de", "outlook.com"]);
  const keys = rows.flat();
  for (const c of "abcdefghijklmnopqrstuvwxyz0123456789@.-_+") assert.ok(keys.includes(c), c);
  assert.ok(keys.includes("shift") && keys.includes("backspace") && keys.includes(".com"));
  assert.deepEqual(rows.at(-1), ["@gmail.com", "@gmx.de", "@web.de", "@t-online.de"]);
  // Ten keys at most in a row: each one 64 px or more on an 800 px wide screen.
  assert.ok(rows.every((row) => row.length <= 10));
});

test("typing, shift for one capital, backspace", () => {
  assert.equal(type(["a", "n", "n", "a"]).text, "anna");
  const shifted = type(["shift", "a", "n"]);
  assert.equal(shifted.text, "An");
  assert.equal(shifted.shift, false);
  assert.equal(type(["shift", "shift", "a"]).text, "a");
  assert.equal(type(["a", "b", "backspace"]).text, "a");
  assert.equal(type(["backspace"]).text, "");
  assert.equal(keyLabel("q", true), "Q");
  assert.equal(keyLabel("@gmail.com", true), "@gmail.com");
  assert.equal(keyLabel("shift", false), "⇧");
  assert.equal(keyLabel("backspace", false), "⌫");
});

test("a domain key puts its domain after the @, replacing what was typed there", () => {
  assert.equal(type(["a", "@gmail.com"]).text, "a@gmail.com");
  assert.equal(type(["@gmx.de"], "anna@gm").text, "anna@gmx.de");
  assert.equal(type(["@web.de"], "anna@gmail.com").text, "anna@web.de");
  assert.equal(type(["@", "x", ".com"], "anna").text, "anna@x.com");
});

test("no address grows beyond 254 characters", () => {
  const long = "a".repeat(MAX_ADDRESS);
  assert.equal(press(long, "b", false).text, long);
  assert.equal(press("a".repeat(250), "@gmail.com", false).text, "a".repeat(250));
});

test("a real keyboard types what an address may hold, and nothing else", () => {
  for (const c of ["a", "Z", "7", "@", ".", "+", "_", "-", "'"]) assert.equal(typedKey(c), c);
  for (const c of [" ", "Enter", "Shift", "é", "<", ",", "\n", "ArrowLeft"]) assert.equal(typedKey(c), null, JSON.stringify(c));
});

test("Send waits for something that looks like an address; the kiosk checks it in full", () => {
  for (const a of ["anna@example.com", "a.b+c@sub.example.org"]) assert.ok(looksLikeAddress(a), a);
  for (const a of ["", "anna", "anna@", "@example.com", "anna@example", "a@b@c.com", "anna@.com", "anna@example."]) {
    assert.equal(looksLikeAddress(a), false, a);
  }
});
