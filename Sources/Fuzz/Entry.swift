#if canImport(Glibc)
import Glibc
#endif

/// The target a run exercises, named by `FUZZ_TARGET`: the command line is libFuzzer's. One
/// executable holds every target, so that the sanitized dependencies are linked once.
let selected: FuzzTarget = {
    guard let name = getenv("FUZZ_TARGET").map({ String(cString: $0) }), let target = FuzzTarget(rawValue: name) else {
        let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
        printError("set FUZZ_TARGET to one of: \(names)")
        exit(2)
    }
    return target
}()

func printError(_ text: String) {
    var line = text + "\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    selected.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}

/// libFuzzer's driver, called from a `main` of our own: SwiftPM links an executable's entry
/// point as `main` itself, so libFuzzer's `main` cannot be the one that runs.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

@main
enum Fuzz {
    static func main() {
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(runFuzzerDriver(&argc, &argv, fuzzOneInput))
    }
}
#else
/// Without libFuzzer: runs the selected target on each file named, so that a crash found by
/// scripts/fuzz can be replayed (and debugged) in an ordinary build, and prints the peak memory
/// each one cost (JSONDocumentTests hold hostile bodies to a bound with it).
@main
enum Replay {
    static func main() {
        for path in CommandLine.arguments.dropFirst() {
            guard let file = fopen(path, "rb") else {
                printError("cannot open \(path)")
                exit(1)
            }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65536)
            while case let count = fread(&chunk, 1, chunk.count, file), count > 0 { bytes += chunk[..<count] }
            fclose(file)
            let peak = PeakMemory.growth { selected.run(bytes) }
            print("\(path): peak memory growth \(peak.map(String.init) ?? "unknown") bytes")
        }
    }
}
#endif
