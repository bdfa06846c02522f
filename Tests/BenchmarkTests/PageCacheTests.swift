import BenchmarkReport
import Foundation
import Testing

@Suite struct PageCacheTests {
    /// Beside the test binary, in `.build`, where the benchmark's binaries are: a temporary
    /// folder may be tmpfs, whose pages are the file itself and are never evicted.
    private static func freshlyWrittenFile() throws -> String {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
        let path = "\(folder)/page-cache-\(UUID().uuidString)"
        try Data(repeating: 0x5A, count: 1 << 20).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func aFreshlyWrittenFileLeavesTheCacheOnceEvicted() throws {
        let path = try Self.freshlyWrittenFile()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let before = try #require(PageCache.residentPages(path))
        #expect(before > 0, "a file just written is in the page cache")
        PageCache.evict(path)
        #expect(PageCache.residentPages(path) == 0)
    }

    @Test func aFileThatIsNotThereIsLeftAlone() {
        PageCache.evict("/nonexistent/home2mqtt")
        #expect(PageCache.residentPages("/nonexistent/home2mqtt") == nil)
    }
}
