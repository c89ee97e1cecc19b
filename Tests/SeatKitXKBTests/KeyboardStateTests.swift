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
}
