#if canImport(FoundationEssentials)
import FoundationEssentials
#endif
import Foundation
import JSONDocument
import Testing

/// nst/JSONTestSuite's parsing cases (MIT, its LICENSE beside them): every `y_` text is taken,
/// every `n_` text refused, and an `i_` text (the RFC leaves it to the parser) either way but
/// without a crash or a hang.
///
/// Leniency kept on purpose: a trailing comma in an array or object is taken, as JSONDecoder
/// takes it. The API clients read some upstream bodies with JSONDecoder and others with
/// `JSONValue.parse`, so a strict parser would make the two disagree about one body, and a command
/// typed by hand (`{"state":"off",}`) has always worked. Those are the only `n_` cases taken.
@Suite(.timeLimit(.minutes(1))) struct JSONTestSuiteTests {
    static let trailingCommaCases: Set<String> = [
        "n_array_extra_comma.json", "n_array_number_and_comma.json", "n_object_trailing_comma.json",
    ]

    private static func cases(_ prefix: String) throws -> [(name: String, bytes: [UInt8])] {
        let folder = try #require(Bundle.module.url(forResource: "JSONTestSuite", withExtension: nil))
            .appendingPathComponent("test_parsing")
        return try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasPrefix(prefix) }.sorted()
            .map { ($0, [UInt8](try Data(contentsOf: folder.appendingPathComponent($0)))) }
    }

    @Test func allThreeKindsAreThere() throws {
        #expect(try Self.cases("y_").count == 95)
        #expect(try Self.cases("n_").count == 188)
        #expect(try Self.cases("i_").count == 35)
    }

    @Test func everyYesCaseIsTaken() throws {
        for (name, bytes) in try Self.cases("y_") {
            #expect(JSONValue.parse(bytes) != nil, "\(name) refused")
        }
    }

    @Test func everyNoCaseIsRefusedButTheTrailingCommas() throws {
        for (name, bytes) in try Self.cases("n_") {
            #expect((JSONValue.parse(bytes) != nil) == Self.trailingCommaCases.contains(name), "\(name)")
        }
    }

    /// What is taken must also print as JSON that reads back the same.
    @Test func everyCaseLeftToTheParserEndsAndWhatIsTakenPrintsBack() throws {
        for (name, bytes) in try Self.cases("i_") {
            guard let value = JSONValue.parse(bytes) else { continue }
            #expect(JSONValue.parse(value.encoded()) == value, "\(name)")
        }
    }
}
