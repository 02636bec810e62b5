// The share page (share.html): the link's end in the phone's own time zone and words.
for (const el of document.querySelectorAll("time")) el.textContent = new Date(el.dateTime).toLocaleString(document.documentElement.lang);
