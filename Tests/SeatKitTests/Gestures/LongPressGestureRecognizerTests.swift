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
