import SeatKit
import Testing

/// Slow keys, bounce keys and touch accommodations on a real router, timed on a virtual clock.
@Suite struct AccessibilityFilterTests {
    private final class World {
        let clock = VirtualClock()
        let router: Router
        let log = CallLog()
        let app: RecordingResponder
        let appSurface: Surface

        init() {
            router = Router(clock: clock)
            let output = Output(name: "out", modeSize: Size(width: 800, height: 600))
            router.addOutput(output)
            app = RecordingResponder("app", log: log, handles: ["began", "moved", "ended", "keyDown", "keyUp"], canBecomeFirst: true)
            appSurface = Surface(name: "app", frame: SurfaceRect(x: 0, y: 0, width: 800, height: 600), responder: app)
            output.root.addChild(appSurface)
            router.becomeFirstResponder(appSurface)
            log.clear()
        }

        func key(_ code: UInt32, _ state: KeyState, at ms: Int64) {
            clock.advance(to: .milliseconds(ms))
            router.inject(InputEvent(time: .milliseconds(ms), device: DeviceID(1), .key(keycode: code, state: state)))
        }

        func touch(_ kind: InputEvent.Kind, at ms: Int64) {
            clock.advance(to: .milliseconds(ms))
            router.inject(InputEvent(time: .milliseconds(ms), device: DeviceID(2), kind))
            router.inject(InputEvent(time: .milliseconds(ms), device: DeviceID(2), .touchFrame))
        }
    }

    // MARK: Slow keys

    @Test func aSlowKeyCountsOnlyOnceHeldForTheDelayAndThenAtThatTime() {
        let world = World()
        world.router.addFilter(SlowKeys(delay: .milliseconds(300)))
        world.key(30, .pressed, at: 0)
        world.clock.advance(to: .milliseconds(299))
        #expect(world.log.entries.isEmpty)
        world.clock.advance(to: .milliseconds(300))
        #expect(world.log.entries == ["app.keyDown"])
        #expect(world.app.lastKey?.time == .milliseconds(300))
        world.key(30, .released, at: 400)
        #expect(world.log.entries == ["app.keyDown", "app.keyUp"])
    }

    /// The filters keep their router through its handle, not a weak reference: the router
    /// is not kept alive by them, and a timer that fires after it went does nothing.
    @Test func aFilterDoesNotKeepItsRouterAliveAndItsTimerDoesNothingOnceTheRouterIsGone() {
        let clock = VirtualClock()
        var outcomes: [SlowKeys.Outcome] = []
        let slow = SlowKeys(delay: .milliseconds(300))
        slow.onKey = { _, outcome in outcomes.append(outcome) }
        var router: Router? = Router(clock: clock)
        weak var gone = router
        router?.addFilter(slow)
        router?.inject(InputEvent(time: .milliseconds(0), device: DeviceID(1), .key(keycode: 30, state: .pressed)))
        router = nil
        #expect(gone == nil)
        let heardBefore = outcomes.count
        clock.advance(to: .milliseconds(300))
        #expect(outcomes.count == heardBefore)
    }

    @Test func aSlowKeyReleasedBeforeTheDelayIsDroppedPressAndRelease() {
        let world = World()
        var outcomes: [SlowKeys.Outcome] = []
        let slow = SlowKeys(delay: .milliseconds(300))
        slow.onKey = { _, outcome in outcomes.append(outcome) }
        world.router.addFilter(slow)
        world.key(30, .pressed, at: 0)
        world.key(30, .released, at: 200)
        world.clock.advance(to: .milliseconds(1000))
        #expect(world.log.entries.isEmpty)
        #expect(outcomes == [.pressed, .rejected])
        #expect(world.router.pressedKeys.isEmpty)
    }

    @Test func aSlowKeyPressedAgainAfterAShortPressWaitsTheWholeDelayFromItsOwnPress() {
        let world = World()
        var outcomes: [SlowKeys.Outcome] = []
        let slow = SlowKeys(delay: .milliseconds(300))
        slow.onKey = { _, outcome in outcomes.append(outcome) }
        world.router.addFilter(slow)
        world.key(30, .pressed, at: 0)
        world.key(30, .released, at: 100)
        world.key(30, .pressed, at: 200)
        world.clock.advance(to: .milliseconds(499))
        #expect(world.log.entries.isEmpty, "the first press's deadline does not accept the second")
        world.clock.advance(to: .milliseconds(500))
        #expect(world.log.entries == ["app.keyDown"])
        #expect(outcomes == [.pressed, .rejected, .pressed, .accepted])
    }

    /// With no ``SlowKeys/onKey`` to tell, a press of a key still waiting takes the stale
    /// press's place when that one was the last to wait, and goes last otherwise (as with a
    /// listener): either way it waits its whole delay from its own press, and keys are
    /// accepted in the order of their deadlines.
    @Test func aSlowKeyPressedAgainWithNoListenerWaitsFromItsOwnPressInTheOrderOfDeadlines() {
        let world = World()
        let slow = SlowKeys(delay: .milliseconds(300))
        world.router.addFilter(slow)
        world.key(30, .pressed, at: 0)
        world.key(30, .released, at: 100)
        world.key(30, .pressed, at: 200)  // the last waiting: replaced in place
        world.key(31, .pressed, at: 250)
        world.key(30, .released, at: 260)
        world.key(30, .pressed, at: 270)  // not the last: goes after 31
        world.clock.advance(to: .milliseconds(549))
        #expect(world.log.entries.isEmpty, "no earlier press's deadline accepts the last one")
        world.clock.advance(to: .milliseconds(550))
        #expect(world.app.lastKey?.keycode == 31 && world.app.lastKey?.time == .milliseconds(550))
        world.clock.advance(to: .milliseconds(570))
        #expect(world.app.lastKey?.keycode == 30 && world.app.lastKey?.time == .milliseconds(570))
        #expect(world.log.entries == ["app.keyDown", "app.keyDown"])
        #expect(world.clock.pendingTimerCount == 0)
    }

    /// Keys waiting together share one timer, set for the earliest deadline and set again
    /// for the next when it fires: each key is accepted at its own deadline, in order, and a
    /// press of a key still waiting schedules nothing.
    @Test func slowKeysWaitingTogetherShareOneTimerAndEachCountsAtItsOwnDeadline() {
        let world = World()
        var outcomes: [String] = []
        let slow = SlowKeys(delay: .milliseconds(300))
        slow.onKey = { code, outcome in outcomes.append("\(code) \(outcome)") }
        world.router.addFilter(slow)
        world.key(30, .pressed, at: 0)
        world.key(31, .pressed, at: 100)
        #expect(world.clock.pendingTimerCount == 1)
        world.key(31, .released, at: 150)
        world.key(31, .pressed, at: 200)
        #expect(world.clock.pendingTimerCount == 1, "a press of a key still waiting schedules nothing")
        world.clock.advance(to: .milliseconds(300))
        #expect(world.app.lastKey?.keycode == 30 && world.app.lastKey?.time == .milliseconds(300))
        #expect(world.clock.pendingTimerCount == 1, "set again for the next deadline")
        world.clock.advance(to: .milliseconds(499))
        #expect(world.log.entries == ["app.keyDown"])
        world.clock.advance(to: .milliseconds(500))
        #expect(world.log.entries == ["app.keyDown", "app.keyDown"])
        #expect(world.app.lastKey?.keycode == 31 && world.app.lastKey?.time == .milliseconds(500))
        #expect(world.clock.pendingTimerCount == 0)
        #expect(outcomes == ["30 pressed", "31 pressed", "31 rejected", "31 pressed", "30 accepted", "31 accepted"])
    }

    @Test func turningSlowKeysOffDropsTheWaitingPressAndItsReleaseIsSwallowed() {
        let world = World()
        let slow = SlowKeys(delay: .milliseconds(300))
        world.router.addFilter(slow)
        world.key(30, .pressed, at: 0)
        slow.isEnabled = false
        world.clock.advance(to: .milliseconds(500))
        world.key(30, .released, at: 600)
        #expect(world.log.entries.isEmpty, "the client never saw the press, so it hears no release")
        world.key(30, .pressed, at: 700)
        #expect(world.log.entries == ["app.keyDown"], "off: keys pass at once")
    }

    @Test func turningSlowKeysOnMidPressDoesNotSwallowTheRelease() {
        let world = World()
        let slow = SlowKeys(delay: .milliseconds(300), isEnabled: false)
        world.router.addFilter(slow)
        world.key(30, .pressed, at: 0)
        slow.isEnabled = true
        world.key(30, .released, at: 50)
        #expect(world.log.entries == ["app.keyDown", "app.keyUp"])
    }

    @Test func anAcceptedSlowKeyGoesToTheKeyboardGrab() {
        let world = World()
        final class Grab: KeyboardGrab {
            var keys: [KeyState] = []
            func key(_ event: KeyEvent, router: Router) { keys.append(event.state) }
        }
        let grab = Grab()
        world.router.addFilter(SlowKeys(delay: .milliseconds(300)))
        world.router.startKeyboardGrab(grab, focus: .keep)
        world.key(30, .pressed, at: 0)
        world.clock.advance(to: .milliseconds(300))
        world.key(30, .released, at: 400)
        #expect(grab.keys == [.pressed, .released])
        #expect(world.log.entries.isEmpty)
    }

    // MARK: Bounce keys

    @Test func aBouncedPressWithinTheDelayOfItsReleaseIsIgnoredWithItsRelease() {
        let world = World()
        var bounces: [UInt32] = []
        let bounce = BounceKeys(delay: .milliseconds(300))
        bounce.onBounce = { bounces.append($0) }
        world.router.addFilter(bounce)
        world.key(30, .pressed, at: 0)
        world.key(30, .released, at: 50)
        world.key(30, .pressed, at: 100)     // a bounce
        world.key(30, .released, at: 120)
        world.key(48, .pressed, at: 150)     // another key: counts
        world.key(48, .released, at: 160)
        world.key(30, .pressed, at: 400)     // 350 ms after its last counted release
        #expect(bounces == [30])
        #expect(world.log.entries == ["app.keyDown", "app.keyUp", "app.keyDown", "app.keyUp", "app.keyDown"])
    }

    @Test func bounceKeysOffPassesEveryPressAndOnMidPressKeepsTheRelease() {
        let world = World()
        let bounce = BounceKeys(delay: .milliseconds(300), isEnabled: false)
        world.router.addFilter(bounce)
        world.key(30, .pressed, at: 0)
        world.key(30, .released, at: 10)
        world.key(30, .pressed, at: 20)
        bounce.isEnabled = true
        world.key(30, .released, at: 30)
        #expect(world.log.entries == ["app.keyDown", "app.keyUp", "app.keyDown", "app.keyUp"])
    }

    // MARK: Touch accommodations

    @Test func aTouchCountsOnlyAfterTheHoldDurationWhereTheFingerIsThen() {
        let world = World()
        world.router.addFilter(TouchAccommodations(holdDuration: .milliseconds(500)))
        world.touch(.touchDown(TouchID(0), LayoutPoint(x: 100, y: 100)), at: 0)
        world.touch(.touchMotion(TouchID(0), LayoutPoint(x: 110, y: 100)), at: 200)
        world.clock.advance(to: .milliseconds(499))
        #expect(world.log.entries.isEmpty)
        world.clock.advance(to: .milliseconds(500))
        #expect(world.log.entries == ["app.began"])
        #expect(world.app.lastTouches.first?.location == LayoutPoint(x: 110, y: 100))
        world.touch(.touchMotion(TouchID(0), LayoutPoint(x: 120, y: 100)), at: 600)
        world.touch(.touchUp(TouchID(0)), at: 700)
        #expect(world.log.entries == ["app.began", "app.moved", "app.ended"])
    }

    @Test func aTouchLiftedBeforeTheHoldDurationNeverReachesApps() {
        let world = World()
        var outcomes: [TouchAccommodations.HoldOutcome] = []
        let filter = TouchAccommodations(holdDuration: .milliseconds(500))
        filter.onHold = { _, _, outcome in outcomes.append(outcome) }
        world.router.addFilter(filter)
        world.touch(.touchDown(TouchID(0), LayoutPoint(x: 100, y: 100)), at: 0)
        world.touch(.touchUp(TouchID(0)), at: 300)
        world.clock.advance(to: .milliseconds(2000))
        #expect(world.log.entries.isEmpty)
        #expect(outcomes == [.began, .rejected])
    }

    @Test func touchesWithinTheRepeatWindowAfterACountedTouchCountAsIt() {
        let world = World()
        world.router.addFilter(TouchAccommodations(holdDuration: nil, ignoreRepeat: .milliseconds(1000)))
        world.touch(.touchDown(TouchID(0), LayoutPoint(x: 100, y: 100)), at: 0)
        world.touch(.touchUp(TouchID(0)), at: 100)
        world.touch(.touchDown(TouchID(1), LayoutPoint(x: 100, y: 100)), at: 300)    // a repeat
        world.touch(.touchUp(TouchID(1)), at: 400)
        world.touch(.touchDown(TouchID(2), LayoutPoint(x: 100, y: 100)), at: 1100)   // after the window
        #expect(world.log.entries == ["app.began", "app.ended", "app.began"])
    }

    @Test func turningTouchAccommodationsOffCancelsTheCountedTouchAndTheFingerStaysTaken() {
        let world = World()
        let filter = TouchAccommodations(holdDuration: .milliseconds(100))
        world.router.addFilter(filter)
        world.touch(.touchDown(TouchID(0), LayoutPoint(x: 100, y: 100)), at: 0)
        world.clock.advance(to: .milliseconds(100))
        #expect(world.log.entries == ["app.began"])
        filter.isEnabled = false
        #expect(world.log.entries == ["app.began", "app.cancelled"])
        world.touch(.touchMotion(TouchID(0), LayoutPoint(x: 120, y: 100)), at: 200)
        world.touch(.touchUp(TouchID(0)), at: 300)
        #expect(world.log.entries == ["app.began", "app.cancelled"])
        world.touch(.touchDown(TouchID(1), LayoutPoint(x: 100, y: 100)), at: 400)
        #expect(world.log.entries == ["app.began", "app.cancelled", "app.began"], "off: touches pass at once")
    }

    /// Notes the touch events it is asked about; consumes the counted touch's motion from
    /// `takeFrom` on (a filter taking a touch mid-way, as a lock screen engaging).
    private final class TouchNotes: InputFilter {
        var seen: [String] = []
        var takeMotion = false
        func filter(_ event: InputEvent, router: Router) -> FilterDecision {
            switch event.kind {
            case .touchDown(let id, _): seen.append("down \(id.rawValue)")
            case .touchMotion(let id, _):
                seen.append("motion \(id.rawValue)")
                if takeMotion { return .consume }
            case .touchUp(let id): seen.append("up \(id.rawValue)")
            case .touchCancel(let id): seen.append("cancel \(id.rawValue)")
            default: break
            }
            return .pass
        }
    }

    /// The counted touch starts at touch accommodations' place among the filters: the
    /// filters before it see the real finger only, those after it the counted touch only (it
    /// is routed from there, not injected in front of every filter again), and one after it
    /// may take the counted touch mid-way as any touch.
    @Test func filtersBeforeTouchAccommodationsSeeTheFingerAndFiltersAfterItSeeTheCountedTouch() {
        let world = World()
        let before = TouchNotes(), after = TouchNotes()
        world.router.addFilter(before)
        world.router.addFilter(TouchAccommodations(holdDuration: .milliseconds(100)))
        world.router.addFilter(after)
        let counted = TouchAccommodations.countedID(for: TouchID(0)).rawValue
        world.touch(.touchDown(TouchID(0), LayoutPoint(x: 100, y: 100)), at: 0)
        world.clock.advance(to: .milliseconds(100))
        world.touch(.touchMotion(TouchID(0), LayoutPoint(x: 120, y: 100)), at: 150)
        world.touch(.touchUp(TouchID(0)), at: 200)
        #expect(before.seen == ["down 0", "motion 0", "up 0"])
        #expect(after.seen == ["down \(counted)", "motion \(counted)", "up \(counted)"])
        #expect(world.log.entries == ["app.began", "app.moved", "app.ended"])

        // A filter after it takes the counted touch mid-way: apps hear it cancelled, and the
        // rest of it is that filter's.
        world.log.clear()
        after.seen = []
        world.touch(.touchDown(TouchID(1), LayoutPoint(x: 100, y: 100)), at: 300)
        world.clock.advance(to: .milliseconds(400))
        after.takeMotion = true
        world.touch(.touchMotion(TouchID(1), LayoutPoint(x: 130, y: 100)), at: 450)
        world.touch(.touchMotion(TouchID(1), LayoutPoint(x: 140, y: 100)), at: 460)
        world.touch(.touchUp(TouchID(1)), at: 500)
        let counted1 = TouchAccommodations.countedID(for: TouchID(1)).rawValue
        #expect(world.log.entries == ["app.began", "app.cancelled"])
        #expect(after.seen == ["down \(counted1)", "motion \(counted1)", "motion \(counted1)", "up \(counted1)"])
        #expect(before.seen.suffix(4) == ["down 1", "motion 1", "motion 1", "up 1"])
        #expect(world.router.activeTouchCount == 0)
    }

    private final class MotionSpy: InputSpy {
        var heard: [String] = []
        func observe(_ event: InputEvent, consumed: Bool, router: Router) {
            if case .touchMotion(let id, _) = event.kind { heard.append("\(id.rawValue) \(consumed ? "taken" : "passed")") }
        }
    }

    /// The router routes a counted finger's motion itself, without asking touch
    /// accommodations, only while the filter is among the router's: spies hear the finger's
    /// motion taken and the counted touch's passed, as when the filter answered each motion;
    /// once the filter is removed, the finger's motion is still taken and nothing moves.
    @Test func aCountedFingersMotionIsRoutedOnlyWhileTouchAccommodationsIsAmongTheFilters() {
        let world = World()
        let spy = MotionSpy()
        world.router.addSpy(spy)
        let filter = TouchAccommodations(holdDuration: .milliseconds(100))
        world.router.addFilter(filter)
        let counted = TouchAccommodations.countedID(for: TouchID(0)).rawValue
        world.touch(.touchDown(TouchID(0), LayoutPoint(x: 100, y: 100)), at: 0)
        world.clock.advance(to: .milliseconds(100))
        world.touch(.touchMotion(TouchID(0), LayoutPoint(x: 120, y: 100)), at: 150)
        #expect(world.log.entries == ["app.began", "app.moved"])
        #expect(world.app.lastTouches.first?.location == LayoutPoint(x: 120, y: 100))
        #expect(spy.heard == ["\(counted) passed", "0 taken"])
        world.router.removeFilter(filter)
        world.touch(.touchMotion(TouchID(0), LayoutPoint(x: 140, y: 100)), at: 200)
        #expect(world.log.entries == ["app.began", "app.moved"], "removed: the finger stays taken, nothing is routed for it")
        #expect(spy.heard == ["\(counted) passed", "0 taken", "0 taken"])
    }

    @Test func turningTouchAccommodationsOnMidTouchLetsThatTouchEnd() {
        let world = World()
        let filter = TouchAccommodations(holdDuration: .milliseconds(100), isEnabled: false)
        world.router.addFilter(filter)
        world.touch(.touchDown(TouchID(0), LayoutPoint(x: 100, y: 100)), at: 0)
        filter.isEnabled = true
        world.touch(.touchMotion(TouchID(0), LayoutPoint(x: 120, y: 100)), at: 50)
        world.touch(.touchUp(TouchID(0)), at: 60)
        #expect(world.log.entries == ["app.began", "app.moved", "app.ended"])
    }
}
