#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Checks an `MQTTConfiguration` before any libmosquitto handle exists, with readable messages.
enum ConfigurationValidator {
    static func validate(_ configuration: MQTTConfiguration) throws(MQTTError) {
        func fail(_ message: String) -> MQTTError { MQTTError(.invalidConfiguration, message) }
        guard !configuration.clientID.isEmpty else { throw fail("clientID must not be empty") }
        guard configuration.clientID.utf8.count <= 65535 else { throw fail("clientID is too long") }
        guard !configuration.host.isEmpty else { throw fail("host must not be empty") }
        guard (1...65535).contains(configuration.port) else { throw fail("port \(configuration.port) is not in 1...65535") }
        guard configuration.keepAlive == 0 || (5...65535).contains(configuration.keepAlive) else {
            throw fail("keepAlive must be 0 or 5...65535 seconds, not \(configuration.keepAlive)")
        }
        if configuration.password != nil && configuration.username == nil {
            throw fail("a password needs a username")
        }
        if let tls = configuration.tls {
            for (name, path) in [("caFile", tls.caFile), ("certFile", tls.certFile), ("keyFile", tls.keyFile)] {
                if let path, !FileManager.default.isReadableFile(atPath: path) {
                    throw fail("TLS \(name) '\(path)' does not exist or is not readable")
                }
            }
            if let caPath = tls.caPath {
                let type = (try? FileManager.default.attributesOfItem(atPath: caPath))?[.type] as? FileAttributeType
                guard type == .typeDirectory else {
                    throw fail("TLS caPath '\(caPath)' is not a directory")
                }
            }
            if (tls.certFile == nil) != (tls.keyFile == nil) {
                throw fail("TLS certFile and keyFile must be given together")
            }
        }
        if let will = configuration.will, will.topic.isEmpty || will.topic.contains(where: { $0 == "+" || $0 == "#" }) {
            throw fail("will topic '\(will.topic)' must be a non-empty topic without wildcards")
        }
    }
}
