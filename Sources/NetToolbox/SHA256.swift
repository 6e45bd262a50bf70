import Foundation

/// SHA-256 (FIPS 180-4) in plain Swift, for cache keys, entry checksums, public-key pins and
/// client-identity connection keys.
///
/// Linux has no CryptoKit and NetKit has no package dependencies, so the digest is computed here.
///
/// ```swift
/// let digest = SHA256.hash(Data("abc".utf8))   // 32 bytes
/// SHA256.hex(Data("abc".utf8))                 // "ba7816bf…"
/// SHA256.base64(spkiDER)                        // a libcurl-style pin without the "sha256//" prefix
/// ```
package enum SHA256 {
    /// The digest length in bytes.
    package static let byteCount = 32

    /// The 32-byte digest of `data`.
    package static func hash(_ data: Data) -> [UInt8] {
        var hasher = Hasher()
        hasher.update(data)
        return hasher.finalize()
    }

    /// The 32-byte digest of `bytes`.
    package static func hash(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var hasher = Hasher()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// The 32-byte digest of raw bytes.
    package static func hash(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        var hasher = Hasher()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// The 32-byte digest of a string's UTF-8 bytes.
    package static func hash(_ string: String) -> [UInt8] {
        hash(Data(string.utf8))
    }

    /// The digest of `data` as 64 lowercase hexadecimal characters.
    package static func hex(_ data: Data) -> String {
        hexString(hash(data))
    }

    /// The digest of `data` in standard Base64 (44 characters), as used for SPKI pins.
    package static func base64(_ data: Data) -> String {
        Data(hash(data)).base64EncodedString()
    }

    /// Lowercase hexadecimal for any bytes (a digest, usually).
    package static func hexString(_ bytes: some Sequence<UInt8>) -> String {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var characters: [UInt8] = []
        characters.reserveCapacity(64)
        for byte in bytes {
            characters.append(digits[Int(byte >> 4)])
            characters.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: characters, as: UTF8.self)
    }

    /// An incremental SHA-256 computation: feed bytes with `update`, then call `finalize` once.
    package struct Hasher: Sendable {
        private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
            0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19
        )
        private var buffer: [UInt8] = []
        private var totalLength: UInt64 = 0

        /// Starts a new digest.
        package init() {
            buffer.reserveCapacity(64)
        }

        /// Adds `data` to the digest.
        package mutating func update(_ data: Data) {
            data.withUnsafeBytes { update(UnsafeRawBufferPointer($0)) }
        }

        /// Adds `bytes` to the digest.
        package mutating func update(_ bytes: some Collection<UInt8>) {
            let handled: Void? = bytes.withContiguousStorageIfAvailable { pointer in
                update(UnsafeRawBufferPointer(pointer))
            }
            if handled == nil {
                let copy = Array(bytes)
                copy.withUnsafeBytes { update($0) }
            }
        }

        /// Adds raw bytes to the digest.
        package mutating func update(_ bytes: UnsafeRawBufferPointer) {
            guard bytes.count > 0, let base = bytes.baseAddress else { return }
            totalLength &+= UInt64(bytes.count)
            var offset = 0
            if !buffer.isEmpty {
                let take = min(64 - buffer.count, bytes.count)
                buffer.append(contentsOf: UnsafeRawBufferPointer(start: base, count: take))
                offset = take
                if buffer.count == 64 {
                    buffer.withUnsafeBytes { compress($0.baseAddress!, count: 1) }
                    buffer.removeAll(keepingCapacity: true)
                }
            }
            let whole = (bytes.count - offset) / 64
            if whole > 0 {
                compress(base + offset, count: whole)
                offset += whole * 64
            }
            if offset < bytes.count {
                buffer.append(contentsOf: UnsafeRawBufferPointer(start: base + offset, count: bytes.count - offset))
            }
        }

        /// Pads the message and returns the 32-byte digest.
        package mutating func finalize() -> [UInt8] {
            let bitLength = totalLength &* 8
            var tail = buffer
            tail.append(0x80)
            while tail.count % 64 != 56 { tail.append(0) }
            for shift in stride(from: 56, through: 0, by: -8) {
                tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
            }
            tail.withUnsafeBytes { compress($0.baseAddress!, count: $0.count / 64) }
            buffer.removeAll()
            var digest: [UInt8] = []
            digest.reserveCapacity(32)
            for word in [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7] {
                digest.append(UInt8(truncatingIfNeeded: word >> 24))
                digest.append(UInt8(truncatingIfNeeded: word >> 16))
                digest.append(UInt8(truncatingIfNeeded: word >> 8))
                digest.append(UInt8(truncatingIfNeeded: word))
            }
            return digest
        }

        /// Processes `count` consecutive 64-byte blocks.
        private mutating func compress(_ blocks: UnsafeRawPointer, count: Int) {
            var words = state
            SHA256.roundConstants.withUnsafeBufferPointer { k in
                withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
                    for index in 0..<count {
                        SHA256.compress(&words, blocks + index &* 64, w.baseAddress!, k.baseAddress!)
                    }
                }
            }
            state = words
        }
    }

    typealias State = (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)

    @inline(__always)
    private static func compress(_ state: inout State, _ block: UnsafeRawPointer, _ w: UnsafeMutablePointer<UInt32>, _ k: UnsafePointer<UInt32>) {
        for t in 0..<16 {
            w[t] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: t &* 4, as: UInt32.self))
        }
        for t in 16..<64 {
            let x = w[t &- 15], y = w[t &- 2]
            let s0 = x.rotatedRight(7) ^ x.rotatedRight(18) ^ (x >> 3)
            let s1 = y.rotatedRight(17) ^ y.rotatedRight(19) ^ (y >> 10)
            w[t] = w[t &- 16] &+ s0 &+ w[t &- 7] &+ s1
        }
        var (a, b, c, d, e, f, g, h) = state
        for t in 0..<64 {
            let s1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
            let choice = (e & f) ^ (~e & g)
            let t1 = h &+ s1 &+ choice &+ k[t] &+ w[t]
            let s0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            let t2 = s0 &+ majority
            h = g; g = f; f = e; e = d &+ t1
            d = c; c = b; b = a; a = t1 &+ t2
        }
        state = (
            state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d,
            state.4 &+ e, state.5 &+ f, state.6 &+ g, state.7 &+ h
        )
    }

    /// The first 32 bits of the fractional parts of the cube roots of the first 64 primes.
    private static let roundConstants: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]
}

private extension UInt32 {
    @inline(__always)
    func rotatedRight(_ count: UInt32) -> UInt32 {
        (self >> count) | (self << (32 - count))
    }
}
