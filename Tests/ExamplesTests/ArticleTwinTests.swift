// Keeps the migration articles and their compiled twins identical: every Swift code block of an
// article (except the Moya and Alamofire code it ports, which is not compiled here) must appear
// in its twin line for line, allowing only one uniform indentation (a test method is shown
// outside its suite).
import Foundation
import Testing

@Suite("Migration articles match their twins")
struct ArticleTwinTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test(arguments: [
        ("Sources/NetCore/NetCore.docc/ComingFromMoya.md", "Tests/ExamplesTests/MoyaMigrationExample.swift", "import Moya"),
        ("Sources/NetCore/NetCore.docc/ComingFromAlamofire.md", "Tests/ExamplesTests/AlamofireMigrationExample.swift", "import Alamofire"),
    ])
    func everyNetKitBlockIsInTheTwin(article: String, twin: String, portedMarker: String) throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent(article), encoding: .utf8)
        let twinLines = try String(contentsOf: Self.root.appendingPathComponent(twin), encoding: .utf8).components(separatedBy: "\n")
        let blocks = Self.swiftBlocks(in: text)
        let netKitBlocks = blocks.filter { !$0.contains(where: { $0.contains(portedMarker) }) }
        #expect(blocks.count > netKitBlocks.count, "the article shows the code it ports")
        #expect(netKitBlocks.count >= 2)
        #expect(netKitBlocks.first?.first == "import Foundation", "the first NetKit block starts with its imports")
        for block in netKitBlocks {
            let found = Self.occurs(block, in: twinLines)
            #expect(found, "not in \(twin):\n\(block.joined(separator: "\n"))")
        }
    }

    /// The lines of every ```swift block.
    static func swiftBlocks(in markdown: String) -> [[String]] {
        var blocks: [[String]] = []
        var current: [String]?
        for line in markdown.components(separatedBy: "\n") {
            if current == nil {
                if line.trimmingCharacters(in: .whitespaces) == "```swift" { current = [] }
            } else if line.trimmingCharacters(in: .whitespaces) == "```" {
                blocks.append(current ?? [])
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    /// Whether `block` is a run of `lines`, each line of the run carrying the same extra indentation.
    static func occurs(_ block: [String], in lines: [String]) -> Bool {
        guard let first = block.first, !first.isEmpty, block.count <= lines.count else { return false }
        for start in 0...(lines.count - block.count) where lines[start].hasSuffix(first) {
            let indent = String(lines[start].dropLast(first.count))
            guard indent.allSatisfy({ $0 == " " }) else { continue }
            let matches = zip(block, lines[start...]).allSatisfy { expected, actual in
                expected.isEmpty ? actual.isEmpty : actual == indent + expected
            }
            if matches { return true }
        }
        return false
    }
}
