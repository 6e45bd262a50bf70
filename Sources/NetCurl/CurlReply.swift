#if canImport(CCurl)
    import NetToolbox
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

        /// The response for `request`. Not inlined: its temporaries would enlarge the async frame
        /// of `CurlTransport.sendHop`, its one caller.
        @inline(never)
        func response(for request: Request) -> Response {
            Response(
                statusCode: statusCode, headers: Self.parseHeaders(rawHeaders), data: body, request: request,
                fileURL: fileURL, source: .network, metrics: timings.metrics)
        }

        /// Header fields from raw lines, each kept as received: a repeated name stays several
        /// fields (``HTTPHeaders/values(for:)``), so a `Set-Cookie` value with commas is one cookie.
        static func parseHeaders(_ raw: [UInt8]) -> HTTPHeaders {
            var fields: [HTTPHeaders.Field] = []
            raw.withUnsafeBytes { bytes in
                forEachField(in: bytes) { name, value in
                    fields.append(HTTPHeaders.Field(name: String(decoding: name, as: UTF8.self), value: String(decoding: value, as: UTF8.self)))
                }
            }
            return HTTPHeaders(allFields: fields)
        }

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
