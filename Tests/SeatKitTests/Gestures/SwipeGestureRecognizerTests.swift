import Testing
import SeatKit

@Suite struct SwipeGestureRecognizerTests {
    @Test func aFastStrokeTheRightWayIsRecognizedAtTheDistance() {
        let rig = GestureRig()
        let swipe = SwipeGestureRecognizer(direction: [.left, .right], minimumDistance: 15)
        rig.output.root.addGestureRecognizer(swipe)
        rig.watch(swipe)
        rig.down(1, 500, 500)
        rig.move(1, 400, 505)
        #expect(swipe.state == .possible)
        rig.move(1, 350, 505)
        #expect(rig.log.matching("swipe:") == ["swipe:recognized"])
    }

    @Test func theWrongDirectionFails() {
        let rig = GestureRig()
        let swipe = SwipeGestureRecognizer(direction: .right)
        rig.output.root.addGestureRecognizer(swipe)
        rig.watch(swipe)
        rig.down(1, 500, 500)
        rig.move(1, 300, 500)
        #expect(rig.log.matching("swipe:") == ["swipe:failed"])
    }

    @Test func aSlowStrokeFailsWhenTheDurationRunsOutEvenIfTheFingerRests() {
        let rig = GestureRig()
        let swipe = SwipeGestureRecognizer(direction: .right, maximumDuration: .milliseconds(400))
        rig.output.root.addGestureRecognizer(swipe)
        rig.watch(swipe)
        rig.down(1, 100, 500)  // at 10 ms
        rig.wait(399)
        #expect(swipe.state == .possible)
        rig.wait(1)
        #expect(rig.log.matching("swipe:") == ["swipe:failed"])
    }

    @Test func aThreeFingerSwipeNeedsThreeFingers() {
        let rig = GestureRig()
        let swipe = SwipeGestureRecognizer(direction: .up, touches: 3)
        rig.output.root.addGestureRecognizer(swipe)
        rig.watch(swipe)
        rig.frame([fingerDown(1, 400, 800), fingerDown(2, 500, 800), fingerDown(3, 600, 800)])
        rig.frame([fingerMoved(1, 400, 600), fingerMoved(2, 500, 600), fingerMoved(3, 600, 600)])
        #expect(rig.log.matching("swipe:") == ["swipe:recognized"])
        #expect(swipe.recognizedDirection == .up)
    }
}
