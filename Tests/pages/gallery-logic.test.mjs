// The host's gallery's logic (Sources/ShareServer/Pages/gallery-logic.js): node --test Tests/pages
import { test } from "node:test";
import assert from "node:assert/strict";
import { durationText, pageAddress, postAddresses, unseen } from "../../Sources/ShareServer/Pages/gallery-logic.js";

test("a clip's length reads as minutes and seconds, rounded; nothing for no length", () => {
  assert.equal(durationText(7.4), "0:07");
  assert.equal(durationText(65), "1:05");
  assert.equal(durationText(719.6), "12:00");
  assert.equal(durationText(undefined), "");
  assert.equal(durationText(-1), "");
  assert.equal(durationText(NaN), "");
});

test("the next page's address carries the cursor, encoded; the first has none", () => {
  assert.equal(pageAddress("/g/T", null), "/g/T/posts");
  assert.equal(pageAddress("/g/T", "8234567890-Ab3dE5fG7h-booth-1.json"), "/g/T/posts?after=8234567890-Ab3dE5fG7h-booth-1.json");
  assert.equal(pageAddress("/g/T", "a&b=c"), "/g/T/posts?after=a%26b%3Dc");
});

test("a post's video and poster are under the gallery, its id encoded", () => {
  assert.deepEqual(postAddresses("/g/T", "Ab3dE5fG7h"), { video: "/g/T/Ab3dE5fG7h/video.mp4", poster: "/g/T/Ab3dE5fG7h/poster.jpg" });
  assert.equal(postAddresses("/g/T", "../x").video, "/g/T/..%2Fx/video.mp4");
});

test("a post listed again on the next page is shown once; junk is skipped", () => {
  const shown = new Set(["a"]);
  const fresh = unseen([{ id: "a" }, { id: "b" }, null, { id: 3 }, { id: "b" }, { id: "c" }], shown);
  assert.deepEqual(fresh.map((post) => post.id), ["b", "c"]);
  assert.deepEqual([...shown].sort(), ["a", "b", "c"]);
  assert.deepEqual(unseen("not a list", shown), []);
});
