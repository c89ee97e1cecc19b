import Testing
import SeatKit
import SeatKitXKB
#if canImport(Glibc)
import Glibc
#endif

@Suite struct KeymapContextTests {
    /// A directory holding `symbols/seatkit` and `symbols/de`, both US with α and β on the
    /// first two letter keys.
    private func layoutDirectory() throws -> String {
        var template = Array("/tmp/seatkit-xkb-XXXXXX".utf8CString)
        try #require(mkdtemp(&template) != nil)
        let directory = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        try #require(mkdir(directory + "/symbols", 0o755) == 0)
        let symbols = """
            default partial alphanumeric_keys
            xkb_symbols "basic" {
                include "us(basic)"
                name[Group1] = "SeatKit Greek letters";
                key <AD01> { [ Greek_alpha, Greek_ALPHA ] };
                key <AD02> { [ Greek_beta, Greek_BETA ] };
            };
            """
        for name in ["seatkit", "de"] {
            let file = try #require(fopen(directory + "/symbols/" + name, "w"))
            fputs(symbols, file)
            fclose(file)
        }
        return directory
    }

    private func remove(_ directory: String) {
        unlink(directory + "/symbols/seatkit")
        unlink(directory + "/symbols/de")
        rmdir(directory + "/symbols")
        rmdir(directory)
    }

    @Test func anIncludePathAddsALayoutNextToTheSystemOnes() throws {
        let directory = try layoutDirectory()
        defer { remove(directory) }
        let context = try KeymapContext(includePaths: [directory])
        let mine = try Keymap(names: KeymapNames(layout: "seatkit,ru"), context: context)
        #expect(mine.layoutNames == ["SeatKit Greek letters", "Russian"])
        #expect(type([Key.q, Key.w, Key.e, Key.z], on: KeyboardState(keymap: mine)) == "αβez")
    }

    @Test func anIncludePathComesBeforeTheSystemsData() throws {
        let directory = try layoutDirectory()
        defer { remove(directory) }
        let overridden = try Keymap(names: KeymapNames(layout: "de"), context: try KeymapContext(includePaths: [directory]))
        #expect(type([Key.q, Key.z], on: KeyboardState(keymap: overridden)) == "αz")
        #expect(type([Key.q, Key.z], on: KeyboardState(keymap: try keymap("de"))) == "qy")
    }

    @Test func withoutTheSystemsDataOnlyTheIncludePathsAreSearched() throws {
        let directory = try layoutDirectory()
        defer { remove(directory) }
        let context = try KeymapContext(includePaths: [directory], defaultIncludes: false)
        #expect(throws: KeymapError.self) { try Keymap(names: KeymapNames(layout: "seatkit"), context: context) }
    }

    @Test func aMissingIncludeDirectoryIsRejected() {
        #expect(throws: KeymapError.includePathRejected("/nonexistent/xkb")) {
            try KeymapContext(includePaths: ["/nonexistent/xkb"])
        }
    }
}
