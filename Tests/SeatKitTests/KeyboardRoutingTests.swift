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

    @Test func heldKeysStayInPressOrderWhateverOrderTheyAreReleasedIn() {
        let h = Harness()
        for key: UInt32 in [42, 30, 31, 32] { h.key(key, .pressed) }
        h.key(32, .released)   // the last pressed
        #expect(h.router.pressedKeys == [42, 30, 31])
        h.key(30, .released)   // one in the middle
        #expect(h.router.pressedKeys == [42, 31])
        h.key(42, .released)   // the first
        #expect(h.router.pressedKeys == [31])
        h.key(99, .released)   // never pressed
        #expect(h.router.pressedKeys == [31])
        h.key(31, .released)
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
        // The removed field is told it resigned; the window that it became first responder.
        #expect(h.log.entries == ["field.didResign", "window.didBecome"])
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
        search.removeFromParent()
        window.removeFromParent()
        // Nothing left in the focus history can take focus, and the delegate says nobody.
        #expect(h.router.firstResponder == nil)
    }

    @Test func aFirstResponderThatRemovesItsOwnSurfaceMidKeyLivesUntilTheKeyHasWalkedOn() {
        // The key path does not retain the first responder's surface; the router keeps a
        // replaced first responder alive until the delivery ends. Here the last owners of the
        // surface (its parent and `firstResponder`) let go from inside keyDown.
        let h = Harness()
        let window = h.surface("window", 0, 0, 500, 500, handles: ["keyDown"])
        weak var removed: Surface?
        let responder = SelfRemovingResponder()
        do {
            let field = Surface(name: "field", frame: SurfaceRect(x: 0, y: 0, width: 100, height: 20),
                                responder: responder)
            window.addChild(field)
            #expect(h.router.becomeFirstResponder(field))
            removed = field
        }
        #expect(removed != nil)
        h.log.clear()
        h.key(30, .pressed)
        // The field declined the key after removing itself: it walked on from its former
        // output (the window is no longer its parent), and nobody on the way handled it.
        #expect(responder.surfaceOutlivedItsRemoval == true)
        #expect(responder.routerHeldTheSurface == true)
        #expect(h.router.unchecked.keyboard.formerFirstResponders.keptCount == 0)
        #expect(removed == nil)
        #expect(h.router.firstResponder == nil)
        #expect(h.log.entries == ["delegate.keyDown"])
        #expect(h.delegate.dropped == ["keyDown"])
    }

    @Test func aResponderReplacedFromInsideItsOwnCallLivesUntilTheCallReturns() {
        // The router asks a surface's responder without retaining it; the surface keeps a
        // responder replaced during the call until the router is done asking.
        let h = Harness()
        let successor = KeysymRecorder()
        let field = Surface(name: "field", frame: SurfaceRect(x: 0, y: 0, width: 100, height: 20),
                            responder: SelfReplacingResponder(successor: successor))
        h.output.root.addChild(field)
        #expect(h.router.becomeFirstResponder(field))
        h.key(30, .pressed)
        #expect(SelfReplacingResponder.outlivedItsReplacement == true)
        #expect(SelfReplacingResponder.surfaceHeldTheReplacedOne == true)
        #expect(field.formerResponderCountForTesting == 0)
        #expect(field.responder === successor)
        h.key(30, .released)
        #expect(successor.keysyms.count == 1)
    }

    @Test func aFirstResponderRemovedMidKeyWalksOnToItsFormerOutputIfThatOutputIsStillThere() {
        // Removed, the field has no parent and no output; the walk remembers the output it
        // started on and goes there, unless that output left the layout too.
        for outputRemoved in [false, true] {
            let h = Harness()
            h.output.responder = RecordingResponder("output", log: h.log)
            let window = h.surface("window", 0, 0, 500, 500, handles: ["keyDown"])
            let field = Surface(name: "field", frame: SurfaceRect(x: 0, y: 0, width: 100, height: 20),
                                responder: SelfRemovingResponder())
            window.addChild(field)
            #expect(h.router.becomeFirstResponder(field))
            if outputRemoved {
                (field.responder as! SelfRemovingResponder).alsoRemoving = (h.router, h.output)
            }
            h.log.clear()
            h.key(30, .pressed)
            let expected = outputRemoved ? ["delegate.keyDown"] : ["output.keyDown", "delegate.keyDown"]
            #expect(h.log.entries == expected, "output removed: \(outputRemoved)")
        }
    }

    @Test func anInterpreterReplacedFromInsideItsOwnCallLivesUntilTheCallReturns() {
        let h = Harness()
        let recorder = KeysymRecorder()
        let field = Surface(name: "field", frame: SurfaceRect(x: 0, y: 0, width: 100, height: 20), responder: recorder)
        h.output.root.addChild(field)
        #expect(h.router.becomeFirstResponder(field))
        weak var first: ReplacingInterpreter?
        do {
            let interpreter = ReplacingInterpreter()
            interpreter.routerForTest = h.router
            h.router.keyInterpreter = interpreter
            first = interpreter
        }
        #expect(first != nil)
        h.key(30, .pressed)
        #expect(ReplacingInterpreter.outlivedItsReplacement == true)
        #expect(ReplacingInterpreter.routerHeldTheReplacedOne == true)
        #expect(h.router.unchecked.keyboard.formerInterpreterCalls.keptCount == 0)
        #expect(first == nil)
        #expect(h.router.keyInterpreter is FixedInterpreter)
        h.key(30, .released)
        // The replaced interpreter still filled in its own key; its successor the next one.
        #expect(recorder.keysyms == [0x41, 0x61])
    }

    @Test func aKeyCommandTwoRespondersUpTheChainPerformsItsActionAndReleasesTheKeyOnlyToTheRespondersBelowIt() {
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
        // Field and pane saw the keyDown, so they hear the keyUp; the window performed the
        // command instead and hears neither. The repeat goes nowhere.
        #expect(h.log.entries == ["field.keyDown", "pane.keyDown", "window.perform(save)", "field.keyUp", "pane.keyUp"])
        #expect(h.delegate.dropped.isEmpty)
    }

    @Test func aKeyCommandOfTheFirstResponderItselfTakesTheWholeKey() {
        let h = Harness()
        let window = h.surface("window", 0, 0, 500, 500)
        let field = h.surface("field", 0, 0, 100, 20, in: window, canBecomeFirst: true)
        field.recorder.commands = [KeyCommand(keysym: 0x73 /* s */, modifiers: .control, action: "save")]
        h.router.becomeFirstResponder(field)
        h.router.keyInterpreter = FixedInterpreter(keysym: 0x73, modifiers: .control)
        h.log.clear()
        h.key(31, .pressed)
        #expect(h.router.heldKeysForFocus.isEmpty)
        h.key(31, .released)
        #expect(h.log.entries == ["field.perform(save)"])
        #expect(h.delegate.dropped.isEmpty)
    }

    /// Windows a (focused) and b, and a filter that switches to b on Tab, taking it or not.
    private func altTab(_ h: Harness, takes: Bool) -> (b: Surface, switcher: FocusSwitcher) {
        let a = h.surface("a", 0, 0, 100, 100, handles: ["keyDown", "keyUp"], canBecomeFirst: true)
        let b = h.surface("b", 200, 0, 100, 100, handles: ["keyDown", "keyUp"], canBecomeFirst: true)
        h.router.becomeFirstResponder(a)
        let switcher = FocusSwitcher(keycode: 15 /* Tab */, to: b, takes: takes)
        h.router.addFilter(switcher)
        return (b, switcher)
    }

    @Test func aKeyFilterThatMovesFocusAndTakesTheKeyLeavesItOutOfTheNewFocusAndSwallowsItsRelease() {
        let h = Harness()
        let (b, switcher) = altTab(h, takes: true)
        h.key(56, .pressed)   // Alt, delivered to a
        h.log.clear()
        h.key(15, .pressed)
        // The enter the switch made lists Alt (a saw it) and not Tab (being routed).
        #expect(switcher.heldAtSwitch == [56])
        h.key(15, .released)
        h.key(56, .released)
        #expect(h.log.entries == ["a.didResign", "b.didBecome", "b.keyUp"])
        #expect(b.recorder.lastKey?.keycode == 56)
        #expect(h.delegate.dropped.isEmpty)
    }

    @Test func aKeyFilterThatMovesFocusAndPassesTheKeyDeliversItsPressAndReleaseToTheNewFocus() {
        let h = Harness()
        let (_, switcher) = altTab(h, takes: false)
        h.log.clear()
        h.key(15, .pressed)
        #expect(switcher.heldAtSwitch == [])
        h.key(15, .released)
        #expect(h.log.entries == ["a.didResign", "b.didBecome", "b.keyDown", "b.keyUp"])
    }

    @Test func aReleaseOfAKeyThatIsNotHeldReachesNoResponder() {
        let h = Harness()
        let field = h.surface("field", 0, 0, 100, 20, handles: ["keyDown", "keyUp"], canBecomeFirst: true)
        h.router.becomeFirstResponder(field)
        h.log.clear()
        h.key(30, .released)
        #expect(h.log.entries.isEmpty)
        #expect(h.delegate.dropped.isEmpty)
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

/// Removes its surface from the tree and from first responder while handling a key, then
/// declines it.
final class SelfRemovingResponder: Responder {
    /// Whether the surface still existed right after it was removed, while the router was
    /// delivering to it.
    var surfaceOutlivedItsRemoval: Bool?
    /// Whether the router held the surface then (optimized builds rely on that alone).
    var routerHeldTheSurface: Bool?
    /// Also takes this output out of this router's layout.
    var alsoRemoving: (Router, Output)?
    var canBecomeFirstResponder: Bool { true }
    func keyDown(_ event: KeyEvent, context: ResponderContext) -> ResponderResult {
        weak let surface = context.surface
        surface?.removeFromParent()
        if let (router, output) = alsoRemoving { router.removeOutput(output) }
        surfaceOutlivedItsRemoval = surface != nil
        routerHeldTheSurface = context.router.unchecked.keyboard.formerFirstResponders.keeps(surface!)
        return .notHandled
    }
}

/// Puts another interpreter in its place on its first key, then fills in the key.
final class ReplacingInterpreter: KeyInterpreter {
    func interpret(_ event: inout KeyEvent) {
        // Nothing but the router owns this interpreter: after this line only the router's
        // promise keeps it alive.
        weak let me = self
        routerForTest?.keyInterpreter = FixedInterpreter(keysym: 0x61, modifiers: [])
        Self.outlivedItsReplacement = me != nil
        Self.routerHeldTheReplacedOne = routerForTest?.unchecked.keyboard.formerInterpreterCalls.keptCount == 1
        event.keysym = 0x41
    }
    weak var routerForTest: Router?
    nonisolated(unsafe) static var outlivedItsReplacement: Bool?
    nonisolated(unsafe) static var routerHeldTheReplacedOne: Bool?
}

/// Records the keysym of every key press and release it is given.
final class KeysymRecorder: Responder {
    var keysyms: [UInt32] = []
    var canBecomeFirstResponder: Bool { true }
    func keyDown(_ event: KeyEvent, context: ResponderContext) -> ResponderResult {
        keysyms.append(event.keysym)
        return .handled
    }
    func keyUp(_ event: KeyEvent, context: ResponderContext) -> ResponderResult {
        keysyms.append(event.keysym)
        return .handled
    }
}

/// Hands its surface to `successor` while handling its first key.
final class SelfReplacingResponder: Responder {
    let successor: any Responder
    init(successor: any Responder) { self.successor = successor }
    nonisolated(unsafe) static var outlivedItsReplacement: Bool?
    nonisolated(unsafe) static var surfaceHeldTheReplacedOne: Bool?
    var canBecomeFirstResponder: Bool { true }
    func keyDown(_ event: KeyEvent, context: ResponderContext) -> ResponderResult {
        weak let me = self
        let surface = context.surface
        surface?.responder = successor
        Self.outlivedItsReplacement = me != nil
        Self.surfaceHeldTheReplacedOne = surface?.formerResponderCountForTesting == 1
        return .handled
    }
}

/// A key filter that moves focus to `target` on `keycode`'s press (Alt+Tab), taking the key
/// or not; it records the keys held for focus as the new focus takes it.
final class FocusSwitcher: InputFilter {
    let keycode: UInt32
    let target: Surface
    let takes: Bool
    var heldAtSwitch: [UInt32]?
    init(keycode: UInt32, to target: Surface, takes: Bool) {
        self.keycode = keycode
        self.target = target
        self.takes = takes
    }
    func filterKey(_ event: KeyEvent, router: Router) -> FilterDecision {
        guard event.keycode == keycode, event.state == .pressed else { return .pass }
        router.becomeFirstResponder(target)
        heldAtSwitch = router.heldKeysForFocus
        return takes ? .consume : .pass
    }
}
