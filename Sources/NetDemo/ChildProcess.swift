#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation

/// Starts and reaps child processes with `posix_spawn`.
///
/// Not `Foundation.Process`, for three reasons: a child started from a Swift concurrency thread
/// inherits that thread's signal mask, in which libdispatch blocks SIGTERM (so gunicorn ignored
/// every TERM); `Process` cannot put a child into a chosen process group; and its
/// `waitUntilExit()` spins the run loop at 100% CPU while it waits.
enum ChildProcess {
    /// Signals reset to their default action in every child, whatever the demo does with them
    /// (it ignores SIGPIPE, and SIGINT/SIGTERM while its own handlers are installed).
    private static let resetSignals: [Int32] = [SIGHUP, SIGINT, SIGQUIT, SIGPIPE, SIGTERM, SIGCHLD, SIGUSR1, SIGUSR2, SIGALRM]

    /// Starts `executable` with `arguments` and the demo's environment.
    /// - Parameters:
    ///   - processGroup: The process group the child joins; `0` makes it the leader of a new group.
    ///   - input: A descriptor that becomes the child's standard input; `nil` for `/dev/null`.
    ///   - output: A file that receives standard output and standard error (appended to);
    ///     `nil` for `/dev/null`.
    /// - Returns: The child's process ID. The caller must reap it with ``exitStatus(of:within:)``.
    static func spawn(_ executable: String, _ arguments: [String], processGroup: pid_t, input: Int32? = nil, output: String? = nil) throws -> pid_t {
        #if canImport(Darwin)
            var attributes: posix_spawnattr_t? = nil
            var actions: posix_spawn_file_actions_t? = nil
        #else
            var attributes = posix_spawnattr_t()
            var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }

        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        posix_spawnattr_setpgroup(&attributes, processGroup)
        var noneBlocked = sigset_t()
        sigemptyset(&noneBlocked)
        posix_spawnattr_setsigmask(&attributes, &noneBlocked)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in resetSignals { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)

        if let input {
            posix_spawn_file_actions_adddup2(&actions, input, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 1, output ?? "/dev/null", O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let environment = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            environment.forEach { free($0) }
        }
        var pid = pid_t()
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, environment)
        guard result == 0 else {
            throw DemoError("could not start \(executable): \(String(cString: strerror(result)))")
        }
        return pid
    }

    /// Waits up to `timeout` for the child `pid` to end and reaps it.
    /// - Returns: Its exit status, or 128 + the signal that ended it (as a shell reports it);
    ///   `nil` if it is still running; `-1` if `pid` is not an unreaped child of this process.
    static func exitStatus(of pid: pid_t, within timeout: Duration) -> Int32? {
        let deadline = ContinuousClock.now + timeout
        var status: Int32 = 0
        while true {
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid {
                // WIFEXITED / WEXITSTATUS / WTERMSIG are C macros that Swift does not import.
                let signal = status & 0x7f
                return signal == 0 ? (status >> 8) & 0xff : 128 + signal
            }
            if reaped < 0, errno != EINTR { return -1 }
            if ContinuousClock.now >= deadline { return nil }
            usleep(20_000)
        }
    }

    /// Runs a short command to its end (killing it after `timeout`) in its own process group.
    /// - Returns: The exit status (see ``exitStatus(of:within:)``) and what it wrote to its
    ///   standard output and standard error, through the file `scratch`.
    static func run(_ executable: String, _ arguments: [String], scratch: URL, timeout: Duration = .seconds(20)) -> (status: Int32, output: String) {
        try? FileManager.default.removeItem(at: scratch)
        let pid: pid_t
        do {
            pid = try spawn(executable, arguments, processGroup: 0, output: scratch.path)
        } catch {
            return (-1, "\(error)")
        }
        var status = exitStatus(of: pid, within: timeout)
        if status == nil {
            kill(-pid, SIGKILL)
            status = exitStatus(of: pid, within: .seconds(5))
        }
        let output = (try? String(contentsOf: scratch, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(at: scratch)
        return (status ?? -1, output)
    }
}
