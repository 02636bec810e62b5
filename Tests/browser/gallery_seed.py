"""A store full of posts for the host's gallery (Tests/browser/gallery_page.py and
Benchmarks/gallery-screen.sh): one real clip (`recorder shoot` and `post`) and as many more made from
it straight into the store's layout (metadata, feed index, video and poster objects, each post its
own id, token, time and caption, 20 s apart, the newest a minute ago)."""
import json, random, string, subprocess, time


def letters(n):
    return "".join(random.choice(string.ascii_letters + string.digits) for _ in range(n))


def seed(binary, work, store, environment, posts):
    """`posts` posts in the local store `store` (made if missing): the real one, then posts - 1 copies
    of it under their own ids, tokens, times and captions. Returns the real one's id."""
    subprocess.run([binary, "shoot", "--device", "testsrc", "--size", "640x360", "--fps", "15", "--seconds", "2", "--audio", "none", "--quiet",
                    "--workspace", str(work / "ws")], check=True, capture_output=True)
    posted = json.loads(subprocess.run([binary, "post", "--caption", "Happy wedding, Anna & Ben! 💐", "--json", "--workspace", str(work / "ws"),
                                        "--outbox", str(work / "outbox"), "--store-dir", str(store), "--create"],
                                       check=True, capture_output=True, text=True, env=environment).stdout)
    original = json.loads((store / "posts" / f"{posted['id']}.json").read_text())
    video = (store / original["key"]).read_bytes()
    poster = (store / original["thumbnailKey"]).read_bytes() if original.get("thumbnailKey") else None
    now = int(time.time()) - 60
    captions = ["Alles Gute euch beiden!", "Happy wedding, Anna & Ben! 💐", "To many more years 🥂", "Wir haben getanzt bis zum Schluss",
                "A very long message from the uncle who always has something to say at weddings, and says it all."]
    for i in range(1, posts):
        post_id = letters(10)
        created = now - 20 * i
        meta = dict(original)
        meta.update(thumbnailURL=None, id=post_id, video=f"{post_id}.mp4", key=f"videos/{post_id}.mp4", metadataKey=f"posts/{post_id}.json",
                    createdAt=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(created)), shareToken=letters(22), caption=captions[i % len(captions)])
        meta.pop("deleteClaim", None)
        if i % 7 == 3:
            meta["prompt"] = "Was wünscht ihr dem Paar?"
        (store / meta["key"]).write_bytes(video)
        if poster:
            meta["thumbnailKey"] = f"thumbs/{post_id}.jpg"
            (store / meta["thumbnailKey"]).write_bytes(poster)
        (store / "posts" / f"{post_id}.json").write_text(json.dumps(meta))
        # (the feed's index key, as PostFeed.indexKey makes it: newest first, the booth's id last)
        (store / "feed" / f"{9999999999 - created:010d}-{post_id}-{meta['kiosk']}.json").write_text(json.dumps({"id": post_id}))
    return original["id"]
