// Keeps the README and every DocC article identical to their compiled twins: each Swift code
// block of a document must appear in a file of Tests/ExamplesTests line for line, allowing only one
// uniform indentation (a test method is shown outside its suite), so every snippet compiles. The
// exceptions: blocks marked `<!-- fragment: why -->` on the line before (package manifests, which
// a test target cannot compile; at most two per document), and in the migration guides the Moya
// and Alamofire code being ported (a block that imports one of `portedModules`). Every line of
// every code block, of any language, fits in `maxColumns` so that no page cuts it off.
import Foundation
import Testing

@Suite("README and articles match their twins")
struct ArticleTwinTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// The libraries whose code the migration guides port; such blocks are not compiled here.
    static let portedModules = ["Moya", "Alamofire"]
    /// The widest code line a document may show (a 1280 px page shows about 100 columns).
    static let maxColumns = 100

    /// The README and every article of every DocC catalog, as paths from the repository root.
    static let documents: [String] = {
        let sources = root.appendingPathComponent("Sources")
        let modules = (try? FileManager.default.contentsOfDirectory(atPath: sources.path)) ?? []
        let articles = modules.flatMap { module -> [String] in
            let catalog = "Sources/\(module)/\(module).docc"
            let names = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(catalog).path)) ?? []
            return names.filter { $0.hasSuffix(".md") }.map { "\(catalog)/\($0)" }
        }
        return ["README.md"] + articles.sorted()
    }()

    /// The Swift files of Tests/ExamplesTests, each as its lines.
    static func twins() throws -> [(name: String, lines: [String])] {
        let folder = root.appendingPathComponent("Tests/ExamplesTests")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }.sorted()
        return try names.map { name in
            (name, try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8).components(separatedBy: "\n"))
        }
    }

    /// The README's budget (a user reads it top to bottom; the rest belongs in the guides).
    static let readmeLineBudget = 300

    @Test("The README stays within its line budget")
    func readmeWithinBudget() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count - (text.hasSuffix("\n") ? 1 : 0)
        #expect(lines <= Self.readmeLineBudget, "README.md has \(lines) lines; move detail into a guide")
    }

    @Test func everyDocumentIsFound() {
        #expect(Self.documents.count >= 17, "README and the articles: \(Self.documents)")
        #expect(Self.documents.contains("Sources/NetCore/NetCore.docc/GettingStarted.md"))
    }

    /// Every Swift block is in a twin, apart from fragments and ported code. A block that starts
    /// with `import` is what a reader pastes first: it must open its twin file (after the file's
    /// leading comments) and the file may import nothing else, so the block compiles with exactly
    /// the imports it shows. The first compiled block of a document shows its imports.
    @Test(arguments: documents)
    func everySwiftBlockIsInATwin(document: String) throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent(document), encoding: .utf8)
        let twins = try Self.twins().map(\.lines)
        let blocks = Self.swiftBlocks(in: text, markedBy: "<!-- fragment")
        let ported = blocks.filter { Self.isPorted($0.lines) }
        let fragments = blocks.filter { $0.marked && !Self.isPorted($0.lines) }
        let checked = blocks.filter { !$0.marked && !Self.isPorted($0.lines) }.map(\.lines)
        #expect(fragments.count <= 2, "keep fragments few: \(fragments.count)")
        if !ported.isEmpty { #expect(checked.count >= 2, "a migration guide shows the NetKit code it ports to") }
        if let first = checked.first {
            #expect(first.first?.hasPrefix("import ") == true, "the first Swift block starts with its imports:\n\(first.joined(separator: "\n"))")
        }
        for block in checked {
            let found = Self.isInTwin(block, twins: twins)
            #expect(found, "\(document): not in a file of Tests/ExamplesTests (an import block must open one):\n\(block.joined(separator: "\n"))")
        }
    }

    /// The README's own checks: its first snippet is the complete "Describe an API" file, and most
    /// of its examples are compiled.
    @Test func theREADMEStartsWithACompleteFile() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let checked = Self.swiftBlocks(in: readme, markedBy: "<!-- fragment").filter { !$0.marked }.map(\.lines)
        #expect(checked.count >= 4)
        #expect(checked.first?.first == "import Foundation", "the first NetKit snippet starts with its imports")
    }

    /// No line of a code block (Swift, shell, diagrams) is wider than `maxColumns`.
    @Test(arguments: documents)
    func codeLinesFitThePage(document: String) throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent(document), encoding: .utf8)
        var inCode = false
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                inCode.toggle()
            } else if inCode && line.count > Self.maxColumns {
                Issue.record("\(document):\(index + 1): \(line.count) columns (at most \(Self.maxColumns)):\n\(line)")
            }
        }
        #expect(!inCode, "\(document): a code block is not closed")
    }

    /// Whether a block is code of a library being ported from (it imports one).
    static func isPorted(_ lines: [String]) -> Bool {
        lines.contains { line in portedModules.contains { line.hasPrefix("import \($0)") } }
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
