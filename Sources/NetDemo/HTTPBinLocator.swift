import Foundation

/// How to run gunicorn serving httpbin on this machine.
struct HTTPBinCommand {
    /// The program to start (a gunicorn script, or a Python interpreter).
    var executable: String
    /// Arguments that come before gunicorn's own (`-m gunicorn` for an interpreter).
    var prefix: [String]
    /// The interpreter that imports httpbin.
    var python: String
}

/// Finds a gunicorn able to serve httpbin the way `scripts/servers.sh` does, and says exactly
/// what failed when there is none:
/// 1. `gunicorn` on `PATH` (unless `NETKIT_FORCE_VENV=1`), if the interpreter in its `#!` line
///    imports httpbin. Not the `python3` on `PATH`: under pyenv that one often lacks the Debian
///    packages that `/usr/bin/gunicorn` runs with.
/// 2. The pip venv that `scripts/servers.sh` creates: `$NETKIT_VENV`, by default
///    `${XDG_CACHE_HOME:-$HOME/.cache}/netkit/venv`.
/// 3. `$NETKIT_PYTHON -m gunicorn`, if that interpreter imports both httpbin and gunicorn.
struct HTTPBinLocator {
    let environment: [String: String]
    /// A scratch file for the probes' output.
    let scratch: URL

    /// The command, or every reason each candidate failed.
    func locate() -> Result<HTTPBinCommand, DemoError> {
        var failures: [String] = []
        if environment["NETKIT_FORCE_VENV"] != "1" {
            if let gunicorn = which("gunicorn") {
                switch interpreter(of: gunicorn) {
                case .success(let python):
                    if let failure = probe(python, imports: "httpbin") {
                        failures.append("\(gunicorn) runs \(python), which \(failure)")
                    } else {
                        return .success(HTTPBinCommand(executable: gunicorn, prefix: [], python: python))
                    }
                case .failure(let error):
                    failures.append(error.description)
                }
            } else {
                failures.append("no gunicorn on PATH")
            }
        }
        let venv = environment["NETKIT_VENV"].map { URL(fileURLWithPath: $0) } ?? defaultVenv()
        let venvGunicorn = venv.appendingPathComponent("bin/gunicorn").path
        let venvPython = venv.appendingPathComponent("bin/python").path
        if !FileManager.default.isExecutableFile(atPath: venvGunicorn) {
            failures.append("no venv with gunicorn at \(venv.path)")
        } else if let failure = probe(venvPython, imports: "httpbin") {
            failures.append("the venv's \(venvPython) \(failure)")
        } else {
            return .success(HTTPBinCommand(executable: venvGunicorn, prefix: [], python: venvPython))
        }
        if let python = environment["NETKIT_PYTHON"], !python.isEmpty {
            if let failure = probe(python, imports: "httpbin, gunicorn") {
                failures.append("NETKIT_PYTHON=\(python) \(failure)")
            } else {
                return .success(HTTPBinCommand(executable: python, prefix: ["-m", "gunicorn"], python: python))
            }
        }
        return .failure(DemoError(failures.joined(separator: "; ")))
    }

    /// The interpreter named by a script's `#!` line (`#!/usr/bin/env python3` is resolved on `PATH`).
    private func interpreter(of script: String) -> Result<String, DemoError> {
        guard let handle = FileHandle(forReadingAtPath: script) else {
            return .failure(DemoError("cannot read \(script)"))
        }
        defer { try? handle.close() }
        let head = String(decoding: handle.readData(ofLength: 256), as: UTF8.self)
        guard head.hasPrefix("#!"), let line = head.dropFirst(2).split(separator: "\n").first else {
            return .failure(DemoError("\(script) has no #! line naming its Python"))
        }
        let words = line.split(separator: " ").map(String.init)
        guard let first = words.first else { return .failure(DemoError("\(script) has an empty #! line")) }
        if first.hasSuffix("/env") {
            guard let name = words.dropFirst().first(where: { !$0.hasPrefix("-") }), let python = which(name) else {
                return .failure(DemoError("\(script) runs \"\(line)\", which names no interpreter on PATH"))
            }
            return .success(python)
        }
        return .success(first)
    }

    /// `nil` if `python` imports `modules`, else what went wrong ("cannot import httpbin (...)").
    private func probe(_ python: String, imports modules: String) -> String? {
        guard FileManager.default.isExecutableFile(atPath: python) else { return "is not an executable file" }
        let (status, output) = ChildProcess.run(python, ["-c", "import \(modules)"], scratch: scratch)
        guard status != 0 else { return nil }
        let lastLine = output.split(separator: "\n").last.map(String.init) ?? "exit status \(status)"
        return "cannot import \(modules) (\(lastLine))"
    }

    private func defaultVenv() -> URL {
        let cache =
            environment["XDG_CACHE_HOME"].map { URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: environment["HOME"] ?? "/tmp").appendingPathComponent(".cache")
        return cache.appendingPathComponent("netkit/venv")
    }

    private func which(_ name: String) -> String? {
        let paths = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return paths.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
