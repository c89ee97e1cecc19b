import Testing
@testable import SeatKit

/// The pointer's, the keyboard's and the touches' routing state (PointerRouting.swift,
/// KeyboardRouting.swift, TouchRouting.swift):
/// each keeps the invariants its type lists, through the routing that changes it, and its
/// `checkInvariants` reports a state that breaks one.
@Suite("Routing state per device class")
struct RoutingStateInvariantTests {
    private func pointerBroken(_ h: Harness) -> [String] {
        h.router.unchecked.pointer.checkInvariants(layout: h.router.unchecked.layout,
                                                   treeEditCount: h.router.unchecked.treeEditCount)
    }

    private func keyboardBroken(_ h: Harness) -> [String] {
        h.router.unchecked.keyboard.checkInvariants()
    }

    private func touchBroken(_ router: Router) -> [String] {
        router.unchecked.touches.checkInvariants(treeEditCount: router.unchecked.treeEditCount,
                                                 held: router.gestures.unchecked.heldTouches)
    }

    // MARK: Pointer

    @Test func thePointerStateHoldsItsInvariantsThroughMotionPressesAndTheRemovalOfItsFocus() {
        let h = Harness()
        let a = h.surface("a", 0, 0, 100, 100, handles: ["button"])
        h.surface("b", 200, 0, 100, 100, handles: ["button"])
        #expect(pointerBroken(h) == [])
        h.pointer(to: 50, 50)
        #expect(pointerBroken(h) == [])
        h.press(0x110)
        h.press(0x111)
        h.pointer(to: 250, 50)   // a keeps the implicit grab
        #expect(pointerBroken(h) == [])
        #expect(h.router.unchecked.pointer.buttonsSeenByFocus == [0x110, 0x111])
        a.removeFromParent()
        // The implicit grab ended with its surface: both releases are swallowed, focus moved on.
        #expect(h.router.heldButtons.isEmpty)
        #expect(h.router.unchecked.pointer.consumedButtons == [0x110, 0x111])
        #expect(h.router.pointerFocus?.name == "b")
        #expect(pointerBroken(h) == [])
        h.release(0x111)
        h.release(0x110)
        #expect(h.router.unchecked.pointer.consumedButtons.isEmpty)
        #expect(pointerBroken(h) == [])
    }

    @Test func aButtonPressedTwiceIsHeldOnceAndOneReleaseLetsItGo() {
        let h = Harness()
        h.surface("a", 0, 0, 100, 100, handles: ["button"])
        h.pointer(to: 50, 50)
        h.press(0x110)
        h.press(0x110)
        #expect(h.router.heldButtons == [0x110])
        #expect(pointerBroken(h) == [])
        h.release(0x110)
        #expect(h.router.heldButtons.isEmpty)
        #expect(!h.router.isPointerGrabbed)
    }

    @Test func theCarriedPointInTheFocusMatchesAWalkUpTheTreeAndAnEditStopsItBeingUsed() {
        let h = Harness()
        let window = h.surface("window", 100, 100, 400, 400)
        let child = h.surface("child", 50, 50, 100, 100, in: window)
        h.pointer(to: 170, 180)
        #expect(h.router.pointerFocus === child)
        let edit = h.router.unchecked.treeEditCount
        let carried = h.router.unchecked.pointer.carriedLocation(in: child, treeEditCount: edit)
        #expect(carried == SurfacePoint(x: 20, y: 30))
        #expect(carried == child.convert(h.router.pointerLocation))
        #expect(h.router.unchecked.pointer.carriedLocation(in: window, treeEditCount: edit) == nil)
        window.frame = SurfaceRect(x: 110, y: 100, width: 400, height: 400)
        let afterEdit = h.router.unchecked.treeEditCount
        #expect(afterEdit != edit)
        #expect(h.router.unchecked.pointer.carriedLocation(in: child, treeEditCount: afterEdit) == nil)
        // The walk up the tree finds the moved point; the next hit-test carries it again.
        #expect(h.router.pointerLocation(in: child) == SurfacePoint(x: 10, y: 30))
        h.pointer(to: 171, 180)
        #expect(h.router.unchecked.pointer.carriedLocation(in: child, treeEditCount: h.router.unchecked.treeEditCount)
                == SurfacePoint(x: 11, y: 30))
        #expect(pointerBroken(h) == [])
    }

    @Test func swallowingEveryHeldReleaseLetsGoOfEachButtonAndSwallowsItOnce() {
        var pointer = PointerRouting()
        pointer.hold(0x110)
        pointer.hold(0x111)
        pointer.hold(0x110)
        #expect(pointer.pressedButtons == [0x110, 0x111])
        pointer.swallowRelease(of: 0x111)
        pointer.swallowEveryHeldRelease()
        #expect(pointer.pressedButtons.isEmpty)
        #expect(!pointer.isImplicitlyGrabbed)
        #expect(pointer.consumedButtons == [0x111, 0x110])
    }

    @Test func thePointerChecksReportAFocusOffTheLayoutAPointOffItAndAButtonHeldTwice() {
        let h = Harness()
        let detached = Surface(name: "detached", frame: SurfaceRect(x: 0, y: 0, width: 10, height: 10),
                               responder: RecordingResponder("detached", log: h.log))
        var pointer = PointerRouting()
        pointer.focus = detached
        pointer.location = LayoutPoint(x: 5000, y: 5000)
        pointer.pressedButtons = [0x110, 0x110]
        pointer.checkedAtEdit = h.router.unchecked.treeEditCount + 1
        let broken = pointer.checkInvariants(layout: h.router.unchecked.layout, treeEditCount: h.router.unchecked.treeEditCount)
        #expect(broken.contains { $0.hasPrefix("1.") })
        #expect(broken.contains { $0.hasPrefix("2.") })
        #expect(broken.contains { $0.hasPrefix("3.") })
        #expect(broken.contains { $0.hasPrefix("5.") })
    }

    @Test func thePointerChecksReportACarriedPointThatDisagreesWithTheTree() {
        let h = Harness()
        let a = h.surface("a", 100, 100, 100, 100)
        h.pointer(to: 150, 150)
        #expect(pointerBroken(h) == [])
        var pointer = h.router.unchecked.pointer
        pointer.hitOrigin = LayoutPoint(x: 90, y: 100)   // as if the hit had been made elsewhere
        #expect(pointer.focus === a)
        let broken = pointer.checkInvariants(layout: h.router.unchecked.layout, treeEditCount: h.router.unchecked.treeEditCount)
        #expect(broken.contains { $0.hasPrefix("4.") })
    }

    // MARK: Keyboard

    @Test func theKeyboardStateIsAtRestBetweenKeysThroughFiltersGrabsAndFocusChanges() {
        let h = Harness()
        let a = h.surface("a", 0, 0, 100, 100, handles: ["keyDown", "keyUp"], canBecomeFirst: true)
        let b = h.surface("b", 200, 0, 100, 100, handles: ["keyDown", "keyUp"], canBecomeFirst: true)
        h.router.becomeFirstResponder(a)
        h.router.addFilter(ClosureFilter { event in
            if case .key(30, _) = event.kind { return .consume }
            return .pass
        })
        h.key(30, .pressed)          // taken by the filter
        h.key(31, .pressed)          // to a
        #expect(keyboardBroken(h) == [])
        #expect(h.router.unchecked.keyboard.heldKeys.map(\.press) == [.taken, .focus(depth: 0)])
        h.router.startKeyboardGrab(SoakKeyboardGrab(forwards: false), focus: .clear)
        h.key(32, .pressed)          // the grab's
        #expect(keyboardBroken(h) == [])
        #expect(h.router.unchecked.keyboard.grabFocus == .clear)
        h.router.endKeyboardGrab()
        #expect(h.router.unchecked.keyboard.grabFocus == .keep)
        #expect(h.router.firstResponder === a)
        h.router.becomeFirstResponder(b)
        for key: UInt32 in [30, 31, 32] { h.key(key, .released) }
        #expect(h.router.unchecked.keyboard.heldKeys.isEmpty)
        #expect(keyboardBroken(h) == [])
        b.removeFromParent()
        #expect(keyboardBroken(h) == [])
        #expect(h.router.firstResponder === a)
    }

    @Test func aKeyPressedTwiceHasOneRecordAndOneReleaseEndsIt() {
        let h = Harness()
        let a = h.surface("a", 0, 0, 100, 100, handles: ["keyDown", "keyUp"], canBecomeFirst: true)
        h.router.becomeFirstResponder(a)
        h.key(30, .pressed)
        h.key(30, .pressed)
        #expect(h.router.unchecked.keyboard.heldKeys.count == 1)
        #expect(h.router.pressedKeys == [30])
        #expect(h.router.heldKeysForFocus == [30])
        #expect(keyboardBroken(h) == [])
        h.key(30, .released)
        #expect(h.router.pressedKeys.isEmpty)
        #expect(keyboardBroken(h) == [])
    }

    @Test func theFocusHistoryKeepsTheLast32FormerFirstRespondersEachOnce() {
        let h = Harness()
        let surfaces = (0..<40).map { h.surface("s\($0)", Double($0) * 10, 0, 10, 10, canBecomeFirst: true) }
        var keyboard = KeyboardRouting()
        for s in surfaces { keyboard.remember(s) }
        keyboard.remember(surfaces[20])
        #expect(keyboard.history.count == 32)
        #expect(keyboard.history.last?.surface === surfaces[20])
        #expect(keyboard.history.filter { $0.surface === surfaces[20] }.count == 1)
        #expect(keyboard.history.first?.surface === surfaces[8])
        #expect(keyboard.checkInvariants() == [])
    }

    @Test func theKeyboardChecksReportARecordLeftRoutingAHiddenKeyNotTakenAndAWalkNotAtRest() {
        var keyboard = KeyboardRouting()
        keyboard.heldKeys = [HeldKey(keycode: 30, press: .routing),
                             HeldKey(keycode: 31, press: .focus(depth: 0), hiddenFromInterpreter: true),
                             HeldKey(keycode: 31, press: .grabbed)]
        keyboard.chainAsked = 2
        keyboard.grabFocus = .clear
        let broken = keyboard.checkInvariants()
        #expect(broken.contains { $0.hasPrefix("1.") && $0.contains("30") })
        #expect(broken.contains { $0.hasPrefix("1.") && $0.contains("two held records") })
        #expect(broken.contains { $0.hasPrefix("2.") })
        #expect(broken.contains { $0.hasPrefix("4.") })
        #expect(broken.contains { $0.hasPrefix("5.") })
    }

    @Test func theKeyboardChecksReportAFirstResponderOffTheLayout() {
        let h = Harness()
        let a = h.surface("a", 0, 0, 100, 100, canBecomeFirst: true)
        h.router.becomeFirstResponder(a)
        var keyboard = h.router.unchecked.keyboard
        #expect(keyboard.checkInvariants() == [])
        let detached = Surface(name: "detached", frame: SurfaceRect(x: 0, y: 0, width: 10, height: 10),
                               responder: RecordingResponder("detached", log: h.log, canBecomeFirst: true))
        keyboard.firstResponder = detached
        #expect(keyboard.checkInvariants().contains { $0.hasPrefix("3.") })
    }

    // MARK: Touches

    @Test func theTouchStateHoldsItsInvariantsThroughDownsMovesAnEditUnderAFingerAndARemoval() {
        let h = Harness()
        let window = h.surface("window", 100, 100, 400, 400, handles: ["began", "moved", "ended"])
        let child = h.surface("child", 50, 50, 100, 100, in: window, handles: ["began", "moved", "ended"])
        let other = h.surface("other", 600, 100, 100, 100, handles: ["began", "moved", "ended"])
        #expect(touchBroken(h.router) == [])
        h.down(1, 160, 160)   // on child, two levels down
        h.down(2, 650, 150)   // on other
        #expect(h.router.activeTouchCount == 2)
        #expect(touchBroken(h.router) == [])
        // A down whose frame has not come yet: its began is pending between events.
        h.send(.touchDown(TouchID(3), LayoutPoint(x: 120, y: 120)))
        #expect(touchBroken(h.router) == [])
        h.send(.touchFrame)
        // The window moves under the still fingers: the carried origins are stale until the
        // next frame brings them up to date, and then match a walk up the tree.
        window.frame = SurfaceRect(x: 130, y: 90, width: 400, height: 400)
        #expect(touchBroken(h.router) == [])
        h.move(1, 170, 170)
        #expect(h.router.unchecked.touches.originsAtEdit == h.router.unchecked.treeEditCount)
        #expect(h.router.unchecked.touches.records.first { $0.unchecked.surface === child }?.unchecked.surfaceOrigin
                == LayoutPoint(x: 180, y: 140))
        #expect(touchBroken(h.router) == [])
        // A touched surface leaves: its touch is cancelled and its record goes to the pool.
        other.removeFromParent()
        #expect(h.router.activeTouchCount == 2)
        #expect(touchBroken(h.router) == [])
        h.up(1)
        h.up(3)
        #expect(h.router.unchecked.touches.records.isEmpty)
        #expect(touchBroken(h.router) == [])
    }

    @Test func theTouchStateHoldsItsInvariantsWhenAnIDIsLiftedAndPutDownAgainInOneFrame() {
        let h = Harness()
        h.surface("a", 0, 0, 500, 500, handles: ["began", "moved", "ended"])
        h.down(1, 10, 10)
        h.send(.touchUp(TouchID(1)))
        h.send(.touchDown(TouchID(1), LayoutPoint(x: 200, y: 200)))
        // Between the events of the frame: the old record ends before the reuse.
        #expect(h.router.unchecked.touches.records.filter { $0.unchecked.endsBeforeReuse }.count == 1)
        #expect(touchBroken(h.router) == [])
        h.send(.touchFrame)
        #expect(h.router.unchecked.touches.records.count == 1)
        #expect(touchBroken(h.router) == [])
    }

    @Test func theTouchChecksReportTwoRecordsDownForOneIDAFinishedRecordAFollowedFingerNoFilterHoldsAndAFrameUnderWay() {
        var touches = TouchRouting()
        let first = TouchSequence(), second = TouchSequence(), finished = TouchSequence(), pooled = TouchSequence()
        for (record, id) in [(first, 1), (second, 1), (finished, 2)] as [(TouchSequence, Int32)] {
            record.reset(id: TouchID(id), device: DeviceID(1), origin: .zero,
                         at: LayoutPoint(x: 10, y: 10), time: .zero)
        }
        finished.unchecked.finished = true
        pooled.unchecked.seen = [.delegate]
        touches.records = [first, second, finished]
        touches.pool = [pooled]
        touches.takenByFilters = [TouchID(1), TouchID(4), TouchID(4)]
        // A finger that ended (7) but is still followed, beside one a filter holds (4).
        let filter = FilterList.address(of: TouchAccommodations())
        touches.followedFingers = [TouchID(7), TouchID(4)].map {
            FollowedFinger(finger: $0, touch: TouchID(100), device: DeviceID(1), filter: filter)
        }
        touches.loops = 1
        touches.pass = .phases
        touches.deferredFrame = .milliseconds(5)
        let broken = touches.checkInvariants(treeEditCount: 0, held: [])
        #expect(broken.contains { $0.hasPrefix("1.") && $0.contains("two records down") })
        #expect(broken.contains { $0.hasPrefix("1.") && $0.contains("finished") })
        #expect(broken.contains { $0.hasPrefix("1.") && $0.contains("pooled record") })
        #expect(broken.contains { $0.hasPrefix("1.") && $0.contains("down in a record and taken by a filter") })
        #expect(broken.contains { $0.hasPrefix("1.") && $0.contains("listed twice as taken") })
        #expect(broken.filter { $0.hasPrefix("1.") && $0.contains("is followed but no filter holds") }
                == ["1. finger t7 is followed but no filter holds its touch"])
        #expect(broken.contains { $0.hasPrefix("2.") })
        #expect(broken.contains { $0.hasPrefix("3.") && $0.contains("under way") })
        #expect(broken.contains { $0.hasPrefix("3.") && $0.contains("waits") })
    }

    @Test func theTouchChecksReportACarriedOriginOffTheTreeAFollowerOffTheLayoutAndMiscountedHeldPhases() {
        let h = Harness()
        let window = h.surface("window", 100, 100, 400, 400, handles: ["began", "moved", "ended"])
        h.surface("child", 50, 50, 100, 100, in: window, handles: ["began", "moved", "ended"])
        h.down(1, 160, 160)
        #expect(touchBroken(h.router) == [])
        let record = h.router.unchecked.touches.records[0]
        record.unchecked.surfaceOrigin = LayoutPoint(x: 140, y: 150)   // as if carried from elsewhere
        let detached = Surface(name: "detached", frame: SurfaceRect(x: 0, y: 0, width: 10, height: 10),
                               responder: RecordingResponder("detached", log: h.log))
        record.unchecked.seen.append(.surface(detached))
        record.unchecked.seen.append(.delegate)
        record.unchecked.seen.append(.delegate)
        record.unchecked.endedPending = true   // an end pending with the finger still down
        record.unchecked.heldCount = 1         // no recognizer holds a phase of it
        let broken = touchBroken(h.router)
        #expect(broken.contains { $0.hasPrefix("4.") && $0.contains("a walk up the tree finds") })
        #expect(broken.contains { $0.hasPrefix("5.") && $0.contains("detached") })
        #expect(broken.contains { $0.hasPrefix("5.") && $0.contains("twice as a follower") })
        #expect(broken.contains { $0.hasPrefix("5.") && $0.contains("not up") })
        #expect(broken.contains { $0.hasPrefix("5.") && $0.contains("held phases") })
    }

    /// The fault-script soak runs the touches' checks after every step: a record broken
    /// between two steps is reported as `k.touch-state`.
    @Test func theFaultScriptSoakReportsATouchRecordThatBreaksItsInvariants() {
        let script: [FaultScript.Step] = [
            .addOutput(0, x: 0, y: 0, w: 800, h: 600, rootFocusable: false),
            .add(1, to: .root(0), at: 0, frame: R(100, 100, 300, 300), focusable: false),
            .add(2, to: .surface(1), at: 0, frame: R(10, 10, 100, 100), focusable: false),
            .touch([.down(0, 150, 150)]),
        ]
        let world = FaultScriptWorld()
        #expect(world.run(script) == nil)
        world.checkRoutingStateInvariants()
        #expect(world.violation == nil)
        world.router.unchecked.touches.records[0].unchecked.surfaceOrigin = LayoutPoint(x: 0, y: 0)
        world.checkRoutingStateInvariants()
        #expect(world.violation?.invariant == "k.touch-state")
        #expect(world.violation?.message.hasPrefix("4.") == true)
    }
}
