import Testing
import SeatKit

/// When a recognizer takes touches, touchesCancelled goes to exactly the responders that saw
/// each touch: not to those it never reached, and never twice.
@Suite struct CancelReachesSeenRespondersTests {
    @Test func onlyTheLinksTheTouchWalkedThroughAreCancelled() {
        let rig = GestureRig()
        let window = rig.surface("window", 0, 0, 1000, 1000)
        let list = rig.surface("list", 0, 0, 1000, 800, in: window)
        rig.surface("row", 0, 0, 1000, 100, in: list, handles: ["began", "moved"])
        rig.surface("sibling", 0, 900, 1000, 100, in: window)
        let pan = PanGestureRecognizer()
        list.addGestureRecognizer(pan)
        rig.down(1, 50, 50)      // the row handles began: list and window never see it
        rig.move(1, 50, 120)     // the pan begins before the responders see this move
        rig.move(1, 50, 200)
        rig.up(1)
        #expect(rig.log.entries == ["row.began[t1]", "row.cancelled[t1]"])
    }

    @Test func aLinkThatNeverSawTheTouchBeginIsNeitherMovedNorCancelled() {
        let rig = GestureRig()
        let window = rig.surface("window", 0, 0, 1000, 1000)
        rig.surface("row", 0, 0, 1000, 100, in: window, handles: ["began"])
        let press = LongPressGestureRecognizer(allowableMovement: 10)
        window.addGestureRecognizer(press)
        rig.down(1, 50, 50)        // began: handled by the row
        rig.move(1, 55, 50)        // moved: the row passes it on, but the window never saw began
        rig.wait(500)
        #expect(press.state == .began)
        #expect(rig.log.entries == ["row.began[t1]", "row.moved[t1]", "row.cancelled[t1]"])
    }

    @Test func aLinkThatSawTheTouchBeginIsMovedAndCancelled() {
        let rig = GestureRig()
        let window = rig.surface("window", 0, 0, 1000, 1000)
        rig.surface("row", 0, 0, 1000, 100, in: window)
        let press = LongPressGestureRecognizer(allowableMovement: 10)
        window.addGestureRecognizer(press)
        rig.down(1, 50, 50)        // began: the row passes it on to the window
        rig.move(1, 55, 50)
        rig.wait(500)
        #expect(press.state == .began)
        #expect(rig.log.entries == ["row.began[t1]", "window.began[t1]", "row.moved[t1]", "window.moved[t1]", "row.cancelled[t1]", "window.cancelled[t1]"])
    }

    @Test func aTouchOnASurfaceWithoutTheRecognizerIsNotCancelled() {
        let rig = GestureRig()
        let left = rig.surface("left", 0, 0, 500, 1000)
        rig.surface("right", 500, 0, 500, 1000)
        let pan = PanGestureRecognizer()
        left.addGestureRecognizer(pan)
        rig.down(1, 100, 100)
        rig.down(2, 700, 100)
        rig.frame([fingerMoved(1, 300, 100), fingerMoved(2, 710, 100)])
        #expect(pan.state == .began)
        #expect(rig.log.matching("left.cancelled") == ["left.cancelled[t1]"])
        #expect(rig.log.matching("right.cancelled").isEmpty)
        #expect(rig.log.matching("right.moved") == ["right.moved[t2]"])
    }

    @Test func aLaterDeviceCancelDoesNotCancelTheTakenTouchAgain() {
        let rig = GestureRig()
        let view = rig.surface("view", 0, 0, 1000, 1000)
        let pan = PanGestureRecognizer()
        view.addGestureRecognizer(pan)
        rig.watch(pan)
        rig.down(1, 100, 100)
        rig.move(1, 300, 100)
        rig.wait(10)
        rig.send(.touchCancel(TouchID(1)))
        #expect(rig.log.matching("view.cancelled") == ["view.cancelled[t1]"])
        #expect(rig.log.matching("pan:") == ["pan:began", "pan:cancelled"])
    }

    @Test func withoutCancelsTouchesInViewTheResponderKeepsTheTouch() {
        let rig = GestureRig()
        let view = rig.surface("view", 0, 0, 1000, 1000)
        let pan = PanGestureRecognizer()
        pan.cancelsTouchesInView = false
        view.addGestureRecognizer(pan)
        rig.down(1, 100, 100)
        rig.move(1, 300, 100)
        rig.up(1)
        #expect(pan.state == .possible)
        #expect(rig.log.entries == ["view.began[t1]", "view.moved[t1]", "view.ended[t1]"])
    }
}
