import ArgumentParser
import BridgeCore
import UniFiIntegration

/// `home2mqtt voucher revoke CODE` or `--id ID`: takes a guest Wi-Fi voucher back, by the code a
/// guest was given or by its id (`home/unifi/controller/<id>/vouchers` lists the ids).
struct GuestVoucherRevokeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revoke",
        abstract: "Revoke a guest Wi-Fi voucher by its code or its id; exit 0 when one was revoked.")

    @Argument(help: "The voucher's code (dashes and spaces are ignored).")
    var code: String?

    @Option(help: "The voucher's id instead of its code.")
    var id: String?

    @Option(help: "The console's id, when the bridge has several.")
    var controller: String?

    @OptionGroup var options: CompanionOptions

    func validate() throws {
        guard (code == nil) != (id == nil) else { throw ValidationError("give the voucher's code or --id, one of the two") }
    }

    func run() async throws {
        try await options.send({ topics in command(topics) }, describe: { data in
            ["revoked \(data["revoked"]?.numberValue.map { Int($0) } ?? 0) voucher(s) on \(data["controller"]?.stringValue ?? "?")"]
        })
    }

    func command(_ topics: BridgeTopics) -> BridgeCommand {
        let payload: JSONValue = id.map { ["id": .string($0)] } ?? ["code": .string(code ?? "")]
        let unifi = IntegrationTopics(bridge: topics, name: UniFiTopics.name)
        return BridgeCommand(topic: unifi.topic(UniFiTopics.voucherRevoke(controller: controller)), payload: payload.encodedString())
    }
}
