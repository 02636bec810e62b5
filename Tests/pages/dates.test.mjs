// The pages' dates (Sources/ShareServer/Pages/dates.js): node --test Tests/pages
import { test } from "node:test";
import assert from "node:assert/strict";
import { shownDate, DATE_OPTIONS } from "../../Sources/ShareServer/Pages/dates.js";

const when = "2026-11-24T17:30:12Z";

test("German puts the day first and names the month, to the minute, in the zone asked for", () => {
  assert.match(shownDate(when, "de", "Europe/Berlin"), /^24\. November 2026\D+18:30$/);
  assert.match(shownDate(when, "de", "UTC"), /^24\. November 2026\D+17:30$/);
});

test("English names the month first, as English does", () => {
  assert.match(shownDate(when, "en", "UTC"), /^November 24, 2026\D+5:30\s?PM$/);
});

test("never seconds, never the ISO form or a zone letter", () => {
  for (const language of ["en", "de"]) {
    const shown = shownDate(when, language, "Europe/Berlin");
    assert.doesNotMatch(shown, /:12|T17|Z$|UTC/, shown);
  }
  assert.equal("second" in DATE_OPTIONS, false);
});

test("the device's own zone when none is given", () => {
  const local = new Intl.DateTimeFormat("de", DATE_OPTIONS).format(new Date(when));
  assert.equal(shownDate(when, "de"), local);
});

test("no date, or a text that is not one, shows nothing; a Date is taken as it is", () => {
  assert.equal(shownDate("", "de"), "");
  assert.equal(shownDate(null, "en"), "");
  assert.equal(shownDate("not a date", "en"), "");
  assert.equal(shownDate(new Date(when), "de", "UTC"), shownDate(when, "de", "UTC"));
});

test("a language the formatter refuses falls back to English's form", () => {
  assert.equal(shownDate(when, "x-not a tag!", "UTC"), shownDate(when, "en", "UTC"));
});
