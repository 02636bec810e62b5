// The operator page's Hosts' gallery (operator.html): a gallery of the last hours' posts from every
// booth of the store, made by the kiosk (POST /api/admin/galleries), its link and QR code shown
// here, its printable card a download. The link opens on the share links' public name, where
// recorder serve answers for it after the event.
import { $, postJSON } from "/assets/common.js";
import { shownDate } from "/assets/dates.js";

function show(made) {
  $("host-gallery-link").textContent = made.link;
  $("host-gallery-link").href = made.link;
  // The kiosk's own SVG, shown as a picture (img-src allows data:; nothing in it runs).
  $("host-gallery-qr").src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(made.qrSVG);
  $("host-gallery-until").textContent = made.expiresAt ? "Opens until " + shownDate(made.expiresAt, "en") + "." : "Opens until it is revoked (recorder gallery revoke).";
  $("host-gallery-card").href = made.card;
  $("host-gallery-made").classList.remove("off");
}

$("host-gallery-make").onclick = () => {
  $("host-gallery-error").textContent = "";
  const days = Number($("host-gallery-days").value);
  const fields = { event: $("host-gallery-event").value, hours: Number($("host-gallery-hours").value) || 24, reel: $("host-gallery-reel").checked };
  if (days > 0) fields.expiresDays = Math.round(days);
  $("host-gallery-make").disabled = true;
  postJSON("/api/admin/galleries", fields)
    .then(show)
    .catch((e) => {
      $("host-gallery-made").classList.add("off");
      $("host-gallery-error").textContent = "The gallery was not made: " + e.message;
    })
    .finally(() => { $("host-gallery-make").disabled = false; });
};
