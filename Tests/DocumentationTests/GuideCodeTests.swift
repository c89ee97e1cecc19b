import Foundation
import Testing

/// The guides in Sources/SeatKit/SeatKit.docc show only code that is built and run: every
/// ```swift block stands verbatim (up to indentation) in a file of Snippets/, which compile
/// with this target; every ```c, ```meson and ```sh block stands in a file the tests build or
/// run (the wlroots kiosk and the C API's proof program, built by CSeatKitTests and
/// WlrootsKioskTests; shell lines from README.md and meson-notes.md). A guide
/// edited without its code, or code renamed without its guide, fails here.
@Suite struct GuideCodeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let catalog = root.appendingPathComponent("Sources/SeatKit/SeatKit.docc")
    static let guides = ["EmbeddingInASwiftCompositor.md", "EmbeddingInC.md", "BuildingAKiosk.md", "ReplayingRecordingsInTests.md", "AccessibilityFilters.md", "GesturesForEveryDevice.md"]

    /// Where each language's blocks must come from.
    static let sources: [String: [String]] = [
        "swift": ["Tests/DocumentationTests/Snippets/SwiftCompositor.swift", "Tests/DocumentationTests/Snippets/Kiosk.swift",
                  "Tests/DocumentationTests/Snippets/Replay.swift", "Tests/DocumentationTests/Snippets/Accessibility.swift",
                  "Tests/DocumentationTests/Snippets/Gestures.swift",
                  "Tests/SeatKitReplayTests/TestAuthorsPathTests.swift",
                  "examples/replay-tests/Package.swift", "examples/replay-tests/Tests/KioskTests/KioskTests.swift"],
        "c": ["examples/wlroots-kiosk/kiosk.c", "examples/wlroots-kiosk/lock.c", "examples/tiny-wlroots/tiny.c", "wlroots/include/seatkit/seatkit-wlroots.h",
              "wlroots/seatkit-wlroots.c", "Tests/CSeatKitProgram/proof.c", "Tests/CSeatKitProgram/double_tap.c"],
        "meson": ["examples/wlroots-kiosk/meson.build", "examples/tiny-wlroots/meson.build", "Tests/CSeatKitProgram/meson.build"],
        "sh": ["meson-notes.md", "README.md", "examples/wlroots-kiosk/README.md", "examples/tiny-wlroots/README.md"],
    ]

    struct Block: CustomStringConvertible {
        var guide: String, line: Int, language: String, lines: [String]
        var description: String { "\(guide):\(line) (```\(language))" }
    }

    static func blocks(of guide: String) throws -> [Block] {
        let text = try String(contentsOf: catalog.appendingPathComponent(guide), encoding: .utf8)
        var blocks: [Block] = []
        var open: Block?
        for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if var block = open {
                if trimmed == "```" {
                    blocks.append(block)
                    open = nil
                } else {
                    block.lines.append(String(line))
                    open = block
                }
            } else if trimmed.hasPrefix("```") {
                open = Block(guide: guide, line: i + 1, language: String(trimmed.dropFirst(3)), lines: [])
            }
        }
        #expect(open == nil, "\(guide): a code block is not closed")
        return blocks
    }

    /// Lines without their indentation and trailing spaces; blank lines dropped.
    static func normalized(_ lines: [String]) -> [String] {
        lines.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    static func contains(_ haystack: [String], _ needle: [String]) -> Bool {
        guard !needle.isEmpty, needle.count <= haystack.count else { return needle.isEmpty }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if Array(haystack[start..<start + needle.count]) == needle { return true }
        }
        return false
    }

    @Test(arguments: guides) func everyCodeBlockStandsInBuiltCode(_ guide: String) throws {
        let blocks = try Self.blocks(of: guide)
        #expect(!blocks.isEmpty, "\(guide) shows no code")
        for block in blocks {
            let language = block.language.isEmpty ? "text" : block.language
            guard language != "text" else { continue }   // diagrams and program output
            let files = try #require(Self.sources[language], "\(block): no built source for ```\(language)")
            let needle = Self.normalized(block.lines)
            let found = try files.contains { file in
                let text = try String(contentsOf: Self.root.appendingPathComponent(file), encoding: .utf8)
                return Self.contains(Self.normalized(text.components(separatedBy: "\n")), needle)
            }
            #expect(found, "\(block) is not in \(files.joined(separator: ", ")):\n\(block.lines.joined(separator: "\n"))")
        }
    }

    @Test func theLandingPageLinksEveryGuide() throws {
        let landing = try String(contentsOf: Self.catalog.appendingPathComponent("SeatKit.md"), encoding: .utf8)
        for guide in Self.guides {
            #expect(landing.contains("<doc:\(guide.dropLast(3))>"), "\(guide)")
        }
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        for guide in Self.guides {
            #expect(readme.contains("Sources/SeatKit/SeatKit.docc/\(guide)"), "README does not link \(guide)")
        }
    }
}
