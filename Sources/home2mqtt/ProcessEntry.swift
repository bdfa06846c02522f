import ArgumentParser
import Dispatch

/// The process's entry point: `Home2MQTT.main()` on Swift's global executor while the main thread
/// waits for it to finish (it ends the process itself on an error or `--help`).
///
/// Why not `@main` on the `AsyncParsableCommand`: an async main gives the main thread to
/// `dispatch_main()`, which ends it with `pthread_exit`, and glibc unwinds the thread's stack to
/// do that. The unwinder binary-searches `.eh_frame_hdr` and reads `.eh_frame`, and every page it
/// reads stays resident: a large share of the bridge's small footprint. Nothing in the program
/// runs on the main queue or the main
/// actor, so the waiting thread holds nothing up.
@main
enum ProcessEntry {
    static func main() {
        let finished = DispatchSemaphore(value: 0)
        // The root task an async main would have made; everything the commands start is structured
        // beneath it. Detached, because `main` belongs to the main actor: a task that inherited
        // that would wait for the very thread that waits for it.
        Task.detached {
            await Home2MQTT.main()
            finished.signal()
        }
        finished.wait()
    }
}
