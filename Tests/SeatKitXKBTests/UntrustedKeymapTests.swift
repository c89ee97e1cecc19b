import Testing
import SeatKit
import SeatKitXKB
#if canImport(Glibc)
import Glibc
#endif

/// Keymaps from clients (`zwp_virtual_keyboard_v1.keymap`) and from configuration are
/// untrusted: each case below crashed the process or exhausted memory when xkbcommon 1.5
/// got the text unchecked.
@Suite struct UntrustedKeymapTests {
    /// A small self-contained keymap: `KEYCODES` goes into `xkb_keycodes`, `TYPES` into
    /// `xkb_types`.
    static func keymapText(keycodes: String = "<AE01> = 10; <AC01> = 38;", typesInclude: String = "complete",
                           types: String = "", compat: String = "",
                           symbols: String = "key <AE01> { [ 1, exclam ] }; key <AC01> { [ a, A ] };") -> String {
        """
        xkb_keymap {
            xkb_keycodes "test" { \(keycodes) };
            xkb_types "test" { include "\(typesInclude)" \(types) };
            xkb_compatibility "test" { include "complete" \(compat) };
            xkb_symbols "test" { \(symbols) };
        };
        """
    }

    func rejection(_ text: String, limits: KeymapLimits = .default) -> (line: Int, reason: String)? {
        do {
            _ = try Keymap(string: text, limits: limits)
            return nil
        } catch let KeymapError.rejected(_, line, reason) {
            return (line, reason)
        } catch {
            Issue.record("expected a rejection, got \(error)")
            return nil
        }
    }

    @Test func aKeymapWhoseKeycodesAllLieBelow8CompilesAndHasNoEvdevKeycodes() throws {
        // Used to trap on an arithmetic overflow in `evdevKeycodes`.
        let keymap = try Keymap(string: Self.keymapText(keycodes: "<K1> = 1; <K2> = 7;",
                                                        symbols: "key <K1> { [ a ] }; key <K2> { [ b ] };"))
        #expect(keymap.evdevKeycodes.isEmpty)
        let state = KeyboardState(keymap: keymap)
        for key: UInt32 in [0, 1, 7, 8, 300, 0xffff_fff0] {
            state.update(evdevKeycode: key, direction: .down)
            _ = state.keysymAndText(evdevKeycode: key)
            state.update(evdevKeycode: key, direction: .up)
            _ = keymap.repeats(evdevKeycode: key)
            _ = keymap.baseKeysym(evdevKeycode: key)
        }
    }

    @Test func evdevKeycodesRunFromTheLowestToTheHighestKeycodeMinus8() throws {
        let keymap = try Keymap(string: Self.keymapText())
        #expect(keymap.evdevKeycodes == 2..<31)
    }

    @Test func aKeycodeNearTheTopOf32BitsIsRejectedBeforeXkbcommonAsserts() throws {
        // 4294967294 is XKB_KEYCODE_MAX: xkbcommon 1.5 accepts it and aborts in darray.
        let text = Self.keymapText(keycodes: "<AE01> = 10;\n <HUGE> = 4294967294;")
        let rejected = try #require(rejection(text))
        #expect(rejected.line == 3)
        #expect(rejected.reason == "keycode 4294967294 is above the limit of 4095")
        #expect(KeymapError.rejected(source: "keymap string", line: 3, reason: rejected.reason).description
                == "keymap (keymap string) rejected at line 3: keycode 4294967294 is above the limit of 4095")
    }

    @Test func keycodesThatWouldCostMemoryAreRejectedWithTheirLimit() throws {
        // 30 million compiles in xkbcommon, at about 50 bytes per keycode up to it.
        #expect(rejection(Self.keymapText(keycodes: "<BIG> = 30000000;"))?.reason == "keycode 30000000 is above the limit of 4095")
        #expect(rejection(Self.keymapText(keycodes: "<BIG> = 0x10000;"))?.reason == "keycode 65536 is above the limit of 4095")
        #expect(rejection(Self.keymapText(keycodes: "<BIG> = 99999999999999999999999;"))?.reason
                == "keycode beyond 2^64 is above the limit of 4095")
        // The limit is the compositor's to set.
        var limits = KeymapLimits()
        limits.maximumKeycode = 20
        #expect(rejection(Self.keymapText(keycodes: "<AC01> = 38;"), limits: limits)?.reason == "keycode 38 is above the limit of 20")
        #expect(try Keymap(string: Self.keymapText(keycodes: "<AE01> = 10;", symbols: "key <AE01> { [ 1 ] };"),
                           limits: limits).evdevKeycodes == 2..<3)
    }

    @Test func hugeOrComputedShiftLevelsAreRejected() throws {
        let huge = "type \"BIG\" { modifiers = Shift; map[Shift] = 2147483647; };"
        #expect(rejection(Self.keymapText(types: huge))?.reason == "shift level 2147483647 is above the limit of 64")
        let named = "type \"BIG\" { modifiers = Shift; level_name[2000000000] = \"x\"; };"
        #expect(rejection(Self.keymapText(types: named))?.reason == "shift level 2000000000 is above the limit of 64")
        for computed in ["map[Shift] = Level8 * 50;", "map[Shift] = 60 + 60;", "level_name[Level8+Level8] = \"x\";",
                         "map[Shift] = -1;"] {
            let text = Self.keymapText(types: "type \"BIG\" { modifiers = Shift; \(computed) };")
            #expect(rejection(text)?.reason == "arithmetic on a shift level in xkb_types; write the level as LevelN or N", "\(computed)")
        }
        // Modifier arithmetic in types is fine.
        let fine = "type \"OK\" { modifiers = Shift+Lock; map[Shift+Lock] = Level2; level_name[Level2] = \"Caps\"; };"
        _ = try Keymap(string: Self.keymapText(types: fine))
    }

    @Test func longOperatorChainsAndDeepNestingAreRejected() throws {
        let chain = "interpret a { action = SetMods(modifiers=" + Array(repeating: "Shift", count: 300).joined(separator: "+") + "); };"
        let text = Self.keymapText(compat: chain)
        #expect(rejection(text)?.reason == "more than 256 operators in one statement")
        let nested = String(repeating: "(", count: 40) + "1" + String(repeating: ")", count: 40)
        #expect(rejection(Self.keymapText(symbols: "key <AE01> { [ \(nested) ] };"))?.reason == "brackets nested deeper than 32")
        #expect(rejection(Self.keymapText(symbols: "key <AE01> { [ 1 ] }; };"))?.reason == "a closing bracket without an opening one")
    }

    @Test func includesStayInsideTheXKBDataAndAreCounted() throws {
        for name in ["../../../../etc/passwd", "/etc/passwd", "pc+../../x", "us|/tmp/x"] {
            let text = Self.keymapText(typesInclude: name)
            #expect(rejection(text)?.reason == "include name \"\(name)\" leaves the XKB data directories", "\(name)")
        }
        let many = Array(repeating: "include \"complete\"", count: 70).joined(separator: "\n")
        #expect(rejection(Self.keymapText(types: many))?.reason == "more than 64 include statements")
    }

    @Test func oversizedTextNulBytesAndNonUTF8AreRejected() throws {
        var limits = KeymapLimits()
        limits.maximumBytes = 100
        #expect(rejection(Self.keymapText(), limits: limits)?.reason.hasPrefix("the keymap is ") == true)
        #expect(rejection("xkb_keymap {\n\0 };")?.reason == "the keymap contains a NUL byte at offset 13")
        #expect(rejection("xkb_keymap {\n\0 };")?.line == 2)
        let invalid: [UInt8] = Array("xkb_keymap { ".utf8) + [0xff, 0xfe] + Array(" };".utf8)
        #expect(throws: KeymapError.rejected(source: "upload", line: 1, reason: "the keymap is not UTF-8 text")) {
            try invalid.withUnsafeBytes { try Keymap(bytes: $0, source: "upload") }
        }
        // One trailing NUL, as a keymap file has, is fine.
        let withNul = Array(Self.keymapText().utf8) + [0]
        _ = try withNul.withUnsafeBytes { try Keymap(bytes: $0) }
        // Nor is NUL padding after it (wvkbd 0.12 pads its file with 64 bytes), while a
        // NUL followed by text is still refused.
        let padded = Array(Self.keymapText().utf8) + [UInt8](repeating: 0, count: 64)
        _ = try padded.withUnsafeBytes { try Keymap(bytes: $0) }
        #expect(rejection("xkb_keymap {\n\0 };\0\0")?.reason == "the keymap contains a NUL byte at offset 13")
    }

    @Test func theKeymapsXkbcommonAndXkeyboardConfigWritePassTheDefaultLimits() throws {
        for (layout, variant) in [("us", ""), ("de", ""), ("fr", "azerty"), ("us,ru", ""), ("jp", ""), ("ara", ""), ("us,de,fr,ru", "")] {
            let text = try keymap(layout, variant: variant).text
            try KeymapValidator.validate(text)
            #expect(try Keymap(string: text).text == text)
        }
        // wtype's upload: a keycode per character typed, types and compat included.
        let wtype = """
        xkb_keymap {
        xkb_keycodes "(unnamed)" {
        minimum = 8;
        maximum = 11;
        <K1> = 9;
        <K2> = 10;
        };
        xkb_types "(unnamed)" { include "complete" };
        xkb_compatibility "(unnamed)" { include "complete" };
        xkb_symbols "(unnamed)" {
        key <K1> {[h]};
        key <K2> {[U1F600]};
        };
        };
        """
        let keymap = try Keymap(string: wtype)
        #expect(keymap.keysym(evdevKeycode: 1) == Keysym.named("h"))
    }

    @Test func aFileLargerThanTheLimitIsRefusedBeforeItIsRead() throws {
        let path = try temporaryFile(String(repeating: "// padding\n", count: 100_000) + Self.keymapText())
        defer { unlink(path) }
        do {
            _ = try Keymap(contentsOfFile: path)
            Issue.record("an oversized keymap file compiled")
        } catch let KeymapError.rejected(source, _, reason) {
            #expect(source == path)
            #expect(reason == "the file is larger than the limit of 1048576 bytes")
        }
        var limits = KeymapLimits()
        limits.maximumBytes = 1 << 22
        _ = try Keymap(contentsOfFile: path, limits: limits)
    }

    @Test func aClientsFileDescriptorIsReadWithinItsAnnouncedSize() throws {
        let text = Self.keymapText()
        let path = try temporaryFile(text + "\0")
        defer { unlink(path) }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        try #require(fd >= 0)
        defer { close(fd) }
        let size = text.utf8.count + 1
        let keymap = try Keymap(fileDescriptor: fd, size: size, source: "client 7")
        #expect(keymap.keysym(evdevKeycode: 30) == Keysym.named("a"))
        // A size beyond the limit is refused before anything is read.
        #expect(throws: KeymapError.rejected(source: "client 7", line: 1, reason: "a size of 4294967295 bytes, more than the limit of 1048576")) {
            try Keymap(fileDescriptor: fd, size: 4_294_967_295, source: "client 7")
        }
        // A file shorter than announced (a client that truncated it) is an error, not a SIGBUS.
        #expect(throws: KeymapError.rejected(source: "client 7", line: 1, reason: "the file holds \(size) of the \(size + 100) bytes announced")) {
            try Keymap(fileDescriptor: fd, size: size + 100, source: "client 7")
        }
        #expect(throws: KeymapError.cannotOpen(path: "client 7", Errno(EBADF))) {
            try Keymap(fileDescriptor: 9999, size: 10, source: "client 7")
        }
    }

    func temporaryFile(_ contents: String) throws -> String {
        var template = Array("/tmp/seatkit-untrusted-XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        try #require(fd >= 0)
        defer { close(fd) }
        let bytes = Array(contents.utf8)
        try #require(write(fd, bytes, bytes.count) == bytes.count)
        return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
