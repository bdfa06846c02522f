#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PlainText

/// The Integration API's `filter` language, parsed: `name.like('down*')`,
/// `and(enabled.eq(true), not(id.in(…)))`. A pure value; see ``FilterParser``.
indirect enum FilterExpression: Sendable, Equatable {
    case call(property: String, function: String, arguments: [FilterLiteral])
    case and([FilterExpression])
    case or([FilterExpression])
    case not(FilterExpression)

    /// Every property named, so that an endpoint can refuse those it cannot filter on.
    var properties: Set<String> {
        switch self {
        case .call(let property, _, _): [property]
        case .and(let operands), .or(let operands): operands.reduce(into: Set()) { $0.formUnion($1.properties) }
        case .not(let operand): operand.properties
        }
    }

    /// Every property with the function applied to it, for endpoints that allow only some.
    var calls: [(property: String, function: String)] {
        switch self {
        case .call(let property, let function, _): [(property, function)]
        case .and(let operands), .or(let operands): operands.flatMap(\.calls)
        case .not(let operand): operand.calls
        }
    }
}

/// An argument: a quoted string, or an unquoted UUID, number or boolean.
enum FilterLiteral: Sendable, Equatable {
    case string(String)
    case bare(String)
}

/// A filter the controller would refuse (400).
struct FilterError: Error, Sendable, Equatable {
    let message: String
}

/// Recursive-descent parser for ``FilterExpression``.
struct FilterParser {
    private let characters: [Character]
    private var position = 0

    static func parse(_ text: String) throws(FilterError) -> FilterExpression {
        var parser = FilterParser(characters: Array(text))
        let expression = try parser.expression()
        parser.skipSpaces()
        guard parser.position == parser.characters.count else { throw parser.failure("unexpected text") }
        return expression
    }

    private init(characters: [Character]) {
        self.characters = characters
    }

    private mutating func expression() throws(FilterError) -> FilterExpression {
        skipSpaces()
        let name = identifier()
        guard !name.isEmpty else { throw failure("a property or and/or/not expected") }
        try expect("(")
        switch name {
        case "and", "or":
            var operands = [try expression()]
            while accept(",") { operands.append(try expression()) }
            try expect(")")
            guard operands.count >= 2 else { throw failure("\(name) needs two or more operands") }
            return name == "and" ? .and(operands) : .or(operands)
        case "not":
            let operand = try expression()
            try expect(")")
            return .not(operand)
        default:
            guard let dot = name.lastIndex(of: "."), dot != name.startIndex else {
                throw failure("'\(name)' is not property.function")
            }
            var arguments: [FilterLiteral] = []
            skipSpaces()
            if !accept(")") {
                repeat { arguments.append(try literal()) } while accept(",")
                try expect(")")
            }
            return .call(property: String(name[..<dot]), function: String(name[name.index(after: dot)...]), arguments: arguments)
        }
    }

    private mutating func literal() throws(FilterError) -> FilterLiteral {
        skipSpaces()
        guard position < characters.count else { throw failure("an argument expected") }
        guard characters[position] == "'" else {
            var bare = ""
            while position < characters.count, characters[position] != ",", characters[position] != ")" {
                bare.append(characters[position])
                position += 1
            }
            bare = bare.trimmed()
            guard !bare.isEmpty else { throw failure("an argument expected") }
            return .bare(bare)
        }
        position += 1
        var text = ""
        while position < characters.count {
            if characters[position] == "'" {
                // '' is a quote inside the string; a lone ' ends it.
                if position + 1 < characters.count, characters[position + 1] == "'" {
                    text.append("'")
                    position += 2
                    continue
                }
                position += 1
                skipSpaces()
                return .string(text)
            }
            text.append(characters[position])
            position += 1
        }
        throw failure("unterminated string")
    }

    private mutating func identifier() -> String {
        var name = ""
        while position < characters.count, characters[position].isLetter || characters[position].isNumber
            || characters[position] == "." || characters[position] == "_"
        {
            name.append(characters[position])
            position += 1
        }
        return name
    }

    private mutating func accept(_ character: Character) -> Bool {
        skipSpaces()
        guard position < characters.count, characters[position] == character else { return false }
        position += 1
        return true
    }

    private mutating func expect(_ character: Character) throws(FilterError) {
        guard accept(character) else { throw failure("'\(character)' expected") }
    }

    private mutating func skipSpaces() {
        while position < characters.count, characters[position] == " " { position += 1 }
    }

    private func failure(_ reason: String) -> FilterError {
        FilterError(message: "Invalid filter at position \(position): \(reason)")
    }
}
