import BridgeCore

/// `unifi.vouchers`: Home Assistant's voucher buttons, and whether the code a button made is
/// kept on a retained topic for Home Assistant to show.
struct VoucherConfiguration: Sendable {
    /// A button per duration, in minutes: "Guest voucher, 1 day".
    let presets: [Int]
    /// Whether the code a button made is retained on `voucher/latest` (the sensor's topic). A
    /// button whose code nobody can read is of no use: on unless turned off.
    let retainLatestCode: Bool

    init(_ section: ConfigSection) throws(ConfigError) {
        let section = try section.allowing(["presets", "latest_code"])
        presets = try section.intList("presets", default: [1440], in: 1...1_000_000)
        guard Set(presets).count == presets.count else { throw ConfigError(key: section.keyPath("presets"), "lists a duration twice") }
        guard presets.count <= 10 else { throw ConfigError(key: section.keyPath("presets"), "lists more than 10 durations") }
        retainLatestCode = try section.bool("latest_code", default: true)
    }

    /// `1440` → "1 day", `90` → "90 minutes": a button's name.
    static func durationName(minutes: Int) -> String {
        for (unit, size) in [("week", 10080), ("day", 1440), ("hour", 60)] where minutes % size == 0 {
            let count = minutes / size
            return "\(count) \(unit)\(count == 1 ? "" : "s")"
        }
        return "\(minutes) minute\(minutes == 1 ? "" : "s")"
    }
}
