import Foundation
import Glibc
import Testing
@testable import Settings
@testable import Publishing
import SystemSupport
import DurableFiles

/// What a command run by root beside the service leaves in the service's places (issue 49): the
/// booth's state directory is the service user's, set-group-ID and shared with its group (mode
/// 2770, as the unit's StateDirectoryMode= makes it). Root's outbox, lock and files there must be
/// the service's own, its group's to read and write, and each directory must pass the group on;
/// anywhere else a file stays as private as it was asked to be. (The tests run as root, as CI does.)
@Suite struct SharedPlacesTests {
    /// The service's user and group here: nobody and nogroup, as a user that is not root.
    static let service: (uid: UInt32, gid: UInt32) = (65534, 65534)

    private func place(mode: mode_t, owner: (uid: UInt32, gid: UInt32)?) throws -> String {
        let root = NSTemporaryDirectory() + "shared-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        if let owner { try #require(chown(root, owner.uid, owner.gid) == 0, "chown needs root: \(String(cString: strerror(errno)))") }
        try #require(chmod(root, mode) == 0)
        return root
    }

    /// Every entry under `root` with its owner, group and mode.
    private func entries(_ root: String) throws -> [(path: String, status: FileStatus)] {
        try FileManager.default.subpathsOfDirectory(atPath: root).sorted().map { ("\(root)/\($0)", try Posix.status(of: "\(root)/\($0)")) }
    }

    @Test func rootsOutboxInTheServicesPlaceIsTheServicesAndItsGroupsToWrite() throws {
        try #require(geteuid() == 0, "run as root, as CI does")
        let root = try place(mode: 0o2770, owner: Self.service)
        defer { try? FileManager.default.removeItem(atPath: root) }
        // What `recorder outbox flush` makes first: the outbox's folders, its lock, a record.
        let outbox = Outbox(root: root + "/outbox")
        try outbox.prepare()
        let lock = try outbox.lock()
        _ = consume lock
        try DurableFile.write(Data("{}".utf8), to: root + "/outbox/sent/K7Q2.json")
        let made = try entries(root)
        #expect(made.count >= 5, "\(made.map(\.path))")
        for (path, status) in made {
            #expect(status.owner == Self.service.uid && status.group == Self.service.gid,
                    "\(path) is \(status.owner):\(status.group), not the service's")
            let owner = status.permissions & 0o700, group = status.permissions & 0o070
            // (others: what the mode and umask say; the place itself, 2770, keeps them out)
            #expect(group == owner >> 3, "\(path): mode \(String(status.permissions, radix: 8))")
            if status.isDirectory { #expect(status.permissions & UInt32(S_ISGID) != 0, "\(path) does not pass the group on") }
        }
    }

    @Test func aPlaceOfOnesOwnStaysAsPrivateAsAsked() throws {
        let root = try place(mode: 0o755, owner: nil)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let outbox = Outbox(root: root + "/outbox")
        try outbox.prepare()
        let lock = try outbox.lock()
        _ = consume lock
        for (path, status) in try entries(root) {
            #expect(status.owner == geteuid(), "\(path)")
            #expect(status.permissions & 0o077 == 0 && status.permissions & UInt32(S_ISGID) == 0, "\(path): mode \(String(status.permissions, radix: 8))")
        }
    }
}
