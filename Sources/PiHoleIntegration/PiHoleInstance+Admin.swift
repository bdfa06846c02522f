import BridgeCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PiHoleAPI

/// Commands beyond blocking and domains: groups, the query log, admin actions.
extension PiHoleInstance {
    /// Whether a group of this name is on the Pi-hole now (read afresh, not from the last poll).
    func currentGroup(_ name: String) async throws -> PiHoleGroup? {
        try await measured { try await $0.groups() }.first { $0.name == name }
    }

    /// Switches a group, sending its whole object back with only `enabled` changed.
    func setGroup(_ name: String, enabled: Bool) async throws -> PiHoleGroup {
        let group = try await measured { try await $0.setGroupEnabled(name, enabled) }
        markAvailable()
        if var groups = snapshot.details.groups, let index = groups.firstIndex(where: { $0.name == name }) {
            groups[index] = group
            updateSnapshot { $0.details.groups = groups }
        }
        return group
    }

    /// Blocked queries of the request's window, newest first.
    func blockedQueries(_ request: RecentlyBlockedRequest, now: Date = Date()) async throws(CommandError) -> PiHoleQueryPage {
        do {
            let from = now.addingTimeInterval(-Double(request.minutes * 60))
            return try await measured {
                try await $0.blockedQueries(from: from, until: now, clientIP: request.client, limit: RecentlyBlockedAnswer.queriesPerPiHole)
            }
        } catch {
            throw commandError(error)
        }
    }

    /// Runs an admin action; gravity answers when its run has ended, with the end of its output.
    func perform(_ action: PiHoleAction, gravityTimeout: Duration) async throws(CommandError) -> JSONValue {
        do {
            switch action {
            case .gravity:
                let started = ContinuousClock.now
                let result = try await measured { try await $0.runGravity(timeout: gravityTimeout) }
                let seconds = (started.duration(to: .now) / .milliseconds(100)).rounded() / 10
                guard result.succeeded else {
                    let failures = result.failures.isEmpty ? result.lastLines : result.failures
                    throw CommandError("\(id): gravity failed after \(seconds) s: \(failures.suffix(5).joined(separator: " | "))", code: .upstreamRefused)
                }
                return [
                    "action": "gravity", "result": "ok", "seconds": .number(seconds), "lines": .number(Double(result.lineCount)),
                    "last_lines": .array(result.lastLines.map(JSONValue.string)),
                ]
            case .restartDNS:
                try await measured { try await $0.restartDNS() }
            case .flushLogs:
                try await measured { try await $0.flushLogs() }
            }
            markAvailable()
            return ["action": .string(action.rawValue), "result": "ok"]
        } catch let error as CommandError {
            throw error
        } catch {
            throw commandError(error)
        }
    }
}
