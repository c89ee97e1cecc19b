import Testing
import SeatKit

/// Touchpad recognizers follow libinput's gesture events aimed at the pointer focus.
@Suite struct TouchpadGestureRecognizerTests {
    func rigWithPointerOver(_ name: String) -> (GestureRig, Surface) {
        let rig = GestureRig()
        let s = rig.surface(name, 0, 0, 1000, 1000)
        rig.send(.pointerMotionAbsolute(LayoutPoint(x: 500, y: 500)))
        return (rig, s)
    }

    func gesture(_ kind: TouchpadGesture.Kind, _ phase: GesturePhase, fingers: Int, dx: Double = 0,
                 scale: Double = 1, rotation: Double = 0) -> InputEvent.Kind {
        .touchpadGesture(TouchpadGesture(kind: kind, phase: phase, fingers: fingers, delta: Vector(dx: dx, dy: 0),
                                         scale: scale, rotation: rotation))
    }

    @Test func aThreeFingerSwipeIsTakenFromTheFocusedSurface() {
        let (rig, _) = rigWithPointerOver("browser")
        let swipe = TouchpadSwipeGestureRecognizer(fingers: 3)
        rig.output.addGestureRecognizer(swipe)
        rig.watch(swipe)
        rig.send(gesture(.swipe, .begin, fingers: 3))
        rig.send(gesture(.swipe, .update, fingers: 3, dx: 40))
        rig.send(gesture(.swipe, .update, fingers: 3, dx: 30))
        rig.send(gesture(.swipe, .end(cancelled: false), fingers: 3))
        #expect(rig.log.matching("touchpad-swipe:") == ["touchpad-swipe:began", "touchpad-swipe:changed",
                                                         "touchpad-swipe:changed", "touchpad-swipe:ended"])
        #expect(rig.log.matching("browser.").isEmpty)
        #expect(swipe.state == .possible)
    }

    @Test func aTwoFingerSwipeFailsItAndReachesTheSurface() {
        let (rig, _) = rigWithPointerOver("browser")
        let swipe = TouchpadSwipeGestureRecognizer(fingers: 3)
        rig.output.addGestureRecognizer(swipe)
        rig.watch(swipe)
        rig.send(gesture(.swipe, .begin, fingers: 2))
        rig.send(gesture(.swipe, .update, fingers: 2, dx: 10))
        rig.send(gesture(.swipe, .end(cancelled: false), fingers: 2))
        #expect(rig.log.matching("touchpad-swipe:") == ["touchpad-swipe:failed"])
        #expect(rig.log.matching("browser.") == ["browser.touchpad", "browser.touchpad", "browser.touchpad"])
    }

    @Test func aPinchReportsLibinputsScaleAndSummedRotation() {
        let (rig, photo) = rigWithPointerOver("photo")
        let pinch = TouchpadPinchGestureRecognizer()
        photo.addGestureRecognizer(pinch)
        var seen: [(Double, Double)] = []
        pinch.addTarget { r in
            let p = r as! TouchpadPinchGestureRecognizer
            seen.append((p.scale, p.rotation))
        }
        rig.send(gesture(.pinch, .begin, fingers: 2))
        rig.send(gesture(.pinch, .update, fingers: 2, scale: 1.2, rotation: 5))
        rig.send(gesture(.pinch, .update, fingers: 2, scale: 1.5, rotation: 5))
        rig.send(gesture(.pinch, .end(cancelled: true), fingers: 2, scale: 1.5))
        #expect(seen.map(\.0) == [1, 1.2, 1.5, 1.5])
        #expect(seen.map(\.1) == [0, 5, 10, 10])
        #expect(pinch.state == .possible)
    }

    @Test func aHoldIsRecognizedOnlyWhenLibinputEndsItNormally() {
        let (rig, _) = rigWithPointerOver("list")
        let hold = TouchpadHoldGestureRecognizer(fingers: 2, minimumDuration: .milliseconds(100))
        rig.output.root.addGestureRecognizer(hold)
        rig.watch(hold)
        rig.send(gesture(.hold, .begin, fingers: 2))
        rig.wait(150)
        rig.send(gesture(.hold, .end(cancelled: false), fingers: 2))
        rig.send(gesture(.hold, .begin, fingers: 2))
        rig.wait(150)
        rig.send(gesture(.hold, .end(cancelled: true), fingers: 2))
        #expect(rig.log.matching("touchpad-hold:") == ["touchpad-hold:recognized", "touchpad-hold:failed"])
    }

    @Test func respondersThatSawTheStartAreToldItEndedCancelled() {
        let (rig, browser) = rigWithPointerOver("browser")
        // A swipe that only begins on the second update: the first events reach the browser.
        final class LateSwipe: GestureRecognizer {
            override var receivesTouches: Bool { false }
            override var receivesTouchpadGestures: Bool { true }
            var updates = 0
            override func touchpadGesture(_ event: TouchpadGestureEvent) {
                if case .update = event.gesture.phase { updates += 1 }
                if updates == 2 && state == .possible { state = .began }
                if case .end = event.gesture.phase, state.isInProgress { state = .ended }
            }
        }
        let late = LateSwipe(name: "late")
        rig.output.addGestureRecognizer(late)
        var endings: [GesturePhase] = []
        final class Endings: Responder {
            var record: (GesturePhase) -> Void = { _ in }
            func touchpadGesture(_ event: TouchpadGestureEvent, context: ResponderContext) -> ResponderResult {
                record(event.gesture.phase)
                return .handled
            }
        }
        let responder = Endings()
        responder.record = { endings.append($0) }
        browser.responder = responder
        rig.send(gesture(.swipe, .begin, fingers: 3))
        rig.send(gesture(.swipe, .update, fingers: 3))
        rig.send(gesture(.swipe, .update, fingers: 3))
        rig.send(gesture(.swipe, .end(cancelled: false), fingers: 3))
        #expect(endings == [.begin, .update, .end(cancelled: true)])
    }
}
