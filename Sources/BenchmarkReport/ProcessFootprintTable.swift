/// The table's lines about the real binary run as a child process.
enum ProcessFootprintTable {
    static func render(_ process: ProcessFootprint?) -> [String] {
        guard let process else { return ["", "the bridge as a process: not measured (no home2mqtt binary; --bridge-binary PATH)"] }
        var lines = ["", "the bridge as a process (\(process.binary))"]
        let firstStates = process.startToFirstStateMs.sorted { $0.key < $1.key }
            .map { "\($0.key) \(ReportTable.format($0.value, digits: 1)) ms" }.joined(separator: ", ")
        lines.append("start → online: \(milliseconds(process.startToOnlineMs)); → first state: \(firstStates.isEmpty ? "none" : firstStates)")
        let resident = process.resident.map { sample in
            ReportTable.mebibytes(sample.kib, anonymous: sample.anonymousKiB)
                + " after \(sample.commands)"
        }.joined(separator: ", ")
        lines.append("resident memory after N commands: \(resident.isEmpty ? "unknown" : resident)"
            + (process.commandsLost > 0 ? "; \(process.commandsLost) lost" : ""))
        if let perCommand = process.cpuMicrosecondsPerCommand {
            lines.append("CPU time per command (the bridge's own, polls included): \(ReportTable.format(perCommand, digits: 0)) µs;"
                + " at most \(ReportTable.format(2e6 / perCommand, digits: 0)) commands/s on two cores")
        }
        if let broker = process.brokerCPUMicrosecondsPerCommand, let harness = process.harnessCPUMicrosecondsPerCommand,
           let all = process.allCPUMicrosecondsPerCommand {
            lines.append("beside it, per command: the broker \(ReportTable.format(broker, digits: 0)) µs, the harness and its simulators "
                + "\(ReportTable.format(harness, digits: 0)) µs; all three \(ReportTable.format(all, digits: 0)) µs:"
                + " at most \(ReportTable.format(2e6 / all, digits: 0)) commands/s on two cores")
        }
        if let growth = process.residentGrowthAfterFirstBatchKiB {
            lines.append("growth after the first batch: \(ReportTable.format(Double(growth) / 1024, digits: 1)) MiB")
        }
        guard let idle = process.idle else { return lines }
        lines.append("idle polling, \(ReportTable.format(idle.seconds, digits: 1)) s at compressed intervals"
            + (idle.hoursAtDefaults.map { " (the polls of \(ReportTable.format($0, digits: 2)) h at the defaults, or more)" } ?? "")
            + ": \(ReportTable.format(idle.cpuSeconds)) s CPU; per hour at the default intervals: "
            + (idle.cpuSecondsPerHourAtDefaults.map { "\(ReportTable.format($0, digits: 1)) s CPU" } ?? "unknown"))
        if let growth = idle.residentGrowthKiB {
            let samples = idle.resident.map { sample in
                ReportTable.mebibytes(sample.kib, anonymous: sample.anonymousKiB)
                    + " at \(ReportTable.format(sample.seconds, digits: 1)) s"
            }
            lines.append("resident memory while polling: \(samples.joined(separator: ", ")); "
                + "growth \(ReportTable.format(Double(growth) / 1024, digits: 1)) MiB")
        }
        lines.append(ReportTable.row("upstream economy", "interval", "default", "req/h", "logins/h"))
        for upstream in idle.upstreams {
            lines.append(ReportTable.row(
                upstream.integration, "\(upstream.compressedInterval) s", "\(upstream.defaultInterval) s",
                ReportTable.format(idle.requestsPerHour(upstream), digits: 0), ReportTable.format(idle.loginsPerHour(upstream), digits: 1)))
        }
        return lines
    }

    private static func milliseconds(_ value: Double?) -> String {
        value.map { "\(ReportTable.format($0, digits: 1)) ms" } ?? "unknown"
    }
}
