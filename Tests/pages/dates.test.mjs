// The pages' dates (Sources/ShareServer/Pages/dates.js): node --test Tests/pages
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { shownDate, localDay, startOfDay, DATE_OPTIONS } from "../../Sources/ShareServer/Pages/dates.js";

const when = "2026-11-24T17:30:12Z";
const table = JSON.parse(readFileSync(new URL("./date-forms.json", import.meta.url))).forms;

test("one form per language, the guests' mail's too (Tests/pages/date-forms.json)", () => {
  for (const form of table) {
    for (const language of ["en", "de"]) assert.equal(shownDate(form.at, language, form.zone), form[language], `${form.at} ${form.zone}`);
  }
});

test("never seconds, never the ISO form, a zone letter or a 12-hour clock", () => {
  for (const language of ["en", "de"]) {
    const shown = shownDate(when, language, "Europe/Berlin");
    assert.doesNotMatch(shown, /:12|T17|Z$|UTC|AM|PM/, shown);
  }
  assert.equal("second" in DATE_OPTIONS, false);
});

test("the device's own zone when none is given", () => {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  assert.equal(shownDate(when, "de"), shownDate(when, "de", zone));
});

test("no date, or a text that is not one, shows nothing; a Date is taken as it is", () => {
  assert.equal(shownDate("", "de"), "");
  assert.equal(shownDate(null, "en"), "");
  assert.equal(shownDate("not a date", "en"), "");
  assert.equal(shownDate(new Date(when), "de", "UTC"), shownDate(when, "de", "UTC"));
});

test("a language the pages do not offer gets English's form", () => {
  assert.equal(shownDate(when, "x-not a tag!", "UTC"), shownDate(when, "en", "UTC"));
  assert.equal(shownDate(when, "fr", "UTC"), shownDate(when, "en", "UTC"));
});

test("the reel's first day: the first post's day where the operator is, from its midnight there", () => {
  // 00:30 in Berlin is 23:30 UTC the day before: the day is Berlin's.
  assert.equal(localDay("2026-11-28T23:30:00Z", "Europe/Berlin"), "2026-11-29");
  assert.equal(localDay("2026-11-28T23:30:00Z", "UTC"), "2026-11-28");
  assert.equal(localDay("", "UTC"), "");
  // Midnight of a day in the device's zone, as a time: never after a post of that day.
  const start = new Date(startOfDay("2026-11-29"));
  assert.equal(start.getHours() + start.getMinutes(), 0);
  assert.equal(start.getDate(), 29);
  assert.ok(start <= new Date(2026, 10, 29, 0, 30));
  assert.match(startOfDay("2026-11-29"), /^2026-11-2\dT\d{2}:\d{2}:\d{2}Z$/);
  assert.equal(startOfDay(""), "");
  assert.equal(startOfDay("29.11.2026"), "");
});
