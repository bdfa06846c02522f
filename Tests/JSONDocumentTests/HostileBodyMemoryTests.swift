import ChildProcess
import Foundation
import JSONDocument
import Testing

/// A 4 MiB hostile body (issue 28) costs at most about three times its size while it is parsed,
/// and nesting deeper than the limit is refused, not a stack overflow. Each body is parsed in a
/// child process of its own (`home2mqtt-fuzz`'s replay, which reports the peak of its resident
/// memory), since the other suites allocate in this one at the same time.
@Suite(.serialized, .timeLimit(.minutes(2))) struct HostileBodyMemoryTests {
    static let size = 4 << 20

    /// `unit` repeated between `open` and `close`, separated by commas, to `size` bytes.
    private static func repeated(_ open: String, _ unit: String, _ close: String) -> [UInt8] {
        let count = (size - open.utf8.count - close.utf8.count) / (unit.utf8.count + 1)
        var bytes = Array(open.utf8)
        bytes.reserveCapacity(size)
        for position in 0..<count {
            if position > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += unit.utf8
        }
        return bytes + close.utf8
    }

    static let bodies: [(name: String, bytes: [UInt8])] = [
        ("zeros", repeated("[", "0", "]")),
        ("empty objects", repeated("[", "{}", "]")),
        ("small objects", repeated("[", #"{"a":0}"#, "]")),
        ("small arrays", repeated("[", "[0]", "]")),
        ("strings of 16 bytes", repeated("[", #""aaaaaaaaaaaaaaaa""#, "]")),
        ("keys of 16 bytes", repeated("[", #"{"aaaaaaaaaaaaaaaa":0}"#, "]")),
        ("one long string of escapes", Array("[\"".utf8) + repeated("", #"\n\u0041\"\ud83d\ude00"#, "").filter { $0 != UInt8(ascii: ",") } + Array("\"]".utf8)),
        ("deep nesting", Array(repeating: UInt8(ascii: "["), count: size)),
    ]

    /// The replay of the fuzz targets, built beside the test bundle by `swift build --build-tests`.
    private static var replay: String {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.deletingLastPathComponent()
        while !FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent("home2mqtt-fuzz").path),
              directory.path != "/" {
            directory = directory.deletingLastPathComponent()
        }
        return directory.appendingPathComponent("home2mqtt-fuzz").path
    }

    /// The peak growth of the replay's resident memory while it parsed `bytes`.
    private static func peakGrowth(parsing bytes: [UInt8]) async throws -> Int {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(UUID().uuidString).json")
        let output = file.path + ".out"
        try Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file); try? FileManager.default.removeItem(atPath: output) }
        let child = try ChildProcess(path: replay, arguments: [file.path], environment: ["FUZZ_TARGET": "json"], logPath: output)
        #expect(try await child.exitCode() == 0)
        let printed = try String(contentsOfFile: output, encoding: .utf8)
        let growth = printed.split(separator: " ").dropLast().last.flatMap { Int($0) }
        return try #require(growth, "the replay printed no peak: \(printed)")
    }

    @Test(arguments: bodies.map(\.name)) func hostileBodyCostsAboutThreeTimesItsSize(_ name: String) async throws {
        let bytes = try #require(Self.bodies.first { $0.name == name }).bytes
        let growth = try await Self.peakGrowth(parsing: bytes)
        // The parser counts two and a half times the text; malloc's rounding, freed buffers
        // still resident and this debug build's copies come on top. The bound is loose enough
        // for another machine's allocator and tight enough for what it guards against: before
        // the count, such bodies cost twelve to twenty-three times their size.
        #expect(Double(growth) <= 4 * Double(bytes.count), "\(name): \(growth) bytes for \(bytes.count)")
    }

    @Test func nestingDeeperThanTheLimitIsRefusedAndTheLimitItselfTaken() {
        let deepest = Array(repeating: UInt8(ascii: "["), count: 512) + Array(repeating: UInt8(ascii: "]"), count: 512)
        #expect(JSONValue.parse(deepest) != nil)
        let deeper = Array(repeating: UInt8(ascii: "["), count: 513) + Array(repeating: UInt8(ascii: "]"), count: 513)
        #expect(JSONValue.parse(deeper) == nil)
        #expect(JSONValue.parse(Array(repeating: UInt8(ascii: "["), count: 1_000_000)) == nil)
    }

    /// Real answers are far smaller than a body cap: below the floor, any shape is taken.
    @Test func aDenseTextBelowTheFloorIsTaken() {
        let zeros = "[" + Array(repeating: "0", count: 50_000).joined(separator: ",") + "]"
        #expect(JSONValue.parse(Array(zeros.utf8))?.arrayValue?.count == 50_000)
    }
}
