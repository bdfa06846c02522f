/// `bridge.web`: the bridge's own page, on the `bridge.health` listener (docs/web.md).
public struct WebConfiguration: Sendable {
    public var enabled: Bool
    /// Pause/resume and the group, rule and outlet switches on the page.
    public var controls: Bool
    /// What the page's login asks for (`password`, or `password_file` read into it).
    public var password: String?
    /// Behind Home Assistant's Supervisor ingress: requests from `supervisorAddress` need no
    /// password and have their `X-Ingress-Path` honoured.
    public var ingress: Bool

    /// The only address the Supervisor's ingress proxy connects from.
    public static let supervisorAddress = "172.30.32.2"

    public init(_ section: ConfigSection, health: HealthConfiguration) throws(ConfigError) {
        let section = try section.allowing(["enabled", "controls", "password", "ingress"])
        enabled = try section.bool("enabled", default: false)
        controls = try section.bool("controls", default: false)
        password = try section.string("password")
        ingress = try section.bool("ingress", default: false)
        if enabled, !health.enabled {
            throw ConfigError(key: section.keyPath("enabled"), "needs bridge.health.enabled: the page is served on that listener")
        }
        if password?.isEmpty == true {
            throw ConfigError(key: section.keyPath("password"), "is empty: give a password, or leave it out")
        }
        if enabled, controls, password == nil, !ingress {
            throw ConfigError(
                key: section.keyPath("controls"),
                "needs bridge.web.password (or password_file): the page's controls are refused without a login")
        }
    }
}
