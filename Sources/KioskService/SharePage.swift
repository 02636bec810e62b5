import FoundationEssentials
import RecorderCore

/// The page a guest's phone opens from the QR code (`/s/<token>`, the local store's share link):
/// the one video, its caption and a download button, in the booth's language, with no script from
/// elsewhere and nothing that leads to another post.
enum SharePage {
    /// The page for `metadata`'s video at `videoPath`, the link working until `expires`.
    static func html(_ metadata: PostMetadata, videoPath: String, expires: Date, language: String) -> String {
        let lang = GuestStrings.languages.contains(language) ? language : "en"
        func t(_ key: GuestStrings.Key) -> String { escaped(GuestStrings.text(key, lang)) }
        let iso = RFC3339.string(expires)
        let caption = metadata.caption.isEmpty ? "" : #"<p class="said" dir="auto">\#(escaped(metadata.caption))</p>"#
        return #"""
<!doctype html>
<html lang="\#(lang)">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>\#(t(.shareTitle))</title>
<link rel="icon" href="data:,">
<style>
  :root { color-scheme: dark; }
  html, body { margin: 0; background: #111; color: #eee; font: 18px/1.4 system-ui, "Noto Color Emoji", sans-serif; }
  main { max-width: 720px; margin: 0 auto; padding: 16px; display: flex; flex-direction: column; gap: 14px; }
  h1 { font-size: 1.3em; margin: 4px 0; }
  video { width: 100%; max-height: 70vh; background: #000; border-radius: 12px; }
  .said { unicode-bidi: isolate; white-space: pre-wrap; overflow-wrap: anywhere; margin: 0; font-size: 1.1em; }
  a.download { display: block; text-align: center; background: #e53935; color: #fff; text-decoration: none; font-weight: 700;
               padding: 18px; border-radius: 14px; font-size: 1.15em; }
  .until { opacity: .7; font-size: .9em; margin: 0; }
</style>
</head>
<body>
<main>
  <h1>\#(t(.shareTitle))</h1>
  <video id="video" src="\#(videoPath)" controls playsinline preload="metadata"></video>
  \#(caption)
  <a class="download" href="\#(videoPath)" download="\#(metadata.id).mp4">\#(t(.download))</a>
  <p class="until">\#(t(.linkUntil).replacing("{n}", with: #"<time datetime="\#(iso)">\#(iso)</time>"#))</p>
</main>
<script>
  // The expiry in the phone's own time zone and words.
  for (const el of document.querySelectorAll("time")) el.textContent = new Date(el.dateTime).toLocaleString(document.documentElement.lang);
</script>
</body>
</html>
"""#
    }

    /// The one answer for a share link that opens nothing: a wrong token, an expired link, a hidden
    /// or removed post alike.
    static func gone(language: String) -> String {
        let lang = GuestStrings.languages.contains(language) ? language : "en"
        return #"""
<!doctype html>
<html lang="\#(lang)"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>\#(escaped(GuestStrings.text(.shareTitle, lang)))</title><link rel="icon" href="data:,">
<style>html, body { margin: 0; background: #111; color: #eee; font: 18px/1.4 system-ui, sans-serif; } main { max-width: 720px; margin: 0 auto; padding: 32px 16px; }</style>
</head><body><main><h1>\#(escaped(GuestStrings.text(.shareGone, lang)))</h1></main></body></html>
"""#
    }

    /// Text made safe inside HTML elements and quoted attributes.
    static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(c)
            }
        }
        return out
    }
}
