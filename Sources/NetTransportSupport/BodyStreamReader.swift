import NetBase
import Foundation

/// Reads a body's segments in order into caller buffers, one file open at a time.
///
/// Transports use it to stream bodies of any size with constant memory.
/// Not thread-safe: one reader per transfer, used from one thread at a time.
package final class BodyStreamReader {
    private var segments: ArraySlice<BodySegment>
    private var currentData: Data?
    private var dataOffset = 0
    private var currentFile: FileHandle?

    /// Creates a reader over `body`.
    package init(_ body: RequestBody) {
        segments = body.segments[...]
    }

    deinit { try? currentFile?.close() }

    /// Copies up to `buffer.count` bytes into `buffer`; returns 0 at the end of the body.
    /// Throws when a file cannot be opened or read.
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            if let data = currentData {
                let count = min(buffer.count, data.count - dataOffset)
                if count > 0 {
                    data.withUnsafeBytes { source in
                        buffer.baseAddress!.copyMemory(from: source.baseAddress! + dataOffset, byteCount: count)
                    }
                    dataOffset += count
                    return count
                }
                currentData = nil
            }
            if let file = currentFile {
                let chunk = try file.read(upToCount: buffer.count) ?? Data()
                if !chunk.isEmpty {
                    chunk.copyBytes(to: buffer.bindMemory(to: UInt8.self), count: chunk.count)
                    return chunk.count
                }
                try file.close()
                currentFile = nil
            }
            guard let next = segments.popFirst() else { return 0 }
            switch next {
            case .data(let data):
                currentData = data
                dataOffset = 0
            case .file(let url):
                currentFile = try FileHandle(forReadingFrom: url)
            }
        }
    }

    /// Writes the whole body to `url` in 256 KiB chunks.
    package func write(to url: URL) throws {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        let output = try FileHandle(forWritingTo: url)
        defer { try? output.close() }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 * 1024, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            let count = try read(into: buffer)
            if count == 0 { break }
            try output.write(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
    }
}
