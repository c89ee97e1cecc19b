import Testing
@testable import SeatKit

/// What the gesture-graph soak found once it had composites, high priority, pointer drags,
/// pens and masks (GestureGraphSoakTests), one test per finding, named after the behaviour.
@Suite struct GestureSoakCompositeFindingsTests {
    @Test func aPartThatBeganHearsCancelledAsSoonAsItsCompositeIsRefused() {
        let rig = GestureRig()
        let map = rig.surface("map", 0, 0, 1000, 1000)
        let pan = PanGestureRecognizer(name: "pan", minimumDistance: 1)
        let tap = TapGestureRecognizer(name: "tap")
        let either = pan.exclusively(before: tap, name: "either")
        let refusing = SimultaneousDelegate()
        refusing.refusesBegin = true
        either.delegate = refusing
        map.addGestureRecognizer(either)
        [pan, tap, either].forEach(rig.watch)
        rig.down(1, 100, 100)
        rig.move(1, 130, 100)
        // The finger is still down: the part must not be left "began" until some later reset.
        #expect(rig.log.entries.filter { $0.contains(":") } == ["pan:began", "tap:failed", "either:failed", "pan:cancelled"])
        rig.up(1)
        #expect(pan.state == .possible && either.state == .possible)
        #expect(rig.log.matching("pan:") == ["pan:began", "pan:cancelled"], "told once")
    }

    @Test func aPartThatBeganHearsCancelledEvenWhenTheRefusedCompositesHandlerRemovesItsSurface() {
        // Seed 5315: the composite, refused, failed; its target removed the surface, which
        // reset it inside the part's decision, and the part that began was reset unheard.
        let rig = GestureRig()
        let map = rig.surface("map", 0, 0, 1000, 1000)
        let pan = PanGestureRecognizer(name: "pan", minimumDistance: 1)
        let tap = TapGestureRecognizer(name: "tap")
        let either = pan.exclusively(before: tap, name: "either")
        let refusing = SimultaneousDelegate()
        refusing.refusesBegin = true
        either.delegate = refusing
        map.addGestureRecognizer(either)
        [pan, either].forEach(rig.watch)
        either.addTarget { c in if c.state == .failed { map.removeFromParent() } }
        rig.down(1, 100, 100)
        rig.move(1, 130, 100)
        #expect(rig.log.matching("pan:") == ["pan:began", "pan:cancelled"])
        #expect(pan.state == .possible && either.state == .possible)
    }

    @Test func theFirstPartOfASequenceHearsCancelledWhenTheSequenceEnds() {
        let rig = GestureRig()
        let map = rig.surface("map", 0, 0, 1000, 1000)
        let hold = LongPressGestureRecognizer(name: "hold", minimumPressDuration: .milliseconds(200), allowableMovement: 5)
        let drag = PanGestureRecognizer(name: "drag", minimumDistance: 2)
        let holdThenDrag = hold.sequenced(before: drag, name: "hold-drag")
        map.addGestureRecognizer(holdThenDrag)
        [hold, drag, holdThenDrag].forEach(rig.watch)
        rig.down(1, 100, 100)
        rig.wait(250)
        rig.move(1, 160, 100)
        rig.up(1)
        #expect(rig.log.matching("hold") == [
            "hold:began", "hold-drag:began", "hold-drag:changed", "hold-drag:ended", "hold:cancelled"])
    }

    /// simultaneously(pan, tap) on "map"; `onPanBegan` runs in the pan's target at its begin.
    func panAndTap(onPanBegan: @escaping (Surface, SimultaneousGestureRecognizer) -> Void) -> (GestureRig, SimultaneousGestureRecognizer, PanGestureRecognizer) {
        let rig = GestureRig()
        let map = rig.surface("map", 0, 0, 1000, 1000)
        let pan = PanGestureRecognizer(name: "pan", minimumDistance: 1)
        let tap = TapGestureRecognizer(name: "tap")
        let both = pan.simultaneously(with: tap, name: "both")
        map.addGestureRecognizer(both)
        [pan, tap, both].forEach(rig.watch)
        pan.addTarget { [unowned both] p in if p.state == .began { onPanBegan(map, both) } }
        return (rig, both, pan)
    }

    @Test func aCompositeWhoseSurfaceAPartsTargetRemovedIsNotLeftInProgress() {
        // Seed 192: the target removed the surface, the composite failed and reset, and the
        // rest of the part's decision then began the reset composite, detached, for ever.
        let (rig, both, pan) = panAndTap { map, _ in map.removeFromParent() }
        rig.down(1, 100, 100)
        rig.move(1, 130, 100)
        #expect(both.state == .possible && pan.state == .possible)
        #expect(rig.log.matching("both:") == ["both:failed"])
        rig.up(1)
        #expect(both.state == .possible)
    }

    @Test func aCompositeDisabledByAPartsTargetIsNotLeftInProgress() {
        // Seeds 80 and 94 of the first extended soak: disabled from a handler mid-decision,
        // the composite was left began, engaged in nothing, after every finger lifted.
        let (rig, both, pan) = panAndTap { _, both in both.isEnabled = false }
        rig.down(1, 100, 100)
        rig.move(1, 130, 100)
        rig.up(1)
        rig.wait(1000)
        #expect(both.state == .possible && pan.state == .possible)
        #expect(!both.unchecked.isEngaged && rig.router.activeTouchCount == 0)
        #expect(rig.log.matching("both:") == ["both:failed"])
    }

    @Test func disablingARecognizerInProgressCancelsItAtOnce() {
        let rig = GestureRig()
        let map = rig.surface("map", 0, 0, 1000, 1000, handles: ["began", "moved", "ended"])
        let pan = PanGestureRecognizer(name: "pan", minimumDistance: 1)
        map.addGestureRecognizer(pan)
        rig.watch(pan)
        rig.down(1, 100, 100)
        rig.move(1, 130, 100)
        #expect(pan.state == .began)
        pan.isEnabled = false
        #expect(rig.log.matching("pan:") == ["pan:began", "pan:cancelled"])
        #expect(pan.state == .possible && pan.touches.isEmpty, "reset, and out of the touch")
        rig.move(1, 160, 100)
        rig.up(1)
        #expect(rig.log.matching("pan:") == ["pan:began", "pan:cancelled"], "a disabled recognizer sees no more of it")
        #expect(rig.router.activeTouchCount == 0)
        pan.isEnabled = true
        rig.down(2, 100, 100)
        rig.move(2, 130, 100)
        #expect(pan.state == .began, "enabled again, it follows the next touch")
    }

    @Test func disablingAPossibleRecognizerFailsItAndReleasesTheTouchesItHeld() {
        let rig = GestureRig()
        let button = rig.surface("button", 0, 0, 500, 500, handles: ["began", "ended"])
        let press = LongPressGestureRecognizer(name: "press", minimumPressDuration: .milliseconds(500))
        press.delaysTouchesBegan = true
        button.addGestureRecognizer(press)
        rig.watch(press)
        rig.down(1, 100, 100)
        #expect(rig.log.matching("button.").isEmpty, "held while the press is possible")
        press.isEnabled = false
        #expect(rig.log.entries == ["press:failed", "button.began[t1]"])
        rig.wait(600)
        rig.up(1)
        #expect(rig.log.entries == ["press:failed", "button.began[t1]", "button.ended[t1]"])
    }

    @Test func disablingACompositeInProgressCancelsItAndThePartThatBegan() {
        let rig = GestureRig()
        let map = rig.surface("map", 0, 0, 1000, 1000)
        let pinch = PinchGestureRecognizer(name: "pinch")
        let pan = PanGestureRecognizer(name: "pan", minimumDistance: 1)
        let both = pinch.simultaneously(with: pan, name: "both")
        map.addGestureRecognizer(both)
        [pinch, pan, both].forEach(rig.watch)
        rig.down(1, 100, 100)
        rig.move(1, 130, 100)
        #expect(both.state == .began && pan.state == .began)
        both.isEnabled = false
        #expect(rig.log.entries.filter { $0.contains(":") } == ["pan:began", "both:began", "both:cancelled", "pan:cancelled"])
        #expect(both.state == .possible && pan.state == .possible && pinch.state == .possible)
        rig.up(1)
        rig.wait(1000)
        #expect(rig.log.entries.filter { $0.contains(":") }.count == 4, "nothing more once disabled")
    }

    @Test func disablingAPartInProgressCancelsThePartAndItsComposite() {
        let rig = GestureRig()
        let map = rig.surface("map", 0, 0, 1000, 1000)
        let pan = PanGestureRecognizer(name: "pan", minimumDistance: 1)
        let tap = TapGestureRecognizer(name: "tap")
        let either = pan.exclusively(before: tap, name: "either")
        map.addGestureRecognizer(either)
        [pan, either].forEach(rig.watch)
        rig.down(1, 100, 100)
        rig.move(1, 130, 100)
        pan.isEnabled = false
        #expect(rig.log.entries.filter { $0.contains(":") } == ["pan:began", "either:began", "pan:cancelled", "either:cancelled"])
        rig.up(1)
        #expect(either.state == .possible && pan.state == .possible)
    }

    @Test func aPenTapThatWaitedForADoubleTapTakesTheStrokeAtTheUpAndTheCanvasHearsOnlyTheCancel() {
        // Seed 1301: closing the pen arena failed the double tap, the tap waiting for it took
        // the stroke (the canvas was told a cancelled up), and the canvas heard the up too.
        let h = PenHarness()
        let canvas = h.surface("canvas", 0, 0, 400, 400)
        let tap = TapGestureRecognizer(name: "tap")
        let double = TapGestureRecognizer(name: "double", taps: 2)
        try! tap.require(toFail: double)
        canvas.addGestureRecognizer(double)     // settled first when the arena closes
        canvas.addGestureRecognizer(tap)
        h.proximityIn(100, 100)
        h.down(100, 100)
        h.up(100, 100)
        #expect(h.log.entries == ["canvas.penEnter", "canvas.penDown", "canvas.penCancel"])
    }

    @Test func aPenSurfaceRemovedWhileARecognizersHandlerRemovesAnotherHearsTheCancelledUpOnce() {
        // Seed 1490: stopping the stroke failed the pan, whose target removed another surface;
        // the nested removal told the stroke's surface its end, then the outer one again.
        let h = PenHarness()
        let canvas = h.surface("canvas", 0, 0, 400, 400)
        let other = h.surface("other", 500, 0, 100, 100)
        let pan = PanGestureRecognizer(name: "pan")
        canvas.addGestureRecognizer(pan)
        pan.addTarget { p in if p.state == .failed { other.removeFromParent() } }
        h.proximityIn(100, 100)
        h.down(100, 100)
        canvas.removeFromParent()
        #expect(h.log.entries == ["canvas.penEnter", "canvas.penDown", "canvas.penCancel", "canvas.penLeave"])
    }

    @Test func aTouchEndHeldForATapGoesOutWhenAPointerReleaseDecidesTheTap() {
        // Seed 518: the tap held the finger's end while it waited for a recognizer following
        // the mouse; the button's release decided it, and nothing settled the held end: the
        // touch stayed recorded for ever.
        let rig = GestureRig()
        let button = rig.surface("button", 0, 0, 500, 500, handles: ["began", "ended"])
        let tap = TapGestureRecognizer(name: "tap")
        let drag = HandDrivenRecognizer("drag") { _ in }
        drag.allowedInputKinds = [.pointer]
        try! tap.require(toFail: drag)
        button.addGestureRecognizer(tap)
        button.addGestureRecognizer(drag)
        rig.watch(tap)
        rig.send(.pointerMotionAbsolute(LayoutPoint(x: 200, y: 200)))
        rig.send(.pointerButton(button: 0x110, state: .pressed))     // the drag follows the press
        rig.down(1, 100, 100)
        rig.up(1)
        #expect(rig.log.matching("tap:").isEmpty, "the tap waits for the drag")
        #expect(rig.log.matching("button.") == ["button.began[t1]"], "its end held back")
        rig.send(.pointerButton(button: 0x110, state: .released))    // the drag fails: the tap goes
        #expect(rig.log.matching("tap:") == ["tap:recognized"])
        #expect(rig.log.matching("button.") == ["button.began[t1]", "button.cancelled[t1]"])
        #expect(rig.router.gestures.unchecked.heldTouches.isEmpty)
        #expect(rig.router.unchecked.touches.records.isEmpty, "the touch's record is gone")
    }

    @Test func aRecognizerFollowingAMouseDragAsATouchSitsAPenStrokeOut() {
        // Seed 1228: a tap following a left-button drag joined a pen stroke too; the two
        // emulated touches shared one slot, the drag's was never lifted, and the tap stayed
        // failed, holding it, after every input ended.
        let h = PenHarness()
        let canvas = h.surface("canvas", 0, 0, 400, 400)
        let tap = TapGestureRecognizer(name: "tap")
        tap.allowedInputKinds = [.touch, .pen, .pointer]
        canvas.addGestureRecognizer(tap)
        func mouse(_ kind: InputEvent.Kind) {
            h.time += 1
            h.clock.advance(to: .milliseconds(h.time))
            h.router.inject(InputEvent(time: .milliseconds(h.time), device: DeviceID(3), kind))
        }
        mouse(.pointerMotionAbsolute(LayoutPoint(x: 50, y: 50)))
        mouse(.pointerButton(button: 0x110, state: .pressed))
        #expect(tap.touches.map(\.id) == [TouchID(-1)], "the drag, as a touch")
        h.proximityIn(100, 100)
        h.down(100, 100)
        #expect(tap.touches.map(\.id) == [TouchID(-1)], "the pen stroke is not a second touch of the tap")
        h.up(100, 100)
        h.proximityOut(100, 100)
        mouse(.pointerButton(button: 0x110, state: .released))
        #expect(tap.touches.isEmpty && tap.state == .possible)
    }

    /// Runs `onBegan` when it sees touches (a pen stroke's down) begin.
    final class CallsOnBegan: GestureRecognizer {
        var onBegan: () -> Void = {}
        override var supportedInputKinds: GestureInputKinds { [.touch, .pen] }
        override func touchesBegan(_ event: TouchEvent) { onBegan() }
    }

    @Test func aPenSurfaceRemovedWhileRecognizersSeeTheDownIsToldNoCancelledUpForADownItNeverSaw() {
        // Seed 5210: a recognizer's handler removed the surface while the recognizers saw the
        // down; the surface was told a cancelled up of a stroke whose down it never got.
        let h = PenHarness()
        let canvas = h.surface("canvas", 0, 0, 400, 400)
        let r = CallsOnBegan(name: "remover")
        r.allowedInputKinds = [.touch, .pen]
        r.onBegan = { canvas.removeFromParent() }
        canvas.addGestureRecognizer(r)
        h.proximityIn(100, 100)
        h.down(100, 100)
        h.up(100, 100)
        #expect(h.log.entries == ["canvas.penEnter", "canvas.penLeave"])
    }

    // The 10,000 × 2,000 soak (issue 30, seventh round): a composite shows the touch to its
    // first part, then to its second. What the first part's delivery did to the composite
    // must hold for the second.

    @Test func aCompositeResetWhileItsFirstPartSeesATouchShowsTheSecondPartNothing() {
        // Seeds 36, 7081, 8519, 8532, 9580 (began following no input), 4086, 7756 (left
        // began or cancelled) and 3317 (failed -> ended): the first part's handler cancelled
        // the touch, the composite failed and reset, and the second part was still shown the
        // touch's began: its timer later began the reset composite, which followed no input.
        let rig = GestureRig()
        let map = rig.surface("map", 0, 0, 1000, 1000)
        let canceller = CallsOnBegan(name: "canceller")
        canceller.onBegan = { rig.router.cancelTouches(reason: "test") { _ in true } }
        let hold = LongPressGestureRecognizer(name: "hold", minimumPressDuration: .milliseconds(300))
        let both = canceller.simultaneously(with: hold, name: "both")
        map.addGestureRecognizer(both)
        [canceller, hold, both].forEach(rig.watch)
        rig.down(1, 100, 100)
        #expect(hold.touches.isEmpty, "the second part never saw the cancelled touch")
        rig.wait(1000)
        #expect(rig.log.matching("hold:") == ["hold:failed"], "it failed with the gesture, and no timer of it outlived the gesture")
        #expect(rig.log.matching("both:") == ["both:failed"])
        #expect(both.state == .possible && hold.state == .possible && !both.unchecked.isEngaged)
    }

    @Test func aSequencesSecondPartStartedAtTheFirstPartsBeginSeesThatTouchOnceAndItsEnd() {
        // Seeds 2785 and 3245: the first part began as the finger went down; the second part
        // started from the touches down then, and the composite showed it the same began
        // again. Following the finger twice, it did not see its end as the last, stayed
        // possible, and the sequence stayed began after the finger lifted.
        let rig = GestureRig()
        let map = rig.surface("map", 0, 0, 1000, 1000)
        let starter = CallsOnBegan(name: "starter")
        starter.onBegan = { [unowned starter] in starter.state = .began }
        let drag = PanGestureRecognizer(name: "drag", minimumDistance: 2)
        let sequence = starter.sequenced(before: drag, name: "sequence")
        map.addGestureRecognizer(sequence)
        [starter, drag, sequence].forEach(rig.watch)
        rig.down(1, 100, 100)
        #expect(sequence.stage == .second && sequence.state == .began)
        #expect(drag.touches.map(\.id) == [TouchID(1)], "once")
        rig.up(1)
        #expect(rig.log.matching("sequence:") == ["sequence:began", "sequence:cancelled"])
        #expect(rig.log.matching("drag:") == ["drag:failed"])
        #expect(sequence.state == .possible && !sequence.unchecked.isEngaged)
    }

    @Test func aCompositeDetachedByItsHandlerAsItsFirstPartSeesAnEndIsNotBegunByTheSecond() {
        // Seed 4086: at the finger's end the first part failed, the composite failed and its
        // target detached it, which reset its parts; the second part, reset to possible and
        // shown the end after, was recognized and began the detached composite with no router
        // to tell (left began for ever).
        let rig = GestureRig()
        let map = rig.surface("map", 0, 0, 1000, 1000)
        let pan = PanGestureRecognizer(name: "pan", minimumDistance: 50)
        let recognizer = FailsThenRecognizes(name: "recognizer")
        let both = pan.simultaneously(with: recognizer, name: "both")
        map.addGestureRecognizer(both)
        [pan, recognizer, both].forEach(rig.watch)
        both.addTarget { b in if b.state == .failed { map.removeGestureRecognizer(b) } }
        rig.down(1, 100, 100)
        rig.up(1)
        #expect(rig.log.matching("both:") == ["both:failed"])
        #expect(rig.log.matching("recognizer:") == ["recognizer:failed"], "the second part saw nothing of a gesture that was over")
        #expect(both.state == .possible)
    }

    /// Fails as its touches begin; if it is possible when they end (after a reset), recognized.
    final class FailsThenRecognizes: GestureRecognizer {
        override func touchesBegan(_ event: TouchEvent) { failIfPossible() }
        override func touchesEnded(_ event: TouchEvent) { if state == .possible { state = .recognized } }
    }
}
