#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONDocument
import PlainText

/// What a PUT body may look like, as an explicit allow-list: every object is closed (any
/// property not listed is refused, at any depth), as the real controller does although the
/// spec closes none of its objects.
indirect enum UpdateShape: Sendable {
    case string
    case boolean
    case integer
    /// A whole number within the document's `minimum`…`maximum`.
    case bounded(ClosedRange<Int>)
    /// A string of `minLength` 1.
    case nonEmptyString
    case uuid
    case enumeration(Set<String>)
    case array(UpdateShape)
    case object([String: Field])
    /// An object whose `key` picks one of `variants` (each lists `key` itself).
    case discriminated(key: String, variants: [String: UpdateShape])

    struct Field: Sendable {
        let shape: UpdateShape
        let required: Bool
    }
}

/// Why a body was refused: the controller's error code and message.
struct UpdateRejection: Error, Sendable, Equatable {
    let code: String
    let message: String
}

extension UpdateShape {
    /// The first thing wrong with `value`, or nil when it conforms. `path` is JSONPath, `$` at the top.
    func rejection(of value: JSONValue, at path: String = "$") -> UpdateRejection? {
        switch (self, value) {
        case (.string, .string), (.boolean, .bool):
            return nil
        case (.integer, .number(let number)):
            return number.rounded() == number ? nil : Self.wrongType(path, "an integer")
        case (.bounded(let range), .number(let number)):
            guard number.rounded() == number else { return Self.wrongType(path, "an integer") }
            return Double(range.lowerBound) <= number && number <= Double(range.upperBound)
                ? nil
                : UpdateRejection(
                    code: "api.request.argument-out-of-range",
                    message: "Request body property '\(path)' must be between \(range.lowerBound) and \(range.upperBound)")
        case (.nonEmptyString, .string(let text)):
            return text.isEmpty
                ? UpdateRejection(code: "api.request.invalid-value", message: "Request body property '\(path)' must not be empty") : nil
        case (.uuid, .string(let text)):
            return text.lowercasedUUID != nil ? nil : Self.wrongType(path, "a UUID")
        case (.enumeration(let allowed), .string(let text)):
            return allowed.contains(text)
                ? nil : UpdateRejection(code: "api.request.invalid-value", message: "Invalid value '\(text)' of request body property '\(path)'")
        case (.array(let element), .array(let items)):
            for (index, item) in items.enumerated() {
                if let rejection = element.rejection(of: item, at: "\(path)[\(index)]") { return rejection }
            }
            return nil
        case (.object(let fields), .object(let members)):
            return Self.rejection(of: members, fields: fields, at: path)
        case (.discriminated(let key, let variants), .object(let members)):
            guard let tag = members[key]?.stringValue else { return Self.missing("\(path).\(key)") }
            guard let variant = variants[tag] else {
                return UpdateRejection(code: "api.request.invalid-value", message: "Invalid value '\(tag)' of request body property '\(path).\(key)'")
            }
            return variant.rejection(of: value, at: path)
        default:
            return Self.wrongType(path, "\(self.expected)")
        }
    }

    private static func rejection(of members: [String: JSONValue], fields: [String: Field], at path: String) -> UpdateRejection? {
        for key in members.keys.sorted() where fields[key] == nil {
            return UpdateRejection(code: "api.request.unknown-property", message: "Unknown request body property '\(path).\(key)'")
        }
        for (key, field) in fields.sorted(by: { $0.key < $1.key }) {
            guard let member = members[key] else {
                if field.required { return missing("\(path).\(key)") }
                continue
            }
            if let rejection = field.shape.rejection(of: member, at: "\(path).\(key)") { return rejection }
        }
        return nil
    }

    private var expected: String {
        switch self {
        case .string, .nonEmptyString, .enumeration: "a string"
        case .boolean: "a boolean"
        case .integer, .bounded: "an integer"
        case .uuid: "a UUID"
        case .array: "an array"
        case .object, .discriminated: "an object"
        }
    }

    private static func missing(_ path: String) -> UpdateRejection {
        UpdateRejection(code: "api.request.missing-property", message: "Missing required request body property '\(path)'")
    }

    private static func wrongType(_ path: String, _ expected: String) -> UpdateRejection {
        UpdateRejection(code: "api.request.invalid-property-type", message: "Request body property '\(path)' must be \(expected)")
    }
}

/// Shorthands for writing the allow-lists.
func must(_ shape: UpdateShape) -> UpdateShape.Field { .init(shape: shape, required: true) }
func may(_ shape: UpdateShape) -> UpdateShape.Field { .init(shape: shape, required: false) }
