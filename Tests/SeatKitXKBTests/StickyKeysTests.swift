import SeatKit
import SeatKitXKB
import Testing

/// Sticky keys on a real xkbcommon keyboard: the latch and lock show in the keysyms, text and
/// modifier masks the first responder (a Wayland client's responder) gets.
@Suite struct StickyKeysTests {
    private let shift = ModifierMasks(latched: 1).latched   // Shift is the keymap's first modifier

    private func scene() throws -> (KeyboardScene, StickyKeys) {
        let scene = KeyboardScene(try keymap("us"))
        let sticky = StickyKeys()
        scene.router.addFilter(sticky)
        return (scene, sticky)
    }

    @Test func aTappedShiftLatchesForTheNextKeyOnlyAndClientsSeeItLatched() throws {
        let (scene, sticky) = try scene()
        scene.type([Key.leftShift], from: 0)
        #expect(sticky.latched == .shift)
        // The tap's release carries the latch: a client hears it before the next key.
        #expect(scene.field.ups.last?.modifierMasks == ModifierMasks(latched: shift))
        scene.type([Key.a, Key.a], from: 100)
        #expect(scene.field.typedText == "Aa")
        // The key the latch applied to carries its end, after it.
        #expect(scene.field.downs[1].modifierMasks.latched == 0)
        #expect(scene.keyboard.state.modifierMasks == ModifierMasks())
        #expect(sticky.latched.isEmpty)
    }

    @Test func aDoubleTappedShiftLocksUntilTappedAgain() throws {
        let (scene, sticky) = try scene()
        scene.type([Key.leftShift, Key.leftShift, Key.a, Key.q], from: 0)
        #expect(sticky.locked == .shift)
        #expect(scene.field.typedText == "AQ")
        #expect(scene.keyboard.state.modifierMasks.locked == shift)
        scene.type([Key.leftShift, Key.a], from: 100)
        #expect(sticky.locked.isEmpty)
        #expect(scene.field.typedText == "AQa")
        #expect(scene.keyboard.state.modifierMasks == ModifierMasks())
    }

    @Test func aChordedShiftDoesNotLatch() throws {
        let (scene, sticky) = try scene()
        scene.key(Key.leftShift, .pressed, at: 0)
        scene.type([Key.a], from: 10)
        scene.key(Key.leftShift, .released, at: 30)
        scene.type([Key.a], from: 40)
        #expect(sticky.latched.isEmpty)
        #expect(scene.field.typedText == "Aa")
    }

    @Test func latchedModifiersCombineForAShortcutKeyCommand() throws {
        let (scene, _) = try scene()
        scene.field.commands = [KeyCommand(keysym: Keysym.named("T"), modifiers: [.control, .shift], action: "reopen-tab")]
        scene.type([Key.leftCtrl, Key.leftShift], from: 0)
        scene.type([20], from: 100)   // KEY_T
        #expect(scene.field.performed == ["reopen-tab"])
    }

    @Test func turningStickyKeysOffReleasesWhatItLatchedAndLockedAndTellsClients() throws {
        let (scene, sticky) = try scene()
        var told: [ModifierMasks] = []
        sticky.onModifiersChange = { told.append($0) }
        scene.type([Key.leftCtrl, Key.leftShift, Key.leftShift], from: 0)
        #expect(sticky.latched == .control)
        #expect(sticky.locked == .shift)
        sticky.isEnabled = false
        #expect(sticky.latched.isEmpty && sticky.locked.isEmpty)
        #expect(told == [ModifierMasks()], "clients are told at once, outside any key")
        #expect(scene.keyboard.state.modifierMasks == ModifierMasks())
        scene.type([Key.a], from: 100)
        #expect(scene.field.typedText == "a")
    }

    @Test func turningStickyKeysOnWhileAModifierIsHeldNeitherLatchesNorSwallowsItsRelease() throws {
        let (scene, sticky) = try scene()
        sticky.isEnabled = false
        scene.key(Key.leftShift, .pressed, at: 0)
        sticky.isEnabled = true
        scene.key(Key.leftShift, .released, at: 10)
        #expect(sticky.latched.isEmpty)
        #expect(scene.field.ups.map(\.keycode) == [Key.leftShift], "the release reaches the client that saw the press")
        scene.type([Key.a], from: 20)
        #expect(scene.field.typedText == "a")
    }

    @Test func aShiftAcceptedBySlowKeysBeforeStickyKeysLatches() throws {
        let scene = KeyboardScene(try keymap("us"))
        let slow = SlowKeys(delay: .milliseconds(300))
        let sticky = StickyKeys()
        scene.router.addFilter(slow)
        scene.router.addFilter(sticky)
        scene.key(Key.leftShift, .pressed, at: 0)
        scene.key(Key.leftShift, .released, at: 400)
        #expect(sticky.latched == .shift, "sticky keys saw the press slow keys accepted")
        scene.key(Key.a, .pressed, at: 500)
        scene.key(Key.a, .released, at: 900)
        #expect(scene.field.typedText == "A")
        #expect(sticky.latched.isEmpty)
    }

    @Test func capsLockLockedByItsKeyStaysLockedWhenStickyLocksChange() throws {
        let (scene, sticky) = try scene()
        scene.type([Key.capsLock], from: 0)
        let capsBit = scene.keyboard.state.modifierMasks.locked
        #expect(capsBit != 0)
        scene.type([Key.leftShift, Key.leftShift], from: 100)
        #expect(scene.keyboard.state.modifierMasks.locked == capsBit | shift)
        sticky.clear()
        #expect(scene.keyboard.state.modifierMasks.locked == capsBit)
    }
}
