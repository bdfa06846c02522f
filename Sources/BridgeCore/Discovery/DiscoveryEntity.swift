/// A Home Assistant entity, as an integration declares it. The bridge turns it into a
/// discovery config (`DiscoveryConfig`) with the device, origin, unique id and availability.
public struct DiscoveryEntity: Sendable, Equatable {
    /// `switch`, `button`, `sensor`, `binary_sensor`, …
    public var component: String
    /// Unique within this bridge: `pihole_main_blocking`.
    public var objectID: String
    /// The entity's name under its device (`Blocking`); `nil` uses the device name alone.
    public var name: String?
    public var device: DiscoveryDevice
    /// The integration's availability topics; the bridge adds its own `bridge/state`.
    public var availabilityTopics: [String]
    /// The component's own options: `state_topic`, `command_topic`, `device_class`, `unit_of_measurement`, …
    public var options: [String: JSONValue]

    public init(
        component: String, objectID: String, name: String?, device: DiscoveryDevice,
        availabilityTopics: [String], options: [String: JSONValue]
    ) {
        self.component = component
        self.objectID = objectID
        self.name = name
        self.device = device
        self.availabilityTopics = availabilityTopics
        self.options = options
    }
}

public struct DiscoveryDevice: Sendable, Equatable {
    public var identifier: String
    public var name: String
    public var model: String
    public var manufacturer: String
    public var viaBridge: Bool

    public init(identifier: String, name: String, model: String, manufacturer: String, viaBridge: Bool = true) {
        self.identifier = identifier
        self.name = name
        self.model = model
        self.manufacturer = manufacturer
        self.viaBridge = viaBridge
    }
}
