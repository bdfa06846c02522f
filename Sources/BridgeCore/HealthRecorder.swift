#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// When each integration last talked to its upstream successfully, for `bridge/health`.
final class HealthRecorder: Sendable {
    private let lastSuccess = Mutex<[String: Date]>([:])

    func recordSuccess(integration: String, at date: Date = Date()) {
        lastSuccess.withLock { $0[integration] = date }
    }

    func forget(integration: String) {
        lastSuccess.withLock { $0[integration] = nil }
    }

    var snapshot: [String: Date] {
        lastSuccess.withLock { $0 }
    }
}
