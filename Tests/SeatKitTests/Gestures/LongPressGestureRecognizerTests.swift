import Testing
import SeatKit

@Suite struct LongPressGestureRecognizerTests {
    @Test func aLongPressBeginsExactlyOnTimeUnderTheVirtualClock() {
        let rig = GestureRig()
        let icon = rig.surface("icon", 0, 0, 500, 500)
        let press = LongPressGestureRecognizer(minimumPressDuration: .milliseconds(500))
        icon.addGestureRecognizer(press)
        var beganAt: Timestamp?
        press.addTarget { r in if r.state == .began { beganAt = rig.clock.now } }
        rig.down(1, 100, 100)  // at 10 ms
        rig.wait(499)
        #expect(press.state == .possible)
        #expect(beganAt == nil)
        rig.wait(1)
        #expect(press.state == .began)
        #expect(beganAt == .milliseconds(510))
        // It took the touch from the icon, which had seen it.
        #expect(rig.log.entries == ["icon.began[t1]", "icon.cancelled[t1]"])
    }

    @Test func movingTooFarBeforeTheDeadlineFails() {
        let rig = GestureRig()
        let press = LongPressGestureRecognizer(allowableMovement: 10)
        rig.output.root.addGestureRecognizer(press)
        rig.watch(press)
        rig.down(1, 100, 100)
        rig.move(1, 201, 100)  // 10.1 mm
        rig.wait(1000)
        #expect(rig.log.matching("long-press:") == ["long-press:failed"])
    }

    /// Once its only recognizer has failed, a touch's later motions skip the recognizer
    /// pass (its arena has no live entry left) and still reach the surface, in order; the
    /// failed recognizer still hears the end, resets, and takes part in the next touch.
    @Test func aTouchWhoseOnlyRecognizerFailedStillReachesItsSurfaceAndTheRecognizerResetsAtItsEnd() {
        let rig = GestureRig()
        let icon = rig.surface("icon", 0, 0, 500, 500)
        let press = LongPressGestureRecognizer(allowableMovement: 10)
        icon.addGestureRecognizer(press)
        rig.watch(press)
        rig.down(1, 100, 100)
        rig.move(1, 201, 100)  // 10.1 mm: fails
        #expect(press.state == .failed)
        rig.move(1, 220, 100)
        rig.move(1, 240, 100)
        rig.up(1)
        #expect(rig.log.matching("icon.") == ["icon.began[t1]", "icon.moved[t1]", "icon.moved[t1]", "icon.moved[t1]", "icon.ended[t1]"])
        #expect(press.state == .possible)
        #expect(press.touches.isEmpty)
        rig.down(2, 100, 100)
        rig.wait(500)
        #expect(press.state == .began)
        #expect(rig.log.matching("long-press:") == ["long-press:failed", "long-press:began"])
    }

    @Test func onceBeganItFollowsTheFingerAndEndsOnLift() {
        let rig = GestureRig()
        let press = LongPressGestureRecognizer()
        rig.output.root.addGestureRecognizer(press)
        rig.watch(press)
        rig.down(1, 100, 100)
        rig.wait(500)
        rig.move(1, 400, 100)
        rig.up(1)
        #expect(rig.log.matching("long-press:") == ["long-press:began", "long-press:changed", "long-press:ended"])
    }

    @Test func liftingEarlyFailsAndTheTimerNeverFires() {
        let rig = GestureRig()
        let press = LongPressGestureRecognizer()
        rig.output.root.addGestureRecognizer(press)
        rig.watch(press)
        rig.down(1, 100, 100)
        rig.up(1)
        rig.wait(2000)
        #expect(rig.log.matching("long-press:") == ["long-press:failed"])
        #expect(rig.clock.nextDeadline == nil)
    }
}

/// A clock that runs a timer 5 ms before its deadline when the wait is longer than that (as
/// an event loop that rounds long waits down would), on a virtual clock.
final class EarlyClock: Clock {
    let base = VirtualClock()
    var now: Timestamp { base.now }
    func schedule(at deadline: Timestamp, _ action: @escaping () -> Void) -> TimerToken {
        let early = deadline.microseconds - base.now.microseconds > 5_000
        return base.schedule(at: Timestamp(microseconds: deadline.microseconds - (early ? 5_000 : 0)), action)
    }
    func cancel(_ token: TimerToken) { base.cancel(token) }
}

@Suite("Timers that fire early")
struct EarlyTimerTests {
    @Test func aLongPressBeginsEvenWhenTheClockFiresItsTimerEarly() {
        let clock = EarlyClock()
        let router = Router(clock: clock)
        let output = Output(name: "OUT", modeSize: Size(width: 500, height: 500))
        router.addOutput(output)
        let press = LongPressGestureRecognizer(minimumPressDuration: .milliseconds(500))
        output.root.addGestureRecognizer(press)
        var began = false
        press.addTarget { if $0.state == .began { began = true } }
        router.inject(InputEvent(time: .zero, .touchDown(TouchID(0), LayoutPoint(x: 10, y: 10))))
        router.inject(InputEvent(time: .zero, .touchFrame))
        clock.base.advance(to: .milliseconds(496))   // fired early (at 495 ms): re-armed, not lost
        #expect(!began)
        clock.base.advance(to: .milliseconds(600))
        #expect(began)
    }
}
