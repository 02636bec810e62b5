import Glibc
import NIOCore
package import ServiceLifecycle

/// The proxy's listener (`kiosk.proxy_socket`) as a service of the kiosk's group: the kiosk's
/// routes on a Unix socket of the reverse proxy's alone, beside kiosk.listen. A socket it cannot
/// make stops the kiosk with the setting named (`KioskDaemon.failure`).
package struct ProxyListener: Service {
    /// The HTTP application bound to the socket.
    let app: any Service
    let path: String

    package init(app: any Service, path: String) {
        self.app = app
        self.path = path
    }

    /// Why the socket could not be made.
    package struct Failed: Error {
        package var path: String
        package var reason: String
    }

    package func run() async throws {
        do {
            try await app.run()
        } catch let error as IOError {
            throw Failed(path: path, reason: String(cString: strerror(error.errnoCode)))
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw Failed(path: path, reason: "\(error)")
        }
    }
}
