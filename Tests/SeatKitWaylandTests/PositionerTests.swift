import CWaylandServer
import CWaylandShellProtocols
import SeatKit
@testable import SeatKitHeadlessShell
import Testing

/// Where a popup goes for its positioner, in the parent's window-geometry coordinates.
@Suite struct PositionerTests {
    static let output = SurfaceRect(x: 0, y: 0, width: 1000, height: 800)

    func positioner(size: (Double, Double), anchorRect: SurfaceRect, anchor: UInt32, gravity: UInt32,
                    adjustment: UInt32 = 0, offset: Vector = Vector(dx: 0, dy: 0)) -> PositionerState {
        var state = PositionerState()
        state.size = Size(width: size.0, height: size.1)
        state.anchorRect = anchorRect
        state.anchor = anchor
        state.gravity = gravity
        state.constraintAdjustment = adjustment
        state.offset = offset
        return state
    }

    @Test func aDropdownGoesBelowItsAnchorRectangleStartingAtItsLeftEdge() {
        let state = positioner(size: (200, 100), anchorRect: SurfaceRect(x: 50, y: 80, width: 120, height: 30),
                               anchor: XDG_POSITIONER_ANCHOR_BOTTOM_LEFT.rawValue, gravity: XDG_POSITIONER_GRAVITY_BOTTOM_RIGHT.rawValue)
        #expect(state.place(within: Self.output) == SurfaceRect(x: 50, y: 110, width: 200, height: 100))
    }

    @Test func noAnchorAndNoGravityCentreThePopupOnTheRectanglesCentrePlusTheOffset() {
        let state = positioner(size: (100, 40), anchorRect: SurfaceRect(x: 100, y: 100, width: 200, height: 100),
                               anchor: XDG_POSITIONER_ANCHOR_NONE.rawValue, gravity: XDG_POSITIONER_GRAVITY_NONE.rawValue,
                               offset: Vector(dx: 5, dy: -3))
        #expect(state.place(within: Self.output) == SurfaceRect(x: 155, y: 127, width: 100, height: 40))
    }

    @Test func aMenuThatWouldLeaveTheBottomFlipsAboveItsAnchor() {
        let state = positioner(size: (150, 300), anchorRect: SurfaceRect(x: 10, y: 700, width: 80, height: 30),
                               anchor: XDG_POSITIONER_ANCHOR_BOTTOM_LEFT.rawValue, gravity: XDG_POSITIONER_GRAVITY_BOTTOM_RIGHT.rawValue,
                               adjustment: XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_FLIP_Y.rawValue)
        #expect(state.place(within: Self.output) == SurfaceRect(x: 10, y: 400, width: 150, height: 300))
    }

    @Test func slidingKeepsAPopupOnTheOutputWhereFlippingCannot() {
        let state = positioner(size: (300, 100), anchorRect: SurfaceRect(x: 900, y: 10, width: 50, height: 20),
                               anchor: XDG_POSITIONER_ANCHOR_BOTTOM_LEFT.rawValue, gravity: XDG_POSITIONER_GRAVITY_BOTTOM_RIGHT.rawValue,
                               adjustment: XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_SLIDE_X.rawValue)
        #expect(state.place(within: Self.output) == SurfaceRect(x: 700, y: 30, width: 300, height: 100))
        let unconstrained = positioner(size: (300, 100), anchorRect: SurfaceRect(x: 900, y: 10, width: 50, height: 20),
                                       anchor: XDG_POSITIONER_ANCHOR_BOTTOM_LEFT.rawValue,
                                       gravity: XDG_POSITIONER_GRAVITY_BOTTOM_RIGHT.rawValue)
        #expect(unconstrained.place(within: Self.output).minX == 900, "no adjustment allowed: it stays where it was put")
    }
}
