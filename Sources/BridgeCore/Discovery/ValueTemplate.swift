/// Home Assistant value templates that render nothing amiss on any payload.
///
/// A thing that goes away has its discovery config cleared, then its state topic; Home Assistant
/// may still hand the empty state message to the entity it is removing, and a template that reads
/// `value_json.x` then logs "'value_json' is undefined" (seen on 2025.4). So every template reads
/// fields with `get` (a missing one is `None`, not an error) and only when the payload is a JSON
/// object; otherwise it renders `None`, which Home Assistant shows as unknown.
public enum ValueTemplate {
    /// `expression`, written over `value_json`, evaluated only when the payload is a JSON object.
    public static func guarded(_ expression: String) -> JSONValue {
        .string("{{ (\(expression)) if \(isObject) else None }}")
    }

    /// A field of the payload, or `None`.
    public static func field(_ name: String) -> JSONValue {
        guarded("value_json.get('\(name)')")
    }

    /// `ON` when `condition` holds, else `OFF`.
    public static func onOff(when condition: String) -> JSONValue {
        guarded("'ON' if \(condition) else 'OFF'")
    }

    /// For `json_attributes_template`: `attributes` (a Jinja dict over `value_json`) as JSON, `{}`
    /// when the payload is no object.
    public static func attributes(_ attributes: String) -> JSONValue {
        .string("{{ ((\(attributes)) if \(isObject) else {}) | to_json }}")
    }

    /// The test that makes `value_json.get` safe.
    public static let isObject = "value_json is defined and value_json is mapping"
}
