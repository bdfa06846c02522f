import BellasReefAPI
import BridgeCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// The retained state under `base/reef`, made from a snapshot (listed in docs/topics.md).
struct ReefPayloads {
    let snapshot: ReefSnapshot
    /// The configured services (a turned-off one has no availability topic).
    let services: [BellasReefService]
    /// The integration's pending timers.
    let pending: [PersistedTimer]
    /// Feed mode, when configured.
    var feed: ReefFeedConfiguration? = nil

    /// Pending restores by outlet id, less those already carried out.
    private var restores: [String: PersistedTimer] {
        let open = pending.filter { !snapshot.completedRestores.contains($0) }
        return Dictionary(open.compactMap { timer in ReefTopics.outletID(ofRestoreTimer: timer.key).map { ($0, timer) } }) { first, _ in first }
    }

    var messages: [(topic: String, message: StateMessage)] {
        var messages: [(topic: String, message: StateMessage)] = []
        // Availability only once judged: a start is not an outage.
        for service in services where snapshot.service(service).judged {
            messages.append((ReefTopics.serviceAvailability(service), .availability(snapshot.service(service).available)))
        }
        if anyServiceAvailable || services.allSatisfy({ snapshot.service($0).judged }) {
            messages.append((ReefTopics.availability, .availability(anyServiceAvailable)))
        }
        messages.append((ReefTopics.health, .json(health)))
        if let feed { messages.append((ReefTopics.feed, .json(feedPayload(feed)))) }
        if snapshot.hostInfo != nil || snapshot.systemUsage != nil { messages.append((ReefTopics.system, .json(system))) }
        if snapshot.outletsListed {
            messages.append((ReefTopics.outletIndex, .json(outletIndex)))
            for outlet in snapshot.outlets.values where outlet.hasBeenRead {
                messages.append((ReefTopics.outlet(outlet.key), .json(payload(outlet))))
            }
        }
        if snapshot.probesListed {
            messages.append((ReefTopics.probeIndex, .json(probeIndex)))
            for probe in snapshot.probes.values where probe.hasBeenRead {
                messages.append((ReefTopics.probe(probe.key), .json(payload(probe))))
            }
        }
        return messages
    }

    var anyServiceAvailable: Bool { services.contains { snapshot.service($0).available } }

    var health: JSONValue {
        .object(Dictionary(uniqueKeysWithValues: BellasReefService.allCases.map { service -> (String, JSONValue) in
            guard services.contains(service) else { return (service.rawValue, ["status": "off", "available": false]) }
            let status = snapshot.service(service)
            var fields: [String: JSONValue] = [
                "status": Self.text(status.health?.status), "service": Self.text(status.health?.service),
                "version": Self.text(status.health?.version), "available": .bool(status.available),
                "error": Self.text(status.error),
            ]
            if service == .temperature, !snapshot.probeRoutes { fields["probes"] = "not on this build" }
            return (service.rawValue, .object(fields))
        }))
    }

    var system: JSONValue {
        let info = snapshot.hostInfo
        let usage = snapshot.systemUsage
        return [
            "kernel": Self.text(info?.kernelVersion), "os": Self.text(info?.osName), "release": Self.text(info?.releaseName),
            "model": Self.text(info?.model), "uptime": Self.text(info?.uptime),
            "cpu_percent": Self.number(usage?.cpuPercent), "memory_percent": Self.number(usage?.memoryPercent),
            "memory_used_gb": Self.number(usage?.memoryUsedGB), "memory_total_gb": Self.number(usage?.memoryTotalGB),
            "disk_percent": Self.number(usage?.diskPercent), "disk_used_gb": Self.number(usage?.diskUsedGB),
            "disk_total_gb": Self.number(usage?.diskTotalGB), "read_at": Self.time(snapshot.systemReadAt),
        ]
    }

    var outletIndex: JSONValue {
        .object(Dictionary(uniqueKeysWithValues: snapshot.outlets.values.map { outlet -> (String, JSONValue) in
            (outlet.key, ["id": .string(outlet.outlet.id), "name": .string(outlet.outlet.name), "enabled": .bool(outlet.outlet.enabled)])
        }))
    }

    var probeIndex: JSONValue {
        .object(Dictionary(uniqueKeysWithValues: snapshot.probes.values.map { probe -> (String, JSONValue) in
            (probe.key, ["id": .number(Double(probe.probe.id)), "address": .string(probe.probe.address), "name": .string(probe.probe.name)])
        }))
    }

    /// `state` is `on`/`off` only while the plug answers in time; otherwise `unknown`, with what
    /// it last said in `last_known` (at `last_seen`): an unreachable plug reads "off" on the
    /// controller, which must not pass for the truth.
    /// A command's answer passes the state it read back (`readBack`), which it reports however slowly it came.
    func payload(_ status: OutletStatus, readBack: BellasReefOutletState? = nil) -> JSONValue {
        let outlet = status.outlet
        let current = outlet.enabled && status.responding == true && snapshot.service(.outlets).available
        let reading = readBack ?? (current ? status.lastState : nil)
        let restore = restores[outlet.id]
        let state: String
        if !outlet.enabled {
            state = "disabled"
        } else if let reading {
            state = reading.isOn ? "on" : "off"
        } else {
            state = "unknown"
        }
        return [
            "id": .string(outlet.id), "name": .string(outlet.name), "role": .string(outlet.role),
            "state": .string(state), "enabled": .bool(outlet.enabled),
            "responding": outlet.enabled && snapshot.service(.outlets).available ? status.responding.map(JSONValue.bool) ?? .null : .null,
            "power_w": Self.number(reading?.powerW, places: 2), "voltage_v": Self.number(reading?.voltageV, places: 1),
            "current_a": Self.number(reading?.currentA, places: 3), "energy_kwh": Self.number(reading?.energyKWh, places: 3),
            "last_known": status.lastState.map { .string($0.isOn ? "on" : "off") } ?? .null,
            "last_seen": Self.time(status.lastSeen),
            "error": outlet.enabled ? Self.text(status.error ?? snapshot.service(.outlets).error) : .null,
            "restore_at": Self.time(restore?.dueAt), "restore_state": restore?.restore["state"] ?? .null,
        ]
    }

    /// `status` is `ok` with the reading, or `error` with no value at all.
    func payload(_ status: ProbeStatus) -> JSONValue {
        [
            "id": .number(Double(status.probe.id)), "address": .string(status.probe.address), "name": .string(status.probe.name),
            "status": status.error == nil && status.value != nil ? "ok" : "error",
            "value": Self.number(status.value, places: 2),
            "unit": .string(status.probe.unitSymbol),
            "read_at": Self.time(status.error == nil ? status.readAt : nil), "error": Self.text(status.error),
        ]
    }

    /// `base/reef/feed`: whether a feed runs, until when, the outlets it turns off, each one's
    /// staged delay, and when those still waiting after a feed's end come back.
    func feedPayload(_ feed: ReefFeedConfiguration) -> JSONValue {
        let running = pending.first { $0.key == ReefTopics.feedTimer && !snapshot.completedRestores.contains($0) }
        let restores = restores
        let backAt = feed.outlets.compactMap { outlet -> (String, JSONValue)? in
            guard let id = snapshot.outlet(named: outlet.name)?.outlet.id, let stage = restores[id],
                  stage.restore[ReefFeed.stagedBy] == ReefFeed.feedMark
            else { return nil }
            return (outlet.name, Self.time(stage.dueAt))
        }
        return [
            "active": .bool(running != nil), "until": Self.time(running?.dueAt),
            "outlets": .array(feed.outlets.map { .string($0.name) }),
            "restore_after": .object(Dictionary(feed.outlets.filter { $0.restoreAfter > .zero }.map {
                ($0.name, JSONValue.number(Double($0.restoreAfter.components.seconds)))
            }) { first, _ in first }),
            "back_at": .object(Dictionary(backAt) { first, _ in first }),
        ]
    }

    static func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
    static func number(_ value: Double?) -> JSONValue { value.map(JSONValue.number) ?? .null }
    /// Rounded to what the meter can tell: 231.067823 V is 231.1 V.
    static func number(_ value: Double?, places: Int) -> JSONValue {
        let scale = pow(10, Double(places))
        return number(value.map { ($0 * scale).rounded() / scale })
    }
    static func time(_ value: Date?) -> JSONValue { value.map { .string($0.iso8601) } ?? .null }
}
