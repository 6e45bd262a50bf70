#if canImport(CCurl)
    import NetBase
    import Foundation

    /// What the loop thread hands back for a finished transfer: plain bytes and numbers.
    ///
    /// Turning them into a ``Response`` (header strings, metrics) happens in the caller's task, so
    /// the loop thread, which drives every transfer of the transport, spends its time in libcurl.
    struct CurlReply: Sendable {
        var statusCode: Int
        /// The final response's header lines as received (`Name: value\r\n` each, no status line).
        var rawHeaders: [UInt8]
        var body: Data
        var fileURL: URL?
        var timings: CurlTimings

        /// The response for `request`.
        func response(for request: Request) -> Response {
            Response(
                statusCode: statusCode, headers: Self.parseHeaders(rawHeaders), data: body, request: request,
                fileURL: fileURL, source: .network, metrics: timings.metrics)
        }

        /// Header fields from raw lines; repeated names are joined with ", " (RFC 9110 §5.3).
        /// Names are compared as bytes (lengths first), and only a long list of fields (a hostile
        /// server's thousands) is indexed by a dictionary, so a response's fields cost linear time.
        static func parseHeaders(_ raw: [UInt8]) -> HTTPHeaders {
            var fields: [(name: String, value: String)] = []
            raw.withUnsafeBytes { bytes in
                var names: [UnsafeRawBufferPointer] = []
                var index: [String: Int]?
                forEachField(in: bytes) { name, value in
                    let existing: Int?
                    if let byName = index {
                        existing = byName[lowercasedKey(name)]
                    } else {
                        existing = names.firstIndex { HTTPHeaders.sameName($0, name) }
                    }
                    if let existing {
                        fields[existing].value += ", " + String(decoding: value, as: UTF8.self)
                        return
                    }
                    fields.append((String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self)))
                    names.append(name)
                    if index != nil {
                        index?[lowercasedKey(name)] = fields.count - 1
                    } else if names.count == Self.indexedFieldCount {
                        index = Dictionary(names.indices.map { (lowercasedKey(names[$0]), $0) }, uniquingKeysWith: { first, _ in first })
                    }
                }
            }
            return HTTPHeaders(distinctFields: fields)
        }

        /// From this many distinct fields on, names are looked up in a dictionary instead of compared one by one.
        static let indexedFieldCount = 32

        // Perf: Benchmarks row "CurlTransport, 8 concurrent" (CPU per request is the ceiling there;
        // the loop thread calls these, so they compare bytes and build a string only for a match).
        /// The value of the first field named `name` (ASCII case-insensitive), without building strings
        /// for the others.
        static func value(of name: String, in raw: [UInt8]) -> String? {
            var found: String?
            raw.withUnsafeBytes { bytes in
                forEachField(in: bytes) { fieldName, value in
                    guard found == nil, HTTPHeaders.sameName(fieldName, name.utf8) else { return }
                    found = String(decoding: value, as: UTF8.self)
                }
            }
            return found
        }

        /// The values of every field named `name` (ASCII case-insensitive), in order.
        static func values(of name: String, in raw: [UInt8]) -> [String] {
            var found: [String] = []
            raw.withUnsafeBytes { bytes in
                forEachField(in: bytes) { fieldName, value in
                    guard HTTPHeaders.sameName(fieldName, name.utf8) else { return }
                    found.append(String(decoding: value, as: UTF8.self))
                }
            }
            return found
        }

        /// A field name with its ASCII letters in lower case, as a dictionary key.
        private static func lowercasedKey(_ name: UnsafeRawBufferPointer) -> String {
            String(decoding: name.lazy.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 | 0x20 : $0 }, as: UTF8.self)
        }

        /// Calls `body` with the name and the trimmed value of every `Name: value` line.
        private static func forEachField(
            in bytes: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) -> Void
        ) {
            var lineStart = 0
            while lineStart < bytes.count {
                var lineEnd = lineStart
                while lineEnd < bytes.count, bytes[lineEnd] != 0x0A { lineEnd += 1 }
                let next = lineEnd + 1
                while lineEnd > lineStart, bytes[lineEnd - 1] == 0x0D || bytes[lineEnd - 1] == 0x0A { lineEnd -= 1 }
                if let colon = bytes[lineStart..<lineEnd].firstIndex(of: 0x3A) {
                    body(
                        UnsafeRawBufferPointer(rebasing: bytes[lineStart..<colon]),
                        UnsafeRawBufferPointer(rebasing: OptionalWhitespace.trimming(bytes[(colon + 1)..<lineEnd])))
                }
                lineStart = next
            }
        }
    }

    /// libcurl's timings and byte counts for one transfer, read on the loop thread.
    struct CurlTimings: Sendable {
        var startDate: Date
        var totalMicros: Int64
        var connectMicros: Int64
        var firstByteMicros: Int64
        var bytesSent: Int64
        var bytesReceived: Int64
        var httpVersion: String?
        var phases = Phases()

        /// The `CURLINFO_*` values behind the phases of ``ResponseMetrics`` (offsets from the
        /// transfer's start, as libcurl counts them).
        struct Phases: Sendable {
            var nameLookupMicros: Int64 = 0
            var tcpConnectMicros: Int64 = 0
            /// Zero when there was no TLS handshake (plain HTTP, a reused connection).
            var tlsConnectMicros: Int64 = 0
            var preTransferMicros: Int64 = 0
            /// `CURLINFO_NUM_CONNECTS`: 0 when the transfer reused a connection.
            var newConnections = -1
            var remoteAddress: String?
            var remotePort = 0
        }

        var metrics: ResponseMetrics {
            var metrics = ResponseMetrics(
                startDate: startDate, duration: .microseconds(totalMicros), connectDuration: .microseconds(connectMicros),
                timeToFirstByte: firstByteMicros > 0 ? .microseconds(firstByteMicros) : nil,
                bytesSent: bytesSent, bytesReceived: bytesReceived, httpVersion: httpVersion
            )
            metrics.dnsDuration = .microseconds(phases.nameLookupMicros)
            if phases.tlsConnectMicros > 0 {
                metrics.tlsHandshakeDuration = .microseconds(max(0, phases.tlsConnectMicros - phases.tcpConnectMicros))
            }
            if phases.preTransferMicros > 0 { metrics.requestStartDuration = .microseconds(phases.preTransferMicros) }
            if firstByteMicros > 0 { metrics.transferDuration = .microseconds(max(0, totalMicros - firstByteMicros)) }
            if phases.newConnections >= 0 { metrics.isReusedConnection = phases.newConnections == 0 }
            metrics.remoteAddress = phases.remoteAddress.flatMap { $0.isEmpty ? nil : $0 }
            if phases.remotePort > 0 { metrics.remotePort = phases.remotePort }
            return metrics
        }
    }
#endif
