import Testing
import SeatKit
import SeatKitXKB
#if canImport(Glibc)
import Glibc
#endif

@Suite struct KeymapTests {
    @Test func keymapsCompileFromLayoutVariantAndOptionNames() throws {
        #expect(try keymap("us").layoutNames == ["English (US)"])
        #expect(try keymap("de").layoutNames == ["German"])
        #expect(try keymap("fr", variant: "azerty").layoutNames == ["French (AZERTY)"])
        let twoLayouts = try keymap("us,ru", options: "grp:alt_shift_toggle")
        #expect(twoLayouts.layoutCount == 2)
        #expect(twoLayouts.layoutNames == ["English (US)", "Russian"])
    }

    @Test func keysymsAreReadByLayoutAndShiftLevel() throws {
        let de = try keymap("de")
        #expect(de.keysym(evdevKeycode: Key.z) == Keysym.named("y"))
        #expect(de.keysym(evdevKeycode: Key.z, level: 1) == Keysym.named("Y"))
        #expect(de.keysym(evdevKeycode: Key.q, level: 2) == Keysym.named("at"))
        let usRu = try keymap("us,ru")
        #expect(usRu.keysym(evdevKeycode: Key.q, layout: 1) == Keysym.named("Cyrillic_shorti"))
    }

    @Test func lettersRepeatAndModifiersDoNot() throws {
        let us = try keymap("us")
        #expect(us.repeats(evdevKeycode: Key.a))
        #expect(!us.repeats(evdevKeycode: Key.leftShift))
        #expect(!us.repeats(evdevKeycode: Key.leftCtrl))
    }

    @Test func aKeymapCompilesBackFromItsOwnText() throws {
        let de = try keymap("de")
        let copy = try Keymap(string: de.text)
        #expect(copy.text == de.text)
        #expect(copy.keysym(evdevKeycode: Key.z) == Keysym.named("y"))
    }

    @Test func aKeymapCompilesFromAFile() throws {
        let fr = try keymap("fr", variant: "azerty")
        var template = Array("/tmp/seatkit-xkb-test-XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        try #require(fd >= 0)
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer { unlink(path) }
        let bytes = Array(fr.text.utf8)
        #expect(write(fd, bytes, bytes.count) == bytes.count)
        close(fd)
        let loaded = try Keymap(contentsOfFile: path)
        #expect(loaded.keysym(evdevKeycode: Key.q) == Keysym.named("a"))
    }

    @Test func aMissingKeymapFileThrowsTheSystemError() {
        #expect(throws: KeymapError.cannotOpen(path: "/nonexistent/keymap.xkb", Errno(ENOENT))) {
            try Keymap(contentsOfFile: "/nonexistent/keymap.xkb")
        }
    }

    @Test func aMalformedKeymapStringFailsWithXkbcommonsMessageNamingTheProblem() throws {
        let malformed = """
        xkb_keymap {
            xkb_keycodes "broken" {
                <AE01> = 10
            };
        };
        """
        do {
            _ = try Keymap(string: malformed)
            Issue.record("a malformed keymap compiled")
        } catch let KeymapError.compilationFailed(source, messages) {
            #expect(source == "keymap string")
            // xkbcommon points at the missing semicolon: a syntax error on line 4.
            #expect(messages.contains { $0.contains("(input string):4:") && $0.contains("syntax error") }, "\(messages)")
        }
    }

    @Test func anUnknownLayoutFailsWithAnErrorNamingIt() throws {
        do {
            _ = try keymap("nosuchlayout")
            Issue.record("an unknown layout compiled")
        } catch let KeymapError.compilationFailed(source, messages) {
            #expect(source.contains("layout nosuchlayout"))
            #expect(messages.contains { $0.contains("nosuchlayout") })
            let error = KeymapError.compilationFailed(source: source, messages: messages)
            #expect(error.description.contains("nosuchlayout"))
        }
    }

    @Test func keysymNamesRoundTrip() {
        #expect(Keysym.named("dead_acute") == 0xfe51)
        #expect(Keysym.name(of: 0xfe51) == "dead_acute")
        #expect(Keysym.named("Return") == 0xff0d)
    }
}
