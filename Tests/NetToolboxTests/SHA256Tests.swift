@testable import NetToolbox
import Foundation
import Testing

@Suite("SHA-256 (FIPS 180-4 vectors)")
struct SHA256Tests {
    @Test(
        "matches the standard test vectors",
        arguments: [
            ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            (
                "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
            ),
        ])
    func standardVectors(input: String, expected: String) {
        #expect(SHA256.hex(Data(input.utf8)) == expected)
    }

    @Test("hashes one million 'a' characters, also fed in uneven pieces")
    func millionA() {
        let expected = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        let data = Data(repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(SHA256.hex(data) == expected)
        var hasher = SHA256.Hasher()
        var offset = 0
        var step = 1
        while offset < data.count {
            let end = min(data.count, offset + step)
            hasher.update(data[offset..<end])
            offset = end
            step = step % 150 + 7
        }
        #expect(SHA256.hexString(hasher.finalize()) == expected)
    }

    @Test("gives 32 bytes and a 44-character Base64 form")
    func base64Form() {
        #expect(SHA256.hash(Data("abc".utf8)).count == 32)
        #expect(SHA256.base64(Data("abc".utf8)) == "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=")
    }
}
