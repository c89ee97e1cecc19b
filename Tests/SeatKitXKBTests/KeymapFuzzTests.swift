import Testing
import SeatKit
import SeatKitXKB

/// A seeded fuzzer over the untrusted-keymap path: mutated keymaps (numbers swapped for
/// extreme ones, hostile statements inserted, ranges deleted, duplicated or garbled) go
/// through ``Keymap/init(bytes:limits:context:source:)``; every outcome must be a keymap,
/// a rejection or a compilation error, and a keymap that compiles must survive use. A crash
/// (a trap, xkbcommon's abort, running out of memory) ends the test process: that is the
/// failure this test exists for. Same seed, same cases: a failure reproduces.
@Suite struct KeymapFuzzTests {
    /// SplitMix64: small, seedable, the same on every platform.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9e37_79b9_7f4a_7c15
            var z = state
            z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
            z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
            return z ^ (z >> 31)
        }
    }

    static let extremeNumbers = ["0", "1", "7", "8", "255", "256", "775", "4095", "4096", "65535", "30000000",
                                 "2147483647", "4294967294", "4294967295", "0xfffffffe", "0xffffffffffffffff",
                                 "18446744073709551616", "99999999999999999999999", "1.5", "-1", "0x"]

    static let hostileStatements = [
        "<HUGE> = 4294967294;", "<BIG> = 30000000;", "<LOW> = 3;", "<ZERO> = 0;", "alias <X> = <HUGE>;",
        "map[Shift] = Level8 * 9;", "map[Shift] = 2147483647;", "level_name[99999] = \"x\";",
        "type \"T\" { modifiers = Shift+Lock+Control+Mod1+Mod2+Mod3+Mod4+Mod5; map[Shift] = Level2; };",
        "include \"../../../../etc/passwd\"", "include \"complete\"", "include \"\"", "include \"nonexistent(x)\"",
        "virtual_modifiers A,B,C,D,E,F,G,H,I,J,K,L,M,N,O,P,Q,R,S,T,U,V,W,X,Y,Z,AA,AB,AC,AD,AE,AF,AG;",
        "indicator 99 = \"x\";", "indicator 0 = \"x\";", "group 99 = Shift;",
        "key <AE01> { [ a, b, c, d, e, f, g, h, i, j, k, l, m ] };",
        "key <AE01> { symbols[Group99] = [ a ] };", "key <AE01> { type = \"NOPE\", [ a ] };",
        "interpret Any { action = SetGroup(group=-999999); };",
        "interpret a { action = Private(type=0x80, data[99]=1); };",
        "interpret a { action = MovePtr(x=99999999, y=-99999999); };",
        "interpret a { action = RedirectKey(key=<HUGE>, clearmods=all); };",
        "key <AE01> { [ 0x1ffffffff, 0x100263a, U10FFFF, U110000 ] };",
        "((((((((((", "))))", "}", "{", "[", "]", "\"", "<", ">", "//", "#", ";", "~~~~~~~~~~", "!!!!",
        "1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1",
        "xkb_keycodes { <A> = 9; };", "xkb_types { };", "xkb_keymap {", "\u{00e9}\u{1F600}",
    ]

    /// One mutation of `bytes`.
    static func mutate(_ bytes: inout [UInt8], _ random: inout Generator) {
        guard !bytes.isEmpty else {
            bytes = Array(hostileStatements.randomElement(using: &random)!.utf8)
            return
        }
        let at = Int.random(in: 0..<bytes.count, using: &random)
        switch Int.random(in: 0..<7, using: &random) {
        case 0, 1:
            // A number (the first at or after `at`) becomes an extreme one.
            guard let start = bytes[at...].firstIndex(where: { $0 >= 0x30 && $0 <= 0x39 }) else { return }
            var end = start
            while end < bytes.count, (bytes[end] >= 0x30 && bytes[end] <= 0x39) || bytes[end] == UInt8(ascii: "x") { end += 1 }
            bytes.replaceSubrange(start..<end, with: Array(extremeNumbers.randomElement(using: &random)!.utf8))
        case 2, 3:
            // A hostile statement after a `;` or `{`.
            let place = bytes[at...].firstIndex(where: { $0 == UInt8(ascii: ";") || $0 == UInt8(ascii: "{") }).map { $0 + 1 } ?? at
            bytes.insert(contentsOf: Array((" " + hostileStatements.randomElement(using: &random)! + " ").utf8), at: place)
        case 4:
            bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...64, using: &random)))
        case 5:
            let range = at..<min(bytes.count, at + Int.random(in: 1...200, using: &random))
            bytes.insert(contentsOf: Array(bytes[range]), at: Int.random(in: 0...bytes.count, using: &random))
        default:
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
        }
    }

    /// Uses a keymap the way the compositor would: every key pressed and released, keysyms
    /// and text read, serialized and compiled again.
    static func exercise(_ keymap: Keymap) throws {
        let state = KeyboardState(keymap: keymap)
        let keys = keymap.evdevKeycodes
        for key in keys.prefix(600) {
            _ = state.update(evdevKeycode: key, direction: .down)
            _ = state.keysymAndText(evdevKeycode: key)
            _ = state.update(evdevKeycode: key, direction: .up)
            _ = keymap.repeats(evdevKeycode: key)
            _ = keymap.baseKeysym(evdevKeycode: key)
        }
        for key: UInt32 in [0, 7, 8, 4095, 0xffff_fff7, 0xffff_ffff] {
            _ = state.update(evdevKeycode: key, direction: .down)
            _ = state.keysymAndText(evdevKeycode: key)
            _ = state.update(evdevKeycode: key, direction: .up)
        }
        _ = keymap.layoutNames
        // What the compositor sends clients must itself pass the limits and compile.
        _ = try Keymap(string: keymap.text)
    }

    @Test func seededMutationsOfKeymapsNeverCrash() throws {
        let small = UntrustedKeymapTests.keymapText()
        let us = try keymap("us").text
        var random = Generator(state: 0x5ea7_4b17)
        var compiled = 0, rejected = 0, failed = 0
        let context = try KeymapContext()
        for index in 0..<400 {
            // Mostly the small keymap (fast); every fifth case the whole US keymap.
            var bytes = Array((index % 5 == 4 ? us : small).utf8)
            for _ in 0..<Int.random(in: 1...4, using: &random) { Self.mutate(&bytes, &random) }
            do {
                let keymap = try bytes.withUnsafeBytes { try Keymap(bytes: $0, context: context, source: "case \(index)") }
                compiled += 1
                try Self.exercise(keymap)
            } catch KeymapError.rejected {
                rejected += 1
            } catch KeymapError.compilationFailed {
                failed += 1
            }
        }
        // The cases reach all three outcomes: the fuzzer is not stuck in the validator.
        #expect(compiled + rejected + failed == 400)
        #expect(compiled > 40, "compiled \(compiled), rejected \(rejected), failed \(failed)")
        #expect(rejected > 40, "compiled \(compiled), rejected \(rejected), failed \(failed)")
        #expect(failed > 40, "compiled \(compiled), rejected \(rejected), failed \(failed)")
    }
}
