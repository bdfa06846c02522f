import BellasReefAPI
import BridgeCore
import Logging
import Synchronization

/// The snapshot the pollers and commands share, and the signal that it changed: the one
/// publishing loop wakes on it, so topics go out in the order the changes were made.
final class ReefState: Sendable {
    private let snapshot = Mutex(ReefSnapshot())
    let changed = Wakeup()
    private let logger: Logger

    init(logger: Logger) {
        self.logger = logger
    }

    func read<T: Sendable>(_ body: (ReefSnapshot) -> T) -> T {
        snapshot.withLock { body($0) }
    }

    /// Changes the snapshot and wakes the publisher.
    @discardableResult
    func update<T: Sendable>(_ body: (inout ReefSnapshot) -> T) -> T {
        defer { changed.signal() }
        return snapshot.withLock { body(&$0) }
    }

    func serviceAnswered(_ service: BellasReefService) {
        let wasAvailable = update { snapshot in
            defer {
                snapshot.services[service, default: ServiceStatus()].available = true
                snapshot.services[service]?.judged = true
                snapshot.services[service]?.error = nil
            }
            return snapshot.service(service).available
        }
        if !wasAvailable { logger.info("Bella's Reef service is reachable", metadata: ["service": "\(service.rawValue)"]) }
    }

    func serviceFailed(_ service: BellasReefService, _ error: any Error) {
        // A request cut short because the bridge is stopping says nothing of the service.
        guard !(error is CancellationError) else { return }
        let previousError = update { snapshot in
            defer {
                snapshot.services[service, default: ServiceStatus()].available = false
                snapshot.services[service]?.judged = true
                snapshot.services[service]?.error = "\(error)"
            }
            return snapshot.service(service).error
        }
        // The change is logged, not every failed poll: a service away for an hour writes one line.
        // A certificate problem is logged again when its words change: the handshake refused by a
        // pin says little, the probe of the next try names both fingerprints.
        if previousError == nil || (ReefUpstream.isCertificateFailure(error) && previousError != "\(error)") {
            logger.warning("Bella's Reef service is unavailable", metadata: ["service": "\(service.rawValue)", "error": "\(error)"])
        }
    }
}
