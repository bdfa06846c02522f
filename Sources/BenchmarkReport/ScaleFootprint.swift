import JSONDocument

/// One bridge (the real binary as a child process) with issue 10's scale: 20 Pi-holes, 1,000
/// UniFi rules and 100 Bella's Reef outlets, the figures a big home would see.
public struct ScaleFootprint: Sendable, Equatable {
    public let piHoles: Int
    public let rules: Int
    public let outlets: Int
    /// Spawn → the first state of every Pi-hole, rule and outlet.
    public let startToAllStatesMs: Double?
    /// Resident memory once every first state is in, then after the commands.
    public let resident: [ProcessFootprint.Resident]
    /// One poll cycle of each integration: its `refresh` command, which reads every object once
    /// and answers when all are read, publish → answer; by integration.
    public let pollCycle: [String: LatencySummary]
    /// Commands one at a time, round-robin over every object of the kind.
    public let commandLatency: [BenchmarkResults.CommandLatency]

    public init(
        piHoles: Int, rules: Int, outlets: Int, startToAllStatesMs: Double?, resident: [ProcessFootprint.Resident],
        pollCycle: [String: LatencySummary], commandLatency: [BenchmarkResults.CommandLatency]
    ) {
        self.piHoles = piHoles
        self.rules = rules
        self.outlets = outlets
        self.startToAllStatesMs = startToAllStatesMs
        self.resident = resident
        self.pollCycle = pollCycle
        self.commandLatency = commandLatency
    }

    /// The table's lines.
    func lines() -> [String] {
        var lines = ["", "scale: \(piHoles) Pi-holes, \(rules) UniFi rules, \(outlets) outlets, one bridge process"]
        lines.append("start → every first state: " + (startToAllStatesMs.map { "\(ReportTable.format($0, digits: 1)) ms" } ?? "unknown"))
        let resident = self.resident.map { sample in
            ReportTable.mebibytes(sample.kib, anonymous: sample.anonymousKiB)
                + " after \(sample.commands)"
        }.joined(separator: ", ")
        lines.append("resident memory after N commands: \(resident.isEmpty ? "unknown" : resident)")
        lines.append(ReportTable.row("latency, ms", "n", "p50", "p90", "p99", "max"))
        for (integration, cycle) in pollCycle.sorted(by: { $0.key < $1.key }) {
            lines.append(ReportTable.latencyRow("poll cycle: \(integration) refresh", cycle))
        }
        for command in commandLatency {
            lines.append(ReportTable.latencyRow(
                "command: \(command.kind)", command.latency, note: command.failures > 0 ? "\(command.failures) failed" : ""))
        }
        return lines
    }

    /// Its part of the JSON line.
    var json: JSONValue {
        var kinds: [String: JSONValue] = [:]
        for command in commandLatency {
            kinds[command.kind] = ReportJSONLine.latency(command.latency).setting("failed", .number(Double(command.failures)))
        }
        return [
            "pi_holes": .number(Double(piHoles)), "rules": .number(Double(rules)), "outlets": .number(Double(outlets)),
            "start_to_all_states_ms": ReportJSONLine.number(startToAllStatesMs),
            "resident_kib": ReportJSONLine.resident(resident),
            "poll_cycle_ms": .object(pollCycle.mapValues(ReportJSONLine.latency)),
            "command_latency_ms": .object(kinds),
        ]
    }
}
