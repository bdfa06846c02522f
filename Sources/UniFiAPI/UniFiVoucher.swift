import JSONDocument

/// A hotspot (guest Wi-Fi) voucher, as `GET …/hotspot/vouchers` lists it (spec 10.5.66
/// `Hotspot voucher details`). `code` is a credential: whoever holds it is let onto the guest
/// network. Nothing that logs or publishes state may carry it: use ``withoutCode``.
public struct UniFiVoucher: Sendable, Equatable {
    public let id: String
    /// The secret code (`nil` once stripped).
    public private(set) var code: String?
    /// The note (`name` in the API), shared by the vouchers made together.
    public let note: String
    public let createdAt: String
    /// How many guests may use it; `nil`: no limit.
    public let guestLimit: Int?
    public let guestCount: Int
    /// Set when the first guest used it; the minutes run from then on.
    public let activatedAt: String?
    /// Set once activated: when every guest on it loses access.
    public let expiresAt: String?
    public let expired: Bool
    public let minutes: Int
    public let dataLimitMB: Int?
    public let downloadKbps: Int?
    public let uploadKbps: Int?

    /// `nil` unless the required fields are there with their types.
    public init?(_ json: JSONValue) {
        func whole(_ key: String) -> Int? { json[key]?.numberValue.flatMap { Int(exactly: $0) } }
        guard let id = json["id"]?.stringValue, let code = Self.codeText(json["code"]), let note = json["name"]?.stringValue,
              let createdAt = json["createdAt"]?.stringValue, let guestCount = whole("authorizedGuestCount"),
              let expired = json["expired"]?.boolValue, let minutes = whole("timeLimitMinutes")
        else { return nil }
        (self.id, self.code, self.note, self.createdAt, self.guestCount, self.expired, self.minutes) =
            (id, code, note, createdAt, guestCount, expired, minutes)
        guestLimit = whole("authorizedGuestLimit")
        activatedAt = json["activatedAt"]?.stringValue
        expiresAt = json["expiresAt"]?.stringValue
        dataLimitMB = whole("dataUsageLimitMBytes")
        downloadKbps = whole("rxRateLimitKbps")
        uploadKbps = whole("txRateLimitKbps")
    }

    /// The same voucher with no code: what state may show.
    public var withoutCode: UniFiVoucher {
        var stripped = self
        stripped.code = nil
        return stripped
    }

    /// The document types `code` as a string and gives a number as its example: take either.
    private static func codeText(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let text)?: text
        case .number(let number)?: Int(exactly: number).map(String.init)
        default: nil
        }
    }
}

extension UniFiVoucher: CustomStringConvertible {
    /// Never the code, so that a voucher interpolated into a log line gives nothing away.
    public var description: String { "voucher \(id) ('\(note)', \(minutes) min)" }
}
