#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The broker the demo uses: the one already answering at `host:port`, or else a mosquitto of
/// its own on that port, from `broker-config/demo.conf`.
enum DemoBroker {
    static func choose(host: String, port: Int, brokerConfig: String?) throws -> (address: DemoBrokerAddress, service: MosquittoService?) {
        if TCPProbe.accepts(host: host, port: port) {
            return (DemoBrokerAddress(host: host, port: port, startedByDemo: false), nil)
        }
        guard let bindAddress = loopbackAddress(host) else {
            throw DemoError("no MQTT broker answers at \(host):\(port), and the demo starts one only on loopback (127.0.0.1, ::1 or localhost)")
        }
        guard let executable = mosquittoExecutable() else {
            throw DemoError("""
                no MQTT broker answers at \(host):\(port), and mosquitto is not installed to start one.
                Install it with scripts/install-deps (or: sudo apt-get install mosquitto mosquitto-clients),
                or point the demo at a running broker with --mqtt-host and --mqtt-port.
                """)
        }
        let configuration = try DemoBrokerConfig.render(
            file: DemoBrokerConfig.locate(explicit: brokerConfig), port: port, bindAddress: bindAddress
        )
        let service = try MosquittoService(executable: executable, configuration: configuration, port: port)
        return (DemoBrokerAddress(host: bindAddress, port: port, startedByDemo: true), service)
    }

    /// The address to bind for a loopback `host`, nil for any other host.
    private static func loopbackAddress(_ host: String) -> String? {
        switch host {
        case "127.0.0.1", "localhost": return "127.0.0.1"
        case "::1": return "::1"
        default: return nil
        }
    }

    /// `MOSQUITTO_BIN`, else the usual places (Debian puts the broker in /usr/sbin, often not on a
    /// user's PATH); nil when there is none to run.
    private static func mosquittoExecutable() -> String? {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["MOSQUITTO_BIN"] {
            return FileManager.default.isExecutableFile(atPath: path) ? path : nil
        }
        let path = (environment["PATH"] ?? "").split(separator: ":").map(String.init)
        for directory in path + ["/usr/sbin", "/usr/local/sbin", "/opt/homebrew/sbin"] {
            let candidate = URL(fileURLWithPath: directory).appendingPathComponent("mosquitto").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
