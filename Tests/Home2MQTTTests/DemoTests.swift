import BridgeTestSupport
import Foundation
import MQTTTestSupport
import Testing

/// `home2mqtt-demo` run as a user runs it: the real binary, a real MQTT client on its broker, Ctrl-C.
@Suite struct DemoTests {
    @Test func theDemoStartsItsOwnBrokerWorksAndLeavesNothingRunning() async throws {
        let (demo, port, brokers) = try await DemoProcess.startedWithItsOwnBroker()
        defer { demo.kill() }
        #expect(demo.stdout.contains("mosquitto_sub -h 127.0.0.1 -p \(port) -v -t 'home/#'"))
        #expect(demo.stdout.contains("mosquitto_pub -h 127.0.0.1 -p \(port) -t home/pihole/pause -m 30"))

        let observer = try await Observer(host: "127.0.0.1", port: port, subscribe: ["home/#"])
        #expect(try await observer.latest("home/bridge/state") == "online")
        for id in ["main", "backup"] {
            _ = try await observer.latest("home/pihole/\(id)", timeout: .seconds(20)) { $0["blocking"] == "enabled" }
        }
        let response = try await observer.command("home/pihole/pause", "30")
        #expect(response["status"] == "ok", "\(response)")
        _ = try await observer.latest("home/pihole") { $0["blocking"] == "disabled" }
        // The UniFi console simulator, over HTTPS with its certificate pinned, as the banner says.
        #expect(demo.stdout.contains("-t home/unifi/rule/downtime-emma/set -m '{\"enabled\":true,\"for\":60}'"))
        _ = try await observer.latest("home/unifi/rule/downtime-tablet", timeout: .seconds(20)) { $0["enabled"] == false }
        // A scene across UniFi and the Pi-holes, as the banner shows, and its end.
        #expect(demo.stdout.contains("-t home/scene/bedtime/set -m '{\"state\":\"on\",\"for\":3600}'"))
        #expect(demo.stdout.contains("home2mqtt scene Bedtime on --for 1h --port \(port)"))
        let bedtime = try await observer.command("home/scene/bedtime/set", #"{"state":"on","for":3600}"#)
        #expect(bedtime["status"] == "ok", "\(bedtime)")
        _ = try await observer.latest("home/unifi/rule/downtime-tablet") { $0["enabled"] == true }
        #expect(try await observer.command("home/scene/bedtime/set", "OFF")["status"] == "ok")
        _ = try await observer.latest("home/unifi/rule/downtime-tablet") { $0["enabled"] == false }
        let downtime = try await observer.command("home/unifi/rule/downtime-tablet/set", "ON")
        #expect(downtime["data"]?["enabled"] == true, "\(downtime)")
        // A guest voucher, made as the banner shows.
        #expect(demo.stdout.contains("home2mqtt voucher --host 127.0.0.1 --port \(port) --for 1d --note Grandma"))
        let voucher = try await observer.command("home/unifi/voucher/create", #"{"minutes":1440,"note":"Grandma"}"#)
        #expect(voucher["data"]?["vouchers"]?.arrayValue?.first?["code"]?.stringValue?.count == 10, "\(voucher)")
        // The aquarium too, switched the way the banner shows.
        #expect(demo.stdout.contains("mosquitto_pub -h 127.0.0.1 -p \(port) -t home/reef/outlet/heater/set -m ON"))
        _ = try await observer.latest("home/reef/outlet/heater", timeout: .seconds(20)) { $0["state"] == "off" }
        #expect(try await observer.command("home/reef/outlet/heater/set", "ON")["data"]?["state"] == "on")
        // The guard and the interlock the banner shows how to watch.
        #expect(demo.stdout.contains("-t 'home/reef/alarm/#' -t 'home/reef/interlock/#'"))
        _ = try await observer.latest("home/reef/interlock/heater") { $0["state"] == "armed" }
        // "Why is this blocked?", asked as the banner shows: the tablet is in the Kids group.
        let question = #"{"domain":"play.games.example","client":"192.168.1.20"}"#
        #expect(demo.stdout.contains("-t home/pihole/search -m '\(question)'"))
        #expect(demo.stdout.contains("home2mqtt why play.games.example --client 192.168.1.20 --port \(port)"))
        let why = try await observer.command("home/pihole/search", question)
        #expect(why["data"]?["blocked_on"] == ["backup", "main"], "\(why)")

        demo.signal(SIGINT)
        let signalled = ContinuousClock.now
        let result = try await demo.finish(timeout: .seconds(10))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(ContinuousClock.now - signalled < .seconds(5))
        // The bridge said goodbye through the broker before the demo stopped the broker.
        _ = try await observer.latest("home/bridge/state") { $0 == "offline" }
        await observer.disconnect()
        #expect(!LoopbackPort.accepts(port: port))
        for pid in brokers { #expect(!DemoProcess.exists(pid), "mosquitto \(pid) is still running") }
    }

    /// Killed outright (`kill -9`, the OOM killer, a test run's time limit), the demo cannot stop
    /// its broker: the broker must go by itself, not keep the port for ever.
    @Test func aKilledDemoLeavesNoBrokerBehind() async throws {
        let (demo, port, brokers) = try await DemoProcess.startedWithItsOwnBroker()
        defer { demo.kill() }

        demo.process.child.terminate(signal: SIGKILL)
        try await waitUntil("the demo's mosquitto gone after the demo was killed", timeout: .seconds(10)) {
            brokers.allSatisfy { !DemoProcess.exists($0) }
        }
        #expect(!LoopbackPort.accepts(port: port))
    }

    @Test func aBrokerAlreadyRunningIsUsedAndLeftRunning() async throws {
        let broker = try await TestBroker()
        defer { broker.stop() }
        let demo = try DemoProcess(["--mqtt-port", String(broker.port)])
        defer { demo.kill() }
        try await demo.waitUntilReady()
        #expect(demo.children(named: "mosquitto").isEmpty)
        #expect(demo.stdout.contains("already running"))

        let observer = try await Observer(broker, subscribe: ["home/#"])
        _ = try await observer.latest("home/pihole/main", timeout: .seconds(20)) { $0["blocking"] == "enabled" }
        _ = try await observer.latest("home/pihole/backup", timeout: .seconds(20)) { $0["blocking"] == "enabled" }

        demo.signal(SIGINT)
        let result = try await demo.finish(timeout: .seconds(10))
        #expect(result.status == 0, "\(result.stderr)")
        _ = try await observer.latest("home/bridge/state") { $0 == "offline" }
        #expect(LoopbackPort.accepts(port: broker.port), "the demo stopped a broker it had not started")
        await observer.disconnect()
    }

    @Test func withoutMosquittoItSaysHowToInstallIt() async throws {
        let port = try LoopbackPort.free()
        let demo = try DemoProcess(["--mqtt-port", String(port)], environment: ["MOSQUITTO_BIN": "/nonexistent/mosquitto"])
        defer { demo.kill() }
        let result = try await demo.finish(timeout: .seconds(20))
        #expect(result.status != 0)
        #expect(result.stderr.contains("mosquitto is not installed"), "\(result.stderr)")
        #expect(result.stderr.contains("scripts/install-deps"))
    }
}

/// The demo as a child process, with what a test needs to watch it and to clean up after it.
struct DemoProcess {
    let process: BridgeProcess

    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        process = try BridgeProcess(arguments, environment: environment, executable: BridgeProcess.executable(named: "home2mqtt-demo"))
    }

    var stdout: String { (try? String(contentsOfFile: process.stdoutPath, encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOfFile: process.stderrPath, encoding: .utf8)) ?? "" }

    /// Until `demo ready` is printed; fails at once if the demo exits instead.
    func waitUntilReady(timeout: Duration = .seconds(60)) async throws {
        try await waitUntil("demo ready (stdout: \(stdout), stderr: \(stderr))", timeout: timeout, pollInterval: .milliseconds(50)) {
            if !process.child.isRunning {
                throw TestSupportError("the demo exited (\(process.child.terminationStatus ?? -1)) before it was ready: \(stderr)")
            }
            return stdout.split(separator: "\n").contains("demo ready")
        }
    }

    /// A demo on a free loopback port, ready, with the one mosquitto it started for itself.
    static func startedWithItsOwnBroker() async throws -> (demo: DemoProcess, port: Int, brokers: [pid_t]) {
        try await LoopbackPort.withHeld { port in
            let demo = try DemoProcess(["--mqtt-host", "127.0.0.1", "--mqtt-port", String(port)])
            do {
                try await demo.waitUntilReady()
            } catch {
                demo.kill()
                throw error
            }
            let brokers = demo.children(named: "mosquitto")
            #expect(brokers.count == 1, "the demo should have started one mosquitto, it has children \(brokers)")
            return (demo, port, brokers)
        }
    }

    func signal(_ number: Int32) { process.signal(number) }

    func finish(timeout: Duration) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await process.finish(timeout: timeout)
    }

    /// Safety net for a failed test: the demo and any broker it started (in a process group of
    /// its own, so killing the demo alone would leave it behind).
    func kill() {
        for pid in children(named: "mosquitto") { Glibc.kill(pid, SIGKILL) }
        process.child.terminate(signal: SIGKILL)
    }

    /// Running children of the demo with this command name, from /proc.
    func children(named name: String) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> pid_t? in
            guard let pid = pid_t(entry),
                  let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { return nil }
            // "pid (comm) state ppid …": comm may itself contain spaces and parentheses.
            let command = stat[stat.index(after: open)..<close]
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard command == name, fields.count > 1, pid_t(fields[1]) == process.child.pid, fields[0] != "Z" else { return nil }
            return pid
        }
    }

    /// True while a process with this id exists (a zombie, not yet reaped, counts as gone).
    static func exists(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        return stat[stat.index(after: close)...].split(separator: " ").first != "Z"
    }
}
