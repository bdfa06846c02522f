import BridgeCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Synchronization

/// The tank's guard: each guarded probe's alarm, made from the readings as they come and as they
/// age, published on `alarm/<key>`; every change is logged and sent as a bridge event. It needs
/// no Home Assistant: the bridge watches the tank itself.
final class ReefGuard: Sendable {
    struct Alarm: Sendable, Equatable {
        var state: ProbeGuard.State
        var since: Date
        var value: Double?
    }

    let configuration: ReefGuardConfiguration
    private let alarms = Mutex<[String: Alarm]>([:])
    private let logger: Logger
    /// A probe not read yet is judged only once `stale_after` has passed since this: a start is
    /// no alarm, a probe that never answers is one.
    private let startedAt: Date

    /// How often the alarms are judged again without a new reading: a probe goes stale by the clock.
    static let recheck: Duration = .seconds(5)

    init(configuration: ReefGuardConfiguration, logger: Logger, startedAt: Date) {
        self.configuration = configuration
        self.logger = logger
        self.startedAt = startedAt
    }

    /// Judges every guarded probe on `snapshot`. - Returns: the alarms that changed (a probe's
    /// first state counts when it is an alarm).
    func judge(_ snapshot: ReefSnapshot, now: Date) -> [(probe: ReefGuardConfiguration.Probe, alarm: Alarm)] {
        alarms.withLock { alarms in
            var changed: [(probe: ReefGuardConfiguration.Probe, alarm: Alarm)] = []
            for probe in configuration.probes {
                let status = snapshot.probe(named: probe.probe)
                if status?.hasBeenRead != true, now.timeIntervalSince(startedAt) <= Double(probe.limits.staleAfter.components.seconds) {
                    continue
                }
                let previous = alarms[probe.key]
                let state = probe.limits.state(
                    value: status?.value, readAt: status?.readAt ?? startedAt, failed: status?.error != nil, now: now,
                    previous: previous?.state ?? .ok)
                let value = state == .stale ? nil : status?.value
                guard previous?.state != state else {
                    alarms[probe.key]?.value = value
                    continue
                }
                let alarm = Alarm(state: state, since: now, value: value)
                alarms[probe.key] = alarm
                // A probe's first judging is news only as an alarm: a start ends none.
                if previous != nil || state != .ok { changed.append((probe, alarm)) }
            }
            return changed
        }
    }

    /// `alarm/<key>` for every guarded probe judged so far.
    var messages: [(topic: String, message: StateMessage)] {
        let alarms = alarms.withLock { $0 }
        return configuration.probes.compactMap { probe in
            alarms[probe.key].map { (ReefTopics.alarm(probe.key), .json(Self.payload($0, probe))) }
        }
    }

    /// Logs and announces each change (an alarm that starts, ends, or goes stale).
    func announce(_ changes: [(probe: ReefGuardConfiguration.Probe, alarm: Alarm)], context: IntegrationContext) {
        for (probe, alarm) in changes {
            let metadata: Logger.Metadata = ["probe": "\(probe.probe)", "state": "\(alarm.state.rawValue)", "value": "\(alarm.value.map { "\($0)" } ?? "none")"]
            if alarm.state == .ok { logger.notice("probe back within its limits", metadata: metadata) } else { logger.warning("probe alarm", metadata: metadata) }
            context.publishEvent("probe_alarm", ["probe": .string(probe.probe), "key": .string(probe.key), "alarm": Self.payload(alarm, probe)])
        }
    }

    static func payload(_ alarm: Alarm, _ probe: ReefGuardConfiguration.Probe) -> JSONValue {
        [
            "state": .string(alarm.state.rawValue), "value": alarm.value.map { .number(($0 * 100).rounded() / 100) } ?? .null,
            "since": .string(alarm.since.iso8601), "probe": .string(probe.probe),
            "limits": .object(probe.limits.limitsPayload.mapValues(JSONValue.number)),
        ]
    }
}
