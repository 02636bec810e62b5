import Hummingbird
import ShareServer

/// The kiosk's page files: HTML, CSS and JavaScript kept as files in `Sources/KioskService/Pages`
/// (linted and unit-tested there: Tests/pages) and put into the binary at build time by the
/// EmbedPages plugin. The HTML is served by its page's route; scripts and styles at
/// `/assets/<name>`, so every page runs under a CSP with no inline script or style. The share
/// pages' files (and the style sheet and dates the kiosk's pages share with them) are ShareServer's.
enum PageFiles {
    /// The text of page file `name`. Every name the kiosk asks for is one of its own files, put in
    /// by the build: a missing one is a build mistake, not a request's.
    static func text(_ name: String) -> String {
        guard let text = EmbeddedPages.files[name] else { preconditionFailure("page file \(name) was not embedded (Sources/KioskService/Pages)") }
        return text
    }

    /// The answer for `/assets/<name>`: a script or a style sheet of the kiosk's or the share
    /// pages', or nil (404) for anything else.
    static func asset(_ name: String) -> Response? {
        PageText.asset(name, in: EmbeddedPages.files) ?? ShareFiles.asset(name)
    }
}
