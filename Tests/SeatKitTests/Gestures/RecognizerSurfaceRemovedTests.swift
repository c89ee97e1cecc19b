import Testing
import SeatKit

/// A surface that goes away mid-gesture takes its recognizers' gestures with it, cleanly:
/// the gesture is cancelled once, the recognizer resets, and nothing is delivered to the
/// removed surface afterwards.
@Suite struct RecognizerSurfaceRemovedTests {
    /// A sheet filling the output with a watched pan, begun by touch 1 (still down).
    func sheetPannedByOneFinger() -> (GestureRig, Surface, PanGestureRecognizer) {
        let rig = GestureRig()
        let sheet = rig.surface("sheet", 0, 0, 1000, 1000)
        let pan = PanGestureRecognizer()
        sheet.addGestureRecognizer(pan)
        rig.watch(pan)
        rig.down(1, 100, 100)
        rig.move(1, 300, 100)
        return (rig, sheet, pan)
    }

    @Test func aRecognizerThatOutlivesItsSurfaceOrOutputForgetsIt() {
        // The recognizer's links to its host do not own it and are not weak: the host clears
        // them as it goes away, so a recognizer kept by someone else never points at a freed
        // surface or output.
        let onSurface = PanGestureRecognizer()
        let global = SwipeGestureRecognizer()
        do {
            let rig = GestureRig()
            let sheet = rig.surface("sheet", 0, 0, 1000, 1000)
            sheet.addGestureRecognizer(onSurface)
            rig.output.addGestureRecognizer(global)
            rig.down(1, 100, 100)
            rig.move(1, 300, 100)
            #expect(onSurface.surface === sheet)
            #expect(global.output === rig.output)
            sheet.removeFromParent()
        }
        #expect(onSurface.surface == nil)
        #expect(onSurface.router == nil)
        #expect(global.output == nil)
        #expect(global.router == nil)
        // Reusable elsewhere.
        let rig = GestureRig()
        let other = rig.surface("other", 0, 0, 1000, 1000)
        other.addGestureRecognizer(onSurface)
        rig.watch(onSurface)
        rig.down(1, 100, 100)
        rig.move(1, 300, 100)
        #expect(onSurface.state == .began)
    }

    @Test func aPanInProgressIsCancelledAndReset() {
        let (rig, sheet, pan) = sheetPannedByOneFinger()
        #expect(pan.state == .began)
        sheet.removeFromParent()
        #expect(rig.log.matching("pan:") == ["pan:began", "pan:cancelled"])
        #expect(pan.state == .possible)
        rig.move(1, 400, 100)
        rig.up(1)
        #expect(rig.log.matching("pan:") == ["pan:began", "pan:cancelled"])
        #expect(rig.router.activeTouchCount == 0)
    }

    @Test func aWaitingDoubleTapIsFailedAndItsTimerDropped() {
        let rig = GestureRig()
        let photo = rig.surface("photo", 0, 0, 1000, 1000)
        let double = TapGestureRecognizer(name: "double", taps: 2)
        photo.addGestureRecognizer(double)
        rig.watch(double)
        rig.down(1, 100, 100)
        rig.up(1)
        #expect(rig.clock.nextDeadline != nil)
        photo.removeFromParent()
        #expect(rig.log.matching("double:") == ["double:failed"])
        #expect(rig.clock.nextDeadline == nil)
        #expect(double.tapCount == 0)
    }

    @Test func anAncestorsRecognizerIsCancelledWhenItsSubtreeGoes() {
        let rig = GestureRig()
        let window = rig.surface("window", 0, 0, 1000, 1000)
        rig.surface("content", 0, 0, 1000, 1000, in: window)
        let press = LongPressGestureRecognizer()
        window.addGestureRecognizer(press)
        rig.watch(press)
        rig.down(1, 100, 100)
        rig.wait(500)
        #expect(press.state == .began)
        window.removeFromParent()
        #expect(rig.log.matching("long-press:") == ["long-press:began", "long-press:cancelled"])
        // The content had seen the touch and was told it was cancelled when the press took
        // it, not again when it was removed.
        #expect(rig.log.matching("content.") == ["content.began[t1]", "content.cancelled[t1]"])
    }

    @Test func removingTheRecognizerItselfCancelsItsGesture() {
        let (rig, sheet, pan) = sheetPannedByOneFinger()
        sheet.removeGestureRecognizer(pan)
        #expect(rig.log.matching("pan:") == ["pan:began", "pan:cancelled"])
        #expect(sheet.gestureRecognizers.isEmpty)
        rig.move(1, 400, 100)
        #expect(rig.log.matching("pan:") == ["pan:began", "pan:cancelled"])
        // The touch stays withdrawn from the sheet until it ends.
        #expect(rig.log.matching("sheet.moved").isEmpty)
    }

    @Test func removingTheOutputCancelsItsGlobalRecognizer() {
        let rig = GestureRig()
        let edge = ScreenEdgePanGestureRecognizer()
        rig.output.addGestureRecognizer(edge)
        rig.watch(edge)
        rig.down(1, 10, 500)
        rig.move(1, 200, 500)
        #expect(edge.state == .began)
        rig.router.removeOutput(rig.output)
        #expect(rig.log.matching("edge-pan:") == ["edge-pan:began", "edge-pan:cancelled"])
        #expect(edge.state == .possible)
    }
}

@Suite("Recognizers keep no phantom touches")
struct PhantomTouchTests {
    @Test func aGlobalLongPressEndsWhenItsTouchSurfaceIsRemovedAndTapsWorkAfterwards() {
        let rig = GestureRig()
        let window = rig.surface("window", 0, 0, 400, 400)
        let other = rig.surface("other", 500, 0, 400, 400)
        let press = LongPressGestureRecognizer(name: "global-press")
        rig.output.addGestureRecognizer(press)
        let tap = TapGestureRecognizer(name: "tap")
        other.addGestureRecognizer(tap)
        var tapped = 0
        tap.addTarget { if $0.state == .recognized { tapped += 1 } }
        rig.down(1, 100, 100)
        rig.wait(600)
        #expect(press.state == .began)
        window.removeFromParent()
        // The touch is gone, so the press is over: cancelled and reset, holding nothing.
        #expect(press.state == .possible)
        #expect(press.touches.isEmpty)
        rig.up(1)
        rig.down(2, 600, 100)
        rig.up(2)
        rig.wait(400)
        #expect(tapped == 1)
    }

    @Test func aPinchLosingOneFingerToARemovalNeverRunsOnOneFinger() {
        let rig = GestureRig()
        let left = rig.surface("left", 0, 0, 400, 1000)
        let right = rig.surface("right", 500, 0, 400, 1000)
        let pinch = PinchGestureRecognizer()
        rig.output.addGestureRecognizer(pinch)
        var states: [GestureRecognizerState] = []
        pinch.addTarget { states.append($0.state) }
        rig.frame([.touchDown(TouchID(1), LayoutPoint(x: 300, y: 500)), .touchDown(TouchID(2), LayoutPoint(x: 600, y: 500))])
        rig.frame([.touchMotion(TouchID(1), LayoutPoint(x: 200, y: 500)), .touchMotion(TouchID(2), LayoutPoint(x: 700, y: 500))])
        rig.frame([.touchMotion(TouchID(1), LayoutPoint(x: 100, y: 500)), .touchMotion(TouchID(2), LayoutPoint(x: 800, y: 500))])
        #expect(pinch.state.isInProgress)
        right.removeFromParent()
        #expect(pinch.touches.count <= 1)
        #expect(!pinch.state.isInProgress)
        rig.move(1, 50, 500)
        #expect(!pinch.state.isInProgress)
        #expect(states.last == .cancelled || states.last == .ended)
        _ = left
    }
}
