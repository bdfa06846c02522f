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
/// A library of its own because an executable needs it too: `home2mqtt-demo` starts mosquitto.
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
        // posix_spawn of a missing executable succeeds when `setpriv` is what it starts: say so here.
        guard access(path, X_OK) == 0 else {
            throw ChildProcessError("cannot start \(path): \(String(cString: strerror(errno)))")
        }
        let spawned = Self.onSpawningThread {
            Self.spawn(
                argv: Self.diesWithParent(path, arguments), environment: environment, logPath: logPath, errorPath: errorPath,
                ownProcessGroup: ownProcessGroup)
        }
        pid = try spawned.get()
    }

    /// The command line that starts `path` so that it gets SIGTERM when this process dies, however
    /// it dies (a test run killed by its time limit, `kill -9` of the demo): no broker or bridge is
    /// left behind. `setpriv` (util-linux, essential on Debian) sets `PR_SET_PDEATHSIG` and execs
    /// the command in the same process; where it is missing, the child is started as it is.
    private static func diesWithParent(_ path: String, _ arguments: [String]) -> [String] {
        let setpriv = "/usr/bin/setpriv"
        guard access(setpriv, X_OK) == 0 else { return [path] + arguments }
        return [setpriv, "--pdeathsig", "TERM", "--", path] + arguments
    }

    #if canImport(Glibc)
    private static func onSpawningThread(_ spawn: @escaping @Sendable () -> Result<pid_t, ChildProcessError>) -> Result<pid_t, ChildProcessError> {
        SpawningThread.shared.run(spawn)
    }
    #else
    private static func onSpawningThread(_ spawn: () -> Result<pid_t, ChildProcessError>) -> Result<pid_t, ChildProcessError> {
        spawn()
    }
    #endif

    private static func spawn(
        argv arguments: [String], environment: [String: String]?, logPath: String, errorPath: String?, ownProcessGroup: Bool
    ) -> Result<pid_t, ChildProcessError> {
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

        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let envp: [UnsafeMutablePointer<CChar>?]? = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer { for pointer in envp ?? [] { free(pointer) } }
        var child: pid_t = 0
        let path = arguments[0]
        let rc = envp.map { posix_spawn(&child, path, &actions, &attributes, argv, $0) }
            ?? posix_spawn(&child, path, &actions, &attributes, argv, environ)
        guard rc == 0 else { return .failure(ChildProcessError("posix_spawn \(path) failed: \(String(cString: strerror(rc)))")) }
        return .success(child)
    }

    /// Non-blocking: true while the child has not exited. Reaps it once it has.
    public var isRunning: Bool { reaped() == nil }

    /// The exit code once the child has exited, reaping it then; nil while it runs.
    func reaped() -> Int32? {
        exitStatus.withLock { exitStatus in
            guard exitStatus == nil else { return exitStatus }
            var status: Int32 = 0
            guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
            // Exit code when it exited, 128 + signal number when a signal ended it (as a shell says).
            exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
            return exitStatus
        }
    }

    /// The exit code once the child has exited and `isRunning` has seen it.
    public var terminationStatus: Int32? { exitStatus.withLock { $0 } }

    public func signal(_ signal: Int32) {
        kill(pid, signal)
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
