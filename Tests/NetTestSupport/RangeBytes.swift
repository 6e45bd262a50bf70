import Foundation

/// Bytes `i % 251` for `i` in `start..<start + count`: what the fault server's `/range/<size>`
/// sends (scripts/fault_server.py).
public func rangeBytes(count: Int, from start: Int = 0) -> Data {
    var data = Data(count: count)
    data.withUnsafeMutableBytes { raw in
        let bytes = raw.bindMemory(to: UInt8.self)
        for index in 0..<count { bytes[index] = UInt8((start + index) % 251) }
    }
    return data
}
