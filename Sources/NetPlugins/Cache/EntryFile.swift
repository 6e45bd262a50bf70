import NetToolbox
import Foundation
import NetCore

/// The on-disk format of one ``DiskStorage`` entry.
///
/// ```
/// "NKCACHE2"                       8-byte magic
/// u32 length + UTF-8               the full cache key (checked on read)
/// i64 status, u64 storedAt (Double bits), i64 version, u8 hasMaxAge + i64 maxAge nanoseconds
/// u32 header count, then u32 length + UTF-8 for each name and value
/// u32 varying count, then for each: u32 length + UTF-8 name, u8 hasValue, u32 length + UTF-8 value
/// u64 length + bytes               the body
/// 32 bytes                         SHA-256 of everything above
/// ```
/// Integers are little-endian; an absent varying value is written as hasValue 0 and an empty
/// string. Any mismatch (length, magic, checksum, key) makes the file invalid.
///
/// Files of the first format (`NKCACHE1`) have no varying values and were stored before
/// credential headers were part of keys and before `private` responses were refused: they are
/// invalid (a miss, removed on read), never trusted.
enum EntryFile {
    static let magic = Array("NKCACHE2".utf8)

    static func encode(_ entry: CacheEntry, key: CacheKey) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(entry.data.count + 256)
        bytes.append(contentsOf: magic)
        appendString(key.rawValue, to: &bytes)
        append(UInt64(bitPattern: Int64(entry.statusCode)), to: &bytes)
        append(entry.storedAt.timeIntervalSince1970.bitPattern, to: &bytes)
        append(UInt64(bitPattern: Int64(entry.version)), to: &bytes)
        if let maxAge = entry.maxAge {
            bytes.append(1)
            append(UInt64(bitPattern: maxAge.wholeNanoseconds), to: &bytes)
        } else {
            bytes.append(0)
            append(UInt64(0), to: &bytes)
        }
        let fields = Array(entry.headers)
        append(UInt32(fields.count), to: &bytes)
        for field in fields {
            appendString(field.name, to: &bytes)
            appendString(field.value, to: &bytes)
        }
        append(UInt32(entry.varyingHeaders.count), to: &bytes)
        for varying in entry.varyingHeaders {
            appendString(varying.name, to: &bytes)
            bytes.append(varying.value == nil ? 0 : 1)
            appendString(varying.value ?? "", to: &bytes)
        }
        append(UInt64(entry.data.count), to: &bytes)
        bytes.append(contentsOf: entry.data)
        bytes.append(contentsOf: SHA256.hash(bytes))
        return bytes
    }

    /// Decodes a file's bytes; `nil` when they are not a valid entry for `key`.
    static func decode(_ bytes: [UInt8], key: CacheKey) -> CacheEntry? {
        guard bytes.count >= magic.count + SHA256.byteCount else { return nil }
        let payloadEnd = bytes.count - SHA256.byteCount
        return bytes.withUnsafeBytes { raw -> CacheEntry? in
            guard
                SHA256.hash(UnsafeRawBufferPointer(rebasing: raw[0..<payloadEnd]))
                    .elementsEqual(raw[payloadEnd...])
            else { return nil }
            var reader = Reader(bytes: UnsafeRawBufferPointer(rebasing: raw[0..<payloadEnd]))
            guard reader.take(magic.count).map({ $0.elementsEqual(magic) }) == true,
                let storedKey = reader.string(), storedKey == key.rawValue,
                let status = reader.u64(), let storedAt = reader.u64(), let version = reader.u64(),
                let hasMaxAge = reader.take(1), let maxAge = reader.u64(),
                let headerCount = reader.u32()
            else { return nil }
            var fields: [(String, String)] = []
            for _ in 0..<headerCount {
                guard let name = reader.string(), let value = reader.string() else { return nil }
                fields.append((name, value))
            }
            guard let varyingCount = reader.u32() else { return nil }
            var varying: [VaryingHeader] = []
            for _ in 0..<varyingCount {
                guard let name = reader.string(), let hasValue = reader.take(1), let value = reader.string()
                else { return nil }
                varying.append(VaryingHeader(name: name, value: hasValue[hasValue.startIndex] == 1 ? value : nil))
            }
            guard let bodyLength = reader.u64(), bodyLength == UInt64(reader.remaining),
                let body = reader.take(Int(bodyLength))
            else { return nil }
            return CacheEntry(
                statusCode: Int(Int64(bitPattern: status)), headers: HTTPHeaders(allFields: fields.map { .init(name: $0.0, value: $0.1) }), data: Data(body),
                storedAt: Date(timeIntervalSince1970: Double(bitPattern: storedAt)),
                version: Int(Int64(bitPattern: version)),
                maxAge: hasMaxAge[hasMaxAge.startIndex] == 1 ? .nanoseconds(Int64(bitPattern: maxAge)) : nil,
                varyingHeaders: varying)
        }
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    private static func appendString(_ string: String, to bytes: inout [UInt8]) {
        append(UInt32(string.utf8.count), to: &bytes)
        bytes.append(contentsOf: string.utf8)
    }

    /// A bounds-checked little-endian reader.
    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var offset = 0

        var remaining: Int { bytes.count - offset }

        mutating func take(_ count: Int) -> UnsafeRawBufferPointer? {
            guard count >= 0, count <= remaining else { return nil }
            defer { offset += count }
            return UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count])
        }

        mutating func u32() -> UInt32? {
            take(4).map { UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self)) }
        }

        mutating func u64() -> UInt64? {
            take(8).map { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
        }

        mutating func string() -> String? {
            guard let length = u32(), let raw = take(Int(length)) else { return nil }
            return String(validating: raw, as: UTF8.self)
        }
    }
}
