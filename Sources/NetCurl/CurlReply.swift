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
        static func parseHeaders(_ raw: [UInt8]) -> HTTPHeaders {
            var headers = HTTPHeaders()
            raw.withUnsafeBytes { bytes in
                forEachField(in: bytes) { name, value in
                    let name = String(decoding: name, as: UTF8.self)
                    let value = String(decoding: value, as: UTF8.self)
                    if let existing = headers[name] {
                        headers[name] = existing + ", " + value
                    } else {
                        headers[name] = value
                    }
                }
            }
            return headers
        }

        // Perf: Benchmarks row "CurlTransport, 8 concurrent" (CPU per request is the ceiling there).
        /// The value of the first field named `name` (ASCII case-insensitive), without building strings
        /// for the others.
        static func value(of name: String, in raw: [UInt8]) -> String? {
            var found: String?
            raw.withUnsafeBytes { bytes in
                forEachField(in: bytes) { fieldName, value in
                    guard found == nil, HTTPHeaders.sameName(String(decoding: fieldName, as: UTF8.self), name) else { return }
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
                    guard HTTPHeaders.sameName(String(decoding: fieldName, as: UTF8.self), name) else { return }
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
                    var valueStart = colon + 1
                    while valueStart < lineEnd, bytes[valueStart] == 0x20 || bytes[valueStart] == 0x09 { valueStart += 1 }
                    var valueEnd = lineEnd
                    while valueEnd > valueStart, bytes[valueEnd - 1] == 0x20 || bytes[valueEnd - 1] == 0x09 { valueEnd -= 1 }
                    body(
                        UnsafeRawBufferPointer(rebasing: bytes[lineStart..<colon]),
                        UnsafeRawBufferPointer(rebasing: bytes[valueStart..<valueEnd]))
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

        var metrics: ResponseMetrics {
            ResponseMetrics(
                startDate: startDate, duration: .microseconds(totalMicros), connectDuration: .microseconds(connectMicros),
                timeToFirstByte: firstByteMicros > 0 ? .microseconds(firstByteMicros) : nil,
                bytesSent: bytesSent, bytesReceived: bytesReceived, httpVersion: httpVersion
            )
        }
    }
#endif
