import Testing
import SeatKit

/// Pointer presses reach recognizers that ask for them: from the press that starts the
/// implicit grab to the last release, before the responders.
@Suite struct PointerGestureRecognizerTests {
    /// Begins once the pointer has moved 50 units with a button held; ends at the release.
    final class DragRecognizer: GestureRecognizer {
        var start: LayoutPoint?
        override var receivesTouches: Bool { false }
        override var receivesPointerEvents: Bool { true }
        override func pointerButton(_ event: PointerButtonEvent) {
            if event.state == .pressed {
                start = event.location
            } else if state.isInProgress {
                state = .ended
            } else {
                failIfPossible()
            }
        }
        override func pointerMoved(_ event: PointerMotionEvent) {
            guard let start else { return }
            if state == .possible, event.location.vector(from: start).length >= 50 { state = .began } else if state.isInProgress { state = .changed }
        }
        override func reset() { start = nil }
    }

    final class PointerLog: Responder {
        var entries: [String] = []
        func pointerButton(_ event: PointerButtonEvent, context: ResponderContext) -> ResponderResult {
            entries.append(event.state == .pressed ? "press" : "release")
            return .handled
        }
        func pointerMoved(_ event: PointerMotionEvent, context: ResponderContext) -> ResponderResult {
            entries.append("move")
            return .handled
        }
    }

    /// Each test: a window filling the output, whose responder logs what reaches it, with a
    /// watched drag recognizer.
    let rig = GestureRig()
    let responder = PointerLog()
    let drag = DragRecognizer(name: "drag")

    init() {
        let window = Surface(name: "window", frame: SurfaceRect(x: 0, y: 0, width: 1000, height: 1000), responder: responder)
        rig.output.root.addChild(window)
        window.addGestureRecognizer(drag)
        rig.watch(drag)
    }

    @Test func aDragIsTakenFromTheWindowButItsReleaseStillArrives() {
        rig.send(.pointerMotionAbsolute(LayoutPoint(x: 100, y: 100)))
        rig.send(.pointerButton(button: 0x110, state: .pressed))
        rig.send(.pointerMotionAbsolute(LayoutPoint(x: 120, y: 100)))
        rig.send(.pointerMotionAbsolute(LayoutPoint(x: 200, y: 100)))   // the drag begins
        rig.send(.pointerMotionAbsolute(LayoutPoint(x: 300, y: 100)))
        rig.send(.pointerButton(button: 0x110, state: .released))
        #expect(responder.entries == ["move", "press", "move", "release"])
        #expect(rig.log.matching("drag:") == ["drag:began", "drag:changed", "drag:ended"])
        #expect(drag.state == .possible)
    }

    @Test func aClickWithoutDraggingFailsItAndReachesTheWindowWhole() {
        rig.send(.pointerMotionAbsolute(LayoutPoint(x: 100, y: 100)))
        rig.send(.pointerButton(button: 0x110, state: .pressed))
        rig.send(.pointerMotionAbsolute(LayoutPoint(x: 110, y: 100)))
        rig.send(.pointerButton(button: 0x110, state: .released))
        #expect(responder.entries == ["move", "press", "move", "release"])
        #expect(rig.log.matching("drag:") == ["drag:failed"])
        // Motion without a button held is not shown to it.
        rig.send(.pointerMotionAbsolute(LayoutPoint(x: 400, y: 100)))
        #expect(drag.state == .possible)
        #expect(drag.start == nil)
    }
}
