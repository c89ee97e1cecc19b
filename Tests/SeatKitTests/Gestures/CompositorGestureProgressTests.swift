import Testing
import SeatKit

/// Compositor gestures (KWin's global gestures): progress 0...1 toward the commit threshold
/// while the fingers move; ended commits, cancelled means undo.
@Suite struct CompositorGestureProgressTests {
    /// Logs "state progress" at every transition of `recognizer`.
    func watchProgress(_ recognizer: GestureRecognizer) -> () -> [String] {
        var lines: [String] = []
        recognizer.addTarget { r in
            let p = (r.progress * 100).rounded() / 100
            lines.append("\(r.state) \(p)")
        }
        return { lines }
    }

    func threeFingerSwitch(_ rig: GestureRig) -> SwipeGestureRecognizer {
        let swipe = SwipeGestureRecognizer(name: "switch", direction: [.left, .right], touches: 3, minimumDistance: 20)
        swipe.reportsProgress = true
        rig.output.addGestureRecognizer(swipe)
        return swipe
    }

    func threeFingers(_ rig: GestureRig, at x: Double) -> [InputEvent.Kind] {
        [fingerMoved(1, x, 300), fingerMoved(2, x, 500), fingerMoved(3, x, 700)]
    }

    func putThreeFingersDown(_ rig: GestureRig, at x: Double) {
        rig.frame([.touchDown(TouchID(1), LayoutPoint(x: x, y: 300)), .touchDown(TouchID(2), LayoutPoint(x: x, y: 500)),
                   .touchDown(TouchID(3), LayoutPoint(x: x, y: 700))])
    }

    @Test func aThreeFingerSwipeFollowsTheFingersAndCommitsPastItsThreshold() {
        let rig = GestureRig()  // 10 units per mm: the 20 mm threshold is 200 units
        rig.surface("app", 0, 0, 1000, 1000)
        let swipe = threeFingerSwitch(rig)
        let lines = watchProgress(swipe)
        putThreeFingersDown(rig, at: 800)
        for x in [790.0, 760, 700, 650, 700, 560] { rig.frame(threeFingers(rig, at: x)) }
        #expect(swipe.recognizedDirection == .left)
        rig.frame([fingerUp(1), fingerUp(2), fingerUp(3)])
        // Began once the stroke had a direction (3 mm), back down when the fingers went back.
        #expect(lines() == ["began 0.2", "changed 0.5", "changed 0.75", "changed 0.5", "changed 1.0", "ended 1.0"])
        #expect(rig.log.matching("app.cancelled") == ["app.cancelled[t1]", "app.cancelled[t2]", "app.cancelled[t3]"])
        #expect(swipe.progress == 0)  // reset
    }

    @Test func liftingShortOfTheThresholdCancelsMeaningUndo() {
        let rig = GestureRig()
        let swipe = threeFingerSwitch(rig)
        let lines = watchProgress(swipe)
        putThreeFingersDown(rig, at: 800)
        for x in [760.0, 700, 580, 700] { rig.frame(threeFingers(rig, at: x)) }  // past 1, then back to 0.5
        rig.frame([fingerUp(1), fingerUp(2), fingerUp(3)])
        #expect(lines() == ["began 0.2", "changed 0.5", "changed 1.0", "changed 0.5", "cancelled 0.5"])
    }

    @Test func aLiveSwipeHasNoTimeLimitAndAWrongDirectionFailsIt() {
        let rig = GestureRig()
        let swipe = SwipeGestureRecognizer(name: "switch", direction: .left, touches: 1, minimumDistance: 20)
        swipe.reportsProgress = true
        rig.output.addGestureRecognizer(swipe)
        let lines = watchProgress(swipe)
        rig.step = 200  // far slower than the 400 ms of a discrete swipe
        rig.down(1, 800, 500)
        for x in [760.0, 700, 590] { rig.move(1, x, 500) }
        rig.up(1)
        #expect(lines() == ["began 0.2", "changed 0.5", "changed 1.0", "ended 1.0"])
        rig.down(2, 500, 500)
        rig.move(2, 560, 500)
        #expect(lines().last == "failed 0.0")
    }

    @Test func aCancelledTouchCancelsTheGestureInProgress() {
        let rig = GestureRig()
        let swipe = threeFingerSwitch(rig)
        let lines = watchProgress(swipe)
        putThreeFingersDown(rig, at: 800)
        rig.frame(threeFingers(rig, at: 700))
        rig.frame([.touchCancel(TouchID(1)), .touchCancel(TouchID(2)), .touchCancel(TouchID(3))])
        #expect(lines() == ["began 0.5", "cancelled 0.5"])
    }

    @Test func anEdgeSwipeCommitsOnlyPastItsCommitDistance() {
        let rig = GestureRig()
        let edge = ScreenEdgePanGestureRecognizer(edges: .left, minimumDistance: 5, commitDistance: 40)
        rig.output.addGestureRecognizer(edge)
        let lines = watchProgress(edge)
        rig.down(1, 10, 500)
        for x in [70.0, 210, 410, 450] { rig.move(1, x, 500) }
        rig.up(1)
        rig.wait(500)
        rig.down(2, 10, 500)
        for x in [70.0, 210] { rig.move(2, x, 500) }
        rig.up(2)
        #expect(lines() == ["began 0.15", "changed 0.5", "changed 1.0", "changed 1.0", "ended 1.0",
                            "began 0.15", "changed 0.5", "cancelled 0.5"])
    }

    @Test func aPinchCommitsPastItsScaleChange() {
        let rig = GestureRig()
        let pinch = PinchGestureRecognizer(commitScaleChange: 0.5)
        rig.output.addGestureRecognizer(pinch)
        let lines = watchProgress(pinch)
        rig.frame([.touchDown(TouchID(1), LayoutPoint(x: 400, y: 500)), .touchDown(TouchID(2), LayoutPoint(x: 600, y: 500))])
        for d in [140.0, 150] { rig.frame([fingerMoved(1, 500 - d, 500), fingerMoved(2, 500 + d, 500)]) }
        rig.frame([fingerUp(1), fingerUp(2)])
        #expect(lines() == ["began 0.8", "changed 1.0", "ended 1.0"])
        rig.frame([.touchDown(TouchID(3), LayoutPoint(x: 400, y: 500)), .touchDown(TouchID(4), LayoutPoint(x: 600, y: 500))])
        rig.frame([fingerMoved(3, 360, 500), fingerMoved(4, 640, 500)])
        rig.frame([fingerUp(3), fingerUp(4)])
        #expect(lines().suffix(2) == ["began 0.8", "cancelled 0.8"])
    }

    @Test func touchpadSwipeAndPinchReportProgressAndUndoShortOfTheThreshold() {
        let rig = GestureRig()
        rig.surface("browser", 0, 0, 1000, 1000)
        rig.send(.pointerMotionAbsolute(LayoutPoint(x: 500, y: 500)))
        let swipe = TouchpadSwipeGestureRecognizer(fingers: 3, commitDistance: 100)
        let pinch = TouchpadPinchGestureRecognizer(commitScaleChange: 0.5)
        rig.output.addGestureRecognizer(swipe)
        rig.output.addGestureRecognizer(pinch)
        let swipeLines = watchProgress(swipe)
        let pinchLines = watchProgress(pinch)
        func send(_ kind: TouchpadGesture.Kind, _ phase: GesturePhase, _ fingers: Int, dx: Double = 0, scale: Double = 1) {
            rig.wait(10)
            rig.send(.touchpadGesture(TouchpadGesture(kind: kind, phase: phase, fingers: fingers, delta: Vector(dx: dx, dy: 0), scale: scale)))
        }
        send(.swipe, .begin, 3)
        for dx in [40.0, 40, 40] { send(.swipe, .update, 3, dx: dx) }
        send(.swipe, .end(cancelled: false), 3)
        send(.swipe, .begin, 3)
        send(.swipe, .update, 3, dx: 40)
        send(.swipe, .end(cancelled: false), 3)
        #expect(swipeLines() == ["began 0.0", "changed 0.4", "changed 0.8", "changed 1.0", "ended 1.0",
                                 "began 0.0", "changed 0.4", "cancelled 0.4"])
        send(.pinch, .begin, 2)
        send(.pinch, .update, 2, scale: 0.8)
        send(.pinch, .end(cancelled: false), 2)
        #expect(pinchLines().suffix(3) == ["began 0.0", "changed 0.4", "cancelled 0.4"])
    }

    @Test func withoutAThresholdProgressStaysZeroAndEveryLiftEnds() {
        let rig = GestureRig()
        let edge = ScreenEdgePanGestureRecognizer(edges: .left)
        rig.output.addGestureRecognizer(edge)
        let lines = watchProgress(edge)
        rig.down(1, 10, 500)
        for x in [70.0, 90] { rig.move(1, x, 500) }
        rig.up(1)
        #expect(lines() == ["began 0.0", "changed 0.0", "ended 0.0"])
    }
}
