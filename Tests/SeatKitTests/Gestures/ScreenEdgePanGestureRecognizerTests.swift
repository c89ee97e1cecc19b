import Testing
import SeatKit

/// A kiosk's hidden admin gesture: a drag in from the left edge of the screen.
@Suite struct ScreenEdgePanGestureRecognizerTests {
    func kiosk() -> (GestureRig, ScreenEdgePanGestureRecognizer) {
        let rig = GestureRig()  // 10 units per mm: the 5 mm zone is x < 50
        rig.surface("app", 0, 0, 1000, 1000)
        let edge = ScreenEdgePanGestureRecognizer(edges: .left, edgeWidth: 5, minimumDistance: 5)
        edge.action = "admin-menu"
        rig.output.addGestureRecognizer(edge)
        rig.watch(edge)
        return (rig, edge)
    }

    @Test func aDragInFromTheEdgeZoneRecognizesAndSendsTheAction() {
        let (rig, edge) = kiosk()
        rig.down(1, 20, 500)
        rig.move(1, 60, 505)
        #expect(edge.state == .possible)
        rig.move(1, 120, 510)
        #expect(edge.state == .began)
        #expect(edge.startEdge == .left)
        rig.up(1)
        #expect(rig.log.matching("edge-pan:") == ["edge-pan:began", "edge-pan:ended"])
        #expect(rig.log.entries.contains("delegate.perform(admin-menu)"))
    }

    @Test func anEdgeSwipeThatStartsOutsideTheZoneDoesNotRecognize() {
        let (rig, _) = kiosk()
        rig.down(1, 55, 500)  // 5.5 mm from the edge
        rig.move(1, 300, 500)
        rig.move(1, 600, 500)
        rig.up(1)
        #expect(rig.log.matching("edge-pan:") == ["edge-pan:failed"])
        #expect(!rig.log.entries.contains("delegate.perform(admin-menu)"))
        // The app got the whole touch.
        #expect(rig.log.matching("app.") == ["app.began[t1]", "app.moved[t1]", "app.moved[t1]", "app.ended[t1]"])
    }

    @Test func movingAlongTheEdgeDoesNotBegin() {
        let (rig, edge) = kiosk()
        rig.down(1, 20, 500)
        rig.move(1, 80, 700)
        #expect(edge.state == .possible)
    }

    @Test func theRightEdgeCountsFromTheOutputsRightSide() {
        let rig = GestureRig()
        let edge = ScreenEdgePanGestureRecognizer(edges: .right)
        rig.output.addGestureRecognizer(edge)
        rig.down(1, 960, 500)
        rig.move(1, 900, 500)
        #expect(edge.state == .began)
        #expect(edge.startEdge == .right)
    }
}
