import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A real SeaweedFS S3 server on loopback (Tests/s3/seaweedfs.sh) behind the fault-injecting
/// proxy (Tests/s3/faultproxy.py), plus curl with SigV4 as the independent client.
final class S3Fixture {
    static let access = "recorder-test"
    static let secret = "recorder-test-secret"
    static let bucket = "clips"

    let dir: String
    let serverPort: Int
    private(set) var proxyPort = 0
    private var proxy: Process?

    static var repository: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }

    /// Starts the server and the proxy; fails the test (never skips) when either cannot start.
    init() throws {
        dir = try Tools.tempDirectory()
        // SeaweedFS also listens on the S3 port + 10000 (gRPC): keep both below the ephemeral range.
        var server = 0
        for _ in 0..<100 {
            let candidate = Int.random(in: 20_000...22_000)
            if Self.isFree(candidate) && Self.isFree(candidate + 10_000) { server = candidate; break }
        }
        try #require(server != 0, "no free port pair for SeaweedFS")
        serverPort = server
        try startServer()
        try FileManager.default.createDirectory(atPath: "\(dir)/proxy", withIntermediateDirectories: true)
        // Port 0: the proxy binds a port the kernel picks and says which in proxy/ready.
        let (proxy, port) = try Self.startHelper(try Tools.path(of: "python3"), ["\(Self.repository)/Tests/s3/faultproxy.py", "0", "\(serverPort)", "\(dir)/proxy"],
                                                 log: "\(dir)/proxy.log", ready: "\(dir)/proxy/ready", name: "the fault proxy")
        self.proxy = proxy
        proxyPort = port
    }

    /// Starts a helper server (`python` running `arguments`, its standard error into `log`) and
    /// waits for the port it writes to `ready` once it listens. Fails the test (never skips) when
    /// it does not start; the caller stops it (`stop`).
    static func startHelper(_ python: String, _ arguments: [String], log: String, ready: String, name: String,
                            advice: String = "") throws -> (Process, Int) {
        let helper = Process()
        helper.executableURL = URL(fileURLWithPath: python)
        helper.arguments = arguments
        helper.standardOutput = FileHandle.nullDevice
        FileManager.default.createFile(atPath: log, contents: nil)
        helper.standardError = FileHandle(forWritingAtPath: log) ?? FileHandle.nullDevice
        try helper.run()
        // Generous: a loaded 2-core CI machine can take seconds to start Python.
        for _ in 0..<1200 where !FileManager.default.fileExists(atPath: ready) && helper.isRunning { usleep(50_000) }
        let said = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        guard FileManager.default.fileExists(atPath: ready) else {
            stop(helper)
            try #require(Bool(false), "\(name) did not start\(advice): \(said)")
            return (helper, 0)
        }
        let text = try String(contentsOfFile: ready, encoding: .utf8)
        let port = Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
        if port == nil { stop(helper) }
        return (helper, try #require(port, "\(name)'s ready file says no port: \(text)"))
    }

    deinit {
        if let proxy { Self.stop(proxy) }
        // Killed, not stopped: its data goes with `dir`, and a gentle stop costs 4 s per test.
        _ = try? Tools.run("bash", ["\(Self.repository)/Tests/s3/seaweedfs.sh", "kill", "\(dir)/server"])
        try? FileManager.default.removeItem(atPath: dir)
    }

    /// SIGTERM, then SIGKILL if the process is still there 5 s later; reaps it either way.
    static func stop(_ process: Process) {
        guard process.isRunning else { return }
        process.terminate()
        for _ in 0..<100 where process.isRunning { usleep(50_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    func startServer() throws {
        let result = try Tools.run("bash", ["\(Self.repository)/Tests/s3/seaweedfs.sh", "start", "\(dir)/server", "\(serverPort)", Self.bucket])
        try #require(result.status == 0, "SeaweedFS did not start (run the README's test command, which fetches it): \(result.stderr)")
    }

    func stopServer() {
        _ = try? Tools.run("bash", ["\(Self.repository)/Tests/s3/seaweedfs.sh", "stop", "\(dir)/server"])
    }

    /// Settings that point `recorder` at the store through the proxy.
    var environment: [String: String] {
        ["RECORDER_BACKEND": "s3", "RECORDER_S3_ENDPOINT": "http://127.0.0.1:\(proxyPort)", "RECORDER_S3_BUCKET": Self.bucket,
         "RECORDER_S3_REGION": "us-east-1", "AWS_ACCESS_KEY_ID": Self.access, "AWS_SECRET_ACCESS_KEY": Self.secret,
         "RECORDER_RETRY_INITIAL_SECONDS": "0.2", "RECORDER_RETRY_MAX_SECONDS": "1",
         "RECORDER_NETWORK_STALL_TIMEOUT_SECONDS": "2", "RECORDER_NETWORK_CONNECT_TIMEOUT_SECONDS": "2"]
    }

    /// Settings for a multipart upload of the large test shot: 5 MiB parts.
    static let multipart = ["RECORDER_S3_MULTIPART_THRESHOLD_MIB": "5", "RECORDER_S3_PART_SIZE_MIB": "5"]

    /// Replaces the proxy's fault rules (see faultproxy.py).
    func faults(_ rules: [[String: Any]]) throws {
        let data = try JSONSerialization.data(withJSONObject: rules)
        try data.write(to: URL(fileURLWithPath: "\(dir)/proxy/faults.json.new"))
        rename("\(dir)/proxy/faults.json.new", "\(dir)/proxy/faults.json")
    }

    /// The requests the proxy saw, parsed from its request lines ("PUT /clips/videos/x.mp4?partNumber=1&uploadId=...").
    /// A line that does not parse fails the test: a check for a request's absence must not pass
    /// because its line was dropped.
    func requests() -> [S3Request] {
        requestLog().split(separator: "\n").filter { !$0.hasPrefix(" ") }.compactMap { line in
            guard let request = S3Request(line: String(line)) else {
                Issue.record("the proxy logged a request line that does not parse: \(line)")
                return nil
            }
            return request
        }
    }

    /// The proxy's full log: each request line, then its headers indented.
    func requestLog() -> String {
        (try? String(contentsOfFile: "\(dir)/proxy/requests.log", encoding: .utf8)) ?? ""
    }

    func clearRequests() { unlink("\(dir)/proxy/requests.log") }

    /// Makes the proxy answer with ETags that are not MD5s (as SSE-KMS does), or stop doing so.
    func opaqueETags(_ on: Bool) {
        if on { FileManager.default.createFile(atPath: "\(dir)/proxy/opaque-etags", contents: Data()) } else { unlink("\(dir)/proxy/opaque-etags") }
    }

    private func curl(_ arguments: [String]) throws -> Tools.Output {
        try Tools.run("curl", ["-sS", "--aws-sigv4", "aws:amz:us-east-1:s3", "--user", "\(Self.access):\(Self.secret)",
                               "-H", "x-amz-content-sha256: UNSIGNED-PAYLOAD"] + arguments)
    }

    /// Downloads an object straight from the server (not through the proxy) with curl.
    func get(_ key: String, to path: String) throws -> Int {
        let result = try curl(["-o", path, "-w", "%{http_code}", "http://127.0.0.1:\(serverPort)/\(Self.bucket)/\(key)"])
        return Int(result.stdout) ?? 0
    }

    /// The object's ETag (unquoted), or nil when it does not exist.
    func etag(_ key: String) throws -> String? {
        let result = try curl(["-I", "http://127.0.0.1:\(serverPort)/\(Self.bucket)/\(key)"])
        guard result.stdout.hasPrefix("HTTP/1.1 200") else { return nil }
        for line in result.stdout.split(separator: "\r\n") where line.lowercased().hasPrefix("etag:") {
            return line.dropFirst(5).trimmingCharacters(in: CharacterSet(charactersIn: " \""))
        }
        return nil
    }

    /// Keys under `prefix` (ListObjectsV2).
    func keys(prefix: String) throws -> [String] {
        let result = try curl(["http://127.0.0.1:\(serverPort)/\(Self.bucket)?list-type=2&prefix=\(prefix.replacingOccurrences(of: "/", with: "%2F"))"])
        var keys: [String] = []
        var rest = Substring(result.stdout)
        while let open = rest.range(of: "<Key>"), let close = rest.range(of: "</Key>", range: open.upperBound..<rest.endIndex) {
            keys.append(String(rest[open.upperBound..<close.lowerBound]))
            rest = rest[close.upperBound...]
        }
        return keys
    }

    /// Multipart uploads the store still holds (started, neither completed nor aborted).
    func pendingUploads() throws -> Int {
        let result = try curl(["http://127.0.0.1:\(serverPort)/\(Self.bucket)?uploads="])
        return result.stdout.components(separatedBy: "<UploadId>").count - 1
    }

    static func isFree(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    /// A free port for a process the test starts itself (a kiosk): below the ephemeral range, so no
    /// outgoing connection takes it between this check and the process binding it (as bind(0)'s can).
    static func listenPort() throws -> Int {
        for _ in 0..<200 {
            let candidate = Int.random(in: 23_000...29_999)
            if isFree(candidate) { return candidate }
        }
        try #require(Bool(false), "no free port from 23000 to 29999")
        return 0
    }

    /// A port nothing listens on (for a store that refuses connections).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        try #require(bound, "no free port")
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
