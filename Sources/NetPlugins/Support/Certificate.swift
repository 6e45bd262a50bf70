import Foundation

/// Reads X.509 certificates far enough to find the SubjectPublicKeyInfo (RFC 5280 §4.1).
enum Certificate {
    /// DER bytes of the first certificate in `data` (PEM or DER), or `nil`.
    static func der(from data: Data) -> [UInt8]? {
        if let text = String(data: data, encoding: .utf8), text.contains("-----BEGIN CERTIFICATE-----") {
            guard let start = text.range(of: "-----BEGIN CERTIFICATE-----"),
                let end = text.range(of: "-----END CERTIFICATE-----", range: start.upperBound..<text.endIndex)
            else { return nil }
            let base64 = text[start.upperBound..<end.lowerBound].filter { !$0.isWhitespace }
            return Data(base64Encoded: String(base64)).map { [UInt8]($0) }
        }
        return data.first == 0x30 ? [UInt8](data) : nil
    }

    /// The complete DER encoding (tag, length, value) of the certificate's SubjectPublicKeyInfo.
    static func subjectPublicKeyInfo(der: [UInt8]) -> ArraySlice<UInt8>? {
        var reader = DERReader(bytes: der[...])
        guard let certificate = reader.next(), certificate.tag == 0x30 else { return nil }
        var certificateFields = DERReader(bytes: certificate.content)
        guard let tbs = certificateFields.next(), tbs.tag == 0x30 else { return nil }
        var fields = DERReader(bytes: tbs.content)
        var element = fields.next()
        if element?.tag == 0xA0 { element = fields.next() }  // [0] EXPLICIT version
        // serialNumber, signature, issuer, validity, subject, then subjectPublicKeyInfo.
        for _ in 0..<5 {
            guard element != nil else { return nil }
            element = fields.next()
        }
        guard let spki = element, spki.tag == 0x30 else { return nil }
        return spki.whole
    }
}

/// Walks DER elements with definite lengths.
struct DERReader {
    struct Element {
        let tag: UInt8
        let content: ArraySlice<UInt8>
        let whole: ArraySlice<UInt8>
    }

    var bytes: ArraySlice<UInt8>

    mutating func next() -> Element? {
        let start = bytes.startIndex
        guard bytes.count >= 2 else { return nil }
        let tag = bytes[start]
        var index = start + 1
        var length = Int(bytes[index])
        index += 1
        if length & 0x80 != 0 {
            let count = length & 0x7F
            guard count > 0, count <= 4, bytes.endIndex - index >= count else { return nil }
            length = 0
            for _ in 0..<count {
                length = length << 8 | Int(bytes[index])
                index += 1
            }
        }
        guard length >= 0, bytes.endIndex - index >= length else { return nil }
        let end = index + length
        let element = Element(tag: tag, content: bytes[index..<end], whole: bytes[start..<end])
        bytes = bytes[end...]
        return element
    }
}
