import NetToolbox
import Foundation

/// The JSON file of a persistent ``CookieJar``: read once when the jar is made, written whole
/// after each change (a temporary file renamed into place, readable by its owner only).
///
/// A file that cannot be read, is not this format, or is larger than 16 MiB gives an empty jar;
/// each entry is checked as a `Set-Cookie` line would be, so an edited file cannot put a control
/// character into a request. A failed write leaves the previous file and the jar goes on in memory.
final class CookieFile: Sendable {
    /// The largest file read (3000 cookies of 4 KiB fit well inside).
    static let maxBytes = 16 << 20
    private static let format = "NetKit.CookieJar"

    let url: URL
    /// The newest snapshot written; the lock also keeps two writes from interleaving.
    private let written = Locked<UInt64>(0)

    init(url: URL) {
        self.url = url
    }

    /// The cookies in the file, with their last use; none when the file is missing or unusable.
    func load(at now: Date) -> [(cookie: Cookie, lastAccess: Date)] {
        // An empty file is an empty jar; it is not read (FoundationEssentials' reader leaks its
        // 4 KiB buffer on a zero-byte file, seen under the address sanitizer).
        guard let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber,
            size.intValue > 0, size.intValue <= Self.maxBytes,
            let data = try? Data(contentsOf: url),
            let contents = try? JSONDecoder().decode(Contents.self, from: data),
            contents.format == Self.format, contents.version == 1
        else { return [] }
        return contents.cookies.compactMap { record in
            record.cookie(at: now).map { ($0, Date(timeIntervalSince1970: record.lastAccess)) }
        }
    }

    /// Writes `entries` unless a newer snapshot (a higher `generation`) is already written.
    func write(_ entries: [CookieStore.Entry], generation: UInt64) {
        let contents = Contents(format: Self.format, version: 1, cookies: entries.map(Record.init))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(contents) else { return }
        // Held across the write (like HARRecorder's): the file must end with the newest snapshot.
        written.withLock { last in
            guard generation > last else { return }
            if (try? place(data)) != nil { last = generation }
        }
    }

    private func place(_ data: Data) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let temporary = DownloadFiles.temporaryURL(beside: url)
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteNoPermission) }
        let complete = data.withUnsafeBytes { POSIX.writeAll(descriptor, $0) } == 0
        close(descriptor)
        guard complete, rename(temporary.path, url.path) == 0 else {
            try? FileManager.default.removeItem(at: temporary)
            throw CocoaError(.fileWriteUnknown)
        }
    }

    private struct Contents: Codable {
        var format: String
        var version: Int
        var cookies: [Record]
    }

    /// One cookie in the file; dates in seconds since 1970.
    private struct Record: Codable {
        var name: String
        var value: String
        var domain: String
        var path: String
        var hostOnly: Bool
        var secure: Bool
        var httpOnly: Bool
        var expires: Double
        var created: Double
        var lastAccess: Double

        init(_ entry: CookieStore.Entry) {
            let cookie = entry.cookie
            name = cookie.name
            value = cookie.value
            domain = cookie.domain
            path = cookie.path
            hostOnly = cookie.isHostOnly
            secure = cookie.isSecure
            httpOnly = cookie.isHTTPOnly
            expires = cookie.expiresAt?.timeIntervalSince1970 ?? 0
            created = cookie.createdAt.timeIntervalSince1970
            lastAccess = entry.lastAccess.timeIntervalSince1970
        }

        /// The cookie, when the record could have come from a `Set-Cookie` line and is unexpired.
        func cookie(at now: Date) -> Cookie? {
            let line = "\(name)=\(value); Path=\(path)"
            guard expires.isFinite, created.isFinite, lastAccess.isFinite, expires > now.timeIntervalSince1970,
                let parsed = SetCookieLine.parse(Substring(line)), parsed.name == name, parsed.value == value, parsed.path == path,
                isCanonicalDomain, hostOnly || !CookieDomain.isPublicSuffix(domain)
            else { return nil }
            let expiresAt = min(Date(timeIntervalSince1970: expires), now.addingTimeInterval(CookieRules.maxLifetime))
            return Cookie(
                name: name, value: value, domain: domain, path: path, isHostOnly: hostOnly, isSecure: secure, isHTTPOnly: httpOnly,
                expiresAt: expiresAt, createdAt: Date(timeIntervalSince1970: created))
        }

        /// Lower case, no leading or trailing dot, no spaces, separators or control characters.
        private var isCanonicalDomain: Bool {
            !domain.isEmpty && domain == domain.lowercased() && !domain.hasPrefix(".") && !domain.hasSuffix(".")
                && domain.utf8.allSatisfy { $0 > 0x20 && $0 != 0x7F && $0 != UInt8(ascii: ";") && $0 != UInt8(ascii: ",") }
        }
    }
}
