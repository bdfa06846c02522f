import ArgumentParser
import BridgeCore
import UniFiIntegration

/// `home2mqtt voucher`: guest Wi-Fi vouchers on the UniFi console. `create` (what a bare
/// `voucher` does) makes one and prints its code; `revoke` takes one back.
struct GuestVoucherCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "voucher",
        abstract: "Make (the default) or revoke guest Wi-Fi vouchers on the UniFi console.",
        subcommands: [GuestVoucherCreateCommand.self, GuestVoucherRevokeCommand.self], defaultSubcommand: GuestVoucherCreateCommand.self)
}

/// `home2mqtt voucher [create] [--for 1d] [--guests 2] [--note TEXT]`: makes a guest Wi-Fi voucher
/// and prints its code (the code is in the bridge's answer to this client alone).
struct GuestVoucherCreateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Make a guest Wi-Fi voucher on the UniFi console and print its code; exit 0 on success.",
        discussion: "The time runs from the voucher's first use. The broker user must be allowed voucher commands (not the watch role).")

    @Option(name: .customLong("for"), help: "How long it gives access, from its first use: 90m, 8h, 1d, 2d12h (whole minutes).")
    var duration = DurationArgument(argument: "1d")!

    @Option(help: "How many guests may use it (0: any number).")
    var guests = 1

    @Option(help: "How many vouchers to make (1-1000).")
    var count = 1

    @Option(help: "A note the console shows with the voucher.")
    var note = "home2mqtt"

    @Option(help: "The console's id, when the bridge has several.")
    var controller: String?

    @OptionGroup var options: CompanionOptions

    func validate() throws {
        guard duration.seconds % 60 == 0 else { throw ValidationError("--for must be whole minutes (90m, 8h, 1d)") }
        guard guests >= 0 else { throw ValidationError("--guests must be 0 (any number) or more") }
    }

    func run() async throws {
        try await options.send({ topics in command(topics) }, describe: Self.describe)
    }

    func command(_ topics: BridgeTopics) -> BridgeCommand {
        let payload: JSONValue = [
            "minutes": .number(Double(duration.seconds / 60)), "count": .number(Double(count)),
            "guests": guests == 0 ? .null : .number(Double(guests)), "note": .string(note),
        ]
        let unifi = IntegrationTopics(bridge: topics, name: UniFiTopics.name)
        return BridgeCommand(topic: unifi.topic(UniFiTopics.voucherCreate(controller: controller)), payload: payload.encodedString())
    }

    /// One line per voucher: the code, then what it allows.
    static func describe(_ data: JSONValue) -> [String] {
        (data["vouchers"]?.arrayValue ?? []).map { voucher in
            let minutes = voucher["minutes"]?.numberValue.map { Int($0) } ?? 0
            let guests = voucher["guests"]?.numberValue.map { "\(Int($0)) guest\($0 == 1 ? "" : "s")" } ?? "any number of guests"
            return "\(voucher["code"]?.stringValue ?? "?")  \(TextFormat.duration(seconds: Double(minutes * 60))) from first use, \(guests)"
        }
    }
}
