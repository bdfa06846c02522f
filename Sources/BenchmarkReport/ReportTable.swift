import PlainText

/// The compact, human-readable table of one run.
public enum ReportTable {
    public static func render(_ results: BenchmarkResults) -> String {
        var lines = ["home2mqtt-bench (\(results.build) build), \(results.commandsPerKind) commands per kind", ""]
        lines.append(row("latency, ms", "n", "p50", "p90", "p99", "max"))
        for command in results.commandLatency {
            lines.append(latencyRow("command: \(command.kind)", command.latency, note: command.failures > 0 ? "\(command.failures) failed" : ""))
            if let upstreamCall = command.upstreamCall { lines.append(latencyRow("  → upstream call received", upstreamCall)) }
            if let state = command.state { lines.append(latencyRow("  → new state arrived", state)) }
        }
        lines.append(latencyRow("floor: broker round trip", results.floor.alternated.brokerRoundTrip))
        lines.append(latencyRow("floor: HTTP POST, kept alive", results.floor.alternated.httpRequest))
        if let floor = results.floor.p50 {
            lines.append("floor p50 (2 × broker + HTTP, alternated as in a command): \(format(floor)) ms")
        }
        lines.append(latencyRow("  round trip, back to back", results.floor.backToBack.brokerRoundTrip))
        lines.append(latencyRow("  HTTP POST, back to back", results.floor.backToBack.httpRequest))
        lines.append(latencyRow("relay: the bridge's parts only", results.floor.relay))
        if let added = results.addedLatencyP50, let ratio = results.bridgeOverFloorP50 {
            lines.append("bridge adds at p50: \(format(added)) ms; bridge / floor: \(format(ratio, digits: 2))")
        }
        if let added = results.addedOverBackToBackFloorP50, let ratio = results.bridgeOverBackToBackFloorP50 {
            lines.append("  over the floor back to back: \(format(added)) ms; bridge / floor: \(format(ratio, digits: 2))")
        }
        if let parts = results.relayAddedP50, let own = results.addedOverRelayP50 {
            lines.append("  the parts (relay - floor): \(format(parts)) ms; the bridge's own code (pause - relay): \(format(own)) ms")
        }
        lines.append(latencyRow("freshness: resumed → enabled", results.freshness))
        lines.append("")
        lines.append(row("kind × objects, in flight", "sent", "ok", "error", "lost", "cmd/s", "p50 ms", "p99 ms"))
        for level in results.throughput + results.throughputByKind {
            lines.append(row(
                "\(level.kind) × \(level.objects), \(level.inFlight)", "\(level.sent)", "\(level.answeredOK)", "\(level.answeredError)",
                "\(level.lost)", format(level.commandsPerSecond, digits: 0),
                level.latency.map { format($0.p50) } ?? "-", level.latency.map { format($0.p99) } ?? "-"))
        }
        if let saturated = results.saturatedInFlight {
            lines.append("answers per second stop growing at \(saturated) in flight: latency climbs from there")
        }
        lines.append("")
        let footprint = results.footprint
        lines.append("resident memory of the benchmark process (bridge, simulators, harness): "
            + "\(mebibytes(footprint.residentKiBAfterStart)) after start, \(mebibytes(footprint.residentKiBAfterCommands)) after the commands")
        lines.append("stripped release binary (.build/dist/home2mqtt): "
            + (footprint.strippedBinaryBytes.map { "\(format(Double($0) / 1_000_000, digits: 1)) MB" } ?? "not built"))
        lines += ProcessFootprintTable.render(results.process)
        lines += results.scale?.lines() ?? []
        return lines.joined(separator: "\n")
    }

    static func latencyRow(_ label: String, _ latency: LatencySummary?, note: String = "") -> String {
        guard let latency else { return row(label, "0", "-", "-", "-", "-", note) }
        return row(label, "\(latency.count)", format(latency.p50), format(latency.p90), format(latency.p99), format(latency.max), note)
    }

    static func row(_ first: String, _ rest: String...) -> String {
        let head = first.count >= 30 ? first : first + String(repeating: " ", count: 30 - first.count)
        let cells = rest.map { $0.count >= 8 ? $0 : String(repeating: " ", count: 8 - $0.count) + $0 }
        return (head + cells.joined(separator: " ")).trimmingTrailingSpaces()
    }

    static func mebibytes(_ kib: Int?) -> String {
        kib.map { "\(format(Double($0) / 1024, digits: 1)) MiB" } ?? "unknown"
    }

    /// A resident memory sample: `VmRSS`, and its anonymous part in brackets when read.
    static func mebibytes(_ kib: Int, anonymous anonymousKiB: Int?) -> String {
        mebibytes(kib) + (anonymousKiB.map { " (\(mebibytes($0)) anonymous)" } ?? "")
    }

    /// Fixed-point text without Foundation's formatters.
    public static func format(_ value: Double, digits: Int = 3) -> String {
        value.fixedPoint(digits: digits)
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
