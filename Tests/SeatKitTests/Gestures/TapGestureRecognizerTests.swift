import Testing
import SeatKit

@Suite struct TapGestureRecognizerTests {
    @Test func aQuickStillTouchIsATapAndItsTouchIsCancelledForTheResponder() {
        let rig = GestureRig()
        let button = rig.surface("button", 100, 100, 200, 200)
        let tap = TapGestureRecognizer()
        button.addGestureRecognizer(tap)
        rig.watch(tap)
        rig.down(1, 150, 150)
        rig.move(1, 152, 151)
        rig.up(1)
        // The touch is taken before the targets hear of the recognition.
        #expect(rig.log.entries == ["button.began[t1]", "button.moved[t1]", "button.cancelled[t1]", "tap:recognized"])
        #expect(tap.location == LayoutPoint(x: 152, y: 151))
    }

    @Test func movingBeyondTheAllowableMillimetresFails() {
        let rig = GestureRig()  // 10 units per mm
        let tap = TapGestureRecognizer(allowableMovement: 5)
        rig.output.root.addGestureRecognizer(tap)
        rig.watch(tap)
        rig.down(1, 100, 100)
        rig.move(1, 149, 100)  // 4.9 mm: still a tap
        #expect(tap.state == .possible)
        rig.move(1, 151, 100)  // 5.1 mm
        #expect(rig.log.matching("tap:") == ["tap:failed"])
        rig.up(1)
        #expect(rig.log.matching("tap:") == ["tap:failed"])
    }

    @Test func holdingTooLongFailsOnTheClock() {
        let rig = GestureRig()
        let tap = TapGestureRecognizer(maximumPressDuration: .milliseconds(200))
        rig.output.root.addGestureRecognizer(tap)
        rig.watch(tap)
        rig.down(1, 100, 100)
        rig.wait(199)
        #expect(rig.log.matching("tap:").isEmpty)
        rig.wait(1)
        #expect(rig.log.matching("tap:") == ["tap:failed"])
    }

    @Test func aTwoFingerTapNeedsBothFingers() {
        let rig = GestureRig()
        let tap = TapGestureRecognizer(touches: 2)
        rig.output.root.addGestureRecognizer(tap)
        rig.watch(tap)
        rig.frame([fingerDown(1, 100, 100), fingerDown(2, 200, 100)])
        rig.frame([fingerUp(1), fingerUp(2)])
        #expect(rig.log.matching("tap:") == ["tap:recognized"])
        rig.log.clear()
        rig.down(3, 100, 100)
        rig.up(3)
        #expect(rig.log.matching("tap:") == ["tap:failed"])
    }

    @Test func theActionGoesToTheSurfaceThatCanPerformIt() {
        let rig = GestureRig()
        let button = rig.surface("button", 0, 0, 500, 500, handles: ["action"])
        let tap = TapGestureRecognizer()
        tap.action = "press"
        button.addGestureRecognizer(tap)
        rig.down(1, 10, 10)
        rig.up(1)
        #expect(rig.log.entries.contains("button.perform(press)"))
        #expect(!rig.log.entries.contains("delegate.perform(press)"))
    }
}
