import Testing
import SeatKit

/// A list that pans, and a swipe that deletes: the pan requires the swipe to fail, so a
/// quick flick is a swipe and a slow drag is a pan.
@Suite struct PanVersusSwipeTests {
    final class Setup {
        let rig = GestureRig()
        let list: Surface
        let pan = PanGestureRecognizer()
        let swipe = SwipeGestureRecognizer(direction: .left, minimumDistance: 15, maximumDuration: .milliseconds(200))

        init() throws {
            list = rig.surface("list", 0, 0, 1000, 1000)
            try pan.require(toFail: swipe)
            list.addGestureRecognizer(pan)
            list.addGestureRecognizer(swipe)
            rig.watch(pan)
            rig.watch(swipe)
        }
    }

    @Test func aQuickFlickIsASwipeAndThePanFails() throws {
        let s = try Setup()
        s.rig.down(1, 800, 500)
        s.rig.move(1, 750, 500)  // the pan would begin here, but waits for the swipe
        #expect(s.pan.isWaitingForFailure)
        s.rig.move(1, 600, 500)
        #expect(s.rig.log.matching("swipe:") == ["swipe:recognized"])
        #expect(s.rig.log.matching("pan:") == ["pan:failed"])
        s.rig.up(1)
        #expect(s.rig.log.matching("pan:") == ["pan:failed"])
    }

    @Test func aSlowDragIsAPanOnceTheSwipeTimesOut() throws {
        let s = try Setup()
        s.rig.down(1, 800, 500)  // at 10 ms; the swipe gives up at 210 ms
        s.rig.move(1, 780, 500)
        s.rig.move(1, 760, 500)
        #expect(s.rig.log.matching("pan:").isEmpty)
        s.rig.wait(200)
        #expect(s.rig.log.matching("swipe:") == ["swipe:failed"])
        #expect(s.rig.log.matching("pan:") == ["pan:began"])
        s.rig.move(1, 700, 500)
        s.rig.up(1)
        #expect(s.rig.log.matching("pan:") == ["pan:began", "pan:changed", "pan:ended"])
        #expect(s.pan.state == .possible)
    }

    @Test func withoutTheRequirementThePanWinsEveryStroke() {
        let rig = GestureRig()
        let pan = PanGestureRecognizer()
        let swipe = SwipeGestureRecognizer(direction: .left)
        rig.output.root.addGestureRecognizer(pan)
        rig.output.root.addGestureRecognizer(swipe)
        rig.watch(pan)
        rig.watch(swipe)
        rig.down(1, 800, 500)
        rig.move(1, 750, 500)
        rig.move(1, 600, 500)
        #expect(rig.log.matching("pan:") == ["pan:began", "pan:changed"])
        #expect(rig.log.matching("swipe:") == ["swipe:failed"])
    }
}
