import ChildProcess
import Foundation

extension TestBroker {
    /// The household ACL the project ships: `broker-config/acl`.
    public static let householdACL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../broker-config/acl").standardized.path

    /// A broker with the household's ACL, no anonymous access, and one user per role with the
    /// password `<role>-password`; `config` is added to its listener (TLS, say); `acl`: another
    /// ACL file in place of the household's.
    public static func withRoles(
        _ users: [String] = ["bridge", "homeassistant", "watch"], config: String = "", acl: String = householdACL
    ) async throws -> TestBroker {
        let passwd = FileManager.default.temporaryDirectory.appendingPathComponent("passwd-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: passwd + ".log") }
        for (index, user) in users.enumerated() {
            // Hashing a password takes mosquitto_passwd a while: awaited, not waited for on a thread.
            let process = try ChildProcess(
                path: "/usr/bin/mosquitto_passwd", arguments: (index == 0 ? ["-c"] : []) + ["-b", passwd, user, "\(user)-password"],
                logPath: passwd + ".log")
            guard try await process.exitCode() == 0 else {
                throw TestSupportError("mosquitto_passwd failed for \(user): " + ((try? String(contentsOfFile: passwd + ".log", encoding: .utf8)) ?? ""))
            }
        }
        return try await TestBroker(config: "allow_anonymous false\npassword_file \(passwd)\nacl_file \(acl)\n" + config)
    }
}
