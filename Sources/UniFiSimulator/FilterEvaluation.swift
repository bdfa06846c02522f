#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONDocument

extension FilterExpression {
    /// Whether `item` passes. Throws for a function the simulator does not know or a wrong
    /// number of arguments, as the controller answers 400.
    func matches(_ item: JSONValue) throws(FilterError) -> Bool {
        switch self {
        case .and(let operands):
            for operand in operands {
                if try !operand.matches(item) { return false }
            }
            return true
        case .or(let operands):
            for operand in operands {
                if try operand.matches(item) { return true }
            }
            return false
        case .not(let operand):
            return try !operand.matches(item)
        case .call(let property, let function, let arguments):
            let value = property.split(separator: ".").reduce(Optional(item)) { $0?[String($1)] }
            return try Self.apply(function, to: value, arguments, property: property)
        }
    }

    private static func apply(_ function: String, to value: JSONValue?, _ arguments: [FilterLiteral], property: String)
        throws(FilterError) -> Bool
    {
        func single() throws(FilterError) -> FilterLiteral {
            guard arguments.count == 1 else { throw FilterError(message: "\(property).\(function) takes one argument") }
            return arguments[0]
        }
        switch function {
        case "eq": return equal(value, try single())
        case "ne": return !equal(value, try single())
        case "in": return arguments.contains { equal(value, $0) }
        case "notIn": return !arguments.contains { equal(value, $0) }
        case "gt", "ge", "lt", "le":
            guard let order = compare(value, try single()) else { return false }
            switch function {
            case "gt": return order == .orderedDescending
            case "ge": return order != .orderedAscending
            case "lt": return order == .orderedAscending
            default: return order != .orderedDescending
            }
        case "isNull": return value == nil || value == .null
        case "isNotNull": return !(value == nil || value == .null)
        case "like":
            guard case .string(let pattern) = try single() else {
                throw FilterError(message: "\(property).like takes a quoted pattern")
            }
            guard let text = value?.stringValue else { return false }
            return LikePattern(pattern).matches(text)
        default:
            throw FilterError(message: "Unsupported filter function '\(function)' for property '\(property)'")
        }
    }

    /// Numbers against unquoted numbers; timestamps (ISO 8601 in one form, UTC) as quoted strings.
    private static func compare(_ value: JSONValue?, _ literal: FilterLiteral) -> ComparisonResult? {
        switch (value, literal) {
        case (.number(let number)?, .bare(let expected)):
            guard let expected = Double(expected) else { return nil }
            return number < expected ? .orderedAscending : number > expected ? .orderedDescending : .orderedSame
        case (.string(let text)?, .string(let expected)):
            return text < expected ? .orderedAscending : text > expected ? .orderedDescending : .orderedSame
        default:
            return nil
        }
    }

    /// Strings compare exactly; unquoted literals as booleans, numbers, or UUIDs (any case).
    private static func equal(_ value: JSONValue?, _ literal: FilterLiteral) -> Bool {
        switch (value, literal) {
        case (.string(let text)?, .string(let expected)): return text == expected
        case (.bool(let flag)?, .bare(let expected)): return String(flag) == expected
        case (.number(let number)?, .bare(let expected)): return Double(expected) == number
        case (.string(let text)?, .bare(let expected)): return text.lowercased() == expected.lowercased()
        default: return false
        }
    }
}

/// A `like` pattern: `*` any run, `.` exactly one character, `\` makes the next one literal.
/// Case-sensitive: the document says nothing about case, so the simulator does not fold it.
struct LikePattern {
    private enum Token: Equatable {
        case literal(Character)
        case one
        case any
    }

    private let tokens: [Token]

    init(_ pattern: String) {
        var tokens: [Token] = []
        var escaped = false
        for character in pattern {
            if escaped {
                tokens.append(.literal(character))
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                tokens.append(character == "*" ? .any : character == "." ? .one : .literal(character))
            }
        }
        self.tokens = tokens
    }

    func matches(_ text: String) -> Bool {
        let characters = Array(text)
        // reachable[j]: the tokens so far can match the first j characters.
        var reachable = [Bool](repeating: false, count: characters.count + 1)
        reachable[0] = true
        for token in tokens {
            var next = [Bool](repeating: false, count: characters.count + 1)
            for j in 0...characters.count where reachable[j] {
                switch token {
                case .any:
                    for k in j...characters.count { next[k] = true }
                case .one:
                    if j < characters.count { next[j + 1] = true }
                case .literal(let expected):
                    if j < characters.count, characters[j] == expected { next[j + 1] = true }
                }
            }
            reachable = next
        }
        return reachable[characters.count]
    }
}
