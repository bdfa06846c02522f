import JSONDocument

/// One line of JSON with every figure, for comparing commits (`… | tail -1 | jq`). Milliseconds,
/// commands per second, KiB and bytes; `null` for what was not measured.
public enum ReportJSONLine {
    public static func render(_ results: BenchmarkResults, commit: String?) -> String {
        var kinds: [String: JSONValue] = [:]
        for command in results.commandLatency {
            kinds[command.kind] = latency(command.latency).setting("failed", .number(Double(command.failures)))
                .setting("upstream_call", latency(command.upstreamCall)).setting("state", latency(command.state))
        }
        let throughput: [JSONValue] = (results.throughput + results.throughputByKind).map { level in
            [
                "kind": .string(level.kind), "objects": .number(Double(level.objects)),
                "in_flight": .number(Double(level.inFlight)), "sent": .number(Double(level.sent)),
                "ok": .number(Double(level.answeredOK)), "error": .number(Double(level.answeredError)),
                "lost": .number(Double(level.lost)), "per_second": .number(level.commandsPerSecond.rounded()),
                "latency_ms": latency(level.latency),
            ]
        }
        let footprint = results.footprint
        let document: JSONValue = [
            "benchmark": "home2mqtt-bench",
            "commit": commit.map { .string($0) } ?? .null,
            "build": .string(results.build),
            "commands_per_kind": .number(Double(results.commandsPerKind)),
            "command_latency_ms": .object(kinds),
            "floor_ms": floor(results.floor.alternated)
                .setting("back_to_back", floor(results.floor.backToBack)).setting("relay", latency(results.floor.relay)),
            "added_latency_p50_ms": number(results.addedLatencyP50),
            "added_over_back_to_back_floor_p50_ms": number(results.addedOverBackToBackFloorP50),
            "bridge_over_back_to_back_floor_p50": number(results.bridgeOverBackToBackFloorP50),
            "relay_added_p50_ms": number(results.relayAddedP50),
            "added_over_relay_p50_ms": number(results.addedOverRelayP50),
            "bridge_over_floor_p50": number(results.bridgeOverFloorP50),
            "throughput": .array(throughput),
            "freshness_ms": latency(results.freshness),
            "resident_kib": [
                "after_start": number(footprint.residentKiBAfterStart.map(Double.init)),
                "after_commands": number(footprint.residentKiBAfterCommands.map(Double.init)),
            ],
            "stripped_binary_bytes": number(footprint.strippedBinaryBytes.map(Double.init)),
            "saturated_in_flight": number(results.saturatedInFlight.map(Double.init)),
            "process": process(results.process),
            "scale": results.scale?.json ?? .null,
        ]
        return document.encodedString()
    }

    static func floor(_ parts: BenchmarkResults.FloorParts) -> JSONValue {
        ["broker_round_trip": latency(parts.brokerRoundTrip), "http_request": latency(parts.httpRequest), "p50": number(parts.p50)]
    }

    static func process(_ process: ProcessFootprint?) -> JSONValue {
        guard let process else { return .null }
        return [
            "start_to_online_ms": number(process.startToOnlineMs),
            "start_to_first_state_ms": .object(process.startToFirstStateMs.mapValues(rounded)),
            "resident_kib": resident(process.resident),
            "commands_lost": .number(Double(process.commandsLost)),
            "cpu_us_per_command": number(process.cpuMicrosecondsPerCommand),
            "cpu_us_per_command_broker": number(process.brokerCPUMicrosecondsPerCommand),
            "cpu_us_per_command_harness": number(process.harnessCPUMicrosecondsPerCommand),
            "idle": process.idle.map(idlePolling) ?? .null,
        ]
    }

    static func idlePolling(_ idle: IdlePolling) -> JSONValue {
        let upstreams: [JSONValue] = idle.upstreams.map { upstream in
            [
                "integration": .string(upstream.integration), "requests": .number(Double(upstream.requests)),
                "logins": .number(Double(upstream.logins)),
                "interval_s": .number(Double(upstream.compressedInterval)),
                "default_interval_s": .number(Double(upstream.defaultInterval)),
                "requests_per_hour": .number(idle.requestsPerHour(upstream).rounded()),
                "logins_per_hour": rounded(idle.loginsPerHour(upstream)),
            ]
        }
        let resident: [JSONValue] = idle.resident.map { sample in
            [
                "seconds": rounded(sample.seconds), "kib": .number(Double(sample.kib)),
                "anonymous_kib": number(sample.anonymousKiB.map(Double.init)),
            ]
        }
        return [
            "seconds": rounded(idle.seconds), "cpu_seconds": rounded(idle.cpuSeconds),
            "cpu_seconds_per_hour_at_defaults": number(idle.cpuSecondsPerHourAtDefaults),
            "hours_at_defaults": number(idle.hoursAtDefaults),
            "upstreams": .array(upstreams), "resident_kib": .array(resident),
        ]
    }

    static func resident(_ samples: [ProcessFootprint.Resident]) -> JSONValue {
        .array(samples.map { sample in
            [
                "commands": .number(Double(sample.commands)), "kib": .number(Double(sample.kib)),
                "anonymous_kib": number(sample.anonymousKiB.map(Double.init)),
            ]
        })
    }

    static func latency(_ summary: LatencySummary?) -> JSONValue {
        guard let summary else { return .null }
        return [
            "n": .number(Double(summary.count)), "p50": rounded(summary.p50), "p90": rounded(summary.p90),
            "p99": rounded(summary.p99), "max": rounded(summary.max),
        ]
    }

    static func number(_ value: Double?) -> JSONValue {
        value.map(rounded) ?? .null
    }

    /// Microsecond resolution is all a loopback measurement can claim.
    static func rounded(_ value: Double) -> JSONValue {
        .number((value * 1_000).rounded() / 1_000)
    }
}
