#if canImport(Glibc)
import Glibc
#endif

/// How much a piece of work raised the process's resident memory at its peak, from Linux's own
/// accounting: the peak (`VmHWM`) is reset through `/proc/self/clear_refs` first. Malloc's
/// counters would miss what a freed buffer leaves resident; this is what the machine pays.
enum PeakMemory {
    /// Bytes above the resident size before `work`, at the highest point during it; nil where
    /// the kernel lets the peak not be reset.
    static func growth(during work: () -> Void) -> Int? {
        guard write("5", to: "/proc/self/clear_refs"), let before = status("VmRSS") else { return nil }
        work()
        guard let peak = status("VmHWM") else { return nil }
        return max(0, peak - before) * 1024
    }

    private static func write(_ text: String, to path: String) -> Bool {
        guard let file = fopen(path, "w") else { return false }
        defer { fclose(file) }
        return fputs(text, file) >= 0 && fflush(file) == 0
    }

    /// A `kB` line of /proc/self/status.
    private static func status(_ key: String) -> Int? {
        guard let file = fopen("/proc/self/status", "r") else { return nil }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard text.hasPrefix(key + ":") else { continue }
            return Int(text.dropFirst(key.count + 1).filter(\.isNumber))
        }
        return nil
    }
}
