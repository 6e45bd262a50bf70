import Foundation
import NetCore
import NetPlugins
import NetTestSupport
import Testing

@Suite("Redaction")
struct RedactionTests {
    /// NetKit sends "k 1+M" as k%201%2BM; servers echo it in other spellings (older httpbin
    /// releases print k%201+M), and each of them must be scrubbed.
    @Test("a secret query value is scrubbed in every spelling a server may echo")
    func secretSpellings() {
        let request = Request(url: URL(string: "https://api.example.com/items?api_key=k%201%2BMARK")!, target: TestTarget())
        let secrets = Redaction.default.secrets(in: request)
        for spelling in ["k 1+MARK", "k%201%2BMARK", "k%201+MARK", "k+1%2BMARK", "k+1+MARK"] {
            let scrubbed = Redaction.scrub("echo: \(spelling) end", secrets: secrets)
            #expect(!scrubbed.contains("MARK"), "\(spelling) survives as \(scrubbed)")
            #expect(scrubbed.contains(Redaction.placeholder))
        }
    }
}
