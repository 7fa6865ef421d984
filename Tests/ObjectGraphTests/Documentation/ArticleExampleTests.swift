import Foundation
import Testing

/// The Swift examples of the DocC catalog (Sources/ObjectGraph/ObjectGraph.docc) are compiled and
/// run: each article `NAME.md` has example tests in files named `NAMEArticle…Tests.swift` in a
/// `Documentation` folder of a test target, holding each of the article's ```swift blocks as code.
/// This suite reads the articles from the source tree and fails when a block is not found, line
/// for line, in those files — so an article edited without its test fails here, and a test
/// edited away from its article too.
///
/// Lines are compared trimmed, blank lines and `//` comments ignored on both sides (so a block
/// commented out in a test file does not count as present).
@Suite struct ArticleExampleTests {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let catalog = packageRoot.appendingPathComponent("Sources/ObjectGraph/ObjectGraph.docc")
    static let exampleFolders = ["Tests/ObjectGraphTests/Documentation", "Tests/ObjectGraphGeneratedTests/Documentation"]
        .map { packageRoot.appendingPathComponent($0) }

    /// The catalog's Markdown files, by name without the extension.
    static let articles: [String] = {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: catalog.path)) ?? []
        return files.filter { $0.hasSuffix(".md") }.map { String($0.dropLast(3)) }.sorted()
    }()

    /// The ```swift blocks of `markdown`, fences possibly indented (inside list items).
    static func swiftBlocks(in markdown: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if var lines = current {
                if trimmed == "```" {
                    blocks.append(lines.joined(separator: "\n"))
                    current = nil
                } else {
                    lines.append(line)
                    current = lines
                }
            } else if trimmed == "```swift" {
                current = []
            }
        }
        return blocks
    }

    /// The lines of `code` that matter: trimmed, without `//` comments and blank lines.
    static func normalizedLines(_ code: String) -> [String] {
        code.split(separator: "\n", omittingEmptySubsequences: false).compactMap { line in
            var text = Substring(line)
            if let comment = commentStart(in: text) { text = text[..<comment] }
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            return trimmed.isEmpty ? nil : trimmed
        }
    }

    /// Where a `//` comment starts in `line`, outside string literals.
    static func commentStart(in line: Substring) -> Substring.Index? {
        var inString = false
        var index = line.startIndex
        while index < line.endIndex {
            let character = line[index]
            if character == "\\" && inString {
                index = line.index(after: index)
            } else if character == "\"" {
                inString.toggle()
            } else if character == "/" && !inString, line[index...].hasPrefix("//") {
                return index
            }
            if index < line.endIndex { index = line.index(after: index) }
        }
        return nil
    }

    /// The example tests of `article`, each file's normalized lines.
    static func exampleFiles(of article: String) -> [(name: String, lines: [String])] {
        exampleFolders.flatMap { folder -> [(name: String, lines: [String])] in
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            return names.filter { $0.hasPrefix("\(article)Article") && $0.hasSuffix("Tests.swift") }.sorted().compactMap { name in
                guard let text = try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8) else { return nil }
                return (name, normalizedLines(text))
            }
        }
    }

    /// Whether `block` appears in `lines` as consecutive lines.
    static func contains(_ lines: [String], _ block: [String]) -> Bool {
        guard !block.isEmpty else { return true }
        guard lines.count >= block.count else { return false }
        return (0...(lines.count - block.count)).contains { start in lines[start..<(start + block.count)].elementsEqual(block) }
    }

    @Test func theCatalogIsFound() {
        #expect(Self.articles.contains("ObjectGraph"), "no DocC catalog at \(Self.catalog.path)")
        #expect(Self.articles.count >= 9)
    }

    @Test(arguments: articles)
    func everySwiftExampleOfTheArticleIsInItsTests(article: String) throws {
        let markdown = try String(contentsOf: Self.catalog.appendingPathComponent("\(article).md"), encoding: .utf8)
        let blocks = Self.swiftBlocks(in: markdown)
        guard !blocks.isEmpty else { return }
        let files = Self.exampleFiles(of: article)
        #expect(
            !files.isEmpty, "\(article).md has Swift examples but no \(article)Article…Tests.swift in \(Self.exampleFolders.map(\.path))")
        for (number, block) in blocks.enumerated() {
            let lines = Self.normalizedLines(block)
            #expect(
                files.contains { Self.contains($0.lines, lines) },
                "Swift example \(number + 1) of \(article).md is in none of \(files.map(\.name)); it starts: \(lines.first ?? "")")
        }
    }

    @Test func blocksAreFoundInsideListsAndCommentsAreIgnored() {
        let markdown =
            "Text\n\n```swift\nlet a = 1   // one\n```\n\n- item\n\n  ```swift\n  let url = \"https://x\"\n  ```\n\n```sh\nls\n```\n"
        let blocks = Self.swiftBlocks(in: markdown)
        #expect(blocks.count == 2)
        #expect(Self.normalizedLines(blocks[0]) == ["let a = 1"])
        #expect(Self.normalizedLines(blocks[1]) == ["let url = \"https://x\""])
        #expect(Self.contains(["x", "let a = 1", "y"], ["let a = 1"]))
        #expect(!Self.contains(["x", "// let a = 1"].map { Self.normalizedLines($0) }.flatMap { $0 }, ["let a = 1"]))
    }
}
