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

    // MARK: The record at the down and the up (issue 25, sixteenth round)

    @Test func aTouchsRecordKeepsItsSurfaceWhileDownAndLetsItGoAtTheEnd() {
        let rig = GestureRig()
        weak var weakView: Surface?
        do {
            let view = rig.surface("view", 0, 0, 500, 500)
            weakView = view
        }
        // The tree alone keeps the surface: a tap neither frees it (a release too many) nor
        // keeps it (a retain too many), twice (the second from a pooled record).
        for id: Int32 in [1, 2] {
            rig.down(id, 100, 100)
            #expect(rig.router.surface(boundTo: TouchID(id)) === weakView)
            rig.up(id)
            #expect(weakView != nil)
        }
        #expect(rig.log.matching("view.") == ["view.began[t1]", "view.ended[t1]", "view.began[t2]", "view.ended[t2]"])
        weakView?.removeFromParent()
        #expect(weakView == nil, "no record, pooled or live, keeps a surface after its touch")
        // Removed mid-touch: let go once the touch is over.
        do {
            let view = rig.surface("view", 0, 0, 500, 500)
            weakView = view
        }
        rig.down(3, 100, 100)
        weakView?.removeFromParent()
        rig.up(3)
        #expect(weakView == nil)
        #expect(rig.router.activeTouchCount == 0)
    }

    @Test func aTouchsRecordLetsItsOutputGoWhenTheTouchIsOver() {
        let rig = GestureRig()
        weak var weakOutput: Output?
        do {
            let second = Output(name: "SECOND", modeSize: Size(width: 1000, height: 1000))
            rig.router.addOutput(second)
            second.position = LayoutPoint(x: 1000, y: 0)
            weakOutput = second
        }
        // A touch on no surface of the second output (device 2 is mapped to none): bound to
        // the output alone.
        rig.router.inject(InputEvent(time: .milliseconds(5), device: DeviceID(2), .touchDown(TouchID(4), LayoutPoint(x: 1500, y: 100))))
        rig.router.inject(InputEvent(time: .milliseconds(5), device: DeviceID(2), .touchFrame))
        rig.router.inject(InputEvent(time: .milliseconds(6), device: DeviceID(2), .touchUp(TouchID(4))))
        rig.router.inject(InputEvent(time: .milliseconds(6), device: DeviceID(2), .touchFrame))
        #expect(rig.router.activeTouchCount == 0)
        if let output = weakOutput { rig.router.removeOutput(output) }
        #expect(weakOutput == nil, "no record, pooled or live, keeps an output after its touch")
    }

    @Test func anArenaGoesBackToThePoolAtTheLiftAndServesTheNextTouch() {
        let rig = GestureRig()
        let view = rig.surface("view", 0, 0, 500, 500)
        let pan = PanGestureRecognizer(name: "pan", minimumDistance: 100_000)
        view.addGestureRecognizer(pan)
        rig.down(1, 100, 100)
        let pooled = rig.router.gestures.unchecked.arenaPool.count
        rig.up(1)
        #expect(rig.router.gestures.unchecked.arenaPool.count == pooled + 1)
        let arena = rig.router.gestures.unchecked.arenaPool.last.map(ObjectIdentifier.init)
        #expect(rig.router.unchecked.touches.pool.allSatisfy { $0.unchecked.arena == nil && $0.unchecked.surface == nil && $0.unchecked.output == nil })
        rig.down(2, 100, 100)
        #expect(rig.router.unchecked.touches.records.first?.unchecked.arena.map(ObjectIdentifier.init) == arena)
        #expect(pan.touches.map(\.id) == [TouchID(2)])
        rig.up(2)
        #expect(pan.state == .possible && pan.touches.isEmpty)
    }

    @Test func aWalkThatStartsAboveTheHitSurfaceGoesOnToTheOutputWhenADelegateRemovesItsStart() {
        let rig = GestureRig()
        weak var weakPanel: Surface?
        let outer = PanGestureRecognizer(name: "outer", minimumDistance: 100_000)
        let inner = PanGestureRecognizer(name: "inner", minimumDistance: 100_000)
        let onOutput = LongPressGestureRecognizer(name: "output", minimumPressDuration: .seconds(10))
        do {
            let panel = rig.surface("panel", 0, 0, 500, 500)
            let leaf = rig.surface("leaf", 0, 0, 200, 200, in: panel)
            // The panel's recognizer leaves out those below it: the walk starts at the panel.
            outer.mask = .gesture
            panel.addGestureRecognizer(outer)
            leaf.addGestureRecognizer(inner)
            weakPanel = panel
        }
        rig.output.addGestureRecognizer(onOutput)
        var asked: [String] = []
        let delegate = SimultaneousDelegate()
        delegate.receives = { _ in
            asked.append("outer")
            // The tree held the walk's start alone: it goes while the walk is on it.
            weakPanel?.removeFromParent()
            return true
        }
        outer.delegate = delegate
        let others = SimultaneousDelegate()
        others.receives = { _ in asked.append("other"); return true }
        inner.delegate = others
        onOutput.delegate = others
        rig.down(1, 100, 100)
        // The panel's recognizer, then the output's; the leaf's is left out by the mask.
        #expect(asked == ["outer", "other"])
        rig.up(1)
        #expect(weakPanel == nil)
        #expect(rig.router.activeTouchCount == 0)
        #expect(outer.touches.isEmpty && inner.touches.isEmpty && onOutput.touches.isEmpty)
        #expect(outer.state == .possible && onOutput.state == .possible)
    }
}
