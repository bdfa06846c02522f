#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Writes a line to standard output at once. `print` buffers when stdout is a file or a pipe,
/// and whoever watches the demo (a person, a test, a script) needs `demo ready` when it happens.
public func say(_ text: String) {
    writeNow(text + "\n", to: STDOUT_FILENO)
}

/// Writes `text` to a file descriptor unbuffered, in as many writes as it takes.
public func writeNow(_ text: String, to descriptor: Int32) {
    let bytes = Array(text.utf8)
    var written = 0
    while written < bytes.count {
        let result = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, $0.count - written) }
        guard result > 0 else { return }
        written += result
    }
}
