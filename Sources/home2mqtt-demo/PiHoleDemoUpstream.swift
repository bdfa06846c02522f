#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PiHoleSimulator
import PlainText

/// Pi-hole v6 simulators, one per id. Two by default, so that pausing "every Pi-hole" with one
/// message (`home/pihole/pause`) is visibly different from pausing one (`home/pihole/backup/pause`).
struct PiHoleDemoUpstream: DemoUpstream {
    let ids: [String]
    static let password = "correct horse"

    func start() async throws -> any RunningDemoUpstream {
        var started: [(id: String, simulator: PiHoleSimulator)] = []
        do {
            for id in ids {
                let simulator = PiHoleSimulator(password: Self.password, hostName: "pi-\(id)")
                Self.furnish(simulator)
                try await simulator.start(host: "127.0.0.1", port: 0)
                started.append((id, simulator))
            }
        } catch {
            for (_, simulator) in started { await simulator.stop() }
            throw error
        }
        return RunningPiHoleSimulators(simulators: started)
    }

    /// A household's Pi-hole: a group for the children's devices, block lists, and a query log
    /// with something blocked lately, so that groups, statistics and `home2mqtt blocked` show.
    static func furnish(_ simulator: PiHoleSimulator) {
        simulator.addGroup(name: "Kids", comment: "the children's tablets")
        simulator.addGroup(name: "Strict", comment: "bedtime: more lists")
        simulator.addClient("192.168.1.20", groups: ["Default", "Kids"], comment: "Emma's tablet")
        simulator.setGravity(domains: 152_364, lastUpdate: Date().addingTimeInterval(-6 * 3600))
        let now = Date()
        let blocked = ["ads.example", "tracker.example", "cdn.shop.example"]
        var queries: [SimulatedQuery] = []
        for index in 0..<60 {
            let isBlocked = index % 3 == 0
            let domain = isBlocked ? blocked[index / 3 % 3] : "site\(index % 7).example"
            let status = isBlocked ? "GRAVITY" : index % 2 == 0 ? "CACHE" : "FORWARDED"
            queries.append(SimulatedQuery(
                time: now.addingTimeInterval(-Double(index) * 20), domain: domain, clientIP: "192.168.1.\(20 + index % 4)",
                clientName: index % 4 == 0 ? "tablet" : nil, status: status))
        }
        simulator.recordQueries(queries)
    }
}

struct RunningPiHoleSimulators: RunningDemoUpstream {
    let simulators: [(id: String, simulator: PiHoleSimulator)]

    var configurationYAML: String {
        // A short poll so that a change made on the simulator shows within two seconds.
        var yaml = "pihole:\n  poll_interval: 2\n  instances:\n"
        for (id, simulator) in simulators {
            yaml += "    - id: \(id)\n      url: \(simulator.baseURL)\n      password: \"\(PiHoleDemoUpstream.password)\"\n"
        }
        return yaml
    }

    func banner(broker: DemoBrokerAddress) -> [String] {
        let publish = "mosquitto_pub -h \(broker.host) -p \(broker.port)"
        let width = simulators.map(\.id.count).max() ?? 0
        return ["Pi-hole simulators (Pi-hole v6 API, password \"\(PiHoleDemoUpstream.password)\"):"]
            + simulators.map { "  \($0.id.padded(to: width))  \($0.simulator.baseURL)/api" }
            + [
                "Pause every Pi-hole for 30 s:",
                "  \(publish) -t home/pihole/pause -m 30",
                "Pause only one, then resume it:",
                "  \(publish) -t home/pihole/\(simulators.last?.id ?? "main")/pause -m 30",
                "  \(publish) -t home/pihole/\(simulators.last?.id ?? "main")/resume -n",
                "Turn the Kids group's block lists off for 10 minutes (then back on by itself):",
                "  \(publish) -t home/pihole/group/kids/set -m '{\"enabled\":false,\"for\":600}'",
                "Emma's tablet (192.168.1.20) unfiltered for 20 minutes, or in Strict for an hour (each back by itself):",
                "  \(publish) -t home/pihole/client/192-168-1-20/pause -m '{\"for\":1200}'",
                "  \(publish) -t home/pihole/client/192-168-1-20/groups/set -m '{\"groups\":[\"strict\"],\"for\":3600}'",
                "What was blocked lately (the companion): home2mqtt blocked --port \(broker.port)",
            ]
    }

    func stop() async {
        for (_, simulator) in simulators { await simulator.stop() }
    }
}
