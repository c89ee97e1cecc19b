import Testing
import SeatKit
import SeatKitXKB

@Suite struct KeyboardTests {
    private func press(_ keycode: UInt32, _ keyboard: Keyboard, _ state: KeyState = .pressed) -> KeyEvent {
        var event = KeyEvent(time: .zero, keycode: keycode, state: state)
        keyboard.interpret(&event)
        return event
    }

    @Test func aPressGetsKeysymTextAndModifiersFromBeforeItAndMasksFromAfter() throws {
        let keyboard = Keyboard(keymap: try keymap("us"))
        let shift = press(Key.leftShift, keyboard)
        #expect(shift.keysym == Keysym.named("Shift_L"))
        #expect(shift.modifiers == [])
        #expect(shift.modifierMasks.depressed == 1)
        #expect(keyboard.lastChanges.contains(.depressedModifiers))
        let q = press(Key.q, keyboard)
        #expect(q.keysym == Keysym.named("Q"))
        #expect(q.baseKeysym == Keysym.named("q"))
        #expect(q.text == "Q")
        #expect(q.modifiers == .shift)
        #expect(keyboard.lastChanges == [])
        let release = press(Key.q, keyboard, .released)
        #expect(release.text == "")
        #expect(release.keysym == Keysym.named("Q"))
        #expect(keyboard.pressedKeys == [Key.leftShift])
    }

    @Test func heldKeysStayInPressOrderWhateverOrderTheyAreReleasedIn() throws {
        let keyboard = Keyboard(keymap: try keymap("us"))
        for key in [Key.leftShift, Key.q, Key.w, Key.e] { _ = press(key, keyboard) }
        _ = press(Key.e, keyboard, .released)
        #expect(keyboard.pressedKeys == [Key.leftShift, Key.q, Key.w])
        _ = press(Key.q, keyboard, .released)
        #expect(keyboard.pressedKeys == [Key.leftShift, Key.w])
        _ = press(Key.leftShift, keyboard, .released)
        #expect(keyboard.pressedKeys == [Key.w])
        #expect(keyboard.state.modifiers == [])
        _ = press(Key.w, keyboard, .released)
        #expect(keyboard.pressedKeys.isEmpty)
    }

    @Test func baseKeysymStaysInTheFirstLayoutWhateverTheGroupAndLevel() throws {
        let keyboard = Keyboard(keymap: try keymap("us,ru"))
        keyboard.switchLayout(to: 1)
        _ = press(Key.leftShift, keyboard)
        let z = press(Key.z, keyboard)
        #expect(z.keysym == Keysym.named("Cyrillic_YA"))
        #expect(z.baseKeysym == Keysym.named("z"))
        #expect(z.text == "Я")
        #expect(z.modifierMasks.group == 1)
    }

    @Test func switchingLayoutsKeepsHeldModifiers() throws {
        let keyboard = Keyboard(keymap: try keymap("us,ru"))
        _ = press(Key.leftShift, keyboard)
        let changes = keyboard.switchLayout(to: 1)
        #expect(changes.contains(.lockedLayout))
        #expect(press(Key.q, keyboard).text == "Й")
        _ = press(Key.leftShift, keyboard, .released)
        #expect(keyboard.state.modifiers == [])
        #expect(press(Key.q, keyboard).text == "й")
    }

    @Test func replacingTheKeymapKeepsHeldKeysAndLocks() throws {
        let keyboard = Keyboard(keymap: try keymap("us"))
        var notified = 0
        keyboard.keymapDidChange = { _ in notified += 1 }
        _ = press(Key.capsLock, keyboard)
        _ = press(Key.capsLock, keyboard, .released)
        _ = press(Key.leftShift, keyboard)
        keyboard.setKeymap(try keymap("de"))
        #expect(notified == 1)
        // Shift is still held and Caps Lock still locked under de: they cancel on letters.
        #expect(keyboard.state.modifiers == [.shift, .capsLock])
        #expect(keyboard.state.leds == .capsLock)
        #expect(press(Key.z, keyboard).text == "y")
        #expect(press(Key.one, keyboard).text == "!")
        // Releasing Shift pressed under the old keymap clears it under the new one.
        _ = press(Key.leftShift, keyboard, .released)
        #expect(keyboard.state.modifiers == .capsLock)
        #expect(press(Key.z, keyboard).text == "Y")
        keyboard.setKeymap(try keymap("de"))
        #expect(notified == 1)
    }

    @Test func aDeadKeyComposesWithTheNextLetter() throws {
        let keyboard = Keyboard(keymap: try keymap("de"), compose: try ComposeTable(locale: "en_US.UTF-8"))
        let dead = press(Key.equal, keyboard)
        #expect(dead.keysym == Keysym.named("dead_acute"))
        #expect(dead.text == "")
        #expect(keyboard.composeStatus == .composing)
        _ = press(Key.equal, keyboard, .released)
        #expect(keyboard.composeStatus == .composing)
        let e = press(Key.e, keyboard)
        #expect(keyboard.composeStatus == .composed)
        #expect(e.keysym == Keysym.named("eacute"))
        #expect(e.baseKeysym == Keysym.named("e"))
        #expect(e.text == "é")
        _ = press(Key.e, keyboard, .released)
        #expect(press(Key.e, keyboard).text == "e")
        #expect(keyboard.composeStatus == .nothing)
    }

    @Test func withoutAComposeTableADeadKeyIsJustAKeysym() throws {
        let keyboard = Keyboard(keymap: try keymap("de"))
        #expect(press(Key.equal, keyboard).keysym == Keysym.named("dead_acute"))
        #expect(press(Key.e, keyboard).text == "e")
        #expect(keyboard.composeStatus == .nothing)
    }
}
