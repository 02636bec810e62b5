import Synchronization

/// A flag the recording loop polls between frames, set from a signal handler or another task.
public final class StopSignal: Sendable {
    private let flag = Atomic<Bool>(false)

    public init() {}

    public var isSet: Bool { flag.load(ordering: .acquiring) }

    public func set() { flag.store(true, ordering: .releasing) }
}
