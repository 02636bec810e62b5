/// Why `recorder serve`, the share server, could not start or stopped, with its data.
package enum ServeFailure: RecorderFailure {
    /// serve.listen's address and port are taken by another program.
    case addressInUse(address: String, port: Int)
    /// serve.listen names an address this machine does not have.
    case notAnAddressHere(host: String)
    /// A port below 1024 without the right to bind it.
    case privilegedPort(host: String, port: Int)
    /// The server stopped for another reason (the system's words).
    case serverStopped(reason: String, address: String)
    /// serve.token_file, set by the organiser (`origin`), names an empty file: without the
    /// operator's token the share server serves no fleet page.
    case fleetTokenEmpty(path: String, origin: String)

    package var kind: RecorderError.Kind {
        switch self {
        case .notAnAddressHere, .fleetTokenEmpty: .misconfigured
        case .addressInUse, .serverStopped: .unavailable
        case .privilegedPort: .denied
        }
    }
}

extension ServeFailure {
    package var wrapped: RecorderError { .serve(self) }

    package init?(unwrapping error: RecorderError) {
        guard case .serve(let failure) = error else { return nil }
        self = failure
    }
}
