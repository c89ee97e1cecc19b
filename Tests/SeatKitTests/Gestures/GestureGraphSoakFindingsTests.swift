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

    /// Logs began and ends with touch IDs; may cancel a touch from its began.
    final class Logging: Responder {
        let name: String
        let log: GestureCallLog
        var onBegan: () -> Void = {}
        init(_ name: String, log: GestureCallLog) { self.name = name; self.log = log }
        private func ids(_ e: TouchEvent) -> String { e.touches.map { "t\($0.id.rawValue)" }.joined(separator: ",") }
        func touchesBegan(_ event: TouchEvent, context: ResponderContext) -> ResponderResult {
            log.add("\(name).began[\(ids(event))]")
            onBegan()
            return .notHandled
        }
        func touchesEnded(_ event: TouchEvent, context: ResponderContext) -> ResponderResult { log.add("\(name).ended[\(ids(event))]"); return .notHandled }
        func touchesCancelled(_ event: TouchEvent, context: ResponderContext) { log.add("\(name).cancelled[\(ids(event))]") }
    }

    @Test func aTouchCancelledByAHandlerInTheMiddleOfItsBeganWalkIsNotShownToTheLinksAfter() {
        // Seed 17682: two fingers down together on one surface; a handler halfway up the chain
        // cancels one; the links above it were still shown that finger's began, and never its end.
        let rig = GestureRig()
        let top = Logging("top", log: rig.log)
        let middle = Logging("middle", log: rig.log)
        let leaf = Logging("leaf", log: rig.log)
        let topSurface = Surface(name: "top", frame: SurfaceRect(x: 0, y: 0, width: 800, height: 800), responder: top)
        let middleSurface = Surface(name: "middle", frame: SurfaceRect(x: 0, y: 0, width: 600, height: 600), responder: middle)
        let leafSurface = Surface(name: "leaf", frame: SurfaceRect(x: 0, y: 0, width: 400, height: 400), responder: leaf)
        rig.output.root.addChild(topSurface)
        topSurface.addChild(middleSurface)
        middleSurface.addChild(leafSurface)
        middle.onBegan = {
            middle.onBegan = {}
            rig.router.cancelTouches(reason: "test") { $0.id == TouchID(2) }
        }
        rig.frame([fingerDown(1, 50, 50), fingerDown(2, 100, 100)])
        rig.frame([fingerUp(1)])
        #expect(rig.log.matching("leaf.") == ["leaf.began[t1,t2]", "leaf.cancelled[t2]", "leaf.ended[t1]"])
        #expect(rig.log.matching("middle.") == ["middle.began[t1,t2]", "middle.cancelled[t2]", "middle.ended[t1]"])
        #expect(rig.log.matching("top.") == ["top.began[t1]", "top.ended[t1]"])
        #expect(rig.router.activeTouchCount == 0)
    }

    /// A recognizer that begins when asked (from a responder's handler).
    final class BeginsWhenAsked: GestureRecognizer {
        override func touchesEnded(_ event: TouchEvent) { if state.isInProgress { state = .ended } else { failIfPossible() } }
    }

    @Test func aTouchTakenByARecognizerInTheMiddleOfItsBeganWalkIsNotShownToTheLinksAfter() {
        // Seed 6383: the leaf's began handler makes a recognizer begin (it takes the touch and
        // cancels the leaf); the walk went on and showed the began to the links above, which
        // then never heard its end.
        let rig = GestureRig()
        let top = Logging("top", log: rig.log)
        let leaf = Logging("leaf", log: rig.log)
        let topSurface = Surface(name: "top", frame: SurfaceRect(x: 0, y: 0, width: 800, height: 800), responder: top)
        let leafSurface = Surface(name: "leaf", frame: SurfaceRect(x: 0, y: 0, width: 400, height: 400), responder: leaf)
        rig.output.root.addChild(topSurface)
        topSurface.addChild(leafSurface)
        let taker = BeginsWhenAsked(name: "taker")
        leafSurface.addGestureRecognizer(taker)
        leaf.onBegan = { if taker.state == .possible { taker.state = .began } }
        rig.down(1, 50, 50)
        rig.up(1)
        #expect(rig.log.matching("leaf.") == ["leaf.began[t1]", "leaf.cancelled[t1]"])
        #expect(rig.log.matching("top.").isEmpty, "the touch was taken before the walk reached it")
        #expect(rig.router.activeTouchCount == 0)
    }
}
