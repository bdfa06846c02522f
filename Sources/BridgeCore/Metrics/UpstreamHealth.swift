#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// What each upstream device's requests last did, for `bridge/health` and the diagnostic entities
/// of each device in Home Assistant: when one last succeeded, and the last error and its time.
///
/// One record per upstream (`pihole/main`, `reef/outlets`), kept as the metrics' handles are: an
/// integration a reload makes anew carries on its predecessor's records.
final class UpstreamHealth: Sendable {
    struct Record: Sendable, Equatable {
        var lastSuccess: Date?
        var lastError: String?
        var lastErrorAt: Date?

        /// Failing now: its last error is newer than its last success.
        var isFailing: Bool { lastErrorAt.map { $0 > lastSuccess ?? .distantPast } ?? false }
    }

    /// A state's length in Home Assistant: a longer error would be refused there.
    static let errorLength = 255

    private let records = Mutex<[String: Record]>([:])
    /// Signalled when an upstream first answers, starts failing, fails otherwise than before, or
    /// answers again: `bridge/health` goes out then, not only every minute.
    let changed = Wakeup()

    /// An upstream's name in `bridge/health`.
    static func key(integration: String, instance: String) -> String {
        "\(integration)/\(instance)"
    }

    func register(_ key: String) {
        records.withLock { records in
            if records[key] == nil { records[key] = Record() }
        }
    }

    /// The integration's section was removed by a reload.
    func forget(integration: String) {
        records.withLock { records in
            records = records.filter { !$0.key.hasPrefix(integration + "/") }
        }
    }

    /// Of a registered upstream only: one a reload removed records nothing.
    func recordSuccess(_ key: String, at date: Date) {
        let isNews = records.withLock { records in
            guard let record = records[key] else { return false }
            records[key]?.lastSuccess = date
            return record.lastSuccess == nil || record.isFailing
        }
        if isNews { changed.signal() }
    }

    func recordFailure(_ key: String, _ error: any Error, at date: Date) {
        let message = String(String(describing: error).prefix(Self.errorLength))
        let isNews = records.withLock { records in
            guard let record = records[key] else { return false }
            records[key]?.lastError = message
            records[key]?.lastErrorAt = date
            return !record.isFailing || record.lastError != message
        }
        if isNews { changed.signal() }
    }

    var snapshot: [String: Record] {
        records.withLock { $0 }
    }
}
