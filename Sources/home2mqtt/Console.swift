import Foundation

/// Writes a line to standard output at once. `print` buffers when stdout is a file or a pipe,
/// and whoever watches the demo (a person, a test, a script) needs `demo ready` when it happens.
func say(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
}
