import SeatKit
import Testing

/// What the gesture-graph soak (GestureGraphSoakTests) found outside interception, one test
/// per finding, named after the behaviour.
@Suite struct GestureGraphSoakFindingsTests {
    /// A responder that handles ended and, in its handler, moves a surface.
    final class MovingOnEnd: Responder {
        let log: GestureCallLog
        var onEnded: () -> Void = {}
        init(log: GestureCallLog) { self.log = log }
        func touchesBegan(_ event: TouchEvent, context: ResponderContext) -> ResponderResult { log.add("parent.began"); return .notHandled }
        func touchesEnded(_ event: TouchEvent, context: ResponderContext) -> ResponderResult {
            log.add("parent.ended")
            onEnded()
            return .handled
        }
        func touchesCancelled(_ event: TouchEvent, context: ResponderContext) { log.add("parent.cancelled") }
    }

    @Test func anAncestorThatMovesTheTouchedSurfaceAwayInItsEndedHandlerIsNotAlsoCancelled() {
        // Seed 18850: the ancestor was told the end, then, because the move left it off the
        // surface's chain while the end was being delivered, touchesCancelled as well.
        let rig = GestureRig()
        let parentResponder = MovingOnEnd(log: rig.log)
        let parent = Surface(name: "parent", frame: SurfaceRect(x: 0, y: 0, width: 500, height: 500), responder: parentResponder)
        rig.output.root.addChild(parent)
        let other = rig.surface("other", 600, 0, 300, 300)
        let child = rig.surface("child", 0, 0, 200, 200, in: parent)
        parentResponder.onEnded = { other.addChild(child) }
        rig.down(1, 50, 50)
        rig.up(1)
        #expect(rig.log.matching("parent.") == ["parent.began", "parent.ended"])
        #expect(rig.log.matching("child.") == ["child.began[t1]", "child.ended[t1]"])
        #expect(rig.router.activeTouchCount == 0)
    }
}
