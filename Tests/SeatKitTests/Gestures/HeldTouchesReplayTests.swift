import Testing
import SeatKit

/// A recognizer that delays touchesBegan holds every phase back from the responders while it
/// is possible; when it fails, the held phases reach them in the order they happened.
@Suite struct HeldTouchesReplayTests {
    @Test func heldTouchesAreReplayedInOrderWhenTheRecognizerFails() {
        let rig = GestureRig()
        let canvas = rig.surface("canvas", 0, 0, 1000, 1000)
        let press = LongPressGestureRecognizer(minimumPressDuration: .milliseconds(500), allowableMovement: 10)
        press.delaysTouchesBegan = true
        canvas.addGestureRecognizer(press)
        rig.watch(press)
        rig.down(1, 100, 100)
        #expect(rig.log.entries.isEmpty)
        rig.down(2, 300, 100)   // a second finger: the press (one finger) fails, and both
                                // touches go out at the end of that frame, in order
        #expect(rig.log.entries == ["long-press:failed", "canvas.began[t1]", "canvas.began[t2]"])
        rig.log.clear()
        rig.move(1, 110, 100)
        #expect(rig.log.entries == ["canvas.moved[t1]"])
    }

    @Test func touchesHeldInOneFrameAreReleasedAsOneEventPerPhase() {
        let rig = GestureRig()
        let canvas = rig.surface("canvas", 0, 0, 1000, 1000)
        let press = LongPressGestureRecognizer(touches: 3)
        press.delaysTouchesBegan = true
        canvas.addGestureRecognizer(press)
        rig.frame([.touchDown(TouchID(1), LayoutPoint(x: 100, y: 100)), .touchDown(TouchID(2), LayoutPoint(x: 200, y: 100))])
        rig.frame([.touchMotion(TouchID(1), LayoutPoint(x: 101, y: 100)), .touchMotion(TouchID(2), LayoutPoint(x: 201, y: 100))])
        #expect(rig.log.entries.isEmpty)
        // Both lift in one frame: the press fails, and the held frames go out as frames.
        rig.frame([.touchUp(TouchID(1)), .touchUp(TouchID(2))])
        #expect(rig.log.entries == ["canvas.began[t1,t2]", "canvas.moved[t1,t2]", "canvas.ended[t1,t2]"])
    }

    @Test func aTouchHeldBehindAnotherNeverDeliversALaterPhaseBeforeItsBegan() {
        let rig = GestureRig()
        let canvas = rig.surface("canvas", 0, 0, 1000, 1000)
        let press = LongPressGestureRecognizer()
        press.delaysTouchesBegan = true
        let onlyFirst = SimultaneousDelegate()
        onlyFirst.receives = { $0.id == TouchID(1) }
        press.delegate = onlyFirst
        canvas.addGestureRecognizer(press)
        rig.down(1, 100, 100)      // held by the press
        rig.down(2, 500, 500)      // not the press's, but held behind touch 1 on its surface
        rig.move(2, 510, 500)
        rig.up(2)
        #expect(rig.log.entries.isEmpty)
        rig.move(1, 300, 100)      // the press fails: everything goes out, in order
        #expect(rig.log.entries == ["canvas.began[t1]", "canvas.began[t2]", "canvas.moved[t2]", "canvas.ended[t2]", "canvas.moved[t1]"])
    }

    @Test func heldPhasesKeepTheirOrderAndPositions() {
        let rig = GestureRig()
        let canvas = rig.surface("canvas", 100, 0, 900, 1000)
        let press = LongPressGestureRecognizer(minimumPressDuration: .milliseconds(500), allowableMovement: 10)
        press.delaysTouchesBegan = true
        canvas.addGestureRecognizer(press)
        var positions: [Double] = []
        final class Spy: Responder {
            var record: (TouchEvent, String) -> Void = { _, _ in }
            func touchesBegan(_ e: TouchEvent, context: ResponderContext) -> ResponderResult { record(e, "began"); return .handled }
            func touchesMoved(_ e: TouchEvent, context: ResponderContext) -> ResponderResult { record(e, "moved"); return .handled }
            func touchesEnded(_ e: TouchEvent, context: ResponderContext) -> ResponderResult { record(e, "ended"); return .handled }
        }
        let spy = Spy()
        var phases: [String] = []
        spy.record = { e, phase in
            phases.append("\(phase)@\(e.time)")
            positions.append(e.touches[0].surfaceLocation.x)
        }
        canvas.responder = spy
        rig.down(1, 200, 100)   // 10 ms
        rig.move(1, 205, 100)   // 20 ms: held, within the allowance
        rig.move(1, 208, 100)   // 30 ms: held, collapses with the move before
        #expect(phases.isEmpty)
        rig.up(1)               // 40 ms: the press fails; began, moved, ended go out in order
        #expect(phases == ["began@10ms", "moved@30ms", "ended@40ms"])
        #expect(positions == [100, 108, 108])
        #expect(rig.router.activeTouchCount == 0)
    }

    @Test func touchesTakenByTheRecognizerAreNeverReplayed() {
        let rig = GestureRig()
        let canvas = rig.surface("canvas", 0, 0, 1000, 1000)
        let press = LongPressGestureRecognizer(minimumPressDuration: .milliseconds(300))
        press.delaysTouchesBegan = true
        canvas.addGestureRecognizer(press)
        rig.down(1, 100, 100)
        rig.wait(300)
        #expect(press.state == .began)
        rig.move(1, 300, 100)
        rig.up(1)
        // The canvas never heard of the touch: nothing to cancel either.
        #expect(rig.log.matching("canvas.").isEmpty)
        #expect(rig.router.activeTouchCount == 0)
    }

    @Test func anUndelayedTouchOnAnotherSurfaceIsNotHeldBehindADelayedOne() {
        let rig = GestureRig()
        let left = rig.surface("left", 0, 0, 500, 1000)
        rig.surface("right", 500, 0, 500, 1000)
        let press = LongPressGestureRecognizer()
        press.delaysTouchesBegan = true
        left.addGestureRecognizer(press)
        rig.down(1, 100, 100)
        rig.down(2, 700, 100)
        #expect(rig.log.entries == ["right.began[t2]"])
    }

    @Test func aHeldTouchThatTheDeviceCancelsReachesNoResponder() {
        let rig = GestureRig()
        let canvas = rig.surface("canvas", 0, 0, 1000, 1000)
        let press = LongPressGestureRecognizer()
        press.delaysTouchesBegan = true
        canvas.addGestureRecognizer(press)
        rig.watch(press)
        rig.down(1, 100, 100)
        rig.wait(10)
        rig.send(.touchCancel(TouchID(1)))
        rig.wait(1000)
        // Nobody saw it begin, so nobody is told it was cancelled; nothing is replayed.
        #expect(rig.log.entries == ["long-press:failed"])
        #expect(rig.router.activeTouchCount == 0)
    }
}
