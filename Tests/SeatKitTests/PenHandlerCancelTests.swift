import Testing
@testable import SeatKit

/// The responder that handled a pen's down is owed the stroke's end, as a touch's responders
/// are (issue 27): when the stroke stops short (its surface removed, moved away from the
/// handler, the handler itself removed, a recognizer or a grab taking the stroke), the link
/// that handled the down hears a cancelled up, also when it is an ancestor and not the
/// stroke's surface.
@Suite("Pen handler cancel")
struct PenHandlerCancelTests {
    /// A responder whose next responder is `next` (a surface off its tree path) when set.
    final class Redirected: Responder {
        let inner: PenRecorder
        var next: Surface?
        init(_ inner: PenRecorder) { self.inner = inner }
        func nextResponder(after defaultNext: __owned ChainLink?) -> ChainLink? { next.map { .surface($0) } ?? defaultNext }
        func penEntered(_ event: PenEvent, context: ResponderContext) { inner.penEntered(event, context: context) }
        func penLeft(_ event: PenEvent, context: ResponderContext) { inner.penLeft(event, context: context) }
        func penMoved(_ event: PenEvent, context: ResponderContext) -> ResponderResult { inner.penMoved(event, context: context) }
        func penDown(_ event: PenEvent, context: ResponderContext) -> ResponderResult { inner.penDown(event, context: context) }
        func penUp(_ event: PenEvent, context: ResponderContext) -> ResponderResult { inner.penUp(event, context: context) }
    }

    /// "parent" (0,0 500×500) handles the pen, its child "canvas" (0,0 100×100) does not; the
    /// pen is down on the canvas.
    func strokeOnAChildWhoseParentHandles() -> (PenHarness, parent: Surface, canvas: Surface) {
        let h = PenHarness()
        let parent = h.surface("parent", 0, 0, 500, 500)
        let canvas = h.surface("canvas", 0, 0, 100, 100, in: parent, handles: [])
        h.proximityIn(10, 10)
        h.down(10, 10)
        #expect(h.log.entries == ["canvas.penEnter", "canvas.penDown", "parent.penDown"])
        h.log.clear()
        return (h, parent, canvas)
    }

    @Test func anAncestorThatHandledThePenDownHearsACancelledUpWhenTheStrokesSurfaceIsRemoved() {
        let (h, parent, canvas) = strokeOnAChildWhoseParentHandles()
        canvas.removeFromParent()
        #expect(h.log.entries == ["canvas.penCancel", "parent.penCancel", "canvas.penLeave"])
        let cancel = parent.pen.events.last
        #expect(cancel?.phase == .up && cancel?.isCancelled == true)
        #expect(cancel?.surfaceLocation == canvas.pen.events.last { $0.isCancelled }?.surfaceLocation,
                "in the stroke's surface's space, as the surface's own cancel")
        h.log.clear()
        h.move(20, 10, pressure: 0.4)
        h.up(20, 10)
        #expect(!h.log.entries.contains("parent.penUp") && !h.log.entries.contains("parent.penCancel"),
                "told once: the rest of the stroke goes nowhere \(h.log.entries)")
    }

    @Test func anAncestorRemovedWithTheStrokesSurfaceHearsTheStrokeCancelled() {
        let (h, parent, _) = strokeOnAChildWhoseParentHandles()
        parent.removeFromParent()
        #expect(h.log.entries == ["canvas.penCancel", "parent.penCancel", "canvas.penLeave"])
    }

    @Test func anAncestorLeftBehindWhenTheStrokesSurfaceMovesAwayHearsTheStrokeCancelled() {
        let (h, parent, canvas) = strokeOnAChildWhoseParentHandles()
        let other = h.surface("other", 600, 0, 300, 300)
        other.addChild(canvas)
        #expect(h.log.entries == ["parent.penCancel"], "the stroke goes on on the canvas; its former parent is told")
        h.log.clear()
        h.move(30, 10, pressure: 0.4)
        h.up(30, 10)
        #expect(!h.log.entries.contains { $0 == "parent.penMove" || $0 == "parent.penUp" || $0 == "parent.penCancel" },
                "\(h.log.entries)")
        #expect(h.log.entries.contains("other.penUp"), "the stroke's up walks the canvas's new chain: \(h.log.entries)")
    }

    @Test func aResponderOffTheTreePathThatHandledThePenDownHearsACancelledUpWhenItIsRemoved() {
        let h = PenHarness()
        let side = h.surface("side", 600, 600, 100, 100)
        let canvasRecorder = PenRecorder("canvas", log: h.log, handles: [])
        let redirected = Redirected(canvasRecorder)
        redirected.next = side
        let canvas = Surface(name: "canvas", frame: SurfaceRect(x: 0, y: 0, width: 100, height: 100), responder: redirected)
        h.output.root.addChild(canvas)
        h.proximityIn(10, 10)
        h.down(10, 10)
        #expect(h.log.entries == ["canvas.penEnter", "canvas.penDown", "side.penDown"])
        h.log.clear()
        side.removeFromParent()
        #expect(h.log.entries == ["side.penCancel"], "the stroke goes on on the canvas")
        h.log.clear()
        h.up(10, 10)
        #expect(h.log.entries.first == "canvas.penUp" && !h.log.entries.contains { $0.hasPrefix("side.") }, "\(h.log.entries)")
    }

    @Test func anAncestorThatHandledThePenDownHearsACancelledUpWhenItsOwnDownRemovedTheStrokesSurface() {
        final class Remover: Responder {
            let inner: PenRecorder
            var victim: Surface?
            init(_ inner: PenRecorder) { self.inner = inner }
            func penDown(_ event: PenEvent, context: ResponderContext) -> ResponderResult {
                _ = inner.penDown(event, context: context)
                victim?.removeFromParent()
                return .handled
            }
            func penUp(_ event: PenEvent, context: ResponderContext) -> ResponderResult { inner.penUp(event, context: context) }
        }
        let h = PenHarness()
        let remover = Remover(PenRecorder("parent", log: h.log))
        let parent = Surface(name: "parent", frame: SurfaceRect(x: 0, y: 0, width: 500, height: 500), responder: remover)
        h.output.root.addChild(parent)
        let canvas = h.surface("canvas", 0, 0, 100, 100, in: parent, handles: [])
        remover.victim = canvas
        h.proximityIn(10, 10)
        h.log.clear()
        h.down(10, 10)
        #expect(h.log.entries == ["canvas.penDown", "parent.penDown", "canvas.penCancel", "canvas.penLeave", "parent.penCancel"])
    }

    @Test func anAncestorThatHandledThePenDownHearsACancelledUpWhenAPenGrabBegins() {
        final class Grab: PenGrab {
            func penEvent(_ event: PenEvent, router: Router) {}
            func penButton(_ event: PenButtonEvent, router: Router) {}
            func cancel(router: Router) {}
        }
        let (h, _, _) = strokeOnAChildWhoseParentHandles()
        h.router.startPenGrab(Grab())
        #expect(h.log.entries == ["canvas.penCancel", "parent.penCancel", "canvas.penLeave"])
    }

    @Test func anAncestorThatHandledThePenDownHearsACancelledUpWhenARecognizerTakesTheStroke() {
        let (h, parent, canvas) = strokeOnAChildWhoseParentHandles()
        let pan = PanGestureRecognizer(name: "pan")
        _ = parent
        // A pan on the canvas, added before the stroke: a fresh stroke.
        h.up(10, 10)
        canvas.addGestureRecognizer(pan)
        h.hover(10, 10)
        h.log.clear()
        h.down(10, 10)
        #expect(h.log.entries == ["canvas.penDown", "parent.penDown"])
        h.move(60, 10, pressure: 0.4)
        #expect(pan.state == .began)
        #expect(h.log.entries.suffix(2) == ["canvas.penCancel", "parent.penCancel"], "\(h.log.entries)")
        h.log.clear()
        h.up(60, 10)
        #expect(!h.log.entries.contains { $0.hasPrefix("parent.") }, "\(h.log.entries)")
    }

    @Test func aStrokeThatEndsNormallyTellsItsHandlerOneUpAndNoCancel() {
        let (h, _, canvas) = strokeOnAChildWhoseParentHandles()
        h.up(10, 10)
        #expect(h.log.entries == ["canvas.penUp", "parent.penUp"])
        h.log.clear()
        canvas.removeFromParent()
        #expect(!h.log.entries.contains("parent.penCancel"), "\(h.log.entries)")
    }
}

extension PenHandlerCancelTests {
    /// The stroke's surface moves under a surface that handles pens, itself under the
    /// handler of the down: the up is handled by the new surface first, and the handler still
    /// hears it (the gesture-graph soak, seed 571).
    @Test func theHandlerOfTheDownHearsTheUpWhenASurfaceMovedBetweenThemHandlesItFirst() {
        let (h, parent, canvas) = strokeOnAChildWhoseParentHandles()
        let middle = h.surface("middle", 0, 0, 300, 300, in: parent)
        middle.addChild(canvas)
        #expect(h.log.entries.isEmpty, "the parent is still on the canvas's chain: \(h.log.entries)")
        h.up(10, 10)
        #expect(h.log.entries == ["canvas.penUp", "middle.penUp", "parent.penUp"], "\(h.log.entries)")
        #expect(parent.pen.events.last?.isCancelled == false)
    }
}
