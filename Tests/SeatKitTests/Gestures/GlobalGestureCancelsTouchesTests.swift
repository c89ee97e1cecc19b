import Testing
import SeatKit

/// A three-finger swipe on the output is a system gesture: when it is recognized, the
/// touches it spans are withdrawn from every surface that already saw them.
@Suite struct GlobalGestureCancelsTouchesTests {
    @Test func aThreeFingerSwipeOnTheOutputCancelsTheTouchesOfEverySurface() {
        let rig = GestureRig()
        rig.surface("mail", 0, 0, 500, 1000)
        rig.surface("chat", 500, 0, 500, 1000)
        let swipe = SwipeGestureRecognizer(name: "system-swipe", direction: .up, touches: 3)
        swipe.action = "app-switcher"
        rig.output.addGestureRecognizer(swipe)
        rig.watch(swipe)
        rig.down(1, 200, 800)
        rig.down(2, 400, 800)
        rig.down(3, 700, 800)
        #expect(rig.log.entries == ["mail.began[t1]", "mail.began[t2]", "chat.began[t3]"])
        rig.log.clear()
        rig.frame([fingerMoved(1, 200, 600), fingerMoved(2, 400, 600), fingerMoved(3, 700, 600)])
        #expect(rig.log.entries == ["mail.cancelled[t1]", "mail.cancelled[t2]", "chat.cancelled[t3]",
                                    "system-swipe:recognized", "delegate.perform(app-switcher)"])
        rig.log.clear()
        rig.frame([fingerUp(1), fingerUp(2), fingerUp(3)])
        #expect(rig.log.entries.isEmpty)
        #expect(rig.router.activeTouchCount == 0)
    }

    /// A watched pan on a mail surface filling the output, and a watched three-finger system
    /// swipe on the output.
    func mailPanAndSystemSwipe() -> (GestureRig, PanGestureRecognizer, SwipeGestureRecognizer) {
        let rig = GestureRig()
        let mail = rig.surface("mail", 0, 0, 1000, 1000)
        let pan = PanGestureRecognizer()
        mail.addGestureRecognizer(pan)
        let swipe = SwipeGestureRecognizer(name: "system-swipe", direction: .up, touches: 3)
        rig.output.addGestureRecognizer(swipe)
        rig.watch(pan)
        rig.watch(swipe)
        return (rig, pan, swipe)
    }

    /// Three fingers down together, then up 200 units together.
    func swipeThreeFingersUp(_ rig: GestureRig) {
        rig.frame([fingerDown(1, 200, 800), fingerDown(2, 400, 800), fingerDown(3, 600, 800)])
        rig.frame([fingerMoved(1, 200, 600), fingerMoved(2, 400, 600), fingerMoved(3, 600, 600)])
    }

    @Test func aSurfaceRecognizerAndTheGlobalOneExcludeEachOther() {
        let (rig, _, _) = mailPanAndSystemSwipe()
        swipeThreeFingersUp(rig)
        // Both saw the frame, deepest first: the pan began and the system swipe failed.
        #expect(rig.log.matching("pan:") == ["pan:began"])
        #expect(rig.log.matching("system-swipe:") == ["system-swipe:failed"])
    }

    @Test func theGlobalOneWinsWhenTheSurfaceRecognizerMustWaitForIt() throws {
        let (rig, pan, swipe) = mailPanAndSystemSwipe()
        try pan.require(toFail: swipe)
        swipeThreeFingersUp(rig)
        #expect(rig.log.matching("system-swipe:") == ["system-swipe:recognized"])
        #expect(rig.log.matching("pan:") == ["pan:failed"])
    }
}
