#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// The `bridge/health` report: is the bridge alive, how big is it, which upstreams answer, what
/// it still has to put back.
struct BridgeHealth: Sendable {
    let uptime: Duration
    let reconnects: Int
    let lastSuccess: [String: Date]
    let upstreams: [String: UpstreamHealth.Record]
    let pendingRestores: Int

    var payload: JSONValue {
        let date = { (date: Date?) in date.map { JSONValue.string($0.iso8601) } ?? .null }
        return [
            "uptime_seconds": .number(Double(uptime.components.seconds)),
            "resident_memory_bytes": Self.residentMemoryBytes.map { .number(Double($0)) } ?? .null,
            "mqtt_reconnects": .number(Double(reconnects)),
            "last_success": .object(lastSuccess.mapValues { .string($0.iso8601) }),
            "upstreams": .object(upstreams.mapValues { record in
                [
                    "last_success": date(record.lastSuccess), "last_error": record.lastError.map(JSONValue.string) ?? .null,
                    "last_error_at": date(record.lastErrorAt), "failing": .bool(record.isFailing),
                ]
            }),
            "pending_restores": .number(Double(pendingRestores)),
        ]
    }

    /// Resident set size from `/proc/self/statm` (its second field, in pages).
    static var residentMemoryBytes: Int? {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
