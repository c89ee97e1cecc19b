import Testing
@testable import SeatKit

/// Moving is not removing; removing tells (issue: routing stays right through every edit).
@Suite("Tree edits keep routing state")
struct TreeEditTests {
    @Test func reparentingATouchedSurfaceKeepsItsTouch() {
        let h = Harness()
        let left = h.surface("left", 0, 0, 400, 400)
        let right = h.surface("right", 500, 0, 400, 400)
        let popup = h.surface("popup", 10, 10, 100, 100, in: left, handles: ["began", "moved", "ended"])
        h.down(0, 20, 20)
        h.log.clear()
        right.addChild(popup)
        h.move(0, 30, 30)
        h.up(0)
        #expect(h.log.entries == ["popup.moved", "popup.ended"])
        #expect(h.router.activeTouchCount == 0)
    }

    @Test func restackingOrMovingToAnotherOutputKeepsPointerFocusAndFirstResponder() {
        let h = Harness()
        let second = Output(name: "OUT-2", position: LayoutPoint(x: 1000, y: 0), modeSize: Size(width: 500, height: 500))
        h.router.addOutput(second)
        let window = h.surface("window", 0, 0, 300, 300, canBecomeFirst: true)
        h.surface("other", 400, 0, 100, 100)
        h.pointer(to: 50, 50)
        #expect(h.router.becomeFirstResponder(window))
        h.log.clear()
        h.output.root.bringToFront(window)
        h.output.root.insertChild(window, at: 0)
        second.root.addChild(window)
        #expect(h.log.entries.isEmpty)
        #expect(h.router.firstResponder === window)
        #expect(h.router.pointerFocus === window)
        #expect(window.output === second)
        // The next pointer event finds the window gone from under the pointer: leave, enter.
        h.pointer(to: 51, 51)
        #expect(h.log.entries.prefix(1) == ["window.leave"])
    }

    @Test func movingUnderADetachedSurfaceIsARemoval() {
        let h = Harness()
        let window = h.surface("window", 0, 0, 300, 300, handles: ["began"], canBecomeFirst: true)
        let limbo = Surface(name: "limbo", frame: SurfaceRect(x: 0, y: 0, width: 10, height: 10))
        h.down(0, 10, 10)
        h.router.becomeFirstResponder(window)
        h.log.clear()
        limbo.addChild(window)
        #expect(h.log.entries == ["window.cancelled", "window.didResign"])
        #expect(h.router.firstResponder == nil)
        #expect(!window.isAttached)
    }

    @Test func aSubsurfacePlacedBelowItsParentDoesNotTakeInputOverIt() {
        let h = Harness()
        let parent = h.surface("parent", 100, 100, 200, 200)
        let below = h.surface("below", -50, -50, 300, 300, in: parent)
        #expect(h.router.surface(at: LayoutPoint(x: 150, y: 150)) === below)
        below.isBelowParent = true
        #expect(h.router.surface(at: LayoutPoint(x: 150, y: 150)) === parent)
        // Outside the parent, the subsurface below it still takes input.
        #expect(h.router.surface(at: LayoutPoint(x: 60, y: 60)) === below)
        // Both walks agree: the flat table and the per-parent index (a wide tree).
        for i in 0..<40 { h.surface("pad\(i)", 900, Double(i) * 10, 5, 5, in: parent) }
        #expect(h.router.surface(at: LayoutPoint(x: 150, y: 150)) === parent)
        #expect(parent.hitTest(SurfacePoint(x: 50, y: 50), visiting: { _ in }) === parent)
    }

    @Test func removingASurfaceTellsItsResponderEverythingItIsOwed() {
        let h = Harness()
        let window = h.surface("window", 0, 0, 300, 300, handles: ["began", "button", "keyDown"], canBecomeFirst: true)
        h.down(0, 10, 10)
        h.pointer(to: 20, 20)
        h.press()
        h.router.becomeFirstResponder(window)
        h.key(30, .pressed)
        h.log.clear()
        window.removeFromParent()
        #expect(h.log.entries == ["window.cancelled", "window.button", "window.leave", "window.keyUp", "window.didResign"])
        #expect(window.recorder.lastButton?.isCancelled == true)
        // The real releases are swallowed: nobody gets a release it never saw pressed.
        h.log.clear()
        h.release()
        h.key(30, .released)
        h.up(0)
        #expect(h.log.entries.filter { $0.hasSuffix("button") || $0.hasSuffix("keyUp") }.isEmpty)
        #expect(h.delegate.dropped.filter { $0 == "button" || $0 == "keyUp" }.isEmpty)
    }

    @Test func removingAnOutputTellsItsWholeTreeAndItsRootCannotTakeFocus() {
        let h = Harness()
        let second = Output(name: "OUT-2", position: LayoutPoint(x: 1000, y: 0), modeSize: Size(width: 500, height: 500))
        h.router.addOutput(second)
        let keep = h.surface("keep", 0, 0, 100, 100, canBecomeFirst: true)
        let gone = Surface(name: "gone", frame: SurfaceRect(x: 0, y: 0, width: 100, height: 100),
                           responder: RecordingResponder("gone", log: h.log, handles: ["began"], canBecomeFirst: true))
        second.root.addChild(gone)
        h.router.becomeFirstResponder(keep)
        h.router.becomeFirstResponder(gone)
        h.down(0, 1010, 10)
        h.log.clear()
        h.router.removeOutput(second)
        #expect(h.log.entries == ["gone.cancelled", "gone.didResign", "keep.didBecome"])
        #expect(!second.root.isAttached)
        #expect(!h.router.becomeFirstResponder(second.root))
        #expect(!h.router.becomeFirstResponder(gone))
        #expect(h.router.firstResponder === keep)
        // Added again, the output brings its tree back.
        h.router.addOutput(second)
        #expect(gone.isAttached)
    }

    @Test func keysNeverReachARemovedOutputsRoot() {
        let h = Harness()
        let second = Output(name: "OUT-2", position: LayoutPoint(x: 1000, y: 0), modeSize: Size(width: 500, height: 500),
                            responder: RecordingResponder("out2", log: h.log))
        h.router.addOutput(second)
        let field = Surface(name: "field", frame: SurfaceRect(x: 0, y: 0, width: 100, height: 100),
                            responder: RecordingResponder("field", log: h.log, canBecomeFirst: true))
        second.root.addChild(field)
        h.router.becomeFirstResponder(field)
        h.router.removeOutput(second)
        h.log.clear()
        h.key(30, .pressed)
        #expect(h.router.firstResponder == nil)
        #expect(h.log.entries == ["delegate.keyDown"])
    }
}

@Suite("Handlers may edit anything")
struct ReentrancyTests {
    @Test func aCancelHandlerThatRemovesAnotherSurfaceLetsNoTouchEscapeTheCancel() {
        let h = Harness()
        let a = h.surface("a", 0, 0, 100, 100, handles: ["began"])
        let b = h.surface("b", 200, 0, 100, 100, handles: ["began"])
        let c = h.surface("c", 400, 0, 100, 100, handles: ["began"])
        a.recorder.onCall = { method, _ in if method == "cancelled" { b.removeFromParent() } }
        h.send(.touchDown(TouchID(0), LayoutPoint(x: 10, y: 10)))
        h.send(.touchDown(TouchID(1), LayoutPoint(x: 210, y: 10)))
        h.send(.touchDown(TouchID(2), LayoutPoint(x: 410, y: 10)))
        h.send(.touchFrame)
        h.log.clear()
        h.router.cancelTouches(reason: "test") { _ in true }
        #expect(Set(h.log.entries) == ["a.cancelled", "b.cancelled", "c.cancelled"])
        #expect(h.log.entries.count == 3)
        #expect(h.router.activeTouchCount == 0)
        // Every ID is free again.
        h.down(2, 410, 10)
        #expect(h.router.surface(boundTo: TouchID(2)) === c)
    }

    @Test func aLeaveHandlerThatRefreshesFocusNeverLeavesASurfaceThatWasNotEntered() {
        let h = Harness()
        let a = h.surface("a", 0, 0, 100, 100)
        let b = h.surface("b", 200, 0, 100, 100)
        let c = h.surface("c", 400, 0, 100, 100)
        _ = (b, c)
        h.pointer(to: 50, 50)
        a.recorder.onCall = { method, context in
            if method == "leave" { context.router.refreshPointerFocus() }
        }
        h.log.clear()
        h.pointer(to: 250, 50)
        #expect(h.log.entries.prefix(2) == ["a.leave", "b.enter"])
        #expect(!h.log.entries.contains("b.leave"))
        #expect(h.router.pointerFocus === b)
    }

    @Test func aResignHandlerThatMovesFocusKeepsBecomeAndResignPaired() {
        let h = Harness()
        let a = h.surface("a", 0, 0, 100, 100, canBecomeFirst: true)
        let b = h.surface("b", 200, 0, 100, 100, canBecomeFirst: true)
        let c = h.surface("c", 400, 0, 100, 100, canBecomeFirst: true)
        h.router.becomeFirstResponder(a)
        h.log.clear()
        // a's resign handler moves focus to c while focus goes to b.
        var once = true
        a.responder = ChainedResponder(inner: a.recorder, onResign: ResignHook {
            if once {
                once = false
                h.router.becomeFirstResponder(c)
            }
        })
        #expect(h.router.becomeFirstResponder(b) == false)
        #expect(h.log.entries == ["a.didResign", "c.didBecome"])
        #expect(h.router.firstResponder === c)
    }

    @Test func anOutputRemovedInsideRefineHitTestDoesNotReceiveTheTouch() {
        let h = Harness()
        let second = Output(name: "OUT-2", position: LayoutPoint(x: 0, y: 0), modeSize: Size(width: 500, height: 500))
        h.router.addOutput(second)
        let victim = Surface(name: "victim", frame: SurfaceRect(x: 0, y: 0, width: 500, height: 500),
                             responder: RemovingHitTestResponder(router: h.router, output: second, log: h.log))
        second.root.addChild(victim)
        let under = h.surface("under", 0, 0, 500, 500, handles: ["began"])
        h.down(0, 10, 10)
        #expect(h.router.surface(boundTo: TouchID(0)) === under)
        #expect(!h.log.entries.contains("victim.began"))
    }

    @Test func aKeyCommandWhoseActionDeliversKeysStillSwallowsItsRelease() {
        let h = Harness()
        let editor = h.surface("editor", 0, 0, 100, 100, handles: ["keyDown", "keyUp"], canBecomeFirst: true)
        let macro = MacroResponder(inner: editor.recorder)
        editor.responder = macro
        h.router.becomeFirstResponder(editor)
        h.log.clear()
        h.key(30, .pressed)   // matches the command: its action types keys 31 and 32
        h.key(30, .released)
        #expect(macro.typed == 2)
        // The two typed keys' releases, and not the release of the command's own key.
        #expect(h.log.entries.filter { $0 == "editor.keyUp" }.count == 2)
    }
}

@Suite("Frames stay frames")
struct FrameTests {
    @Test func aTouchIDReusedWithinOneFrameEndsBeforeItBeginsAgain() {
        let h = Harness()
        h.surface("a", 0, 0, 1000, 1000, handles: ["began", "moved", "ended"])
        h.down(0, 10, 10)
        h.log.clear()
        h.send(.touchUp(TouchID(0)))
        h.send(.touchDown(TouchID(0), LayoutPoint(x: 50, y: 50)))
        h.send(.touchFrame)
        #expect(h.log.entries == ["a.ended", "a.began"])
        #expect(h.router.activeTouchCount == 1)
        h.up(0)
        #expect(h.router.activeTouchCount == 0)
    }

    @Test func cancelsOfOneBatchArriveAsOneEventPerSurface() {
        let h = Harness()
        let a = h.surface("a", 0, 0, 500, 500, handles: ["began"])
        h.send(.touchDown(TouchID(0), LayoutPoint(x: 10, y: 10)))
        h.send(.touchDown(TouchID(1), LayoutPoint(x: 20, y: 20)))
        h.send(.touchFrame)
        h.log.clear()
        a.removeFromParent()
        #expect(h.log.entries == ["a.cancelled"])
        #expect(a.recorder.lastTouches.map(\.id) == [TouchID(0), TouchID(1)])
    }
}

@Suite("Focus has a history")
struct FocusHistoryTests {
    @Test func closingAPopupGivesFocusBackToWhatHadItBefore() {
        let h = Harness()
        let editor = h.surface("editor", 0, 0, 400, 400, canBecomeFirst: true)
        let search = h.surface("search", 500, 0, 100, 20, canBecomeFirst: true)
        let popup = h.surface("popup", 600, 600, 100, 100, canBecomeFirst: true)
        h.router.becomeFirstResponder(search)
        h.router.becomeFirstResponder(editor)
        h.router.becomeFirstResponder(popup)
        popup.removeFromParent()
        #expect(h.router.firstResponder === editor)
        editor.removeFromParent()
        #expect(h.router.firstResponder === search)
    }

    @Test func theCompositorsRuleIsAskedBeforeFocusHistory() {
        let h = Harness()
        let editor = h.surface("editor", 0, 0, 400, 400, canBecomeFirst: true)
        let dock = h.surface("dock", 0, 900, 1000, 100, canBecomeFirst: true)
        let popup = h.surface("popup", 600, 600, 100, 100, canBecomeFirst: true)
        var asked: [String] = []
        h.delegate.focusRule = { removed, _ in
            asked.append(removed.name)
            return dock   // this compositor's rule: focus goes to the dock
        }
        h.router.becomeFirstResponder(editor)
        h.router.becomeFirstResponder(popup)
        popup.removeFromParent()
        // History would give the editor back; the compositor was asked first and chose.
        #expect(asked == ["popup"])
        #expect(h.router.firstResponder === dock)
    }

    @Test func aRuleThatFallsBackOnTheDefaultGetsFocusHistoryThenTheNearestAncestor() {
        let h = Harness()
        let window = h.surface("window", 0, 0, 800, 800, canBecomeFirst: true)
        let search = h.surface("search", 900, 0, 100, 20, canBecomeFirst: true)
        let field = h.surface("field", 0, 0, 100, 20, in: window, canBecomeFirst: true)
        let menu = h.surface("menu", 600, 600, 100, 100, canBecomeFirst: true)
        var asked = 0
        h.delegate.focusRule = { removed, formerParent in
            asked += 1
            return h.router.defaultFirstResponder(afterRemoving: removed, formerParent: formerParent)
        }
        h.router.becomeFirstResponder(search)
        h.router.becomeFirstResponder(menu)
        menu.removeFromParent()
        #expect(h.router.firstResponder === search)   // the most recent former first responder
        h.router.becomeFirstResponder(field)
        search.removeFromParent()                      // not the first responder: nothing asked
        field.removeFromParent()
        // Nothing in the history can take focus again: the nearest ancestor that can.
        #expect(h.router.firstResponder === window)
        #expect(asked == 2)
    }

    @Test func pointerFocusFollowsATreeEditBeforeTheNextPointerEvent() {
        let h = Harness()
        let below = h.surface("below", 0, 0, 300, 300, handles: ["button"])
        let above = h.surface("above", 500, 0, 300, 300, handles: ["button"])
        h.pointer(to: 50, 50)
        #expect(h.router.pointerFocus === below)
        above.frame = SurfaceRect(x: 0, y: 0, width: 300, height: 300)
        h.log.clear()
        h.press()
        #expect(h.log.entries == ["below.leave", "above.enter", "above.button"])
    }

    @Test func aWindowMovedUnderAStillPointerHearsTheNewPointBeforeTheNextClick() {
        let h = Harness()
        let window = h.surface("window", 0, 0, 400, 400, handles: ["button", "motion"])
        h.pointer(to: 100, 100)
        window.frame.origin = SurfacePoint(x: 50, y: 20)
        h.log.clear()
        h.press()
        #expect(h.log.entries == ["window.motion", "window.button"])
        #expect(window.recorder.lastMotion?.surfaceLocation == SurfacePoint(x: 50, y: 80))
        #expect(window.recorder.lastMotion?.delta == .zero)
        #expect(window.recorder.lastButton?.surfaceLocation == SurfacePoint(x: 50, y: 80))
    }

    @Test func aKeyTakenByAGlobalShortcutIsNotReportedHeldAndSpiesHearItWasTaken() {
        let h = Harness()
        let spy = RecordingSpy()
        h.router.addSpy(spy)
        h.router.addFilter(KeyShortcut(keycode: 125))
        h.key(125, .pressed)
        h.key(30, .pressed)
        #expect(h.router.pressedKeys == [125, 30])
        #expect(h.router.heldKeysForFocus == [30])
        #expect(spy.consumed.first == true)
        #expect(spy.consumed.count == 2)
    }

    @Test func anAbsoluteEventFromAMappedDeviceIsHitTestedOnItsOutput() {
        let h = Harness()
        let mirror = Output(name: "HDMI-1", modeSize: Size(width: 1000, height: 1000))
        h.router.addOutput(mirror)   // on top of OUT-1 at the same place
        let kiosk = h.surface("kiosk", 0, 0, 1000, 1000, handles: ["began"])
        mirror.root.addChild(Surface(name: "mirrored", frame: SurfaceRect(x: 0, y: 0, width: 1000, height: 1000)))
        h.send(.deviceAdded(DeviceInfo(name: "panel", capabilities: .touch, mappedOutput: "OUT-1")), device: 7)
        h.send(.touchDown(TouchID(0), LayoutPoint(x: 10, y: 10)), device: 7)
        h.send(.touchFrame, device: 7)
        #expect(h.router.surface(boundTo: TouchID(0)) === kiosk)
    }

    @Test func nonFiniteRelativeMotionIsIgnored() {
        let h = Harness()
        h.pointer(to: 100, 100)
        h.send(.pointerMotion(delta: Vector(dx: .nan, dy: 1), unaccelerated: .zero))
        h.send(.pointerMotion(delta: Vector(dx: .infinity, dy: 1), unaccelerated: .zero))
        #expect(h.router.pointerLocation == LayoutPoint(x: 100, y: 100))
        h.send(.pointerMotion(delta: Vector(dx: 1, dy: 1), unaccelerated: .zero))
        #expect(h.router.pointerLocation == LayoutPoint(x: 101, y: 101))
    }
}

// MARK: Helpers

final class ResignHook {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
}

/// Forwards to a recording responder and runs a hook inside `didResignFirstResponder`.
final class ChainedResponder: Responder {
    let inner: RecordingResponder
    let onResign: ResignHook
    init(inner: RecordingResponder, onResign: ResignHook) {
        self.inner = inner
        self.onResign = onResign
    }
    var canBecomeFirstResponder: Bool { true }
    func didBecomeFirstResponder(context: ResponderContext) { inner.didBecomeFirstResponder(context: context) }
    func didResignFirstResponder(context: ResponderContext) {
        inner.didResignFirstResponder(context: context)
        onResign.body()
    }
}

/// Removes an output from inside its own hit-test.
final class RemovingHitTestResponder: Responder {
    weak var router: Router?
    let output: Output
    let log: CallLog
    init(router: Router, output: Output, log: CallLog) {
        self.router = router
        self.output = output
        self.log = log
    }
    func refineHitTest(at point: SurfacePoint, in surface: Surface) -> Bool {
        router?.removeOutput(output)
        return true
    }
    func touchesBegan(_ event: TouchEvent, context: ResponderContext) -> ResponderResult {
        log.add("victim.began")
        return .handled
    }
}

/// A key command whose action types two other keys through the router.
final class MacroResponder: Responder {
    let inner: RecordingResponder
    var typed = 0
    init(inner: RecordingResponder) { self.inner = inner }
    var canBecomeFirstResponder: Bool { true }
    var keyCommands: [KeyCommand] { [KeyCommand(keysym: 0, action: "macro")] }
    func canPerform(_ action: Action) -> Bool { action == "macro" }
    func perform(_ action: Action, context: ResponderContext) {
        for code: UInt32 in [31, 32] {
            context.router.deliverKey(KeyEvent(time: .zero, keycode: code, state: .pressed, keysym: 1))
            context.router.deliverKey(KeyEvent(time: .zero, keycode: code, state: .released, keysym: 1))
            typed += 1
        }
    }
    func keyDown(_ event: KeyEvent, context: ResponderContext) -> ResponderResult { inner.keyDown(event, context: context) }
    func keyUp(_ event: KeyEvent, context: ResponderContext) -> ResponderResult { inner.keyUp(event, context: context) }
}

final class RecordingSpy: InputSpy {
    var consumed: [Bool] = []
    func observe(_ event: InputEvent, consumed: Bool, router: Router) {
        if case .key(_, .pressed) = event.kind { self.consumed.append(consumed) }
    }
}

/// A global shortcut: takes presses of one key.
final class KeyShortcut: InputFilter {
    let keycode: UInt32
    init(keycode: UInt32) { self.keycode = keycode }
    func filterKey(_ event: KeyEvent, router: Router) -> FilterDecision {
        event.keycode == keycode ? .consume : .pass
    }
}

@Suite("Touch frame observers")
struct TouchFrameObserverTests {
    final class Counter: TouchFrameObserver {
        var frames = 0
        var deliveredBefore: [Int] = []
        let log: CallLog
        init(log: CallLog) { self.log = log }
        func routerDidFinishTouchFrame(_ router: Router) {
            frames += 1
            deliveredBefore.append(log.entries.count)
        }
    }

    @Test func anObserverHearsTheEndOfEachFrameAfterItsEventsAndOfHeldTouchesReleasedByATimer() {
        let h = Harness()
        h.surface("a", 0, 0, 500, 500, handles: ["began", "moved", "ended"])
        let counter = Counter(log: h.log)
        h.router.addTouchFrameObserver(counter)
        h.send(.touchDown(TouchID(0), LayoutPoint(x: 10, y: 10)))
        h.send(.touchDown(TouchID(1), LayoutPoint(x: 20, y: 10)))
        #expect(counter.frames == 0)
        h.send(.touchFrame)
        #expect(counter.frames == 1)
        #expect(counter.deliveredBefore == [h.log.entries.count])
        // A long press that holds touches back until its deadline: the release closes a frame.
        let b = h.surface("b", 600, 0, 300, 300, handles: ["began", "ended"])
        let press = LongPressGestureRecognizer()
        press.delaysTouchesBegan = true
        b.addGestureRecognizer(press)
        h.down(2, 650, 50)
        let framesBefore = counter.frames
        h.move(2, 700, 50)       // moves beyond the allowable movement: the press fails, held phases go out
        #expect(h.log.entries.contains("b.began"))
        #expect(counter.frames == framesBefore + 1)
        // A tap that holds its touch back fails when its press lasts too long: the timer
        // releases the held phase, and that release closes a frame of its own.
        let c = h.surface("c", 0, 600, 300, 300, handles: ["began"])
        let tap = TapGestureRecognizer()
        tap.delaysTouchesBegan = true
        c.addGestureRecognizer(tap)
        h.down(3, 50, 650)
        #expect(!h.log.entries.contains("c.began"))
        let beforeTimer = counter.frames
        h.clock.advance(to: .milliseconds(h.time + 2_000))
        #expect(h.log.entries.contains("c.began"))
        #expect(counter.frames == beforeTimer + 1)
        // Held weakly: a seat that goes away stops being told.
        weak var gone: Counter?
        do {
            let temporary = Counter(log: h.log)
            gone = temporary
            h.router.addTouchFrameObserver(temporary)
        }
        #expect(gone == nil)
        h.up(0)
    }
}

@Suite("Cancels after removal")
struct CancelSpaceTests {
    @Test func aCancelAfterRemovalGivesTheTouchInTheSpaceTheSurfaceHad() {
        let h = Harness()
        let window = h.surface("window", 100, 200, 300, 300, handles: ["began"])
        h.down(0, 130, 250)
        window.removeFromParent()
        let cancelled = window.recorder.lastTouches
        #expect(cancelled.count == 1)
        #expect(cancelled.first?.surfaceLocation == SurfacePoint(x: 30, y: 50))
        #expect(cancelled.first?.location == LayoutPoint(x: 130, y: 250))
    }
}

/// A touch and the pointer carry the origin their hit-test found (issue 25): these pin down
/// that what they carry is brought up to date by every edit of the tree or layout, including
/// an edit made by a responder from inside the hit-test itself.
@Suite("Carried surface origins")
struct CarriedOriginTests {
    /// Moves its own surface the first time it is asked whether it accepts a point.
    final class MovingWhenAsked: Responder {
        let log: CallLog
        var move: (() -> Void)?
        var lastTouches: [TouchPoint] = []
        var lastEnter: PointerCrossingEvent?
        var lastMotion: PointerMotionEvent?
        init(log: CallLog) { self.log = log }
        func refineHitTest(at point: SurfacePoint, in surface: Surface) -> Bool {
            move?()
            move = nil
            return true
        }
        func touchesBegan(_ event: TouchEvent, context: ResponderContext) -> ResponderResult {
            lastTouches = event.touches
            return .handled
        }
        func touchesMoved(_ event: TouchEvent, context: ResponderContext) -> ResponderResult {
            lastTouches = event.touches
            return .handled
        }
        func pointerEntered(_ event: PointerCrossingEvent, context: ResponderContext) { lastEnter = event }
        func pointerMoved(_ event: PointerMotionEvent, context: ResponderContext) -> ResponderResult {
            lastMotion = event
            return .handled
        }
    }

    @Test func aSurfaceThatMovesItselfDuringATouchDownsHitTestGetsTheTouchInItsNewSpace() {
        let h = Harness()
        let window = h.surface("window", 100, 100, 400, 400)
        let responder = MovingWhenAsked(log: h.log)
        let button = Surface(name: "button", frame: SurfaceRect(x: 10, y: 10, width: 200, height: 200), responder: responder)
        window.addChild(button)
        responder.move = { window.frame.origin = SurfacePoint(x: 90, y: 95) }
        h.down(0, 150, 150)
        // The hit-test found (40, 40) in the button before the window moved; it is at (50, 45) now.
        #expect(responder.lastTouches.first?.surfaceLocation == SurfacePoint(x: 50, y: 45))
        h.move(0, 160, 150)
        #expect(responder.lastTouches.first?.surfaceLocation == SurfacePoint(x: 60, y: 45))
    }

    @Test func aTouchFollowsItsSurfaceThroughMovesOfTheSurfaceItsParentAndTheOutput() {
        let h = Harness()
        let window = h.surface("window", 100, 100, 400, 400)
        let button = h.surface("button", 10, 10, 200, 200, in: window, handles: ["began", "moved"])
        h.down(0, 150, 150)
        #expect(button.recorder.lastTouches.first?.surfaceLocation == SurfacePoint(x: 40, y: 40))
        window.frame.origin = SurfacePoint(x: 0, y: 0)
        h.move(0, 150, 150)
        #expect(button.recorder.lastTouches.first?.surfaceLocation == SurfacePoint(x: 140, y: 140))
        button.frame.origin = SurfacePoint(x: 20, y: 30)
        h.move(0, 151, 150)
        #expect(button.recorder.lastTouches.first?.surfaceLocation == SurfacePoint(x: 131, y: 120))
        h.output.position = LayoutPoint(x: -100, y: 0)
        h.move(0, 152, 150)
        #expect(button.recorder.lastTouches.first?.surfaceLocation == SurfacePoint(x: 232, y: 120))
        // Moved to another parent (a move, not a removal): the touch goes on in the new space.
        let other = h.surface("other", 300, 300, 100, 100)
        other.addChild(button)
        h.move(0, 153, 150)
        #expect(button.recorder.lastTouches.first?.surfaceLocation == SurfacePoint(x: 153 - (-100 + 300 + 20), y: 150 - (300 + 30)))
    }

    @Test func aSurfaceThatMovesItselfDuringThePointersHitTestIsEnteredAndMovedInItsNewSpace() {
        let h = Harness()
        let window = h.surface("window", 100, 100, 400, 400)
        let responder = MovingWhenAsked(log: h.log)
        let button = Surface(name: "button", frame: SurfaceRect(x: 10, y: 10, width: 200, height: 200), responder: responder)
        window.addChild(button)
        responder.move = { window.frame.origin = SurfacePoint(x: 90, y: 95) }
        h.pointer(to: 150, 150)
        #expect(h.router.pointerFocus === button)
        #expect(responder.lastEnter?.surfaceLocation == SurfacePoint(x: 50, y: 45))
        #expect(responder.lastMotion?.surfaceLocation == SurfacePoint(x: 50, y: 45))
        h.pointer(to: 151, 150)
        #expect(responder.lastMotion?.surfaceLocation == SurfacePoint(x: 51, y: 45))
        // Held button: no hit-test per motion; the point still follows an edit.
        h.press()
        window.frame.origin = SurfacePoint(x: 0, y: 0)
        h.pointer(to: 152, 150)
        #expect(responder.lastMotion?.surfaceLocation == SurfacePoint(x: 142, y: 140))
    }
}
