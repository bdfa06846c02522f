import BellasReefAPI
import BellasReefSimulator
import Foundation
import Testing

@Suite("BellasReefClient calls against the simulator")
struct ClientCallTests {
    let returnPump = "2cc8582c-b9d8-42f9-8568-78718949aeca"
    let heater = "31993ecf-4215-4187-82c1-6ee5bda82d92"
    let disabledPlug = "482f89df-1943-40c6-a26c-63fb0bcefc75"

    @Test func healthHostInfoAndSystemUsage() async throws {
        try await withReef { f in
            let core = try await f.client.health(.core)
            #expect(core.status == "healthy" && core.service == "Bella's Reef API")
            #expect(core.timestamp.map { !$0.hasSuffix("Z") && $0.contains("T") } == true)
            #expect(try await f.client.health(.temperature).service == "temperature")
            #expect(try await f.client.health(.outlets).service == "smartoutlets")
            #expect(f.simulator.loginCount == 0)  // health needs no token

            #expect(try await f.client.hostInfo().uptime.hasPrefix("up "))
            let first = try await f.client.systemUsage()
            let second = try await f.client.systemUsage()
            #expect(first.cpuPercent == 0.0 && second.cpuPercent > 0)
        }
    }

    @Test func probesAndReadingsInCelsiusAndFahrenheit() async throws {
        try await withReef { f in
            guard case .probes(let probes) = try await f.client.probes() else {
                Issue.record("expected probes")
                return
            }
            #expect(probes.map(\.name) == ["Display Tank", "Sump"])
            #expect(try await f.client.probeReading(hardwareID: "000000bd3685", unit: .celsius) == 25.5625)
            #expect(try await f.client.probeReading(hardwareID: "000000bd3685", unit: .fahrenheit) == 78.0125)
            let query = f.simulator.requests(.temperature).last?.query
            #expect(query == "unit=F")

            let unknown = await reefError { _ = try await f.client.probeReading(hardwareID: "000000ffffff", unit: .celsius) }
            #expect(unknown?.code == .notFound && unknown?.message.contains("not registered") == true)
            f.simulator.updateProbe(address: "000000be5efd") { $0.failing = true }
            let failing = await reefError { _ = try await f.client.probeReading(hardwareID: "000000be5efd", unit: .celsius) }
            #expect(failing?.code == .server)
            #expect(f.simulator.loginCount == 1)  // a plain-text 500 with a valid token is not an auth problem
        }
    }

    @Test func temperatureBuildWithoutProbeRoutes() async throws {
        var options = BellasReefSimulator.Options()
        options.probeRoutes = false
        try await withReef(options: options) { f in
            let probes = try await f.client.probes()
            let health = try await f.client.health(.temperature)
            #expect(probes == .noProbeRoutes)
            #expect(health.status == "healthy")
            #expect(f.simulator.loginCount == 1)
        }
    }

    @Test func outletsWithAndWithoutDisabled() async throws {
        try await withReef { f in
            let enabled = try await f.client.outlets(includeDisabled: false)
            #expect(enabled.map(\.name) == ["Return Pump", "Heater"])
            let all = try await f.client.outlets(includeDisabled: true)
            #expect(all.count == 3 && all.first { $0.id == disabledPlug }?.enabled == false)
            let paths = f.simulator.requests(.outlets).map { ($0.path, $0.query) }
            #expect(paths.map(\.0) == ["/api/smartoutlets/outlets/", "/api/smartoutlets/outlets/"])
            #expect(paths.map(\.1) == [nil, "include_disabled=true"])
        }
    }

    @Test func turnOnOffAndToggle() async throws {
        try await withReef { f in
            #expect(try await f.client.outletState(heater) == BellasReefOutletState(isOn: false))
            #expect(try await f.client.turnOn(heater).contains("turned on"))
            #expect(f.simulator.outlet(heater)?.isOn == true)
            #expect(try await f.client.outletState(heater).isOn)
            #expect(try await f.client.turnOff(heater).contains("turned off"))
            #expect(f.simulator.outlet(heater)?.isOn == false)
            #expect(try await f.client.toggle(heater).isOn)

            let pump = try await f.client.outletState(returnPump)
            #expect(pump.isOn && pump.powerW == 24.5 && pump.voltageV != nil && pump.isOnline)
            let posts = f.simulator.requests(.outlets).filter { $0.method == "POST" }.map(\.path)
            #expect(posts == ["turn_on", "turn_off", "toggle"].map { "/api/smartoutlets/outlets/\(heater)/\($0)" })
        }
    }

    @Test func outletErrorsCarryTheControllersCode() async throws {
        var options = BellasReefSimulator.Options()
        options.plugFailureDelay = .milliseconds(200)
        try await withReef(options: options) { f in
            let disabled = await reefError { try await f.client.turnOn(disabledPlug) }
            #expect(disabled?.code == .outletDisabled && disabled?.controllerCode == "outlet_disabled")
            let unknown = await reefError { _ = try await f.client.outletState("00000000-0000-0000-0000-000000000000") }
            #expect(unknown?.code == .notFound && unknown?.controllerCode == "outlet_not_found")

            f.simulator.updateOutlet(heater) { $0.plug = .refusingConnections }
            let refused = await reefError { try await f.client.turnOn(heater) }
            #expect(refused?.code == .outletConnection && refused?.status == 503)
            f.simulator.updateOutlet(heater) { $0.plug = .timingOut }
            #expect(await reefError { _ = try await f.client.toggle(heater) }?.code == .outletConnection)
        }
    }

    @Test func nonUUIDIdsNeverReachTheController() async throws {
        try await withReef { f in
            for bad in ["heater", "1", "' OR 1=1 --", "\(heater)/../\(disabledPlug)"] {
                #expect(await reefError { _ = try await f.client.outletState(bad) }?.code == .invalidID)
                #expect(await reefError { try await f.client.turnOff(bad) }?.code == .invalidID)
                #expect(await reefError { _ = try await f.client.toggle(bad) }?.code == .invalidID)
            }
            #expect(await reefError { _ = try await f.client.probeReading(hardwareID: "../list", unit: .celsius) }?.code == .invalidID)
            #expect(f.simulator.requests(.outlets).isEmpty)
            #expect(f.simulator.requests(.temperature).isEmpty)
            #expect(f.simulator.loginCount == 0)
        }
    }

    @Test func slowPlugAndServiceFaults() async throws {
        var options = BellasReefSimulator.Options()
        options.plugFailureDelay = .milliseconds(300)
        // The slow plug takes 6 s; what is tested is the order, not a time: no request timeout.
        try await withReef(options: options) { f in
            f.simulator.updateOutlet(returnPump) { $0.slowness = .seconds(6) }
            // Asked at once: the quick plug answers first, the slow one does not hold it back.
            let finished = try await withThrowingTaskGroup(of: String.self) { group in
                group.addTask { _ = try await f.client.outletState(returnPump); return "slow" }
                group.addTask { _ = try await f.client.outletState(heater); return "quick" }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(finished == ["quick", "slow"])

            try await f.simulator.setFault(.serverError, on: .temperature)
            #expect(await reefError { _ = try await f.client.probes() }?.code == .server)
            try await f.simulator.setFault(.down, on: .temperature)
            #expect(await reefError { _ = try await f.client.health(.temperature) }?.code == .transport)
            #expect(try await f.client.outlets(includeDisabled: false).count == 2)  // the others go on
            try await f.simulator.setFault(nil, on: .temperature)
            #expect(try await f.client.health(.temperature).status == "healthy")
        }
    }
}
