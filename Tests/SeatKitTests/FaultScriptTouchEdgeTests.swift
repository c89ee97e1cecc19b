import SeatKit
import Testing

/// The soak's model of issue 23's touch edges, each on a short script: the invariants hold
/// now, and each script would break one on the core before the fix (named in the test).
@Suite("Fault-script soak: touch edges")
struct FaultScriptTouchEdgeTests {
    func responder(_ world: FaultScriptWorld, root o: Int) -> SoakResponder {
        world.outputs[o]!.root.responder as! SoakResponder
    }

    /// `d.began-without-end` before the fix: root 0 saw the touch begin and heard nothing after
    /// its surface moved to output 1; root 1 got its end without its began.
    @Test func aTouchedSurfaceMovedToAnotherOutputEndsOnceWhereItBegan() {
        let script: [FaultScript.Step] = [
            .addOutput(0, x: 0, y: 0, w: 800, h: 600, rootFocusable: false),
            .addOutput(1, x: 800, y: 0, w: 800, h: 600, rootFocusable: false),
            .add(1, to: .root(0), at: 0, frame: R(100, 100, 200, 200), focusable: false),
            .touch([.down(0, 150, 150)]),
            .reparent(1, to: .root(1), at: 0),
            .touch([.move(0, 160, 150)]),
            .touch([.up(0)]),
            .advance(ms: 1200),
            .touch([.down(1, 1000, 300)]),
        ]
        let world = FaultScriptWorld()
        #expect(world.run(script) == nil)
    }

    /// `d.end-without-began` and `d.began-without-end` before the fix: s2's touchesEnded
    /// removes its parent s1; the removed parent heard nothing, and the end went on to
    /// responders that never saw the touch begin.
    @Test func anEndedHandlerThatRemovesAnAncestorEndsTheTouchOnceEverywhere() {
        let script: [FaultScript.Step] = [
            .addOutput(0, x: 0, y: 0, w: 800, h: 600, rootFocusable: false),
            .add(1, to: .root(0), at: 0, frame: R(100, 100, 300, 300), focusable: false),
            .add(2, to: .surface(1), at: 0, frame: R(10, 10, 100, 100), focusable: false),
            .arm(.surface(2, .ended), .remove(1)),
            .touch([.down(0, 120, 120)]),
            .touch([.up(0)]),
            .advance(ms: 1200),
            .touch([.down(1, 500, 500)]),
        ]
        let world = FaultScriptWorld()
        #expect(world.run(script) == nil)
        #expect((world.surfaces[1]!.responder as! SoakResponder).touches.isEmpty)  // told, then forgotten when quiet
    }

    /// `d.stale-surface-point` before the fix: the delaying tap holds the touch, the surface
    /// moves, the tap fails and the held began went out in the space the surface had before.
    @Test func aHeldTouchIsReleasedInTheSpaceItsMovedSurfaceHasNow() {
        let script: [FaultScript.Step] = [
            .addOutput(0, x: 0, y: 0, w: 800, h: 600, rootFocusable: false),
            .add(1, to: .root(0), at: 0, frame: R(100, 100, 300, 300), focusable: false),
            .addRecognizer(0, .delayingTap, on: .surface(1), requireToFail: nil),
            .touch([.down(0, 150, 150)]),
            .setFrame(1, R(140, 90, 300, 300)),
            .advance(ms: 600),
            .touch([.up(0)]),
        ]
        let world = FaultScriptWorld()
        #expect(world.run(script) == nil)
    }

    /// A surface moved under a still finger is told its new point (`refreshTouchLocations`),
    /// in its own space; so is a finger whose surface moved before the next frame.
    @Test func aStillFingerHearsItsSurfaceMovedInTheSurfacesNewSpace() {
        let script: [FaultScript.Step] = [
            .addOutput(0, x: 0, y: 0, w: 800, h: 600, rootFocusable: false),
            .add(1, to: .root(0), at: 0, frame: R(100, 100, 300, 300), focusable: false),
            .add(2, to: .root(0), at: 1, frame: R(500, 100, 200, 200), focusable: false),
            .touch([.down(0, 150, 150), .down(1, 550, 150)]),
            .setFrame(1, R(120, 80, 300, 300)),
            .refreshTouches,
            .setFrame(1, R(110, 80, 300, 300)),
            .touch([.move(1, 560, 150)]),
            .touch([.up(0), .up(1)]),
        ]
        let world = FaultScriptWorld()
        #expect(world.run(script) == nil)
        // The root saw both fingers begin and end (the surfaces pass everything on).
        #expect(responder(world, root: 0).touches.count == 2)
        #expect(responder(world, root: 0).touches.values.allSatisfy { $0.sawBegan && $0.terminal })
    }
}
