import BridgeCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PiHoleAPI

/// The slower reads, each on its own cadence.
enum PiHoleDetailRead: Hashable, Sendable, CaseIterable {
    /// `GET /api/stats/summary`.
    case stats
    /// `GET /api/groups`.
    case groups
    /// `GET /api/clients`: the configured clients and their groups.
    case clients
    /// `GET /api/info/version` and the seat maximum from the configuration (before the seats in
    /// use, so that the two show together).
    case versions
    /// `GET /api/auth/sessions` and `GET /api/info/messages/count`.
    case diagnostics
}

/// How often each slower read runs: `stats_interval`, `diagnostics_interval`, versions hourly.
struct PiHoleDetailSchedule: Sendable {
    let stats: Duration
    let diagnostics: Duration
    /// Home Assistant's own Pi-hole integration checks for updates as rarely.
    static let versions: Duration = .seconds(3600)

    func interval(_ read: PiHoleDetailRead) -> Duration {
        switch read {
        case .stats, .groups, .clients: stats
        case .diagnostics: diagnostics
        case .versions: Self.versions
        }
    }
}

extension PiHoleInstance {
    /// Carries out the reads that are due, and those in `forced`, each failing on its own. Nothing
    /// falls due on a Pi-hole that did not answer its last blocking read; a command may still force
    /// a read (it may come before the first poll has ended).
    func refreshDetails(_ schedule: PiHoleDetailSchedule, forcing forced: Set<PiHoleDetailRead> = []) async {
        guard snapshot.available || !forced.isEmpty else { return }
        let now = ContinuousClock.now
        for read in PiHoleDetailRead.allCases where !Task.isCancelled {
            let due = snapshot.available && detailsTried[read].map { now - $0 >= schedule.interval(read) } ?? true
            guard due || forced.contains(read) else { continue }
            detailsTried[read] = now
            do {
                try await perform(read)
                if detailErrors.removeValue(forKey: read) != nil { logger.info("Pi-hole \(read) readable again") }
            } catch {
                // One line when a read starts failing, not one per interval.
                if detailErrors[read] == nil {
                    logger.warning("Pi-hole \(read) not readable; keeping the last value", metadata: ["error": "\(error)"])
                }
                detailErrors[read] = "\(error)"
            }
        }
    }

    /// How long until the next slower read falls due.
    func nextDetailsDue(_ schedule: PiHoleDetailSchedule) -> Duration {
        let now = ContinuousClock.now
        return PiHoleDetailRead.allCases.map { read in
            detailsTried[read].map { $0 + schedule.interval(read) - now } ?? .zero
        }.min() ?? schedule.stats
    }

    private func perform(_ read: PiHoleDetailRead) async throws {
        switch read {
        case .stats:
            let stats = try await measured { try await $0.summary() }
            updateSnapshot { $0.details.stats = stats; $0.details.statsReadAt = Date() }
        case .groups:
            let groups = try await measured { try await $0.groups() }
            updateSnapshot { $0.details.groups = groups }
        case .clients:
            let clients = try await measured { try await $0.clients() }
            updateSnapshot { $0.details.clients = clients }
        case .diagnostics:
            let sessions = try await measured { try await $0.sessions() }
            updateSnapshot { $0.details.sessions = sessions }
            let messages = try await measured { try await $0.messageCount() }
            updateSnapshot { $0.details.messages = messages; $0.details.diagnosticsReadAt = Date() }
        case .versions:
            let versions = try await measured { try await $0.versions() }
            updateSnapshot { $0.details.versions = versions; $0.details.versionsReadAt = Date() }
            // The maximum is descriptive: a Pi-hole that hides its configuration still has versions.
            let maxSessions = try? await measured { try await $0.maxSessions() }
            updateSnapshot { $0.details.maxSessions = maxSessions }
        }
    }
}
