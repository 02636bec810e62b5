// The host's gallery (gallery.html): every post of the event newest first, the highlight reel
// above them when one was made. Posters only until a clip is played, which then plays while it
// downloads (ranges); the next page is fetched as the end of the list comes into view, so a phone
// scrolls through hundreds of clips without loading them all. Words come with the page (its
// language), dates in the device's own time zone.
import { shownDate } from "/assets/dates.js";
import { durationText, pageAddress, postAddresses, unseen } from "/assets/gallery-logic.js";

const main = document.getElementById("gallery");
const list = document.getElementById("posts");
const status = document.getElementById("status");
const more = document.getElementById("more");
const base = main.dataset.base;
const words = JSON.parse(main.dataset.words || "{}");
const language = document.documentElement.lang;
const shown = new Set();
let next = null;
let loading = false;
let ended = false;
/** How far below the screen the next page is asked for (px). */
const ahead = 800;

for (const el of document.querySelectorAll("time")) el.textContent = shownDate(el.dateTime, language);

function element(tag, className, text) {
  const el = document.createElement(tag);
  if (className) el.className = className;
  if (text !== undefined) el.textContent = text;
  return el;
}

/** Plays `video`, pausing every other clip of the page. */
function playOnly(video) {
  for (const other of document.querySelectorAll("video")) if (other !== video) other.pause();
  video.play().catch(() => { /* the browser wants a tap on the player itself: its controls are there */ });
}

/** The poster, until the clip is asked for; then the player in its place. */
function player(post, addresses) {
  const frame = element("button", "frame");
  frame.type = "button";
  frame.setAttribute("aria-label", words.play || "Play");
  if (post.width > 0 && post.height > 0) frame.style.aspectRatio = `${post.width} / ${post.height}`;
  if (post.poster) {
    const img = element("img");
    img.loading = "lazy";
    img.decoding = "async";
    img.alt = "";
    img.src = addresses.poster;
    frame.append(img);
  }
  frame.append(element("span", "play", "▶"));
  frame.addEventListener("click", () => {
    const video = element("video");
    video.controls = true;
    video.playsInline = true;
    video.preload = "auto";
    if (post.poster) video.poster = addresses.poster;
    video.src = addresses.video;
    if (post.width > 0 && post.height > 0) video.style.aspectRatio = `${post.width} / ${post.height}`;
    video.addEventListener("play", () => playOnly(video));
    frame.replaceWith(video);
    playOnly(video);
  });
  return frame;
}

function card(post) {
  const addresses = postAddresses(base, post.id);
  const item = element("li", "card");
  item.append(player(post, addresses));
  const text = element("div", "text");
  if (post.prompt) {
    const prompt = element("p", "prompt", post.prompt);
    prompt.dir = "auto";
    text.append(prompt);
  }
  if (post.caption) {
    const said = element("p", "said", post.caption);
    said.dir = "auto";
    text.append(said);
  }
  const meta = element("p", "meta");
  const when = element("time", "", shownDate(post.createdAt, language));
  when.dateTime = post.createdAt;
  meta.append(when);
  const length = durationText(post.seconds);
  if (length) meta.append(element("span", "length", length));
  text.append(meta);
  const download = element("a", "download", words.downloadClip || "Download");
  download.href = addresses.video;
  download.download = post.file || "video.mp4";
  text.append(download);
  item.append(text);
  return item;
}

function show(page) {
  const fresh = unseen(page.posts, shown);
  for (const post of fresh) list.append(card(post));
  next = page.next || null;
  ended = !next;
  if (ended && shown.size === 0 && !document.querySelector(".reel")) status.textContent = words.empty || "";
}

async function loadMore() {
  if (loading || ended) return;
  loading = true;
  status.textContent = words.loading || "";
  try {
    const answer = await fetch(pageAddress(base, next), { credentials: "same-origin" });
    if (!answer.ok) throw new Error(String(answer.status));
    status.textContent = "";
    show(await answer.json());
  } catch (_) {
    status.textContent = words.loadFailed || "";
  } finally {
    loading = false;
  }
  // The end still within the observer's margin (a short page, or one a wide screen's columns
  // swallow): the next page at once. The observer tells only of a change, and the end that never
  // left the margin makes none, so it would wait there for ever.
  if (!ended && more.getBoundingClientRect().top < window.innerHeight + ahead) loadMore();
}

try {
  show(JSON.parse(main.dataset.first || "{}"));
} catch (_) {
  ended = false;
}
if (!ended) {
  new IntersectionObserver((entries) => {
    if (entries.some((entry) => entry.isIntersecting)) loadMore();
  }, { rootMargin: `${ahead}px 0px` }).observe(more);
}
for (const video of document.querySelectorAll(".reel video")) video.addEventListener("play", () => playOnly(video));
