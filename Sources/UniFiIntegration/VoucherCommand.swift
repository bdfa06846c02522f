import BridgeCore
import PlainText
import UniFiAPI

/// A voucher command's payload, read and checked against the API's limits before any request:
/// a command the console would refuse is answered with the error and never sent.
enum VoucherCommand: Sendable, Equatable {
    /// `voucher/create`, or a Home Assistant preset button (`voucher/preset/<minutes>`), whose
    /// code becomes the latest-code sensor's.
    case create(UniFiVoucherRequest, fromPreset: Bool)
    /// `voucher/revoke` `{"id"}`.
    case revokeID(String)
    /// `voucher/revoke` `{"code"}`: the code, digits only.
    case revokeCode(String)

    /// What a note may hold: the API sets no bound, the bridge does.
    static let noteLength = 1...100
    static let defaultNote = "home2mqtt"
    static let createUsage = #"voucher create takes {"minutes":1-1000000} with optional "count" (1-1000), "guests" (1 or more; null: any number), "note", "data_mb", "up_kbps", "down_kbps" (null: no limit)"#
    static let revokeUsage = #"voucher revoke takes {"id":"<voucher id>"} or {"code":"<code>"}"#

    static func create(_ payload: CommandRequest.Payload) throws(CommandError) -> VoucherCommand {
        guard case .json(.object(let object)) = payload else { throw CommandError(createUsage) }
        let known: Set<String> = ["minutes", "count", "guests", "note", "data_mb", "up_kbps", "down_kbps", "transaction"]
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw CommandError("unknown key '\(unknown.prefix(40))': \(createUsage)")
        }
        guard let minutes = try whole(object, "minutes") else { throw CommandError("\"minutes\" is required: \(createUsage)") }
        let note: String
        switch object["note"] {
        case nil, .null?: note = defaultNote
        case .string(let text)?: note = text.trimmed()
        case let other?: throw CommandError("\"note\" must be a string, got \(other.encodedString().prefix(40))")
        }
        guard noteLength.contains(note.count) else {
            throw CommandError("\"note\" must be \(noteLength.lowerBound) to \(noteLength.upperBound) characters")
        }
        // Left out, a voucher lets one guest on; null asks for the console's "any number".
        let guests = object["guests"] == nil ? 1 : try whole(object, "guests")
        let request = UniFiVoucherRequest(
            minutes: minutes, count: try whole(object, "count") ?? 1, guests: guests, note: note,
            dataLimitMB: try whole(object, "data_mb"), downloadKbps: try whole(object, "down_kbps"), uploadKbps: try whole(object, "up_kbps"))
        if let problem = request.problem(names: commandKey) { throw CommandError(problem) }
        return .create(request, fromPreset: false)
    }

    /// A preset button: `minutes` from the topic, one guest, the note says where it came from.
    static func preset(_ minutes: String, allowed: [Int]) throws(CommandError) -> VoucherCommand {
        guard let minutes = Int(minutes), allowed.contains(minutes) else {
            throw CommandError("no voucher preset of '\(minutes.prefix(20))' minutes (configured: \(allowed.map(String.init).joined(separator: ", ")))", code: .unknownTarget)
        }
        return .create(UniFiVoucherRequest(minutes: minutes, guests: 1, note: "Home Assistant"), fromPreset: true)
    }

    /// Never echoes a code: errors are logged.
    static func revoke(_ payload: CommandRequest.Payload) throws(CommandError) -> VoucherCommand {
        guard case .json(.object(var object)) = payload else { throw CommandError(revokeUsage) }
        object["transaction"] = nil
        switch (object["id"], object["code"], object.count) {
        case (.string(let id)?, nil, 1):
            guard let uuid = id.lowercasedUUID else { throw CommandError("\"id\" must be a voucher's id (a UUID)") }
            return .revokeID(uuid)
        case (nil, .string(let code)?, 1):
            // Consoles show codes as 12345-67890.
            let digits = code.filter { $0 != "-" && $0 != " " }
            guard (4...32).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                throw CommandError("\"code\" must be the voucher's digits (4 to 32, '-' and spaces allowed between)")
            }
            return .revokeCode(digits)
        default:
            throw CommandError(revokeUsage)
        }
    }

    /// The command's own key for an API field, for errors.
    private static func commandKey(_ field: String) -> String {
        [
            "timeLimitMinutes": "minutes", "authorizedGuestLimit": "guests", "dataUsageLimitMBytes": "data_mb",
            "rxRateLimitKbps": "down_kbps", "txRateLimitKbps": "up_kbps", "name": "note",
        ][field] ?? field
    }

    /// A whole number, `nil` when absent or null.
    private static func whole(_ object: [String: JSONValue], _ key: String) throws(CommandError) -> Int? {
        switch object[key] {
        case nil, .null?: return nil
        case .number(let number)?:
            guard let value = Int(exactly: number) else { throw CommandError("\"\(key)\" must be a whole number, got \(number)") }
            return value
        case let other?:
            throw CommandError("\"\(key)\" must be a whole number, got \(other.encodedString().prefix(40))")
        }
    }
}
