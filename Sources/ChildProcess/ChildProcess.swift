#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// A spawned child process with a clean signal state.
///
/// Not Foundation's `Process`: it spawns from a libdispatch worker thread whose blocked signal mask
/// (SIGTERM among them) the child inherits, so `mosquitto` (or the bridge) would then ignore
/// SIGTERM. Here `posix_spawn` resets the mask and the default handlers explicitly.
///
/// A library of its own because production code needs it too: `home2mqtt demo` starts mosquitto.
public final class ChildProcess: Sendable {
    public let pid: pid_t
    private let exitStatus = Mutex<Int32?>(nil)

    /// Starts `path` with `arguments`; stdout goes to `logPath` (appended), stderr to `errorPath`
    /// (or the same file), stdin is /dev/null. `environment` nil inherits this process's environment.
    ///
    /// `ownProcessGroup` puts the child in a process group of its own, so the Ctrl-C a terminal
    /// sends to its foreground group does not reach it: the parent decides when it stops (after
    /// the clients that use it have said goodbye), instead of everything dying at the same instant.
    public init(
        path: String, arguments: [String], environment: [String: String]? = nil,
        logPath: String, errorPath: String? = nil, ownProcessGroup: Bool = false
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, logPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        if let errorPath {
            posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        } else {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        }
        // The parent process has sockets open without close-on-exec (NIO's listeners among them);
        // a child that inherited one would keep that port bound after the parent closed it.
        _ = closeFrom?(&actions, 3)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGUSR1, SIGUSR2] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        if ownProcessGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let envp: [UnsafeMutablePointer<CChar>?]? = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer { for pointer in envp ?? [] { free(pointer) } }
        var child: pid_t = 0
        let rc = envp.map { posix_spawn(&child, path, &actions, &attributes, argv, $0) }
            ?? posix_spawn(&child, path, &actions, &attributes, argv, environ)
        guard rc == 0 else { throw ChildProcessError("posix_spawn \(path) failed: \(String(cString: strerror(rc)))") }
        pid = child
    }

    /// Non-blocking: true while the child has not exited. Reaps it once it has.
    public var isRunning: Bool {
        exitStatus.withLock { exitStatus in
            guard exitStatus == nil else { return false }
            var status: Int32 = 0
            guard waitpid(pid, &status, WNOHANG) == pid else { return true }
            // Exit code when it exited, 128 + signal number when a signal ended it (as a shell says).
            exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
            return false
        }
    }

    /// The exit code once the child has exited and `isRunning` has seen it.
    public var terminationStatus: Int32? { exitStatus.withLock { $0 } }

    public func signal(_ signal: Int32) {
        kill(pid, signal)
    }

    /// Sends `signal` and waits for the child to exit.
    public func terminate(signal: Int32 = SIGTERM) {
        guard isRunning else { return }
        kill(pid, signal)
        while isRunning { usleep(1_000) }
    }
}

/// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34+), looked up at run time because the
/// Glibc module does not export GNU extensions; nil where the C library lacks it.
private let closeFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
    return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
}()

/// `posix_spawn` failed (no such file, not executable, ...).
public struct ChildProcessError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
