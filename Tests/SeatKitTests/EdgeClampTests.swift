import Testing
@testable import SeatKit

/// The pointer kept on screen must stay on screen after a Wayland client rounds its position
/// to `wl_fixed_t` (1/256, to nearest): at x = 640 − 1e-6 a 640-wide surface read x = 640.0.
@Suite("Layout edge clamp")
struct EdgeClampTests {
    /// What a client reads: the coordinate rounded to the nearest 1/256.
    private func wire(_ v: Double) -> Double { (v * 256).rounded() / 256 }

    @Test func pushingPastTheRightAndBottomEdgesStaysOneFixedStepInside() {
        let h = Harness(outputSize: Size(width: 640, height: 480))
        let s = h.surface("s", 0, 0, 640, 480, handles: ["motion"])
        h.pointer(to: 600, 400)
        h.send(.pointerMotion(delta: Vector(dx: 500, dy: 500), unaccelerated: Vector(dx: 500, dy: 500)))
        let p = h.router.pointerLocation
        #expect(p == LayoutPoint(x: 640 - 1.0 / 256, y: 480 - 1.0 / 256))
        #expect(wire(p.x) < 640 && wire(p.y) < 480)
        let local = try! #require(s.recorder.lastMotion?.surfaceLocation)
        #expect(wire(local.x) < 640 && wire(local.y) < 480)
    }

    @Test func anAbsolutePointPastTheEdgeIsClampedTheSameWay() {
        let h = Harness(outputSize: Size(width: 640, height: 480))
        h.pointer(to: 10_000, -5)
        #expect(h.router.pointerLocation == LayoutPoint(x: 640 - Layout.edgeMargin, y: 0))
    }

    @Test func aPointInsideTheLastFixedStepMovesIn() {
        let h = Harness(outputSize: Size(width: 640, height: 480))
        h.pointer(to: 639.999, 479.9999)
        let p = h.router.pointerLocation
        #expect(wire(p.x) < 640 && wire(p.y) < 480)
        // Away from the edges nothing changes.
        h.pointer(to: 639.5, 0)
        #expect(h.router.pointerLocation == LayoutPoint(x: 639.5, y: 0))
    }

    @Test func anEdgeThatAnotherOutputContinuesIsNotAMargin() {
        let h = Harness(outputSize: Size(width: 640, height: 480))
        h.router.addOutput(Output(name: "OUT-2", position: LayoutPoint(x: 640, y: 0), modeSize: Size(width: 640, height: 480)))
        h.pointer(to: 639.999, 100)
        #expect(h.router.pointerLocation == LayoutPoint(x: 639.999, y: 100))
        h.send(.pointerMotion(delta: Vector(dx: 2000, dy: 0), unaccelerated: Vector(dx: 2000, dy: 0)))
        #expect(h.router.pointerLocation == LayoutPoint(x: 1280 - Layout.edgeMargin, y: 100))
    }
}
