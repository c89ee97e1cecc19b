import Testing
@testable import SeatKit

/// One engine for every device (issue 30, goal 5): a recognizer follows the kinds of input it
/// is allowed; a pen stroke and a left-button drag reach the built-in touch recognizers as
/// one touch, and a pinch follows libinput's touchpad pinch when allowed.
@Suite struct InputKindsTests {
    /// A pen harness whose surface "canvas" (0,0 400×400) has `recognizer`, watched in the
    /// harness log as "name:state".
    func canvas(with recognizer: GestureRecognizer) -> (PenHarness, Surface) {
        let h = PenHarness()
        let canvas = h.surface("canvas", 0, 0, 400, 400)
        canvas.addGestureRecognizer(recognizer)
        let log = h.log
        recognizer.addTarget { r in log.add("\(r.name):\(r.state)") }
        return (h, canvas)
    }

    @Test func theBuiltInsSayWhichKindsTheyFollow() {
        let pan = PanGestureRecognizer()
        #expect(pan.supportedInputKinds == [.touch, .pen, .pointer])
        #expect(pan.inputKinds == [.touch, .pen], "mouse drags only on request")
        pan.allowedInputKinds.insert(.pointer)
        #expect(pan.inputKinds == [.touch, .pen, .pointer])
        #expect(PinchGestureRecognizer().supportedInputKinds == [.touch, .touchpad])
        #expect(PinchGestureRecognizer().inputKinds == [.touch])
        #expect(TouchpadSwipeGestureRecognizer().inputKinds == [.touchpad])
        #expect(SwipeGestureRecognizer().inputKinds == [.touch], "a swipe takes no pen")
        let tap = TapGestureRecognizer()
        tap.allowedInputKinds = .all
        #expect(tap.inputKinds == [.touch, .pen, .pointer], "allowed kinds beyond the supported ones are not followed")
    }

    /// A recognizer whose `receives…` getters and `supportedInputKinds` are its own, counting
    /// their calls (``GestureRecognizer/takesPart(_:)`` asks fewer of them than `inputKinds`).
    final class KindsProbe: GestureRecognizer {
        var readsTouches = true, readsTouchpad = false, readsPointer = false
        var supported: GestureInputKinds?
        var getterCalls = 0
        override var receivesTouches: Bool { getterCalls += 1; return readsTouches }
        override var receivesTouchpadGestures: Bool { getterCalls += 1; return readsTouchpad }
        override var receivesPointerEvents: Bool { getterCalls += 1; return readsPointer }
        override var supportedInputKinds: GestureInputKinds { supported ?? defaultSupportedInputKinds }
    }

    @Test func takingPartInAKindIsFollowingItWhateverTheGettersSay() {
        // Every combination of the native getters, with the default supported kinds or a
        // supported set of its own, and the default or a set allowed set: takesPart answers
        // as inputKinds.contains, for each kind alone and for kinds together.
        let kinds: [GestureInputKinds] = [.touch, .touchpad, .pointer, .pen, [.touch, .pen], [.touch, .touchpad], []]
        let supportedSets: [GestureInputKinds?] = [nil, [.touch, .pen], [.touchpad, .pointer], .all]
        let allowedSets: [GestureInputKinds?] = [nil, [.touch], [.pen, .pointer], .all]
        var compared = 0
        for bits in 0..<8 {
            for supported in supportedSets {
                for allowed in allowedSets {
                    let probe = KindsProbe(name: "probe")
                    probe.readsTouches = bits & 1 != 0
                    probe.readsTouchpad = bits & 2 != 0
                    probe.readsPointer = bits & 4 != 0
                    probe.supported = supported
                    if let allowed { probe.allowedInputKinds = allowed }
                    for kind in kinds {
                        #expect(probe.takesPart(kind) == probe.inputKinds.contains(kind),
                                "getters \(bits), supported \(String(describing: supported)), allowed \(String(describing: allowed)), kind \(kind)")
                        compared += 1
                    }
                    probe.isEnabled = false
                    #expect(!probe.takesPart(.touch), "a disabled recognizer takes part in nothing")
                }
            }
        }
        #expect(compared == 8 * 4 * 4 * kinds.count)
        // With the default allowed kinds, a touch asks the touch getter once more than the
        // supported kinds do, not every getter again.
        let probe = KindsProbe(name: "probe")
        probe.getterCalls = 0
        #expect(probe.takesPart(.touch))
        #expect(probe.getterCalls == 4, "three for the default supported kinds, one for the allowed: \(probe.getterCalls)")
        probe.getterCalls = 0
        #expect(probe.inputKinds.contains(.touch))
        #expect(probe.getterCalls == 6)
    }

    @Test func aPenStrokeIsRecognizedAsAPanAndTakenFromTheResponders() {
        let pan = PanGestureRecognizer(name: "pan")
        let (h, canvas) = canvas(with: pan)
        h.proximityIn(100, 100)
        h.down(100, 100)
        #expect(h.log.entries == ["canvas.penEnter", "canvas.penDown"], "a possible pan does not delay the pen")
        h.move(105, 100, pressure: 0.3)      // 5 units: under 3 mm at 96 dpi (11.3 units)
        #expect(pan.state == .possible)
        h.move(130, 100, pressure: 0.4)
        #expect(pan.state == .began)
        #expect(pan.currentInputKind == .pen)
        #expect(pan.translation == Vector(dx: 30, dy: 0))
        #expect(canvas.pen.events.last?.isCancelled == true, "the canvas saw the down: it is told the stroke was cancelled")
        h.log.clear()
        h.move(160, 120, pressure: 0.5)
        h.up(160, 120)
        #expect(h.log.entries == ["pan:changed", "pan:ended"], "the canvas hears nothing more of the stroke")
        #expect(pan.state == .possible)
        h.hover(170, 120)
        #expect(h.log.entries.last == "canvas.penMove", "hovering after the stroke reaches the canvas again")
    }

    /// A pan that has not begun follows every motion of a pen's stroke, beside a two-touch
    /// long press on a child that waits for a second touch (the per-event benchmark's pen
    /// scene): its touch is where the pen is after each motion.
    @Test func aPossiblePanFollowsEveryMotionOfAPenStroke() {
        let pan = PanGestureRecognizer(name: "pan", minimumDistance: 100_000)
        let (h, canvas) = canvas(with: pan)
        let leaf = h.surface("leaf", 10, 10, 200, 200, in: canvas)
        let longPress = LongPressGestureRecognizer(name: "lp", minimumPressDuration: .seconds(3600), touches: 2, allowableMovement: 1_000_000)
        leaf.addGestureRecognizer(longPress)
        h.proximityIn(50, 50)
        h.down(50, 50)
        for i in 1...5 {
            h.move(50 + Double(i) * 10, 50, pressure: 0.3)
            #expect(pan.touches.first?.location.x == 50 + Double(i) * 10, "motion \(i): \(pan.touches.map(\.location)) \(pan.state) \(longPress.state)")
        }
    }

    @Test func aPenHeldStillIsALongPressExactlyAtItsDeadline() {
        let press = LongPressGestureRecognizer(name: "press", minimumPressDuration: .milliseconds(500))
        let (h, _) = canvas(with: press)
        h.proximityIn(50, 50)
        h.down(50, 50)                       // at 2 ms
        h.clock.advance(to: .milliseconds(501))
        #expect(press.state == .possible)
        h.clock.advance(to: .milliseconds(502))
        #expect(press.state == .began)
        #expect(press.currentInputKind == .pen)
        h.time = 502
        h.up(50, 50)
        #expect(h.log.entries == ["canvas.penEnter", "canvas.penDown", "canvas.penCancel", "press:began", "press:ended"],
                "the stroke is taken at the deadline, not at the next pen event")
    }

    @Test func aPenTapIsATapAndTheResponderSeesTheStrokeCancelled() {
        let tap = TapGestureRecognizer(name: "tap")
        let (h, _) = canvas(with: tap)
        h.proximityIn(50, 50)
        h.down(50, 50)
        h.up(50, 50)
        #expect(h.log.entries == ["canvas.penEnter", "canvas.penDown", "canvas.penCancel", "tap:recognized"])
    }

    @Test func aRecognizerThatRejectsPensLeavesTheStrokeToTheChain() {
        let pan = PanGestureRecognizer(name: "pan")
        pan.allowedInputKinds = [.touch]
        let (h, canvas) = canvas(with: pan)
        h.proximityIn(100, 100)
        h.down(100, 100)
        h.move(200, 100, pressure: 0.5)
        h.up(200, 100)
        #expect(h.log.entries == ["canvas.penEnter", "canvas.penDown", "canvas.penMove", "canvas.penUp"])
        #expect(canvas.pen.events.allSatisfy { !$0.isCancelled })
        #expect(pan.state == .possible && !pan.unchecked.isEngaged)
    }

    @Test func aPenThatLeavesProximityMidStrokeCancelsThePan() {
        let pan = PanGestureRecognizer(name: "pan")
        let (h, _) = canvas(with: pan)
        h.proximityIn(100, 100)
        h.down(100, 100)
        h.move(150, 100, pressure: 0.5)
        h.proximityOut(150, 100)
        #expect(h.log.entries.filter { $0.hasPrefix("pan:") } == ["pan:began", "pan:cancelled"])
        #expect(h.log.entries.filter { $0 == "canvas.penCancel" }.count == 1, "told once, when the pan took the stroke")
        #expect(h.log.entries.last == "canvas.penLeave")
        #expect(pan.state == .possible)
        #expect(h.router.gestures.penArena.unchecked.entries.isEmpty)
    }

    @Test func aPenStrokeOnAChildReachesTheOutputsRecognizersToo() {
        let h = PenHarness()
        let page = h.surface("page", 0, 0, 400, 400)
        let pageTap = TapGestureRecognizer(name: "page-tap")
        let global = LongPressGestureRecognizer(name: "global-press")
        page.addGestureRecognizer(pageTap)
        h.output.addGestureRecognizer(global)
        h.proximityIn(10, 10)
        h.down(10, 10)
        #expect(pageTap.unchecked.isEngaged && global.unchecked.isEngaged)
        h.up(10, 10)
        #expect(pageTap.state == .possible && global.state == .possible)
    }

    @Test func aMouseDragIsAPanOnlyWhenThePanAllowsThePointer() {
        let rig = GestureRig()
        let map = rig.surface("map", 0, 0, 1000, 1000, handles: ["began", "moved", "ended"])
        let pan = PanGestureRecognizer(name: "pan")
        map.addGestureRecognizer(pan)
        rig.watch(pan)
        func drag() {
            rig.send(.pointerMotionAbsolute(LayoutPoint(x: 100, y: 100)))
            rig.send(.pointerButton(button: 0x110, state: .pressed))
            rig.send(.pointerMotionAbsolute(LayoutPoint(x: 160, y: 100)))
            rig.send(.pointerMotionAbsolute(LayoutPoint(x: 200, y: 100)))
            rig.send(.pointerButton(button: 0x110, state: .released))
        }
        drag()
        #expect(rig.log.matching("pan:").isEmpty, "by default a mouse drag stays the client's")
        pan.allowedInputKinds.insert(.pointer)
        var translations: [Vector] = []
        pan.addTarget { translations.append(($0 as! PanGestureRecognizer).translation) }
        drag()
        #expect(rig.log.matching("pan:") == ["pan:began", "pan:changed", "pan:ended"])
        #expect(translations == [Vector(dx: 60, dy: 0), Vector(dx: 100, dy: 0), Vector(dx: 100, dy: 0)])
        #expect(pan.state == .possible)
    }

    @Test func aLeftButtonDragTakenByAPanKeepsTheMotionFromTheClient() {
        final class PointerLog: Responder {
            var calls: [String] = []
            func pointerMoved(_ event: PointerMotionEvent, context: ResponderContext) -> ResponderResult {
                calls.append("moved")
                return .handled
            }
            func pointerButton(_ event: PointerButtonEvent, context: ResponderContext) -> ResponderResult {
                calls.append(event.state == .pressed ? "press" : "release")
                return .handled
            }
        }
        let rig = GestureRig()
        let responder = PointerLog()
        let map = Surface(name: "map", frame: SurfaceRect(x: 0, y: 0, width: 1000, height: 1000), responder: responder)
        rig.output.root.addChild(map)
        let pan = PanGestureRecognizer(name: "pan")
        pan.allowedInputKinds = [.pointer]
        map.addGestureRecognizer(pan)
        rig.send(.pointerMotionAbsolute(LayoutPoint(x: 100, y: 100)))
        rig.send(.pointerButton(button: 0x110, state: .pressed))
        rig.send(.pointerMotionAbsolute(LayoutPoint(x: 200, y: 100)))
        rig.send(.pointerMotionAbsolute(LayoutPoint(x: 300, y: 100)))
        rig.send(.pointerButton(button: 0x110, state: .released))
        #expect(responder.calls == ["moved", "press", "release"], "the press it saw is released; the drag's motion is the pan's")
    }

    @Test func aPinchFollowsATouchpadPinchWhenAllowedAndTwoFingersAlways() {
        let rig = GestureRig()
        let photo = rig.surface("photo", 0, 0, 1000, 1000)
        rig.send(.pointerMotionAbsolute(LayoutPoint(x: 500, y: 500)))
        let pinch = PinchGestureRecognizer(name: "pinch")
        photo.addGestureRecognizer(pinch)
        rig.watch(pinch)
        var scales: [Double] = []
        pinch.addTarget { scales.append(($0 as! PinchGestureRecognizer).scale) }
        func touchpadPinch() {
            for (phase, scale) in [(GesturePhase.begin, 1.0), (.update, 1.25), (.update, 1.5), (.end(cancelled: false), 1.5)] {
                rig.send(.touchpadGesture(TouchpadGesture(kind: .pinch, phase: phase, fingers: 2, delta: .zero, scale: scale, rotation: 0)))
            }
        }
        touchpadPinch()
        #expect(rig.log.matching("pinch:").isEmpty, "touch only by default")
        #expect(rig.log.matching("photo.touchpad").count == 4)
        pinch.allowedInputKinds.insert(.touchpad)
        rig.log.clear()
        touchpadPinch()
        #expect(rig.log.matching("pinch:") == ["pinch:began", "pinch:changed", "pinch:changed", "pinch:ended"])
        #expect(scales == [1, 1.25, 1.5, 1.5])
        #expect(pinch.currentInputKind == .touchpad)
        #expect(rig.log.matching("photo.touchpad").isEmpty, "the pinch took the touchpad gesture")
        // The same recognizer, two fingers on the screen.
        rig.log.clear()
        rig.frame([fingerDown(1, 400, 500), fingerDown(2, 600, 500)])
        rig.frame([fingerMoved(1, 300, 500), fingerMoved(2, 700, 500)])
        rig.frame([fingerUp(1), fingerUp(2)])
        #expect(rig.log.matching("pinch:") == ["pinch:began", "pinch:ended"])
        #expect(pinch.currentInputKind == .touch)
    }
}
