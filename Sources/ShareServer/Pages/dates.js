// Dates and times as a person reads them, in the page's own language: the thank-you's "the link
// works until", the share page on the guest's phone, the operator's lists. One form per language,
// the same as the guests' mail writes ({expires}, MailWording.expires; both checked against
// Tests/pages/date-forms.json): the day, the month as a word, the year, then the time on 24 hours
// to the minute ("5 December 2026, 23:57", "5. Dezember 2026, 23:57"). Seconds are noise to a
// guest, and a zone letter or an ISO "T" is the operator's business at most. The month's name is
// Intl.DateTimeFormat's. No DOM here, so node's test runner checks it (Tests/pages/dates.test.mjs).

/** What every date shows: day, month (as a word), year, hour (24) and minute; never seconds. */
export const DATE_OPTIONS = Object.freeze({ day: "numeric", month: "long", year: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23" });

/**
 * `when` (an RFC 3339 text, as the kiosk sends dates, or a Date) in `language` ("en", "de"; any
 * other gets English's form), in the time zone of the device showing it unless `timeZone` is
 * given; "" for no date or a text that is not one.
 */
export function shownDate(when, language, timeZone) {
  const date = when instanceof Date ? when : new Date(when || NaN);
  if (isNaN(date.getTime())) return "";
  const lang = language === "de" ? "de" : "en";
  const options = Object.assign({}, DATE_OPTIONS, timeZone ? { timeZone } : {});
  const part = {};
  for (const p of new Intl.DateTimeFormat(lang, options).formatToParts(date)) part[p.type] = p.value;
  return (lang === "de" ? `${part.day}. ` : `${part.day} `) + `${part.month} ${part.year}, ${part.hour}:${part.minute}`;
}

/** The day of `when` in the device's time zone (or `timeZone`), as a date input takes it: "2026-11-28". */
export function localDay(when, timeZone) {
  const date = when instanceof Date ? when : new Date(when || NaN);
  if (isNaN(date.getTime())) return "";
  const part = {};
  for (const p of new Intl.DateTimeFormat("en", { year: "numeric", month: "2-digit", day: "2-digit", timeZone }).formatToParts(date)) part[p.type] = p.value;
  return `${part.year}-${part.month}-${part.day}`;
}

/** Midnight at the start of `day` ("2026-11-28") in the device's time zone, as an RFC 3339 time; "" for none. */
export function startOfDay(day) {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day || "");
  // (to the second, as the kiosk's times are: RFC 3339 without a fraction)
  return match ? new Date(+match[1], +match[2] - 1, +match[3]).toISOString().replace(/\.\d+Z$/, "Z") : "";
}
