"""What a power cut left, read without recorder (Tests/vm/power-cut-guest.sh, inside the guest).

    power_cut_check.py after-cut WS OUTBOX [DIR BYTES]
        The workspace and the outbox as the cut left them, before any recorder command runs:
        the current shot is whole (its video plays to the frame count shot.json says, or its
        posted.json names a post that is queued or sent); every queued post is whole (state,
        metadata and a video of the size and SHA-256 the metadata says, a poster that decodes)
        and its part journal, when it has one, fits its video (key, size, SHA-256, and the MD5 of
        each acknowledged part's bytes); what is not whole is recognisably unfinished (a post cut
        while being queued, whose shot still has its video; one cut as it left the queue, whose
        receipt is written); the interrupted recording in .incoming-DIR, when one was under way
        long enough, kept at least BYTES.
        Prints "queued ID SHA256" for each queued post, "journal ID ACKNOWLEDGED PARTS UPLOADID"
        for each part journal and "incoming DIR BYTES" for each recording.
    power_cut_check.py uploads ENDPOINT BUCKET OUTBOX
        The queued posts' multipart uploads against the S3 store, still before any recorder
        command runs: the upload each journal names is open on the store (or finished: the
        object is there whole) and holds every part the journal says it acknowledged, with that
        ETag and size; an open upload that no journal names belongs to a queued post. Prints
        "orphan KEY UPLOADID" for each of those (the flush must abort them).
    power_cut_check.py store local STOREDIR | s3 ENDPOINT BUCKET
        The store once a flush has ended: every metadata names a video that is there, of its
        size and SHA-256; every video has its metadata; no caption (one per shot) twice; no
        multipart upload left open (S3). Prints "stored ID SHA256 CAPTION" for each post.
Every check prints PASS: or FAIL:; the exit status is the number of failures (at most 100).
"""
import hashlib
import json
import os
import re
import subprocess
import sys
import urllib.parse
import xml.etree.ElementTree as ET

failures = 0


def check(name, ok, detail=""):
    global failures
    if ok:
        print(f"PASS: {name}")
    else:
        failures += 1
        print(f"FAIL: {name}{': ' + detail if detail else ''}")


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def frames_and_errors(path):
    """(decoded video frames, decoder complaints) as ffmpeg reads the file, independent of recorder."""
    run = subprocess.run(["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0",
                          "-show_entries", "stream=nb_read_frames", "-of", "default=nw=1:nk=1", path],
                         capture_output=True, text=True)
    try:
        frames = int(run.stdout.strip().splitlines()[0])
    except (ValueError, IndexError):
        frames = -1
    return frames, run.stderr.strip()


def read_json(path):
    try:
        with open(path, "rb") as f:
            return json.load(f), None
    except (OSError, ValueError) as error:
        return None, str(error)


def after_cut(ws, outbox, expect_dir=None, expect_bytes=0):
    queue = os.path.join(outbox, "queue")
    sent = os.path.join(outbox, "sent")
    queued = sorted(n for n in (os.listdir(queue) if os.path.isdir(queue) else []) if not n.startswith("."))
    queued_ids = {n.split("-", 1)[1]: n for n in queued if "-" in n}

    # The current shot: there always is one (the first boot finished a shot before the cuts began).
    current = os.path.join(ws, "current")
    target = os.path.realpath(current) if os.path.islink(current) else None
    check("the workspace still has a current shot after the cut", target is not None and os.path.isdir(target),
          f"{current} -> {os.readlink(current) if os.path.islink(current) else 'missing'}")
    if target and os.path.isdir(target):
        shot, error = read_json(os.path.join(target, "shot.json"))
        check(f"the current shot's shot.json reads ({os.path.basename(target)})", shot is not None, error or "")
        video = os.path.join(target, "video.mp4")
        posted, _ = read_json(os.path.join(target, "posted.json"))
        if os.path.exists(video):
            frames, complaints = frames_and_errors(video)
            want = shot.get("frames") if shot else None
            check(f"the current shot's video plays whole: {frames} frames, shot.json says {want}",
                  frames == want and not complaints, complaints[:300])
        else:
            post = (posted or {}).get("id")
            where = "queued" if post in queued_ids else "sent" if post and os.path.exists(os.path.join(sent, f"{post}.json")) else None
            check(f"the current shot was posted and its post is {where or 'nowhere'} ({post})", where is not None,
                  "no video.mp4 and no post queued or sent for it")

    # A shot whose commit the cut stopped after its folder reached shots/ and before the current
    # link moved to it: newer than the current shot, not being deleted. It must be whole; the next
    # shot (recorder shoot) keeps it beside the current one (the guest checks kept/ID then).
    shots = os.path.join(ws, "shots")
    current_id = os.path.basename(target) if target else ""
    for name in sorted(os.listdir(shots) if os.path.isdir(shots) else []):
        folder = os.path.join(shots, name)
        if name.startswith(".") or name == current_id or name < current_id or os.path.exists(os.path.join(folder, ".discarded")):
            continue
        shot, error = read_json(os.path.join(folder, "shot.json"))
        frames, complaints = frames_and_errors(os.path.join(folder, "video.mp4"))
        want = shot.get("frames") if shot else None
        check(f"shot {name}, finished but not yet current at the cut, is whole: {frames} frames, shot.json says {want}",
              shot is not None and frames == want and not complaints, (error or "") + complaints[:300])
        print(f"unlinked {name}")

    # Every queued post is whole: a post is in the queue completely or not at all.
    for name in queued:
        item = os.path.join(queue, name)
        metadata, error = read_json(os.path.join(item, "post.json"))
        state, state_error = read_json(os.path.join(item, "state.json"))
        video = os.path.join(item, "video.mp4")
        whole = metadata is not None and state is not None and os.path.isfile(video)
        detail = error or state_error or ("" if os.path.isfile(video) else "no video.mp4")
        if whole:
            size = os.path.getsize(video)
            digest = sha256_file(video)
            whole = size == metadata.get("byteSize") and digest == metadata.get("sha256") and state.get("attempts", -1) >= 0
            detail = (f"{size} bytes, sha256 {digest[:12]}; post.json says {metadata.get('byteSize')}, {str(metadata.get('sha256'))[:12]}; "
                      f"state {json.dumps(state)[:200]}")
        check(f"queued post {name} is whole (metadata, state, video of the size and SHA-256 it names)", whole, detail)
        post = name.split("-", 1)[1]
        print(f"queued {post} {(metadata or {}).get('sha256')}")
        poster = os.path.join(item, "poster.jpg")
        if os.path.exists(poster):
            frames, complaints = frames_and_errors(poster)
            check(f"queued post {post}'s poster, made on an earlier attempt, is a whole picture", frames == 1 and not complaints, complaints[:300])
        if os.path.exists(os.path.join(item, "upload.json")) and metadata is not None:
            part_journal(post, os.path.join(item, "upload.json"), video, metadata)

    # What is not a queued post is recognisably unfinished, and loses nothing.
    for name in sorted(n for n in (os.listdir(queue) if os.path.isdir(queue) else []) if n.startswith(".")):
        item = os.path.join(queue, name)
        if name.startswith(".incoming-"):
            # Cut while being queued: the post was never queued, so its shot must still hold its video.
            state, _ = read_json(os.path.join(item, "state.json"))
            shot = (state or {}).get("shotID")
            kept = [p for p in (os.path.join(ws, "shots", shot or "-", "video.mp4"), os.path.join(ws, "kept", shot or "-", "video.mp4")) if os.path.isfile(p)]
            check(f"{name}, a post cut while being queued, left its shot {shot or '(state not written yet)'} its video",
                  bool(kept) or state is None and not os.path.exists(os.path.join(item, "video.mp4")),
                  "the shot's video is gone and the post was never queued")
            print(f"half-queued {name}")
        elif name.startswith(".sent-"):
            check(f"{name}, a post cut as it left the queue, has its receipt", os.path.isfile(os.path.join(sent, name[len('.sent-'):] + ".json")))

    mail_after_cut(outbox, queued_ids, sent)

    # A recording under way at the cut: what it wrote up to a flushed fragment is on the disk.
    incoming = sorted(n for n in os.listdir(ws) if n.startswith(".incoming-")) if os.path.isdir(ws) else []
    for name in incoming:
        path = os.path.join(ws, name, "recording.mp4")
        size = os.path.getsize(path) if os.path.exists(path) else 0
        print(f"incoming {name[len('.incoming-'):]} {size}")
    if expect_dir and not os.path.isdir(os.path.join(ws, f".incoming-{expect_dir}")) and os.path.isdir(os.path.join(ws, "shots", expect_dir)):
        check(f"the recording under way at the cut had finished: it is shot {expect_dir}", True)
    elif expect_dir:
        path = os.path.join(ws, f".incoming-{expect_dir}", "recording.mp4")
        video = os.path.join(ws, f".incoming-{expect_dir}", "video.mp4")
        if not os.path.exists(path) and os.path.exists(video):
            # Cut as the shot was being finished: the recording is removed only once its remuxed
            # copy is synced, so the copy must be whole (it holds every fragment, which it
            # reorders: its size is near the recording's, not equal), and decode.
            size = os.path.getsize(video)
            frames, errors = frames_and_errors(video)
            check(f"the shot being finished at the cut kept its remuxed copy: {size} bytes, {frames} frames, "
                  f"at least {int(expect_bytes * 0.9)} bytes expected", size >= expect_bytes * 0.9 and frames > 0 and not errors,
                  f"{video} {errors[:300]}")
        else:
            size = os.path.getsize(path) if os.path.exists(path) else 0
            check(f"the interrupted recording kept what was flushed: {size} bytes on disk, at least {expect_bytes} expected",
                  size >= expect_bytes, f"{path}" + ("" if os.path.exists(path) else " is missing"))


def mail_after_cut(outbox, queued_ids, sent):
    """The guests' mail the cut left (MailQueue): every job in mail/queue reads whole and names a
    post that is queued or sent, or one the cut stopped before it was queued (`recorder post
    --email` queues the mail first: its post being built in queue/.incoming-ID-PID, or for the
    newest job, nowhere yet), which the flush forgets and never sends; what is not a job is a temporary of a write the cut stopped; every record in mail/sent
    reads whole; a hidden pending record is a send the cut stopped, the server may have the mail."""
    jobs_dir, records_dir = os.path.join(outbox, "mail", "queue"), os.path.join(outbox, "mail", "sent")
    queue = os.path.join(outbox, "queue")
    names = sorted(os.listdir(jobs_dir)) if os.path.isdir(jobs_dir) else []
    being_queued = {m.group(1) for n in (os.listdir(queue) if os.path.isdir(queue) else [])
                    if (m := re.fullmatch(r"\.incoming-([A-Za-z0-9]+)-[0-9]+", n))}
    jobs = []
    for name in names:
        path = os.path.join(jobs_dir, name)
        if name.startswith(".tmp-"):
            # (FileSystem.writeDurably's temporary: the job it was becoming is not queued)
            print(f"mailtemp {name}")
            continue
        job, error = read_json(path)
        check(f"mail job {name} reads whole (id, post, address)", name.endswith(".json") and job is not None
              and job.get("id") == name[:-5] and job.get("postID") and job.get("address"), error or json.dumps(job)[:200])
        if job and job.get("postID"):
            jobs.append(job)
    newest = max(jobs, key=lambda j: (j.get("queuedAt", ""), j["id"]))["id"] if jobs else None
    for job in jobs:
        post, record = job["postID"], os.path.join(records_dir, f"{job['id']}.json")
        where = ("queued" if post in queued_ids else "sent" if os.path.exists(os.path.join(sent, f"{post}.json"))
                 else "being queued" if post in being_queued else None)
        if os.path.exists(record):
            # Sent: the record went into place on the server's 250; the next pass removes the job.
            check(f"mail {job['id']} (post {post}), sent before the cut, has its record whole", read_json(record)[0] is not None)
            print(f"mailrecorded {job['id']} {post}")
        elif where == "being queued" or where is None and job["id"] == newest:
            # (a post half-built is not queued: the flush removes it, and its shot keeps its video)
            check(f"mail {job['id']}'s post {post} is {where or 'nowhere'}: the cut came after the mail was queued and before its post was", True)
            print(f"mailorphan {job['id']} {post}")
        else:
            check(f"mail {job['id']} names a post that is queued or sent (post {post} is {where or 'nowhere'})", where is not None)
            print(f"mailqueued {job['id']} {post} {job['address']}")
    for name in sorted(os.listdir(records_dir)) if os.path.isdir(records_dir) else []:
        path = os.path.join(records_dir, name)
        if name.startswith(".pending-"):
            # Written and synced before a send; the cut left it: the server may have had the mail.
            print(f"mailpending {name[len('.pending-'):-len('.json')]}")
        elif name.startswith(".tmp-"):
            print(f"mailtemp {name}")
        elif not name.startswith("."):
            record, error = read_json(path)
            check(f"the sent mail's record {name} reads whole", record is not None and record.get("id") == name[:-5], error or "")


def mail_flushed(outbox, after_cut_lines):
    """The mail once the flush after a cut has ended: each mail queued at the cut has its record
    (a 2xx from the server) and its job is gone; one whose post never came is gone unsent; nothing
    is left in mail/queue, no pending record in mail/sent. Prints "mailshared ID POSTID URL" for
    each mail queued at the cut: the share link its post's receipt gives, which the mail carries."""
    jobs_dir, records_dir = os.path.join(outbox, "mail", "queue"), os.path.join(outbox, "mail", "sent")
    lines = [line.split() for line in open(after_cut_lines)]
    left = sorted(os.listdir(jobs_dir)) if os.path.isdir(jobs_dir) else []
    check(f"nothing is left in the mail queue after the flush ({len(left)} files)", not left, " ".join(left)[:300])
    pending = [n for n in (os.listdir(records_dir) if os.path.isdir(records_dir) else []) if n.startswith(".")]
    check("no pending record or temporary is left in the sent mail's records", not pending, " ".join(pending)[:300])
    for line in lines:
        if line[:1] == ["mailqueued"]:
            job, post = line[1], line[2]
            record, error = read_json(os.path.join(records_dir, f"{job}.json"))
            reply = (record or {}).get("reply") or {}
            check(f"mail {job} (post {post}), queued at the cut, was sent: its record says the server took it ({reply.get('code')})",
                  record is not None and record.get("postID") == post and record.get("sentAt") and 200 <= (reply.get("code") or 0) < 300,
                  error or json.dumps(record)[:300])
            receipt, error = read_json(os.path.join(outbox, "sent", f"{post}.json"))
            url = (receipt or {}).get("shareURL")
            check(f"post {post} of mail {job} has a share link to send", bool(url), error or json.dumps(receipt)[:300])
            print(f"mailshared {job} {post} {url}")
        elif line[:1] == ["mailorphan"]:
            job = line[1]
            check(f"mail {job}, whose post the cut kept from being queued, was forgotten, not sent",
                  not os.path.exists(os.path.join(jobs_dir, f"{job}.json")) and not os.path.exists(os.path.join(records_dir, f"{job}.json")))


def received(state, boot_log, domain):
    """On the host, after a boot that flushed what a cut left: what the test's SMTP server
    (Tests/mail/smtp-server.py, STATE/mail/NNNN.eml and .json) received, read with Python's own
    MIME parser. Each mail queued at the cut ("mailqueued" and "mailshared" lines of the boot's
    log) came once, answered 250, with the Message-ID recorder makes from the post and the address
    (<POSTID.SHA256(POSTID\naddress)[:16]@DOMAIN>), to its address, its text carrying its post's
    share link; twice only when the cut left its pending record (the server's 250 may have been
    on its way): the same message again. A mail whose post never came was not sent. And no mail,
    from any boot, came twice but those. Prints "maildelivered ID POSTID" for each delivered once."""
    import email, email.policy
    lines = [line.split() for line in open(boot_log, errors="replace")]
    pending = {l[1] for l in lines if l[:1] == ["mailpending"]}
    queued = {l[1]: (l[2], l[3]) for l in lines if l[:1] == ["mailqueued"] and len(l) == 4}
    shared = {l[1]: l[3] for l in lines if l[:1] == ["mailshared"] and len(l) == 4}
    orphans = {l[1]: l[2] for l in lines if l[:1] == ["mailorphan"]}
    folder = os.path.join(state, "mail")
    messages = []
    for name in sorted(n for n in (os.listdir(folder) if os.path.isdir(folder) else []) if n.endswith(".eml")):
        envelope, _ = read_json(os.path.join(folder, name[:-4] + ".json"))
        message = email.message_from_bytes(open(os.path.join(folder, name), "rb").read(), policy=email.policy.default)
        text = message.get_body(("plain",))
        messages.append({"file": name, "id": str(message.get("Message-ID", "")), "to": str(message.get("To", "")),
                         "rcpt": (envelope or {}).get("rcpt_tos"), "confirmed": (envelope or {}).get("confirmed"),
                         "text": text.get_content() if text is not None else ""})

    def expected_id(post, address):
        digest = hashlib.sha256((post + "\n" + address.lower()).encode()).hexdigest()
        return f"<{post}.{digest[:16]}@{domain}>"
    for job, (post, address) in sorted(queued.items()):
        want = expected_id(post, address)
        mine = [m for m in messages if m["id"].startswith(f"<{post}.")]
        ids = {m["id"] for m in mine}
        url = shared.get(job)
        once = len(mine) == 1 or (len(mine) == 2 and job in pending)
        check(f"mail {job} (post {post}), queued at the cut, reached the server {'once' if len(mine) == 1 else f'{len(mine)} times'}"
              f"{' (its pending record: the cut may have come after the 250 left the server)' if len(mine) == 2 and job in pending else ''}",
              once, " ".join(m["file"] for m in mine))
        check(f"mail {job}'s message has the Message-ID made from its post and address ({want})", ids == {want}, " ".join(sorted(ids)))
        check(f"mail {job} went to {address}, answered 250", bool(mine) and all(m["to"] == address and m["rcpt"] == [address] and m["confirmed"] for m in mine),
              json.dumps([{k: m[k] for k in ("file", "to", "rcpt", "confirmed")} for m in mine])[:300])
        check(f"mail {job} carries its post's share link", bool(url) and bool(mine) and all(url in m["text"] for m in mine),
              f"{url} not in {mine[0]['text'][:300] if mine else 'no message'}")
        if len(mine) == 1 and ids == {want}:
            print(f"maildelivered {job} {post}")
    for job, post in sorted(orphans.items()):
        check(f"mail {job}, whose post never came, was not sent", not any(m["id"].startswith(f"<{post}.") for m in messages))
    seen = {}
    for m in messages:
        seen.setdefault(m["id"], []).append(m["file"])
    excused = {expected_id(*queued[j]) for j in pending if j in queued}
    twice = {i: f for i, f in seen.items() if len(f) > 1 and i not in excused}
    check(f"no mail reached the server twice ({len(messages)} received in all)", not twice, json.dumps(twice)[:300])


MIB = 1 << 20


def part_journal(post, path, video, metadata):
    """A queued post's part journal (MultipartJournal) against its own video, by Python's hashlib:
    each part it says the store acknowledged is the MD5 of that part's bytes."""
    journal, error = read_json(path)
    if journal is None:
        check(f"post {post}'s part journal reads", False, error)
        return
    size, part_size = journal.get("fileSize"), journal.get("partSize") or 0
    count = (size + part_size - 1) // part_size if size and part_size else 0
    parts = journal.get("parts") or []
    numbers = [p.get("number") for p in parts]
    fits = (journal.get("key") == metadata.get("key") and size == metadata.get("byteSize") == os.path.getsize(video)
            and journal.get("sha256") == metadata.get("sha256") and part_size >= 5 * MIB and count >= 2
            and journal.get("uploadID") and len(set(numbers)) == len(numbers) and all(isinstance(n, int) and 1 <= n <= count for n in numbers))
    check(f"post {post}'s part journal fits its video and metadata ({len(parts)} of {count} parts acknowledged)", fits,
          json.dumps({k: v for k, v in journal.items() if k != "parts"})[:300] + f" numbers {numbers}")
    if not fits:
        return
    wrong = []
    with open(video, "rb") as f:
        for part in parts:
            f.seek((part["number"] - 1) * part_size)
            md5 = hashlib.md5(f.read(part_size)).hexdigest()
            if md5 != part.get("md5") or not part.get("etag"):
                wrong.append(f"part {part['number']}: journal {part.get('md5')} etag {part.get('etag')}, bytes {md5}")
    check(f"post {post}'s acknowledged parts are its video's bytes (MD5 of each of {len(parts)} parts)", not wrong, "; ".join(wrong)[:400])
    print(f"journal {post} {len(parts)} {count} {journal['uploadID']}")


def s3(endpoint, bucket, path, output=None):
    args = ["curl", "-sS", "--fail", "--aws-sigv4", "aws:amz:us-east-1:s3",
            "--user", f"{os.environ['AWS_ACCESS_KEY_ID']}:{os.environ['AWS_SECRET_ACCESS_KEY']}",
            "-H", "x-amz-content-sha256: UNSIGNED-PAYLOAD", f"{endpoint}/{bucket}/{path}"]
    if output:
        args[1:1] = ["-o", output]
    run = subprocess.run(args, capture_output=True)
    if run.returncode != 0:
        raise OSError(f"curl {path}: {run.stderr.decode(errors='replace').strip()}")
    return run.stdout


def list_s3(endpoint, bucket):
    keys, token = [], None
    namespace = "{http://s3.amazonaws.com/doc/2006-03-01/}"
    while True:
        query = "?list-type=2" + (f"&continuation-token={token}" if token else "")
        root = ET.fromstring(s3(endpoint, bucket, query))
        keys += [c.find(f"{namespace}Key").text for c in root.findall(f"{namespace}Contents")]
        more = root.find(f"{namespace}NextContinuationToken")
        if more is None or not more.text:
            return keys
        token = more.text


def s3_xml(endpoint, bucket, path):
    return ET.fromstring(s3(endpoint, bucket, path))


NS = "{http://s3.amazonaws.com/doc/2006-03-01/}"


def open_uploads(endpoint, bucket):
    """Every multipart upload the store holds, started and neither completed nor aborted:
    [(key, upload id)], by ListMultipartUploads."""
    found, key_marker, id_marker = [], "", ""
    while True:
        query = "?uploads=" + (f"&key-marker={urllib.parse.quote(key_marker, safe='')}&upload-id-marker={urllib.parse.quote(id_marker, safe='')}" if key_marker else "")
        root = s3_xml(endpoint, bucket, query)
        found += [(u.findtext(f"{NS}Key"), u.findtext(f"{NS}UploadId")) for u in root.findall(f"{NS}Upload")]
        if root.findtext(f"{NS}IsTruncated") != "true":
            return found
        key_marker, id_marker = root.findtext(f"{NS}NextKeyMarker") or "", root.findtext(f"{NS}NextUploadIdMarker") or ""
        if not key_marker:
            return found


def stored_parts(endpoint, bucket, key, upload):
    """{part number: (ETag, size)} of an open upload, by ListParts."""
    parts, marker = {}, 0
    while True:
        root = s3_xml(endpoint, bucket, f"{key}?uploadId={urllib.parse.quote(upload, safe='')}" + (f"&part-number-marker={marker}" if marker else ""))
        for part in root.findall(f"{NS}Part"):
            parts[int(part.findtext(f"{NS}PartNumber"))] = ((part.findtext(f"{NS}ETag") or "").strip('"'), int(part.findtext(f"{NS}Size") or -1))
        if root.findtext(f"{NS}IsTruncated") != "true":
            return parts
        marker = int(root.findtext(f"{NS}NextPartNumberMarker") or 0)
        if not marker:
            return parts


def uploads(endpoint, bucket, outbox):
    queue = os.path.join(outbox, "queue")
    journals, queued_keys = {}, set()
    for name in sorted(n for n in (os.listdir(queue) if os.path.isdir(queue) else []) if not n.startswith(".")):
        metadata, _ = read_json(os.path.join(queue, name, "post.json"))
        if metadata:
            queued_keys.add(metadata.get("key"))
        journal, _ = read_json(os.path.join(queue, name, "upload.json"))
        if journal and journal.get("uploadID"):
            journals[(journal.get("key"), journal["uploadID"])] = (name.split("-", 1)[1], journal)
    try:
        found = open_uploads(endpoint, bucket)
    except (OSError, ET.ParseError) as error:
        check("the store lists its open multipart uploads", False, str(error))
        return
    for (key, upload), (post, journal) in sorted(journals.items()):
        if (key, upload) not in found:
            # Completed just before the cut, its journal not yet removed: the object is there whole.
            head = subprocess.run(["curl", "-sS", "-I", "--aws-sigv4", "aws:amz:us-east-1:s3",
                                   "--user", f"{os.environ['AWS_ACCESS_KEY_ID']}:{os.environ['AWS_SECRET_ACCESS_KEY']}",
                                   "-H", "x-amz-content-sha256: UNSIGNED-PAYLOAD", f"{endpoint}/{bucket}/{key}"], capture_output=True, text=True)
            length = re.search(r"(?im)^content-length: *([0-9]+)", head.stdout)
            check(f"post {post}'s journaled upload is open on the store, or was finished before the cut",
                  head.stdout.startswith("HTTP/1.1 200") and length is not None and int(length.group(1)) == journal["fileSize"],
                  f"the store holds no upload {upload} for {key}, and the object: {head.stdout.splitlines()[:1]} {length.group(1) if length else ''}")
            continue
        try:
            held = stored_parts(endpoint, bucket, key, upload)
        except (OSError, ET.ParseError) as error:
            check(f"the store lists the parts of post {post}'s upload", False, str(error))
            continue
        size, part_size = journal["fileSize"], journal["partSize"]
        missing = [p["number"] for p in journal.get("parts", [])
                   if held.get(p["number"]) != (p["etag"], min(part_size, size - (p["number"] - 1) * part_size))]
        check(f"the store holds every part post {post}'s journal says it acknowledged ({len(journal.get('parts', []))} journaled, {len(held)} on the store)",
              not missing, f"parts {missing}: journal {[(p['number'], p['etag']) for p in journal.get('parts', [])]}, store {held}")
    for key, upload in found:
        if (key, upload) in journals:
            continue
        # The store started it and no journal names it (its answer never came, or the cut came
        # before the journal was on the disk): the flush must abort it.
        check(f"the open upload {upload[:16]}... that no journal names is for a queued post ({key})", key in queued_keys,
              f"queued keys {sorted(queued_keys)}")
        print(f"orphan {key} {upload}")


def store(kind, args):
    if kind == "local":
        root = args[0]
        keys = []
        for top in ("videos", "posts", "thumbs", "feed"):
            folder = os.path.join(root, top)
            keys += [f"{top}/{n}" for n in (os.listdir(folder) if os.path.isdir(folder) else [])]

        def fetch(key, scratch):
            return os.path.join(root, key)
    else:
        endpoint, bucket = args
        keys = list_s3(endpoint, bucket)

        def fetch(key, scratch):
            s3(endpoint, bucket, key, scratch)
            return scratch
    videos = {m.group(1) for k in keys if (m := re.fullmatch(r"videos/([A-Za-z0-9]{10})\.mp4", k))}
    posts = {m.group(1) for k in keys if (m := re.fullmatch(r"posts/([A-Za-z0-9]{10})\.json", k))}
    thumbs = {m.group(1) for k in keys if (m := re.fullmatch(r"thumbs/([A-Za-z0-9]{10})\.jpg", k))}
    feed = [m.group(1) for k in keys if (m := re.fullmatch(r"feed/[0-9]+-([A-Za-z0-9]{10})(?:-[a-z0-9-]{1,32})?\.json", k))]
    others = [k for k in keys if not re.fullmatch(r"(videos/[A-Za-z0-9]{10}\.mp4|posts/[A-Za-z0-9]{10}\.json|"
                                                  r"thumbs/[A-Za-z0-9]{10}\.jpg|feed/[0-9]+-[A-Za-z0-9]{10}(?:-[a-z0-9-]{1,32})?\.json)", k)]
    check(f"the store holds nothing but videos, metadata, posters and feed entries ({len(others)} others)", not others, " ".join(others[:5]))
    check(f"every video in the store has its metadata ({len(videos)} videos)", videos <= posts, " ".join(sorted(videos - posts)))
    check(f"every poster in the store belongs to a post ({len(thumbs)} posters)", thumbs <= posts, " ".join(sorted(thumbs - posts)))
    check(f"the feed lists every post once and nothing else ({len(feed)} entries)", sorted(feed) == sorted(posts),
          f"in the feed only: {sorted(set(feed) - posts)}, not in the feed: {sorted(posts - set(feed))}, twice: {sorted({i for i in feed if feed.count(i) > 1})}")
    captions = {}
    scratch = "/tmp/power-cut-object"
    for post in sorted(posts):
        try:
            metadata = json.load(open(fetch(f"posts/{post}.json", scratch), "rb"))
        except (OSError, ValueError) as error:
            check(f"post {post}'s metadata reads", False, str(error))
            continue
        if post not in videos:
            check(f"post {post}'s metadata names a video that is in the store", False, f"videos/{post}.mp4 is missing")
            continue
        path = fetch(f"videos/{post}.mp4", scratch)
        size, digest = os.path.getsize(path), sha256_file(path)
        check(f"post {post}'s video is the one its metadata names ({size} bytes)",
              size == metadata.get("byteSize") and digest == metadata.get("sha256"),
              f"{size} bytes, sha256 {digest[:12]}; metadata says {metadata.get('byteSize')}, {str(metadata.get('sha256'))[:12]}")
        captions.setdefault(metadata.get("caption"), []).append(post)
        print(f"stored {post} {digest} {metadata.get('caption')}")
    twice = {c: ids for c, ids in captions.items() if len(ids) > 1}
    check(f"every shot is in the store once ({len(captions)} captions, {len(posts)} posts)", not twice, json.dumps(twice)[:300])
    if kind == "s3":
        try:
            left = open_uploads(*args)
        except (OSError, ET.ParseError) as error:
            check("the store lists its open multipart uploads", False, str(error))
        else:
            check(f"no multipart upload is left open on the store ({len(left)} open)", not left,
                  " ".join(f"{key} {upload}" for key, upload in left)[:400])


def main(argv):
    command = argv[1]
    if command == "after-cut":
        after_cut(argv[2], argv[3], *(argv[4:5]), *(int(a) for a in argv[5:6]))
    elif command == "uploads":
        uploads(argv[2], argv[3], argv[4])
    elif command == "store":
        store(argv[2], argv[3:])
    elif command == "mail-flushed":
        mail_flushed(argv[2], argv[3])
    elif command == "received":
        received(argv[2], argv[3], argv[4])
    else:
        print(f"power_cut_check.py: unknown command {command}", file=sys.stderr)
        return 64
    return min(failures, 100)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
