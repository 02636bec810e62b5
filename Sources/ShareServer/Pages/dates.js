// Dates and times as a person reads them, in the page's own language: the thank-you's "the link
// works until", the share page on the guest's phone, the operator's lists. Intl.DateTimeFormat
// with the page's language (day first in German, the month as a word), to the minute: seconds
// are noise to a guest, and a zone letter or an ISO "T" is the operator's business at most. No
// DOM here, so node's test runner checks it (Tests/pages/dates.test.mjs).

/** What every date shows: day, month (as a word), year, hour and minute; never seconds. */
export const DATE_OPTIONS = Object.freeze({ day: "numeric", month: "long", year: "numeric", hour: "numeric", minute: "2-digit" });

/**
 * `when` (an RFC 3339 text, as the kiosk sends dates, or a Date) in `language` ("en", "de"), in
 * the time zone of the device showing it unless `timeZone` is given; "" for no date or a text
 * that is not one.
 */
export function shownDate(when, language, timeZone) {
  const date = when instanceof Date ? when : new Date(when || NaN);
  if (isNaN(date.getTime())) return "";
  const options = Object.assign({}, DATE_OPTIONS, timeZone ? { timeZone } : {});
  try {
    return new Intl.DateTimeFormat(language || "en", options).format(date);
  } catch (_) {
    // (a language tag the browser does not take: English's form rather than none)
    return new Intl.DateTimeFormat("en", options).format(date);
  }
}
