import Synchronization

/// A flag the recording loop polls between frames, set from a signal handler or another task.
package final class StopSignal: Sendable {
    private let flag = Atomic<Bool>(false)

    package init() {}

    package var isSet: Bool { flag.load(ordering: .acquiring) }

    package func set() { flag.store(true, ordering: .releasing) }
}
