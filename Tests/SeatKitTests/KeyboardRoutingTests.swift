import Testing
@testable import SeatKit

@Suite("Keyboard routing and the first responder")
struct KeyboardRoutingTests {
    @Test func onlyAResponderThatCanBecomeFirstResponderMay() {
        let h = Harness()
        let label = h.surface("label", 0, 0, 10, 10)
        let field = h.surface("field", 0, 20, 10, 10, canBecomeFirst: true)
        #expect(!h.router.becomeFirstResponder(label))
        #expect(h.router.firstResponder == nil)
        #expect(h.router.becomeFirstResponder(field))
        #expect(h.router.firstResponder === field)
        #expect(h.log.entries == ["field.didBecome"])
    }

    @Test func switchingFirstResponderResignsTheOldOneFirst() {
        let h = Harness()
        let a = h.surface("a", 0, 0, 10, 10, canBecomeFirst: true)
        let b = h.surface("b", 0, 20, 10, 10, canBecomeFirst: true)
        h.router.becomeFirstResponder(a)
        h.log.clear()
        h.router.becomeFirstResponder(b)
        #expect(h.log.entries == ["a.didResign", "b.didBecome"])
    }

    @Test func aResponderThatRefusesToResignKeepsFocus() {
        let h = Harness()
        let a = h.surface("a", 0, 0, 10, 10, canBecomeFirst: true)
        let b = h.surface("b", 0, 20, 10, 10, canBecomeFirst: true)
        h.router.becomeFirstResponder(a)
        a.recorder.refusesResign = true
        #expect(!h.router.becomeFirstResponder(b))
        #expect(!h.router.resignFirstResponder())
        #expect(h.router.firstResponder === a)
    }

    @Test func aDetachedSurfaceCannotBecomeFirstResponder() {
        let h = Harness()
        let floating = Surface(name: "floating", frame: SurfaceRect(x: 0, y: 0, width: 1, height: 1),
                               responder: RecordingResponder("floating", log: h.log, canBecomeFirst: true))
        #expect(!h.router.becomeFirstResponder(floating))
    }

    @Test func keysGoToTheFirstResponderAndUpItsChain() {
        let h = Harness()
        let window = h.surface("window", 0, 0, 500, 500, handles: ["keyDown"])
        let field = h.surface("field", 0, 0, 100, 20, in: window, canBecomeFirst: true)
        h.router.becomeFirstResponder(field)
        h.log.clear()
        h.key(30, .pressed)
        h.key(30, .released)
        #expect(Array(h.log.entries.prefix(3)) == ["field.keyDown", "window.keyDown", "field.keyUp"])
        #expect(h.router.pressedKeys.isEmpty)
    }

    @Test func keysWithNoFirstResponderGoToTheDelegate() {
        let h = Harness()
        h.key(30, .pressed)
        #expect(h.log.entries == ["delegate.keyDown"])
        #expect(h.delegate.dropped == ["keyDown"])
    }

    @Test func removingTheFirstResponderMovesFocusToTheNearestAncestorThatCanTakeIt() {
        let h = Harness()
        let window = h.surface("window", 0, 0, 500, 500, canBecomeFirst: true)
        let group = h.surface("group", 0, 0, 200, 200, in: window)
        let field = h.surface("field", 0, 0, 100, 20, in: group, canBecomeFirst: true)
        h.router.becomeFirstResponder(field)
        h.log.clear()
        group.removeFromParent()
        #expect(h.router.firstResponder === window)
        // The removed field is told nothing; the window is told it became first responder.
        #expect(h.log.entries == ["window.didBecome"])
    }

    @Test func theDelegateChoosesWhereFocusGoesAfterARemoval() {
        let h = Harness()
        let window = h.surface("window", 0, 0, 500, 500, canBecomeFirst: true)
        let search = h.surface("search", 600, 0, 100, 20, canBecomeFirst: true)
        let field = h.surface("field", 0, 0, 100, 20, in: window, canBecomeFirst: true)
        h.delegate.focusRule = { removed, formerParent in
            #expect(removed === field)
            #expect(formerParent === window)
            return search
        }
        h.router.becomeFirstResponder(field)
        field.removeFromParent()
        #expect(h.router.firstResponder === search)
        h.delegate.focusRule = { _, _ in nil }
        #expect(h.router.becomeFirstResponder(window))
        window.removeFromParent()
        #expect(h.router.firstResponder == nil)
    }

    @Test func aKeyCommandTwoRespondersUpTheChainPerformsItsActionAndSwallowsTheRelease() {
        let h = Harness()
        let window = h.surface("window", 0, 0, 500, 500)
        let pane = h.surface("pane", 0, 0, 200, 200, in: window)
        let field = h.surface("field", 0, 0, 100, 20, in: pane, canBecomeFirst: true)
        window.recorder.commands = [KeyCommand(keysym: 0x73 /* s */, modifiers: .control, action: "save")]
        h.router.becomeFirstResponder(field)
        h.router.keyInterpreter = FixedInterpreter(keysym: 0x73, modifiers: .control)
        h.log.clear()
        h.key(31, .pressed)
        h.key(31, .repeated)
        h.key(31, .released)
        #expect(h.log.entries == ["field.keyDown", "pane.keyDown", "window.perform(save)"])
    }

    @Test func aKeyCommandIgnoresLockModifiersAndLetterCase() {
        let command = KeyCommand(keysym: 0x7a /* z */, modifiers: [.control, .shift], action: "redo")
        var event = KeyEvent(time: .zero, keycode: 44, state: .pressed, keysym: 0x5a /* Z */,
                             modifiers: [.control, .shift, .capsLock, .numLock])
        #expect(command.matches(event))
        event.modifiers = [.control]
        #expect(!command.matches(event))
        event.state = .released
        event.modifiers = [.control, .shift]
        #expect(!command.matches(event))
    }

    @Test func aLayoutIndependentKeyCommandMatchesTheBaseKeysym() {
        let command = KeyCommand(keysym: 0x63 /* c */, modifiers: .control, action: "copy", matching: .layoutIndependent)
        // Russian layout: the key produces Cyrillic es, but its base keysym is c.
        let event = KeyEvent(time: .zero, keycode: 46, state: .pressed, keysym: 0x6d3, baseKeysym: 0x63, modifiers: .control)
        #expect(command.matches(event))
        #expect(!KeyCommand(keysym: 0x63, modifiers: .control, action: "copy").matches(event))
    }
}

/// Reports the same keysym and modifiers for every key.
final class FixedInterpreter: KeyInterpreter {
    let keysym: UInt32
    let modifiers: KeyModifiers
    init(keysym: UInt32, modifiers: KeyModifiers) {
        self.keysym = keysym
        self.modifiers = modifiers
    }
    func interpret(_ event: inout KeyEvent) {
        event.keysym = keysym
        event.baseKeysym = keysym
        event.modifiers = modifiers
    }
}
