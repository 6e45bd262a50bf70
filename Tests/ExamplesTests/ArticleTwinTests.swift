// Keeps the README, the migration articles and their compiled twins identical: every Swift code block of an
// article (except the Moya and Alamofire code it ports, which is not compiled here) must appear
// in its twin line for line, allowing only one uniform indentation (a test method is shown
// outside its suite).
import Foundation
import Testing

@Suite("README and articles match their twins")
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

    /// Every Swift block of the README is in a file of Tests/ExamplesTests, apart from the few
    /// marked `<!-- fragment: why -->` on the line before (package manifests, which a test target
    /// cannot compile). A block that starts with `import` is what a user pastes first: it must open
    /// its twin file (after the file's leading comments) and the file may import nothing else, so
    /// the block compiles with exactly the imports it shows.
    @Test func everyREADMEBlockIsInATwin() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let folder = Self.root.appendingPathComponent("Tests/ExamplesTests")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }.sorted()
        let twins = try names.map { name in
            (name, try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8).components(separatedBy: "\n"))
        }
        let blocks = Self.swiftBlocks(in: readme, markedBy: "<!-- fragment")
        let checked = blocks.filter { !$0.marked }.map(\.lines)
        #expect(blocks.count - checked.count <= 2, "keep fragments few: \(blocks.count - checked.count)")
        #expect(checked.count >= 10)
        #expect(checked.first?.first == "import Foundation", "the first NetKit snippet starts with its imports")
        for block in checked {
            let found = Self.isInTwin(block, twins: twins.map(\.1))
            #expect(found, "not in a file of Tests/ExamplesTests (an import block must open one):\n\(block.joined(separator: "\n"))")
        }
    }

    /// The guides whose code is all NetKit: every block is in the twin, and the first one (its
    /// imports) opens it, as in the README check.
    @Test(arguments: [
        ("Sources/NetPlugins/NetPlugins.docc/RetryAndAuthentication.md", "Tests/ExamplesTests/RetryAndAuthenticationArticle.swift"),
        ("Sources/NetPlugins/NetPlugins.docc/RecordingAndReplaying.md", "Tests/ExamplesTests/RecordingAndReplayingArticle.swift"),
        ("Sources/NetBatch/NetBatch.docc/BatchesAndChains.md", "Tests/ExamplesTests/BatchesAndChainsArticle.swift"),
    ])
    func everyGuideBlockIsInItsTwin(article: String, twin: String) throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent(article), encoding: .utf8)
        let twinLines = try String(contentsOf: Self.root.appendingPathComponent(twin), encoding: .utf8).components(separatedBy: "\n")
        let blocks = Self.swiftBlocks(in: text)
        #expect(blocks.first?.first == "import Foundation", "the first block starts with its imports")
        for block in blocks {
            let found = Self.isInTwin(block, twins: [twinLines])
            #expect(found, "not in \(twin):\n\(block.joined(separator: "\n"))")
        }
    }

    /// A block that starts with `import` must open a twin (after its leading comments) that imports
    /// nothing else; any other block must occur in a twin, uniformly indented.
    static func isInTwin(_ block: [String], twins: [[String]]) -> Bool {
        guard block.first?.hasPrefix("import ") == true else { return twins.contains { occurs(block, in: $0) } }
        return twins.contains { lines in
            let code = Array(lines.drop { $0.hasPrefix("//") || $0.isEmpty })
            let imports = code.filter { $0.hasPrefix("import ") || $0.hasPrefix("@testable import ") }
            return code.starts(with: block) && imports == block.filter { $0.hasPrefix("import ") }
        }
    }

    /// The lines of every ```swift block, and whether the last non-blank line before it starts with `marker`.
    static func swiftBlocks(in markdown: String, markedBy marker: String) -> [(marked: Bool, lines: [String])] {
        var blocks: [(marked: Bool, lines: [String])] = []
        var current: [String]?
        var marked = false
        var previous = ""
        for line in markdown.components(separatedBy: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil {
                if trimmed == "```swift" {
                    current = []
                    marked = previous.hasPrefix(marker)
                } else if !trimmed.isEmpty {
                    previous = trimmed
                }
            } else if trimmed == "```" {
                blocks.append((marked, current ?? []))
                current = nil
                previous = ""
            } else {
                current?.append(line)
            }
        }
        return blocks
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
