// The share page (share.html): the link's end in the phone's own time zone, in the page's language.
import { shownDate } from "/assets/dates.js";

for (const el of document.querySelectorAll("time")) el.textContent = shownDate(el.dateTime, document.documentElement.lang);
