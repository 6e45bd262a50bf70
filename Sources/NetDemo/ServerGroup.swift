#if canImport(Glibc)
    import NetToolbox
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation
import NetCore

/// A process group for the servers the demo starts, guarded by a watchdog so that nothing in it
/// outlives the demo, however the demo ends.
///
/// How the guarantee works:
/// - The group's leader is a tiny `/bin/sh` watchdog (``watchdogScript``). Its standard input is
///   the read end of a pipe whose only write end is held by the demo (close-on-exec, so no other
///   child inherits it). The kernel closes that end when the demo exits or is killed, even by
///   SIGKILL, and the watchdog's `read` then sees end-of-file. No polling, no parent-death
///   signal (`prctl(PR_SET_PDEATHSIG)` cannot be set through `posix_spawn`, and it fires when
///   the spawning *thread* exits, which libdispatch worker threads do).
/// - Every server is spawned straight into that group (`POSIX_SPAWN_SETPGROUP`), before it can
///   run any code of its own, and its workers (gunicorn forks them) inherit the group. The group
///   exists from before the first server starts, so there is no window in which a server runs
///   unguarded.
/// - On end-of-file the watchdog, which ignores SIGTERM, sends SIGTERM to the whole group,
///   waits up to 2 s for the servers it was told about, removes the demo's folder, then sends
///   SIGKILL to the whole group, itself included.
/// - A normal stop (``stop(grace:)``) does the same from the demo: SIGTERM to the group, a grace
///   period, SIGKILL to the group (which also ends the watchdog), then reaps every child.
///   Group IDs cannot be reused meanwhile: the leader is the demo's child until it is reaped.
/// - The group is not the demo's own, so a Ctrl-C in a terminal or `timeout`'s group signal does
///   not reach the servers directly: the demo (or the watchdog) stops them in order.
final class ServerGroup: Sendable {
    /// The process group ID (the watchdog's process ID).
    let id: pid_t
    private let pipeWriter: Int32
    private let state = Locked(State())

    private struct State {
        var members: [pid_t] = []
        var stopped = false
    }

    /// The watchdog. `$1` is a folder to remove when the demo dies, or empty.
    static let watchdogScript = #"""
        trap '' HUP INT TERM
        pids=
        while read -r pid; do pids="$pids $pid"; done
        kill -TERM 0 2>/dev/null
        i=0
        while [ "$i" -lt 20 ]; do
          alive=
          for pid in $pids; do kill -0 "$pid" 2>/dev/null && alive=1; done
          [ -z "$alive" ] && break
          sleep 0.1
          i=$((i + 1))
        done
        case "$1" in */netkit-demo-*) rm -rf -- "$1" ;; esac
        kill -KILL 0
        """#

    /// Starts the watchdog of a new, empty group.
    /// - Parameter folder: Removed by the watchdog if the demo dies without cleaning up; `nil`
    ///   keeps it.
    static func start(removingOnDeath folder: URL?) throws -> ServerGroup {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw DemoError("pipe() failed: \(String(cString: strerror(errno)))") }
        let (reader, writer) = (ends[0], ends[1])
        _ = fcntl(reader, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writer, F_SETFD, FD_CLOEXEC)
        defer { close(reader) }
        do {
            let pid = try ChildProcess.spawn(
                "/bin/sh", ["-c", watchdogScript, "netkit-demo-watchdog", folder?.path ?? ""],
                processGroup: 0, input: reader)
            return ServerGroup(id: pid, pipeWriter: writer)
        } catch {
            close(writer)
            throw error
        }
    }

    private init(id: pid_t, pipeWriter: Int32) {
        self.id = id
        self.pipeWriter = pipeWriter
    }

    /// Starts a server in the group and tells the watchdog its process ID.
    func spawn(_ executable: String, _ arguments: [String], output: String) throws -> pid_t {
        try state.withLock { state in
            guard !state.stopped else { throw DemoError("the server group is already stopped") }
            let pid = try ChildProcess.spawn(executable, arguments, processGroup: id, output: output)
            state.members.append(pid)
            let line = Array("\(pid)\n".utf8)
            _ = line.withUnsafeBytes { write(pipeWriter, $0.baseAddress, $0.count) }
            return pid
        }
    }

    /// The exit status of a member that has already ended (and is now reaped), else `nil`.
    func exitStatusIfEnded(_ pid: pid_t) -> Int32? {
        state.withLock { state in
            guard let status = ChildProcess.exitStatus(of: pid, within: .zero) else { return nil }
            state.members.removeAll { $0 == pid }
            return status
        }
    }

    /// Stops every process of the group: SIGTERM, up to `grace` for the servers to exit, then
    /// SIGKILL; reaps them and the watchdog. Safe to call twice and from any thread (a second
    /// caller waits for the first to finish).
    func stop(grace: Duration = .seconds(2)) {
        state.withLock { state in
            guard !state.stopped else { return }
            state.stopped = true
            kill(-id, SIGTERM)
            let deadline = ContinuousClock.now + grace
            for pid in state.members {
                _ = ChildProcess.exitStatus(of: pid, within: max(.zero, deadline - ContinuousClock.now))
            }
            kill(-id, SIGKILL)
            for pid in state.members + [id] {
                _ = ChildProcess.exitStatus(of: pid, within: .seconds(2))
            }
            close(pipeWriter)
            state.members = []
        }
    }
}
