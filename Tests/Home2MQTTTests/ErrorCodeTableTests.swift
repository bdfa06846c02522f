import BridgeCore
import Foundation
@testable import home2mqtt
import Testing

/// docs/topics.md's table of error codes is the contract: every code the bridge answers with is
/// in it, with the companion's exit status for it, and nothing else is.
@Suite struct ErrorCodeTableTests {
    @Test func theTableListsEveryCodeWithTheCompanionsExitStatus() throws {
        let topics = try String(contentsOf: AddOn.repository.appendingPathComponent("docs/topics.md"), encoding: .utf8)
        let section = try #require(topics.components(separatedBy: "### Error codes").dropFirst().first?.components(separatedBy: "\n### ").first)
        let rows: [(code: String, exit: Int32?)] = section.split(separator: "\n").filter { $0.hasPrefix("| `") && !$0.hasPrefix("| `code`") }.map { row in
            let cells: [String] = row.split(separator: "|").map { String($0).trimmingCharacters(in: .whitespaces) }
            return (code: cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`")), exit: cells.last.flatMap { Int32($0) })
        }
        #expect(rows.map(\.code) == CommandErrorCode.allCases.map(\.rawValue))
        for (row, code) in zip(rows, CommandErrorCode.allCases) {
            #expect(row.exit == code.exitStatus, "\(code.rawValue)")
        }
        // Each its own status, none of the companion's others (1, 2, 64, 78).
        let statuses = CommandErrorCode.allCases.map(\.exitStatus)
        #expect(Set(statuses).count == statuses.count && Set(statuses).isDisjoint(with: [0, 1, 2, 64, 78]))
    }
}
