extension Bridge {
    /// `bridge/request/health_check`: healthy when the broker connection is up and every
    /// integration says it is available (its `availability` topic is `online`; a Pi-hole
    /// integration is when one of its Pi-holes answers). Each integration's upstreams and its
    /// last success are listed beside it.
    func healthCheck() -> JSONValue {
        let names = running.all.map(\.name)
        let lastSuccess = health.snapshot
        let connected = client.isConnected
        var integrations: [String: JSONValue] = [:]
        for name in names {
            var report = events.availability.report(integration: name)
            report["last_success"] = lastSuccess[name].map { .string($0.iso8601) } ?? .null
            integrations[name] = .object(report)
        }
        let healthy = connected && names.allSatisfy { events.availability.isAvailable(integration: $0) }
        return ["healthy": .bool(healthy), "broker_connected": .bool(connected), "integrations": .object(integrations)]
    }
}
