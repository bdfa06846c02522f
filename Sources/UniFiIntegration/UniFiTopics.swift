/// Every UniFi topic below `base/unifi`, in one place (listed for users in docs/topics.md).
/// Public so that clients (the `home2mqtt` companion commands) address the same topics.
public enum UniFiTopics {
    /// The topic level below the base topic, and the configuration section.
    public static let name = "unifi"

    /// `online` when at least one controller answers.
    public static let availability = "availability"
    /// The scene part (`scenes[].parts[]`) that switches a rule.
    public static let rulePart = "unifi_rule"
    /// Every managed rule by key: `{"downtime-emma":{"id","name","kind","controller"},…}`.
    public static let rules = "rules"

    public static func rule(_ key: String) -> String { "rule/\(key)" }
    public static func ruleSet(_ key: String) -> String { "rule/\(key)/set" }
    public static let refresh = "refresh"

    public static func controller(_ id: String) -> String { "controller/\(id)" }
    public static func controllerAvailability(_ id: String) -> String { "controller/\(id)/availability" }

    /// A console's active vouchers, without their codes.
    public static func controllerVouchers(_ id: String) -> String { "controller/\(id)/vouchers" }
    /// `voucher/create` for the only console, `controller/<id>/voucher/create` for one of several.
    public static func voucherCreate(controller: String?) -> String { voucherCommand("create", controller) }
    public static func voucherRevoke(controller: String?) -> String { voucherCommand("revoke", controller) }
    static func voucherPreset(minutes: Int, controller: String) -> String { voucherCommand("preset/\(minutes)", controller) }
    /// The code a Home Assistant button made last (retained: codes are credentials, see broker-config/acl).
    public static let latestVoucher = "voucher/latest"

    private static func voucherCommand(_ command: String, _ controller: String?) -> String {
        (controller.map { "controller/\($0)/" } ?? "") + "voucher/" + command
    }

    /// Where voucher codes go (commands' answers, the latest code): what the page withholds and
    /// broker-config/acl denies the watch.
    static let credentialFilters = ["voucher/#", "controller/+/voucher/#"]

    /// Exact command topics only, so that the bridge never hears its own state or answers.
    static let commandFilters = [
        "rule/+/set", "refresh", "voucher/create", "voucher/revoke", "voucher/preset/+",
        "controller/+/voucher/create", "controller/+/voucher/revoke", "controller/+/voucher/preset/+",
    ]
    /// What the page's controls send: rule switches and a guest voucher (the guest card).
    static let everydayCommands = ["rule/+/set", "voucher/create", "controller/+/voucher/create"]
}
