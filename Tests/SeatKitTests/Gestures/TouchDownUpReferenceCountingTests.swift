import Testing
@testable import SeatKit

/// What issue 25's fifteenth round changed in a touch's down and up keeps what recognizers,
/// delegates and targets see: a state set from inside one of the router's touch loops reaches
/// the router unretained (elsewhere, retained as before); the scale a recognizer measures at
/// its first touch is read of the delivering router; an arena's lift walks its entries'
/// unretained links; a surface's recognizers are scanned borrowed at the down; a failure with
/// nothing waiting commits through its own short path.
@Suite struct TouchDownUpReferenceCountingTests {
    // MARK: The state setter

    @Test func aStateSetFromTheCompositorsOwnCodeStillGoesThroughTheRouter() {
        let rig = GestureRig()
        let pan = PanGestureRecognizer(name: "pan", minimumDistance: 100_000)
        let press = LongPressGestureRecognizer(name: "press", minimumPressDuration: .seconds(10))
        rig.output.root.addGestureRecognizer(pan)
        rig.output.root.addGestureRecognizer(press)
        rig.watch(pan)
        rig.watch(press)
        rig.down(1, 100, 100)
        #expect(rig.router.unchecked.touches.loops == 0)
        pan.state = .began
        // Through the router: exclusion failed the press when the pan began.
        #expect(rig.log.matching("pan:") + rig.log.matching("press:") == ["pan:began", "press:failed"])
        #expect(press.state == .failed)
        rig.up(1)
        #expect(pan.state == .possible && press.state == .possible)
    }

    @Test func aFailureAtTheLiftFromInsideThePassStillResolvesItsWaiters() {
        let rig = GestureRig()
        let view = rig.surface("view", 0, 0, 500, 500)
        let tap = TapGestureRecognizer(name: "tap")
        let pan = PanGestureRecognizer(name: "pan", minimumDistance: 100_000)
        view.addGestureRecognizer(tap)
        rig.output.root.addGestureRecognizer(pan)
        try? tap.require(toFail: pan)
        rig.watch(tap)
        var loopsAtFailure = -1
        pan.addTarget { r in if r.state == .failed { loopsAtFailure = rig.router.unchecked.touches.loops } }
        rig.down(1, 100, 100)
        rig.up(1)
        // The pan failed from its `touchesEnded`, inside the delivery pass (the unretained
        // path), and the router let the tap's recognition, waiting for that failure, go ahead.
        #expect(loopsAtFailure > 0)
        #expect(rig.log.matching("tap:") == ["tap:recognized"])
        #expect(tap.state == .possible && pan.state == .possible)
        #expect(tap.touches.isEmpty && pan.touches.isEmpty)
    }

    @Test func aTargetThatRemovesTheSurfaceAtAFailureInThePassLeavesTheNextTouchRouted() {
        let rig = GestureRig()
        let view = rig.surface("view", 0, 0, 500, 500)
        let press = LongPressGestureRecognizer(name: "press", minimumPressDuration: .seconds(10))
        view.addGestureRecognizer(press)
        rig.watch(press)
        press.addTarget { r in if r.state == .failed { view.removeFromParent() } }
        rig.down(1, 100, 100)
        rig.up(1)
        #expect(rig.log.matching("press:") == ["press:failed"])
        #expect(press.state == .possible && press.touches.isEmpty)
        #expect(view.parent == nil)
        rig.down(2, 100, 100)
        #expect(press.touches.isEmpty)
        rig.up(2)
        #expect(rig.router.activeTouchCount == 0)
    }

    // MARK: The scale at the first touch

    @Test func everyRecognizerJoiningADownMeasuresTheScaleOfTheTouchsDevice() {
        let rig = GestureRig()  // device 1: 10 units per mm
        let view = rig.surface("view", 0, 0, 500, 500)
        let pan = PanGestureRecognizer(name: "pan")
        let press = LongPressGestureRecognizer(name: "press", minimumPressDuration: .seconds(10))
        let swipe = SwipeGestureRecognizer(name: "switch", direction: [.left, .right], touches: 3, minimumDistance: 30)
        view.addGestureRecognizer(pan)
        rig.output.root.addGestureRecognizer(press)
        rig.output.addGestureRecognizer(swipe)
        rig.down(1, 100, 100)
        #expect([pan, press, swipe].map(\.layoutUnitsPerMillimetre) == [10, 10, 10])
        rig.up(1)
        // A device the router does not know: the fallback, 127 dpi (about 5 units per mm).
        rig.router.fallbackDotsPerInch = 127
        let fallback = rig.router.unitsPerMillimetre(device: DeviceID(2), at: LayoutPoint(x: 100, y: 100))
        #expect(abs(fallback - 5) < 1e-9)
        rig.router.inject(InputEvent(time: .milliseconds(500), device: DeviceID(2), .touchDown(TouchID(7), LayoutPoint(x: 100, y: 100))))
        rig.router.inject(InputEvent(time: .milliseconds(500), device: DeviceID(2), .touchFrame))
        #expect([pan, press, swipe].map(\.layoutUnitsPerMillimetre) == [fallback, fallback, fallback])
        rig.router.inject(InputEvent(time: .milliseconds(510), device: DeviceID(2), .touchUp(TouchID(7))))
        rig.router.inject(InputEvent(time: .milliseconds(510), device: DeviceID(2), .touchFrame))
        #expect(rig.router.activeTouchCount == 0)
    }

    // MARK: The walk at the down

    @Test func aDelegateThatRemovesTheNextRecognizerOfItsSurfaceAtTheDownLeavesTheWalkWhole() {
        let rig = GestureRig()
        let view = rig.surface("view", 0, 0, 500, 500)
        let first = PanGestureRecognizer(name: "first", minimumDistance: 100_000)
        view.addGestureRecognizer(first)
        weak var weakSecond: PanGestureRecognizer?
        do {
            let second = PanGestureRecognizer(name: "second", minimumDistance: 100_000)
            view.addGestureRecognizer(second)
            weakSecond = second
        }
        let delegate = SimultaneousDelegate()
        delegate.receives = { _ in
            // The surface's list held the only reference to the second recognizer: the walk's
            // copy of the list keeps it until the walk is over.
            if let second = weakSecond { view.removeGestureRecognizer(second) }
            return true
        }
        first.delegate = delegate
        rig.down(1, 100, 100)
        #expect(first.touches.map(\.id) == [TouchID(1)])
        #expect(view.gestureRecognizers.count == 1)
        rig.up(1)
        #expect(first.state == .possible && first.touches.isEmpty)
        // Gone with the walk (or with the arena, if it joined), and never shown a touch again.
        #expect(weakSecond == nil)
        rig.down(2, 100, 100)
        #expect(first.touches.map(\.id) == [TouchID(2)])
        rig.up(2)
        #expect(rig.log.matching("view.") == ["view.began[t1]", "view.ended[t1]", "view.began[t2]", "view.ended[t2]"])
    }

    // MARK: The lift's walk

    @Test func aRecognizerWithdrawnFromTheArenaIsNotShownTheLift() {
        let rig = GestureRig()
        let view = rig.surface("view", 0, 0, 500, 500)
        let pan = PanGestureRecognizer(name: "pan", minimumDistance: 100_000)
        let press = LongPressGestureRecognizer(name: "press", minimumPressDuration: .seconds(10))
        view.addGestureRecognizer(press)
        rig.output.root.addGestureRecognizer(pan)
        rig.watch(pan)
        rig.watch(press)
        rig.down(1, 100, 100)
        view.removeGestureRecognizer(press)
        rig.up(1)
        // The press left with its surface's list (cancelled or failed there, and reset): the
        // lift reaches the pan only.
        #expect(rig.log.matching("pan:") == ["pan:failed"])
        #expect(press.state == .possible && press.touches.isEmpty)
        #expect(pan.state == .possible && pan.touches.isEmpty)
    }
}
