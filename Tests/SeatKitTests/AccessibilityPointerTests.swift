import SeatKit
import Testing

/// Simulated secondary click, dwell click, mouse keys and locate pointer on a real router,
/// timed on a virtual clock.
@Suite struct AccessibilityPointerTests {
    private final class World {
        let clock = VirtualClock()
        let router: Router
        let log = CallLog()
        let app: RecordingResponder
        var buttons: [String] = []

        init() {
            router = Router(clock: clock)
            let output = Output(name: "out", modeSize: Size(width: 800, height: 600))
            router.addOutput(output)
            app = RecordingResponder("app", log: log, handles: ["button", "motion", "keyDown", "keyUp"], canBecomeFirst: true)
            let surface = Surface(name: "app", frame: SurfaceRect(x: 0, y: 0, width: 800, height: 600), responder: app)
            output.root.addChild(surface)
            router.becomeFirstResponder(surface)
            app.onCall = { [unowned self] method, _ in
                if method == "button", let b = self.app.lastButton {
                    self.buttons.append("\(b.button == 0x110 ? "L" : b.button == 0x111 ? "R" : "M")\(b.state == .pressed ? "↓" : "↑")")
                }
            }
        }

        func send(_ kind: InputEvent.Kind, at ms: Int64) {
            clock.advance(to: .milliseconds(ms))
            router.inject(InputEvent(time: .milliseconds(ms), device: DeviceID(3), kind))
        }
        func move(to x: Double, _ y: Double, at ms: Int64) { send(.pointerMotionAbsolute(LayoutPoint(x: x, y: y)), at: ms) }
        func button(_ state: ButtonState, _ code: UInt32 = 0x110, at ms: Int64) { send(.pointerButton(button: code, state: state), at: ms) }
        func key(_ code: UInt32, _ state: KeyState, at ms: Int64) { send(.key(keycode: code, state: state), at: ms) }
    }

    // MARK: Simulated secondary click

    @Test func holdingThePrimaryButtonStillForTheDelayGivesASecondaryClickAndTakesTheRealRelease() {
        let world = World()
        var clicks: [LayoutPoint] = []
        let filter = SimulatedSecondaryClick(delay: .milliseconds(1200))
        filter.onClick = { clicks.append($0) }
        world.router.addFilter(filter)
        world.move(to: 100, 100, at: 0)
        world.button(.pressed, at: 10)
        world.move(to: 105, 100, at: 500)    // within the threshold
        world.clock.advance(to: .milliseconds(1210))
        #expect(world.buttons == ["L↓", "L↑", "R↓", "R↑"])
        #expect(clicks == [LayoutPoint(x: 105, y: 100)])
        world.button(.released, at: 1500)
        #expect(world.buttons == ["L↓", "L↑", "R↓", "R↑"], "the real release is taken")
        #expect(world.router.heldButtons.isEmpty)
    }

    @Test func aShortClickOrADragIsLeftAlone() {
        let world = World()
        world.router.addFilter(SimulatedSecondaryClick(delay: .milliseconds(1200)))
        world.move(to: 100, 100, at: 0)
        world.button(.pressed, at: 10)
        world.button(.released, at: 100)
        world.button(.pressed, at: 200)
        world.move(to: 200, 100, at: 300)    // a drag
        world.clock.advance(to: .milliseconds(2000))
        world.button(.released, at: 2100)
        #expect(world.buttons == ["L↓", "L↑", "L↓", "L↑"])
    }

    @Test func turningSimulatedSecondaryClickOffMidHoldLetsTheReleasePass() {
        let world = World()
        let filter = SimulatedSecondaryClick(delay: .milliseconds(1200))
        world.router.addFilter(filter)
        world.button(.pressed, at: 10)
        filter.isEnabled = false
        world.clock.advance(to: .milliseconds(2000))
        world.button(.released, at: 2100)
        #expect(world.buttons == ["L↓", "L↑"])
    }

    @Test func turningSimulatedSecondaryClickOnMidPressNeitherClicksNorSwallowsTheRelease() {
        let world = World()
        let filter = SimulatedSecondaryClick(delay: .milliseconds(1200), isEnabled: false)
        world.router.addFilter(filter)
        world.button(.pressed, at: 10)
        filter.isEnabled = true
        world.clock.advance(to: .milliseconds(2000))
        world.button(.released, at: 2100)
        #expect(world.buttons == ["L↓", "L↑"])
    }

    /// Turned off after it made its click, it still takes the real release it owes (the
    /// router keeps asking a filter that is off while it owes one), then lets clicks pass.
    @Test func turningSimulatedSecondaryClickOffAfterItClickedStillTakesTheRealRelease() {
        let world = World()
        let filter = SimulatedSecondaryClick(delay: .milliseconds(1200))
        world.router.addFilter(filter)
        world.button(.pressed, at: 10)
        world.clock.advance(to: .milliseconds(1300))
        #expect(world.buttons == ["L↓", "L↑", "R↓", "R↑"])
        filter.isEnabled = false
        world.button(.released, at: 1500)
        #expect(world.buttons == ["L↓", "L↑", "R↓", "R↑"], "the owed release is taken, off or not")
        world.button(.pressed, at: 1600)
        world.clock.advance(to: .milliseconds(3000))
        world.button(.released, at: 3100)
        #expect(world.buttons == ["L↓", "L↑", "R↓", "R↑", "L↓", "L↑"], "off: a long hold is a hold")
    }

    // MARK: Dwell click

    @Test func restingThePointerForTheDelayClicksThereOnceWithProgressForACue() {
        let world = World()
        var clicks: [LayoutPoint] = []
        let dwell = DwellClick(delay: .milliseconds(1200), movementThreshold: 10)
        dwell.onClick = { clicks.append($0) }
        world.router.addFilter(dwell)
        world.move(to: 100, 100, at: 0)
        world.move(to: 104, 103, at: 300)    // drift within the threshold: the dwell goes on
        #expect(dwell.progress(at: .milliseconds(600)) == 0.5)
        world.clock.advance(to: .milliseconds(1199))
        #expect(world.buttons.isEmpty)
        world.clock.advance(to: .milliseconds(1200))
        #expect(world.buttons == ["L↓", "L↑"])
        #expect(clicks == [LayoutPoint(x: 104, y: 103)])
        #expect(dwell.progress(at: .milliseconds(1300)) == nil)
        world.clock.advance(to: .milliseconds(5000))
        #expect(world.buttons.count == 2, "one click per rest")
        world.move(to: 300, 100, at: 5000)
        world.clock.advance(to: .milliseconds(6200))
        #expect(world.buttons.count == 4, "moving away and resting again clicks again")
    }

    @Test func movingBeyondTheThresholdRestartsTheDwellAndTurningItOffEndsIt() {
        let world = World()
        let dwell = DwellClick(delay: .milliseconds(1000))
        world.router.addFilter(dwell)
        world.move(to: 100, 100, at: 0)
        world.move(to: 150, 100, at: 800)
        world.clock.advance(to: .milliseconds(1500))
        #expect(world.buttons.isEmpty)
        #expect(dwell.progress(at: .milliseconds(1300)) == 0.5)
        dwell.isEnabled = false
        #expect(dwell.progress(at: .milliseconds(1300)) == nil)
        world.clock.advance(to: .milliseconds(5000))
        #expect(world.buttons.isEmpty)
    }

    /// A moving pointer restarts the dwell at every motion; the dwell keeps one timer (set
    /// again when it fires early, not cancelled and scheduled per motion) and clicks once,
    /// at the last restart's deadline, with a begin and an end told for every restart.
    @Test func aMovingPointerKeepsOneDwellTimerAndClicksOnceAtTheLastRestartsDeadline() {
        let world = World()
        var clicks: [LayoutPoint] = []
        var changes: [Bool] = []
        let dwell = DwellClick(delay: .milliseconds(1000), movementThreshold: 10)
        dwell.onClick = { clicks.append($0) }
        dwell.onDwellChange = { changes.append($0 != nil) }
        world.router.addFilter(dwell)
        for step in 0..<50 {
            world.move(to: 100 + Double(step) * 12, 100, at: Int64(step) * 100)
            #expect(world.clock.pendingTimerCount == 1)
        }
        #expect(changes == [true] + Array(repeating: [false, true], count: 49).flatMap { $0 })
        #expect(dwell.progress(at: .milliseconds(4900 + 500)) == 0.5)
        world.clock.advance(to: .milliseconds(5899))
        #expect(world.buttons.isEmpty, "no click before the last restart's deadline")
        world.clock.advance(to: .milliseconds(5900))
        #expect(world.buttons == ["L↓", "L↑"])
        #expect(clicks == [LayoutPoint(x: 688, y: 100)])
        #expect(changes.last == false)
        world.clock.advance(to: .milliseconds(9000))
        #expect(world.buttons.count == 2)
        #expect(world.clock.pendingTimerCount == 0)
    }

    /// A shorter delay set mid-dwell applies from the next restart on (the timer set for the
    /// longer one is replaced), and the click comes at the shorter deadline.
    @Test func aDwellDelayShortenedMidDwellClicksAtTheShorterDeadlineAfterTheNextRestart() {
        let world = World()
        let dwell = DwellClick(delay: .milliseconds(1000))
        world.router.addFilter(dwell)
        world.move(to: 100, 100, at: 0)
        dwell.delay = .milliseconds(200)
        world.move(to: 150, 100, at: 100)
        world.clock.advance(to: .milliseconds(299))
        #expect(world.buttons.isEmpty)
        world.clock.advance(to: .milliseconds(300))
        #expect(world.buttons == ["L↓", "L↑"])
        world.clock.advance(to: .milliseconds(2000))
        #expect(world.buttons.count == 2)
    }

    // MARK: Mouse keys

    @Test func keypadKeysMoveThePointerSpeedingUpWhileHeldAndStopOnRelease() {
        let world = World()
        let keys = MouseKeys(initialDelay: .milliseconds(160), interval: .milliseconds(20), maxSpeed: 750,
                             accelerationTime: .milliseconds(1200))
        world.router.addFilter(keys)
        world.move(to: 100, 100, at: 0)
        world.key(77, .pressed, at: 10)      // KP6: right
        #expect(world.router.pointerLocation == LayoutPoint(x: 101, y: 100))
        world.clock.advance(to: .milliseconds(170))
        #expect(world.router.pointerLocation == LayoutPoint(x: 102, y: 100), "the first steady step is the slowest (one unit)")
        world.clock.advance(to: .milliseconds(1370))
        let afterRamp = world.router.pointerLocation.x
        world.clock.advance(to: .milliseconds(1390))
        #expect(abs(world.router.pointerLocation.x - afterRamp - 15) < 1e-9, "top speed: 750 units/s, 15 per 20 ms step")
        world.key(77, .released, at: 1400)
        let stopped = world.router.pointerLocation
        world.clock.advance(to: .milliseconds(3000))
        #expect(world.router.pointerLocation == stopped)
        #expect(world.log.entries.filter { $0.hasPrefix("app.key") }.isEmpty, "the keypad keys are taken")
    }

    @Test func keypadFiveClicksZeroHoldsForADragAndTurningMouseKeysOffReleasesIt() {
        let world = World()
        let keys = MouseKeys()
        world.router.addFilter(keys)
        world.key(76, .pressed, at: 0)       // KP5: click
        world.key(76, .released, at: 10)
        world.key(74, .pressed, at: 20)      // KP-: secondary
        world.key(74, .released, at: 30)
        world.key(82, .pressed, at: 40)      // KP0: hold
        world.key(82, .released, at: 50)
        #expect(world.buttons == ["L↓", "L↑", "R↓"])
        #expect(world.router.heldButtons == [0x111])
        keys.isEnabled = false
        #expect(world.buttons == ["L↓", "L↑", "R↓", "R↑"])
        #expect(world.router.heldButtons.isEmpty)
        world.key(76, .pressed, at: 60)
        #expect(world.log.entries.last == "app.keyDown", "off: the keypad types again")
    }

    @Test func turningMouseKeysOnWhileAKeypadKeyIsHeldLetsItsReleaseReachTheApp() {
        let world = World()
        let keys = MouseKeys(isEnabled: false)
        world.router.addFilter(keys)
        world.key(76, .pressed, at: 0)
        keys.isEnabled = true
        world.key(76, .released, at: 10)
        #expect(world.log.entries.filter { $0.hasPrefix("app.key") } == ["app.keyDown", "app.keyUp"])
        #expect(world.buttons.isEmpty)
    }

    // MARK: Locate pointer

    @Test func tappingCtrlAloneLocatesThePointerAndCtrlWithAKeyDoesNot() {
        let world = World()
        var located: [LayoutPoint] = []
        world.router.addFilter(LocatePointer { located.append($0) })
        world.move(to: 321, 123, at: 0)
        world.key(29, .pressed, at: 10)
        world.key(29, .released, at: 20)
        #expect(located == [LayoutPoint(x: 321, y: 123)])
        world.key(29, .pressed, at: 30)
        world.key(46, .pressed, at: 40)      // Ctrl+C
        world.key(46, .released, at: 50)
        world.key(29, .released, at: 60)
        #expect(located.count == 1)
        #expect(world.log.entries.filter { $0.hasPrefix("app.key") }.count == 6, "every key passes")
    }
}
