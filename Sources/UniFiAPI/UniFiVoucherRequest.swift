import JSONDocument

/// `POST …/hotspot/vouchers`: what to make, checked against the limits of spec 10.5.66
/// (`Hotspot voucher creation request`) before it is sent.
public struct UniFiVoucherRequest: Sendable, Equatable {
    public var minutes: Int
    public var count: Int
    /// `nil`: any number of guests.
    public var guests: Int?
    public var note: String
    public var dataLimitMB: Int?
    public var downloadKbps: Int?
    public var uploadKbps: Int?

    public static let minutesRange = 1...1_000_000
    public static let countRange = 1...1000
    public static let guestsRange = 1...Int(Int32.max)
    public static let dataLimitRange = 1...1_048_576
    public static let rateRange = 2...100_000

    public init(
        minutes: Int, count: Int = 1, guests: Int? = nil, note: String, dataLimitMB: Int? = nil, downloadKbps: Int? = nil,
        uploadKbps: Int? = nil
    ) {
        (self.minutes, self.count, self.guests, self.note) = (minutes, count, guests, note)
        (self.dataLimitMB, self.downloadKbps, self.uploadKbps) = (dataLimitMB, downloadKbps, uploadKbps)
    }

    /// The first value outside the document's limits, named as the caller names it, or `nil`.
    public func problem(names: (String) -> String = { $0 }) -> String? {
        func outside(_ value: Int?, _ range: ClosedRange<Int>, _ field: String) -> String? {
            guard let value, !range.contains(value) else { return nil }
            return "\"\(names(field))\" must be \(range.lowerBound)…\(range.upperBound), got \(value)"
        }
        if note.isEmpty { return "\"\(names("name"))\" must not be empty" }
        return outside(minutes, Self.minutesRange, "timeLimitMinutes") ?? outside(count, Self.countRange, "count")
            ?? outside(guests, Self.guestsRange, "authorizedGuestLimit")
            ?? outside(dataLimitMB, Self.dataLimitRange, "dataUsageLimitMBytes")
            ?? outside(downloadKbps, Self.rateRange, "rxRateLimitKbps") ?? outside(uploadKbps, Self.rateRange, "txRateLimitKbps")
    }

    /// The body as the API names its fields; optional limits left out rather than `null`.
    var body: JSONValue {
        var body: [String: JSONValue] = [
            "name": .string(note), "timeLimitMinutes": .number(Double(minutes)), "count": .number(Double(count)),
        ]
        let optional: [(String, Int?)] = [
            ("authorizedGuestLimit", guests), ("dataUsageLimitMBytes", dataLimitMB), ("rxRateLimitKbps", downloadKbps),
            ("txRateLimitKbps", uploadKbps),
        ]
        for case let (key, value?) in optional { body[key] = .number(Double(value)) }
        return .object(body)
    }
}
