import Testing
import SeatKit
import SeatKitXKB

@Suite struct ComposeTableTests {
    @Test func theLocaleTableComposesADeadKeyWithALetter() throws {
        let table = try ComposeTable(locale: "en_US.UTF-8")
        let compose = ComposeState(table: table)
        #expect(compose.feed(Keysym.named("dead_acute")))
        #expect(compose.status == .composing)
        #expect(compose.text == "")
        #expect(compose.feed(Keysym.named("e")))
        #expect(compose.status == .composed)
        #expect(compose.text == "é")
        #expect(compose.keysym == Keysym.named("eacute"))
    }

    @Test func cUTF8FindsTheEnglishTable() throws {
        let compose = ComposeState(table: try ComposeTable(locale: "C.UTF-8"))
        compose.feed(Keysym.named("Multi_key"))
        compose.feed(Keysym.named("o"))
        compose.feed(Keysym.named("c"))
        #expect(compose.status == .composed)
        #expect(compose.text == "©")
    }

    @Test func modifiersInsideASequenceAreIgnored() throws {
        let compose = ComposeState(table: try ComposeTable(locale: "en_US.UTF-8"))
        compose.feed(Keysym.named("dead_acute"))
        #expect(!compose.feed(Keysym.named("Shift_L")))
        compose.feed(Keysym.named("E"))
        #expect(compose.text == "É")
    }

    @Test func aKeyOutsideAnySequenceCancelsIt() throws {
        let compose = ComposeState(table: try ComposeTable(locale: "en_US.UTF-8"))
        compose.feed(Keysym.named("dead_acute"))
        compose.feed(Keysym.named("Return"))
        #expect(compose.status == .cancelled)
        compose.reset()
        #expect(compose.status == .nothing)
    }

    @Test func aGivenTableReplacesTheLocales() throws {
        let table = try ComposeTable(string: """
            <dead_acute> <a> : "æ" ae
            <Multi_key> <k> <b> : "⌨"
            """)
        let compose = ComposeState(table: table)
        compose.feed(Keysym.named("dead_acute"))
        compose.feed(Keysym.named("a"))
        #expect(compose.text == "æ")
        compose.reset()
        compose.feed(Keysym.named("dead_acute"))
        compose.feed(Keysym.named("e"))
        #expect(compose.status == .cancelled)
    }

    @Test func aLocaleWithoutATableThrows() {
        #expect(throws: KeymapError.self) { try ComposeTable(locale: "xx_NOWHERE.UTF-8") }
    }
}
