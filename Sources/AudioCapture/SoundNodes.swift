internal import CAlsa
#if canImport(Glibc)
import Glibc
#endif
internal import SystemSupport

/// The /dev/snd nodes behind an ALSA name, and who holds them: what an open failure needs to name
/// the fix.
enum SoundNodes {
    static let directory = "/dev/snd"

    /// The card and device an ALSA name opens: `hw:CARD=Loopback,DEV=1`, `plughw:1,0`, `hw:0`;
    /// nil for names that are not of one card (`default`, `null`, a sound server) or a card that is
    /// not there.
    static func cardAndDevice(of name: String) -> (card: Int, device: Int)? {
        guard let colon = name.firstIndex(of: ":") else { return nil }
        let kind = name[..<colon]
        guard ["hw", "plughw", "dsnoop", "sysdefault", "front"].contains(kind) else { return nil }
        var card: String?
        var device = 0
        for (position, argument) in name[name.index(after: colon)...].split(separator: ",").enumerated() {
            let pair = argument.split(separator: "=", maxSplits: 1)
            let key = pair.count == 2 ? pair[0].uppercased() : (position == 0 ? "CARD" : position == 1 ? "DEV" : "")
            let value = String(pair.count == 2 ? pair[1] : argument).trimmed { $0 == "\"" || $0 == "'" }
            switch key {
            case "CARD": card = value
            case "DEV": device = Int(value) ?? 0
            default: break
            }
        }
        guard let card else { return nil }
        // Accepts an index or an id; fails for a card that is not there (or cannot be opened).
        let index = snd_card_get_index(card)
        return index >= 0 ? (Int(index), device) : nil
    }

    /// The capture node of a card's device: `/dev/snd/pcmC1D0c`.
    static func captureNode(card: Int, device: Int) -> String { "\(directory)/pcmC\(card)D\(device)c" }

    /// "1234 (arecord), 5678 (pipewire)": the processes that have `node` open (any capture node
    /// when nil), found through /proc/<pid>/fd; nil when none is found (another user's processes
    /// are not visible without privileges).
    static func holders(of node: String?) -> String? {
        var found: [String] = []
        for entry in listDirectory("/proc") {
            guard let pid = Int32(entry) else { continue }
            let fds = "/proc/\(entry)/fd"
            let holds = listDirectory(fds).contains { fd in
                guard let target = readLink("\(fds)/\(fd)") else { return false }
                if let node { return target == node }
                return isCaptureNode(target)
            }
            guard holds else { continue }
            let command = (try? readSmallFile("/proc/\(entry)/comm"))?.trimmed() ?? "?"
            found.append("\(pid) (\(command))")
        }
        return found.isEmpty ? nil : found.joined(separator: ", ")
    }

    /// Whether `path` names a PCM capture node, `/dev/snd/pcmC<n>D<m>c`.
    static func isCaptureNode(_ path: String) -> Bool {
        let name = FilePaths.name(of: path)
        return FilePaths.directory(of: path) == directory && name.hasPrefix("pcmC") && name.hasSuffix("c")
    }

    /// A /dev/snd control node this user may not open, if there is one: alsa-lib then does not see
    /// the card at all and reports it missing (ENODEV) where the cause is permissions.
    static func forbiddenControlNode() -> String? {
        listDirectory(directory).sorted().lazy.filter { $0.hasPrefix("controlC") }
            .map { "\(directory)/\($0)" }.first { node in
                do throws(Descriptors.Errno) { try Posix.access(node, R_OK | W_OK) } catch { return error.code == EACCES }
                return false
            }
    }

    static func listDirectory(_ path: String) -> [String] { DirectoryListing.namesIfReadable(path) }

    private static func readLink(_ path: String) -> String? {
        // (no link, or an empty one: no answer, as for a node that is not there)
        guard let target = try? Posix.linkTarget(path), !target.isEmpty else { return nil }
        return target
    }

    private static func readSmallFile(_ path: String) throws(Descriptors.Errno) -> String {
        let fd = try Posix.open(path, O_RDONLY | O_CLOEXEC)
        defer { Posix.closeAfterUse(fd) }
        return String(decoding: try Posix.read(fd, count: 256, at: 0), as: UTF8.self)
    }
}
