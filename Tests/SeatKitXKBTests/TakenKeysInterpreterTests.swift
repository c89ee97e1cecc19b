import SeatKit
import SeatKitXKB
import Testing

/// A press a filter takes never reaches the keyboard's state (issue 28): the router tells
/// the key interpreter the key was released as soon as a filter takes its press, passes it
/// nothing more of that key, and presses it again when a filter routes the press (slow keys
/// accepting it), so a waiting, rejected or bounced Shift shifts no other key, and an
/// accepted one does from the moment it is accepted. Real xkbcommon keyboard.
@Suite struct TakenKeysInterpreterTests {
    private func scene(_ filters: [any InputFilter]) throws -> KeyboardScene {
        let scene = KeyboardScene(try keymap("us"))
        for filter in filters { scene.router.addFilter(filter) }
        return scene
    }

    @Test func aShiftSlowKeysRejectShiftsNoKeyWhileItWaitsOrAfter() throws {
        let scene = try scene([SlowKeys(delay: .milliseconds(300))])
        scene.key(Key.leftShift, .pressed, at: 0)
        #expect(scene.keyboard.state.modifierMasks == ModifierMasks(), "a waiting Shift is not in the keyboard's state")
        #expect(scene.keyboard.pressedKeys.isEmpty)
        scene.key(Key.a, .pressed, at: 100)
        scene.key(Key.leftShift, .released, at: 200)   // before its delay: rejected
        scene.key(Key.a, .released, at: 500)           // A accepted at 400
        #expect(scene.field.typedText == "a", "the rejected Shift shifted nothing")
        #expect(scene.field.downs.first.map { $0.modifiers.contains(.shift) } == false)
        #expect(scene.keyboard.state.modifierMasks == ModifierMasks())
        #expect(scene.keyboard.pressedKeys.isEmpty)
    }

    @Test func aShiftSlowKeysAcceptShiftsTheKeysAcceptedAfterIt() throws {
        let scene = try scene([SlowKeys(delay: .milliseconds(300))])
        scene.key(Key.leftShift, .pressed, at: 0)
        scene.key(Key.a, .pressed, at: 350)            // Shift accepted at 300
        #expect(scene.keyboard.state.modifiers.contains(.shift))
        scene.key(Key.a, .released, at: 700)           // A accepted at 650
        scene.key(Key.leftShift, .released, at: 800)
        #expect(scene.field.typedText == "A")
        #expect(scene.field.ups.map(\.keycode) == [Key.a, Key.leftShift], "each accepted key's release follows it")
        #expect(scene.keyboard.state.modifierMasks == ModifierMasks(), "the Shift's release reached the keyboard")
    }

    @Test func aBouncedShiftNeverReachesTheKeyboardState() throws {
        let scene = try scene([BounceKeys(delay: .milliseconds(300))])
        scene.type([Key.leftShift], from: 0)
        scene.key(Key.leftShift, .pressed, at: 50)     // within 300 ms of its release: a bounce
        #expect(scene.keyboard.state.modifierMasks == ModifierMasks())
        scene.type([Key.a], from: 60)
        scene.key(Key.leftShift, .released, at: 100)
        #expect(scene.field.typedText == "a", "the bounced Shift shifted nothing")
        #expect(scene.keyboard.pressedKeys.isEmpty)
    }

    /// Takes Super presses for itself, as a launcher would.
    private final class TakesSuper: InputFilter {
        func filterKey(_ event: KeyEvent, router: Router) -> FilterDecision {
            event.keycode == Key.leftMeta ? .consume : .pass
        }
    }

    /// A filter that takes a press for itself (a shortcut, not slow or bounce keys) leaves it
    /// in the keyboard's state: the key after a taken Super still has Super among its
    /// modifiers.
    @Test func aPressAShortcutFilterTakesStillCountsInTheKeyboardState() throws {
        let scene = try scene([TakesSuper()])
        scene.key(Key.leftMeta, .pressed, at: 0)
        scene.type([Key.a], from: 10)
        scene.key(Key.leftMeta, .released, at: 100)
        #expect(scene.field.downs.map(\.keycode) == [Key.a])
        #expect(scene.field.downs.first?.modifiers.contains(.logo) == true)
        #expect(scene.keyboard.state.modifierMasks == ModifierMasks())
    }

    /// A dead key and the key after it, both held past slow keys' delay, compose once: the
    /// accepted presses keep the text compose gave them when they were pressed (fed to the
    /// sequence again, the dead key would compose with itself into "´").
    @Test func aDeadKeyAndTheNextKeyAcceptedBySlowKeysComposeOnce() throws {
        let scene = KeyboardScene(try keymap("de"), compose: try ComposeTable(locale: "en_US.UTF-8"))
        scene.router.addFilter(SlowKeys(delay: .milliseconds(300)))
        scene.key(Key.equal, .pressed, at: 0)      // dead_acute on de
        scene.key(Key.equal, .released, at: 400)
        scene.key(Key.e, .pressed, at: 500)
        scene.key(Key.e, .released, at: 900)
        #expect(scene.field.typedText == "é")
    }
}
