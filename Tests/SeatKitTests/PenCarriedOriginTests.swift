import Testing
@testable import SeatKit

/// A pen carries the origin its hit-test found, as a touch and the pointer do (issue 27): its
/// surface point is the layout point minus that origin, with no walk up the tree per event,
/// and the origin is brought up to date by every edit of the tree or layout, including one a
/// responder makes from inside the hit-test.
@Suite("Pen carried origins")
struct PenCarriedOriginTests {
    /// Moves its surface's parent the first time it is asked whether it accepts a point.
    final class MovingWhenAsked: Responder {
        var move: (() -> Void)?
        var events: [PenEvent] = []
        func refineHitTest(at point: SurfacePoint, in surface: Surface) -> Bool {
            move?()
            move = nil
            return true
        }
        func penEntered(_ event: PenEvent, context: ResponderContext) { events.append(event) }
        func penMoved(_ event: PenEvent, context: ResponderContext) -> ResponderResult {
            events.append(event)
            return .handled
        }
        func penDown(_ event: PenEvent, context: ResponderContext) -> ResponderResult {
            events.append(event)
            return .handled
        }
    }

    func recorder(_ s: Surface) -> PenRecorder { s.responder as! PenRecorder }

    /// A window at 100,100 (400 x 400, handling nothing) with a button at 10,10 in it (200 x
    /// 200), and the pen in proximity and down at 150,150: on the button's (40, 40).
    func penDownOnAButton() -> (h: PenHarness, window: Surface, button: Surface) {
        let h = PenHarness()
        let window = h.surface("window", 100, 100, 400, 400, handles: [])
        let button = h.surface("button", 10, 10, 200, 200, in: window)
        h.proximityIn(150, 150)
        h.down(150, 150)
        return (h, window, button)
    }

    @Test func aStrokeFollowsItsSurfaceThroughMovesOfTheSurfaceItsParentAndTheOutput() {
        let (h, window, button) = penDownOnAButton()
        #expect(recorder(button).events.last?.surfaceLocation == SurfacePoint(x: 40, y: 40))
        h.move(151, 150, pressure: 0.5)
        #expect(recorder(button).events.last?.surfaceLocation == SurfacePoint(x: 41, y: 40))
        window.frame.origin = SurfacePoint(x: 0, y: 0)
        h.move(150, 150, pressure: 0.5)
        #expect(recorder(button).events.last?.surfaceLocation == SurfacePoint(x: 140, y: 140))
        button.frame.origin = SurfacePoint(x: 20, y: 30)
        h.move(151, 150, pressure: 0.5)
        #expect(recorder(button).events.last?.surfaceLocation == SurfacePoint(x: 131, y: 120))
        h.output.position = LayoutPoint(x: -100, y: 0)
        h.move(152, 150, pressure: 0.5)
        #expect(recorder(button).events.last?.surfaceLocation == SurfacePoint(x: 232, y: 120))
        // Moved to another parent: the stroke goes on in the new space.
        let other = h.surface("other", 300, 300, 100, 100, handles: [])
        other.addChild(button)
        h.move(153, 150, pressure: 0.5)
        #expect(recorder(button).events.last?.surfaceLocation == SurfacePoint(x: 153 - (-100 + 300 + 20), y: 150 - (300 + 30)))
        // A button of the pen, in the same space.
        h.send(.toolButton, 154, 150, value: 1, code: 0x14b)
        #expect(recorder(button).buttons.last?.surfaceLocation == SurfacePoint(x: 154 - 220, y: -180))
    }

    // `layoutOriginWalksForTesting` is counted in debug builds only (the library's release
    // build carries no test counter), so its checks are compiled out of CI's optimized run.

    /// What carrying saves, counted: a surface point computed from scratch walks up the tree
    /// (`layoutOrigin`), a carried one does not. The hit-test's point is carried from the
    /// pen's enter through contact, a stroke and a button of the pen; an edit of the tree
    /// costs one walk at the next event, then the new origin is carried again. Would fail
    /// with the points recomputed per event, though every point would be the same.
    @Test func aStrokeWalksUpTheTreeOnlyAfterAnEditNotForEachEvent() {
        let (h, window, button) = penDownOnAButton()
        for x in 151...160 { h.move(Double(x), 150, pressure: 0.5) }
        h.send(.toolButton, 160, 150, value: 1, code: 0x14b)
        #expect(recorder(button).events.last?.surfaceLocation == SurfacePoint(x: 50, y: 40))
        #expect(recorder(button).buttons.last?.surfaceLocation == SurfacePoint(x: 50, y: 40))
        #if DEBUG
        #expect(button.layoutOriginWalksForTesting == 0, "13 events, all from the hit-test's point")
        #endif

        window.frame.origin = SurfacePoint(x: 0, y: 0)
        for x in 161...170 { h.move(Double(x), 150, pressure: 0.5) }
        #expect(recorder(button).events.last?.surfaceLocation == SurfacePoint(x: 160, y: 140))
        #if DEBUG
        #expect(button.layoutOriginWalksForTesting == 1, "one walk after the edit, then carried")
        #endif

        h.output.position = LayoutPoint(x: -100, y: 0)
        for x in 171...180 { h.move(Double(x), 150, pressure: 0.5) }
        #expect(recorder(button).events.last?.surfaceLocation == SurfacePoint(x: 270, y: 140))
        #if DEBUG
        #expect(button.layoutOriginWalksForTesting == 2)
        #endif
    }

    @Test func aHoveringPenFollowsItsSurfaceWhenTheSurfaceMovesUnderIt() {
        let h = PenHarness()
        let window = h.surface("window", 100, 100, 400, 400)
        h.proximityIn(150, 150)
        h.hover(160, 150)
        #expect(recorder(window).events.last?.surfaceLocation == SurfacePoint(x: 60, y: 50))
        #if DEBUG
        #expect(window.layoutOriginWalksForTesting == 0, "each hover's point is its hit-test's")
        #endif
        window.frame.origin = SurfacePoint(x: 50, y: 50)
        h.hover(160, 150)
        #expect(recorder(window).events.last?.surfaceLocation == SurfacePoint(x: 110, y: 100))
        h.hover(161, 150)
        #expect(recorder(window).events.last?.surfaceLocation == SurfacePoint(x: 111, y: 100))
        // One walk after the edit (the event's point is made before its hit-test), not one
        // (or two) per hover.
        #if DEBUG
        #expect(window.layoutOriginWalksForTesting == 1)
        #endif
    }

    @Test func aSurfaceThatMovesItselfDuringThePensHitTestGetsThePenInItsNewSpace() {
        let h = PenHarness()
        let window = h.surface("window", 100, 100, 400, 400, handles: [])
        let responder = MovingWhenAsked()
        let button = Surface(name: "button", frame: SurfaceRect(x: 10, y: 10, width: 200, height: 200), responder: responder)
        window.addChild(button)
        responder.move = { window.frame.origin = SurfacePoint(x: 90, y: 95) }
        h.proximityIn(150, 150)
        // The hit-test found (40, 40) in the button before the window moved; it is at (50, 45) now.
        #expect(responder.events.last?.surfaceLocation == SurfacePoint(x: 50, y: 45))
        h.down(151, 150)
        #expect(responder.events.last?.surfaceLocation == SurfacePoint(x: 51, y: 45))
        h.move(152, 150, pressure: 0.5)
        #expect(responder.events.last?.surfaceLocation == SurfacePoint(x: 52, y: 45))
        // The hit-test's own point was stale: one walk, at the enter, carried from then on.
        #if DEBUG
        #expect(button.layoutOriginWalksForTesting == 1)
        #endif
    }
}
