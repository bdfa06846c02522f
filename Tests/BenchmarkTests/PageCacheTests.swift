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

    /// How many of `path`'s pages the page cache holds now (mincore), or nil if it cannot tell.
    private static func cachedPages(_ path: String) -> Int? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_size > 0 else { return nil }
        let length = Int(status.st_size)
        // Mapping a file reads none of it: mincore then reports the cache, not this mapping.
        guard let mapping = mmap(nil, length, PROT_READ, MAP_SHARED, descriptor, 0), mapping != MAP_FAILED else { return nil }
        defer { munmap(mapping, length) }
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        var cached = [UInt8](repeating: 0, count: (length + pageSize - 1) / pageSize)
        guard mincore(mapping, length, &cached) == 0 else { return nil }
        return cached.filter { $0 & 1 != 0 }.count
    }

    @Test func aFreshlyWrittenFileLeavesTheCacheOnceEvicted() throws {
        let path = try Self.freshlyWrittenFile()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let before = try #require(Self.cachedPages(path))
        #expect(before > 0, "a file just written is in the page cache")
        PageCache.evict(path)
        #expect(Self.cachedPages(path) == 0)
    }
}
