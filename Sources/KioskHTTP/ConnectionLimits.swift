import NIOCore
import Synchronization

/// How many connections the kiosk holds open: at most `total` from other machines, and at most
/// `perClient` from any one address. A connection over either is closed as soon as it is accepted,
/// so a flood costs one file descriptor for a moment, never the booth: the booth's own browser on
/// loopback is never refused for the total. The proxy's connections (`kiosk.proxy_socket`: phones,
/// which the proxy names only in their requests) count toward the total; each phone's share is the
/// proxy's to keep (the shipped nginx configuration: 8 per phone, an IPv6 phone by its /64), and its
/// video answers the kiosk's (`ClientSlots`). What a connection may then do alone is bounded by
/// the idle timeout (a request's head must arrive, and a kept-alive connection be used again,
/// within `KioskDaemon.idleTimeout`) and by `BodyPace` (its body, whole, soon after).
///
/// Of an address's connections, at most `bodiesPerClient` may be sending a request's body at
/// once (`takeBody`): a body is where a slow client holds a connection longest, and a phone
/// through the proxy, which the proxy names only in its request's head, is counted here by its
/// own address, not as one of the proxy's many.
package final class ConnectionLimits: Sendable {
    package let total: Int
    package let perClient: Int
    /// Connections of one address that may be sending a body at once (this machine's own: any).
    package static let bodiesPerClient = 4
    private let counts = Mutex<(total: Int, clients: [ClientAddress: Int], refused: Int)>((0, [:], 0))
    private let bodies = Mutex<[ClientAddress: Int]>([:])

    package init(total: Int, perClient: Int) {
        self.total = total
        self.perClient = perClient
    }

    /// A place for a request body that `client` is sending, given back when the `BodyPlace` goes;
    /// nil when the address already sends `bodiesPerClient` (the request is refused, its
    /// connection closed).
    package func takeBody(_ client: ClientAddress) -> BodyPlace? {
        if client.isLoopback { return BodyPlace(self, nil) }
        let taken = bodies.withLock { bodies -> Bool in
            let mine = bodies[client, default: 0]
            guard mine < Self.bodiesPerClient else { return false }
            bodies[client] = mine + 1
            return true
        }
        if !taken { counts.withLock { $0.refused += 1 } }
        return taken ? BodyPlace(self, client) : nil
    }

    fileprivate func giveBody(_ client: ClientAddress) {
        bodies.withLock { bodies in
            let mine = bodies[client, default: 1] - 1
            bodies[client] = mine > 0 ? mine : nil
        }
    }

    /// Bodies being sent now, from other machines.
    package var bodiesInFlight: Int { bodies.withLock { $0.values.reduce(0, +) } }

    /// One body's place, given back when the last reference to it goes.
    package final class BodyPlace: Sendable {
        private let limits: ConnectionLimits
        private let client: ClientAddress?

        fileprivate init(_ limits: ConnectionLimits, _ client: ClientAddress?) {
            self.limits = limits
            self.client = client
        }

        deinit { if let client { limits.giveBody(client) } }
    }

    /// Takes a place for a connection from `client`; false when it must be closed.
    func open(_ client: ClientAddress) -> Bool {
        counts.withLock { counts in
            let mine = counts.clients[client, default: 0]
            guard client.isLoopback || ((client == .proxy || mine < perClient) && counts.total < total) else {
                counts.refused += 1
                return false
            }
            counts.clients[client] = mine + 1
            if !client.isLoopback { counts.total += 1 }
            return true
        }
    }

    func close(_ client: ClientAddress) {
        counts.withLock { counts in
            let mine = counts.clients[client, default: 1] - 1
            counts.clients[client] = mine > 0 ? mine : nil
            if !client.isLoopback { counts.total = max(0, counts.total - 1) }
        }
    }

    /// Open connections (loopback ones included) and those refused so far, for the metrics.
    package var snapshot: (open: Int, refused: Int) {
        counts.withLock { ($0.clients.values.reduce(0, +), $0.refused) }
    }

    /// The most connections seen open since a crowd was last found gone (`crowdLeft()`).
    private let highWater = Mutex<Int>(0)

    /// How many connections must have closed since the most seen before the memory they used is
    /// given back (`FreedMemory`): 32 stalled video readers held about 3 MiB.
    static let crowd = 32

    /// Whether, since the last time this said so, the open connections fell by `crowd` or more
    /// from the most seen: a crowd left, and what it used can go back to the system. Asked once a
    /// second (`CameraService`).
    package func crowdLeft() -> Bool {
        let open = snapshot.open
        return highWater.withLock { high in
            if open >= high {
                high = open
                return false
            }
            guard high - open >= Self.crowd else { return false }
            high = open
            return true
        }
    }

    /// The channel handler that keeps the count, one per connection.
    package func gate() -> ConnectionGate { ConnectionGate(limits: self) }
}

/// Counts its connection in `ConnectionLimits` for as long as it is open, and closes it at once when
/// there is no place for it. It passes every request part through untouched.
package final class ConnectionGate: ChannelInboundHandler, RemovableChannelHandler {
    // It sits after the HTTP decoder and passes its request parts on as they are, never unwrapping one.
    typealias InboundIn = Any
    typealias InboundOut = Any

    private let limits: ConnectionLimits
    private var counted: ClientAddress?

    init(limits: ConnectionLimits) {
        self.limits = limits
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { admit(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        admit(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        release()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        release()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // Nothing is read for a connection that had no place (it is closing).
        guard counted != nil else { return }
        context.fireChannelRead(data)
    }

    private func admit(_ context: ChannelHandlerContext) {
        guard counted == nil else { return }
        let client = context.channel.localAddress?.protocol == .unix ? .proxy : ClientAddress(context.channel.remoteAddress)
        if limits.open(client) {
            counted = client
        } else {
            context.close(promise: nil)
        }
    }

    private func release() {
        if let client = counted { limits.close(client) }
        counted = nil
    }
}
