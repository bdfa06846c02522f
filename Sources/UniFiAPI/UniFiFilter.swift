#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PlainText

/// A `filter` query value in the Integration API's language: `name.like('downtime*')`,
/// `and(enabled.eq(true), metadata.origin.eq('USER_DEFINED'))`. Built only through these
/// functions, so quoting is always right.
public struct UniFiFilter: Sendable, Equatable, CustomStringConvertible {
    /// The expression as the controller reads it (before URL-encoding).
    public let expression: String
    /// Every property the expression names, for endpoints that filter on only a few.
    public let properties: Set<String>

    /// A literal argument.
    public enum Value: Sendable, Equatable {
        case string(String)
        /// UUIDs, numbers and booleans go unquoted.
        case uuid(String)
        case number(Int)
        case bool(Bool)

        var literal: String {
            switch self {
            case .string(let text): "'" + text.replacing("'", with: "''") + "'"
            case .uuid(let id): id
            case .number(let number): String(number)
            case .bool(let flag): String(flag)
            }
        }
    }

    public static func eq(_ property: String, _ value: Value) -> UniFiFilter {
        call(property, "eq", [value])
    }

    public static func ne(_ property: String, _ value: Value) -> UniFiFilter {
        call(property, "ne", [value])
    }

    public static func `in`(_ property: String, _ values: [Value]) -> UniFiFilter {
        call(property, "in", values)
    }

    public static func notIn(_ property: String, _ values: [Value]) -> UniFiFilter {
        call(property, "notIn", values)
    }

    /// `pattern` in `like` syntax: `*` any run, `.` one character; see ``likeLiteral(_:)``.
    public static func like(_ property: String, _ pattern: String) -> UniFiFilter {
        call(property, "like", [.string(pattern)])
    }

    /// `text` escaped for a `like` pattern, so that `*`, `.` and `\` match themselves.
    public static func likeLiteral(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if character == "*" || character == "." || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }

    /// Two or more operands (one operand is returned as it is, as the API wants no 1-ary `and`).
    public static func and(_ operands: [UniFiFilter]) -> UniFiFilter {
        combine("and", operands)
    }

    public static func or(_ operands: [UniFiFilter]) -> UniFiFilter {
        combine("or", operands)
    }

    public static func not(_ operand: UniFiFilter) -> UniFiFilter {
        UniFiFilter(expression: "not(\(operand.expression))", properties: operand.properties)
    }

    /// The whole expression percent-encoded for the query string (RFC 3986 unreserved kept).
    public var queryValue: String { expression.percentEncodedPathSegment }

    public var description: String { expression }

    private static func call(_ property: String, _ function: String, _ values: [Value]) -> UniFiFilter {
        UniFiFilter(
            expression: "\(property).\(function)(\(values.map(\.literal).joined(separator: ",")))",
            properties: [property])
    }

    private static func combine(_ function: String, _ operands: [UniFiFilter]) -> UniFiFilter {
        if operands.count == 1 { return operands[0] }
        return UniFiFilter(
            expression: "\(function)(\(operands.map(\.expression).joined(separator: ",")))",
            properties: operands.reduce(into: Set()) { $0.formUnion($1.properties) })
    }
}

extension UniFiRuleKind {
    /// Properties the endpoint can filter on that matter here (spec 10.5.66's tables);
    /// `nil` for ACL rules, whose list is long and includes everything a bridge filters on.
    var filterableProperties: Set<String>? {
        switch self {
        case .acl: nil
        case .firewallPolicy: ["id", "name", "source.zoneId", "destination.zoneId", "metadata.origin"]
        }
    }

    /// Refuses, without a request, a filter the endpoint would answer with 400.
    func check(_ filter: UniFiFilter) throws(UniFiError) {
        guard let allowed = filterableProperties else { return }
        let refused = filter.properties.subtracting(allowed).sorted()
        guard refused.isEmpty else {
            throw UniFiError(
                .badRequest,
                "\(rawValue) rules cannot be filtered on \(refused.joined(separator: ", ")); only on \(allowed.sorted().joined(separator: ", "))")
        }
    }
}
