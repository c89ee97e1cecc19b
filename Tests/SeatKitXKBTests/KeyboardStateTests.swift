import Testing
import SeatKit
import SeatKitXKB

@Suite struct KeyboardStateTests {
    /// q w y z a m 1 ; on a US keyboard: the keys that move between these layouts.
    let keys = [Key.q, Key.w, Key.y, Key.z, Key.a, Key.m, Key.one, Key.semicolon]

    @Test func theSameKeycodesTypeDifferentTextUnderUsDeFrAzertyAndRu() throws {
        #expect(type(keys, on: KeyboardState(keymap: try keymap("us"))) == "qwyzam1;")
        #expect(type(keys, on: KeyboardState(keymap: try keymap("de"))) == "qwzyam1ö")
        #expect(type(keys, on: KeyboardState(keymap: try keymap("fr", variant: "azerty"))) == "azywq,&m")
        #expect(type(keys, on: KeyboardState(keymap: try keymap("ru"))) == "йцняфь1ж")
    }

    @Test func shiftSelectsTheSecondLevel() throws {
        let us = KeyboardState(keymap: try keymap("us"))
        #expect(type([Key.q, Key.one, Key.semicolon], holding: Key.leftShift, on: us) == "Q!:")
        let fr = KeyboardState(keymap: try keymap("fr", variant: "azerty"))
        #expect(type([Key.q, Key.one], holding: Key.leftShift, on: fr) == "A1")
        let ru = KeyboardState(keymap: try keymap("ru"))
        #expect(type([Key.q], holding: Key.leftShift, on: ru) == "Й")
    }

    @Test func capsLockCapitalizesLettersOnlyAndShiftUndoesIt() throws {
        let de = KeyboardState(keymap: try keymap("de"))
        let changes = de.update(evdevKeycode: Key.capsLock, direction: .down)
        de.update(evdevKeycode: Key.capsLock, direction: .up)
        #expect(changes.contains(.lockedModifiers))
        #expect(changes.contains(.leds))
        #expect(de.leds == .capsLock)
        #expect(de.modifiers == .capsLock)
        #expect(type([Key.q, Key.semicolon, Key.one], on: de) == "QÖ1")
        #expect(type([Key.q], holding: Key.leftShift, on: de) == "q")
        de.update(evdevKeycode: Key.capsLock, direction: .down)
        de.update(evdevKeycode: Key.capsLock, direction: .up)
        #expect(de.leds == [])
        #expect(type([Key.q], on: de) == "q")
    }

    @Test func aKeysKeysymsFollowItsLevel() throws {
        let us = KeyboardState(keymap: try keymap("us"))
        #expect(us.keysyms(evdevKeycode: Key.q) == [Keysym.named("q")])
        us.update(evdevKeycode: Key.capsLock, direction: .down)
        us.update(evdevKeycode: Key.capsLock, direction: .up)
        // Letters' key type maps Lock to the second level.
        #expect(us.keysyms(evdevKeycode: Key.q) == [Keysym.named("Q")])
        us.update(evdevKeycode: Key.leftShift, direction: .down)
        #expect(us.keysyms(evdevKeycode: Key.one) == [Keysym.named("exclam")])
    }

    @Test func altGrSelectsTheThirdLevel() throws {
        let de = KeyboardState(keymap: try keymap("de"))
        de.update(evdevKeycode: Key.rightAlt, direction: .down)
        #expect(de.modifiers == .altGr)
        #expect(type([Key.q, Key.e, Key.seven], on: de) == "@€{")
        de.update(evdevKeycode: Key.rightAlt, direction: .up)
        #expect(de.modifiers == [])
        let fr = KeyboardState(keymap: try keymap("fr", variant: "azerty"))
        #expect(type([Key.zero, Key.e], holding: Key.rightAlt, on: fr) == "@€")
    }

    @Test func modifiersSerializeAsWlKeyboardModifiersWantsThem() throws {
        let state = KeyboardState(keymap: try keymap("us,ru"))
        #expect(state.modifierMasks == ModifierMasks())
        state.update(evdevKeycode: Key.leftShift, direction: .down)
        state.update(evdevKeycode: Key.leftCtrl, direction: .down)
        // Real modifiers keep X11's bit order: Shift 0, Lock 1, Control 2.
        #expect(state.modifierMasks == ModifierMasks(depressed: 0b101))
        #expect(state.modifiers == [.shift, .control])
        state.update(evdevKeycode: Key.leftShift, direction: .up)
        state.update(evdevKeycode: Key.leftCtrl, direction: .up)
        state.update(evdevKeycode: Key.capsLock, direction: .down)
        state.update(evdevKeycode: Key.capsLock, direction: .up)
        state.lockLayout(1)
        #expect(state.modifierMasks == ModifierMasks(locked: 0b10, group: 1))
    }

    @Test func serializedMasksRestoreLatchesLocksAndTheLayout() throws {
        let source = KeyboardState(keymap: try keymap("us,ru"))
        let masks = ModifierMasks(depressed: 0, latched: 0b1, locked: 0b10, group: 1)
        let changes = source.update(masks: masks)
        #expect(changes.needsModifiersEvent)
        #expect(source.modifierMasks == masks)
        #expect(source.modifiers == [.shift, .capsLock])
        #expect(source.text(evdevKeycode: Key.q) == "й")
    }

    @Test func altShiftTogglesTheGroupOfATwoLayoutKeymap() throws {
        let state = KeyboardState(keymap: try keymap("us,ru", options: "grp:alt_shift_toggle"))
        #expect(type([Key.q], on: state) == "q")
        state.update(evdevKeycode: Key.leftAlt, direction: .down)
        let changes = state.update(evdevKeycode: Key.leftShift, direction: .down)
        #expect(changes.contains(.lockedLayout))
        state.update(evdevKeycode: Key.leftShift, direction: .up)
        state.update(evdevKeycode: Key.leftAlt, direction: .up)
        #expect(state.layout == 1)
        #expect(state.modifierMasks.group == 1)
        #expect(state.modifiers == [])
        #expect(type([Key.q, Key.w], on: state) == "йц")
        state.update(evdevKeycode: Key.leftAlt, direction: .down)
        state.update(evdevKeycode: Key.leftShift, direction: .down)
        state.update(evdevKeycode: Key.leftShift, direction: .up)
        state.update(evdevKeycode: Key.leftAlt, direction: .up)
        #expect(state.layout == 0)
        #expect(type([Key.q], on: state) == "q")
    }

    @Test func modifiersAndFunctionKeysTypeNothingAndControlTypesControlCharacters() throws {
        let us = KeyboardState(keymap: try keymap("us"))
        #expect(us.text(evdevKeycode: Key.leftShift) == "")
        #expect(us.keysym(evdevKeycode: Key.leftShift) == Keysym.named("Shift_L"))
        #expect(us.text(evdevKeycode: Key.enter) == "\r")
        us.update(evdevKeycode: Key.leftCtrl, direction: .down)
        #expect(us.text(evdevKeycode: Key.a) == "\u{1}")
        #expect(us.keysym(evdevKeycode: Key.a) == Keysym.named("a"))
    }

    @Test func aRememberedKeyFollowsEveryKindOfStateChange() throws {
        // The keysym and text a key produces are remembered until the state changes: each
        // way of changing it must make the next lookup ask xkbcommon again.
        let state = KeyboardState(keymap: try keymap("us,ru", options: "grp:alt_shift_toggle"))
        func a() -> String {
            let produced = state.keysymAndText(evdevKeycode: Key.a)
            #expect(produced.keysym == state.keysym(evdevKeycode: Key.a))
            #expect(produced.text == state.text(evdevKeycode: Key.a))
            // The remembered modifiers follow the same changes.
            let fresh = KeyboardState(keymap: state.keymap)
            fresh.update(masks: state.modifierMasks)
            #expect(state.modifiers == fresh.modifiers)
            return produced.text
        }
        #expect(a() == "a")
        #expect(a() == "a")
        state.update(evdevKeycode: Key.leftShift, direction: .down)
        #expect(a() == "A")
        #expect(state.modifiers == .shift)
        #expect(state.modifierMasks.depressed != 0)
        state.update(evdevKeycode: Key.leftShift, direction: .up)
        #expect(a() == "a")
        #expect(state.modifiers == [])
        #expect(state.modifierMasks.depressed == 0)
        state.update(evdevKeycode: Key.capsLock, direction: .down)
        state.update(evdevKeycode: Key.capsLock, direction: .up)
        #expect(a() == "A")
        state.lockLayout(1)
        #expect(a() == "Ф")
        #expect(state.modifierMasks.group == 1)
        state.update(masks: ModifierMasks(depressed: 0, latched: 0, locked: 0, group: 0))
        #expect(a() == "a")
        state.update(evdevKeycode: Key.leftCtrl, direction: .down)
        #expect(a() == "\u{01}")
        state.update(evdevKeycode: Key.leftCtrl, direction: .up)
        // A key that changes nothing leaves what is remembered valid.
        state.update(evdevKeycode: Key.q, direction: .down)
        state.update(evdevKeycode: Key.q, direction: .up)
        #expect(a() == "a")
        // Keycodes past the table are answered directly.
        #expect(state.keysymAndText(evdevKeycode: 5000).keysym == 0)
        #expect(state.keysymAndText(evdevKeycode: 5000).text == "")
    }

    @Test func aStateEnteredAgainAnswersFromWhatItRemembered() throws {
        // Typing a capital goes plain → Shift → plain: the keys typed before the Shift must
        // not be asked of xkbcommon again afterwards.
        let state = KeyboardState(keymap: try keymap("us"))
        func type(_ keys: [UInt32], holding modifiers: [UInt32] = []) -> String {
            for modifier in modifiers { state.update(evdevKeycode: modifier, direction: .down) }
            defer { for modifier in modifiers.reversed() { state.update(evdevKeycode: modifier, direction: .up) } }
            return keys.map { key in
                let text = state.keysymAndText(evdevKeycode: key).text
                state.update(evdevKeycode: key, direction: .down)
                state.update(evdevKeycode: key, direction: .up)
                return text
            }.joined()
        }
        #expect(type([Key.q, Key.w]) == "qw")
        #expect(state.keyLookups == 2)
        #expect(type([Key.q], holding: [Key.leftShift]) == "Q")
        #expect(state.keyLookups == 3)
        #expect(type([Key.q, Key.w]) == "qw")
        #expect(type([Key.q], holding: [Key.leftShift]) == "Q")
        #expect(state.keyLookups == 3)

        // Four states are remembered; a fifth takes the place of the one entered longest ago.
        #expect(KeyboardState.rememberedStates == 4)
        #expect(type([Key.q], holding: [Key.leftCtrl]) == "\u{11}")
        #expect(type([Key.q], holding: [Key.leftAlt]) == "q")
        #expect(state.keyLookups == 5)
        // plain, Shift, Ctrl and Alt are remembered. A state is entered when a key is asked in
        // it, so plain was last entered before the second capital: Shift+Ctrl takes its place.
        #expect(type([Key.q], holding: [Key.leftShift, Key.leftCtrl]) == "\u{11}")
        #expect(state.keyLookups == 6)
        #expect(type([Key.q], holding: [Key.leftAlt]) == "q")
        #expect(type([Key.q], holding: [Key.leftShift]) == "Q")
        #expect(state.keyLookups == 6)
        #expect(type([Key.q]) == "q")
        #expect(state.keyLookups == 7)
    }

    @Test func rememberedAnswersEqualXkbcommonsOverRandomTyping() throws {
        // Every remembered keysym, text and modifier set must be what xkbcommon says at that
        // moment, whatever the mix of held modifiers, latches, locks and layouts before it.
        let keymaps = [
            try keymap("us,ru", options: "grp:alt_shift_toggle"),
            try keymap("de"),
            try keymap("fr", variant: "azerty"),
            try keymap("us", options: "lv3:ralt_switch,grp:shifts_toggle,ctrl:nocaps"),
        ]
        let numLock: UInt32 = 69, keypad1: UInt32 = 79, rightShift: UInt32 = 54
        let keys = [Key.leftShift, rightShift, Key.capsLock, Key.leftCtrl, Key.leftAlt, Key.rightAlt, numLock,
                    Key.q, Key.a, Key.e, Key.one, Key.semicolon, Key.equal, Key.m, keypad1, Key.enter]
        var random = SplitMix64(seed: 4)
        for keymap in keymaps {
            let state = KeyboardState(keymap: keymap)
            var held: Set<UInt32> = []
            for step in 0..<3000 {
                let key = keys[Int(random.next() % UInt64(keys.count))]
                let down = !held.contains(key)
                if down { held.insert(key) } else { held.remove(key) }
                state.update(evdevKeycode: key, direction: down ? .down : .up)
                // Ask after some events only, so that remembered states are left and entered again.
                if step % 3 != 0 { continue }
                for probe in keys {
                    let produced = state.keysymAndText(evdevKeycode: probe)
                    #expect(produced.keysym == state.keysym(evdevKeycode: probe), "step \(step), key \(probe)")
                    #expect(produced.text == state.text(evdevKeycode: probe), "step \(step), key \(probe)")
                }
                let fresh = KeyboardState(keymap: keymap)
                fresh.update(masks: state.modifierMasks)
                #expect(state.modifiers == fresh.modifiers, "step \(step)")
            }
        }
    }
}

/// SplitMix64: a seeded generator, so the random typing repeats exactly.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        let z = (state ^ (state >> 30)) &* 0xBF58_476D_1CE4_E5B9
        let y = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return y ^ (y >> 31)
    }
}
