import Testing
@_spi(SeatKitInternals) @testable import SeatKit

/// The default `refineHitTest` learnt once per responder (`RefineHitTestProbe`,
/// UnsafeFoundations.swift): hit-tests then accept for it without calling it; a responder with
/// its own is called at every hit-test, and one put in its place is asked again (issue 25,
/// eleventh round).
@Suite struct RefineHitTestProbeTests {
    /// Refuses the points left of `refuseLeftOf` (surface space) and counts its calls.
    final class Refining: Responder {
        var calls = 0
        var refuseLeftOf: Double
        init(refuseLeftOf: Double) { self.refuseLeftOf = refuseLeftOf }
        func refineHitTest(at point: SurfacePoint, in surface: Surface) -> Bool {
            calls += 1
            return point.x >= refuseLeftOf
        }
    }

    @Test func theProbeTellsTheDefaultOnlyForTheResponderItRanFor() {
        let surface = Surface(name: "s", frame: SurfaceRect(x: 0, y: 0, width: 10, height: 10))
        let point = SurfacePoint(x: 1, y: 1)
        let (plainAccepts, plainKind) = RefineHitTestProbe.classify(PassThroughResponder(), at: point, in: surface)
        #expect(plainAccepts)
        #expect(plainKind == .followsDefault)
        let (ownAccepts, ownKind) = RefineHitTestProbe.classify(Refining(refuseLeftOf: 5), at: point, in: surface)
        #expect(!ownAccepts)
        #expect(ownKind == .own)
        // A custom implementation that asks another responder's default is still its own.
        final class AsksAnother: Responder {
            let other = PassThroughResponder()
            func refineHitTest(at point: SurfacePoint, in surface: Surface) -> Bool {
                other.refineHitTest(at: point, in: surface)
            }
        }
        #expect(RefineHitTestProbe.classify(AsksAnother(), at: point, in: surface) == (true, .own))
    }

    @Test func aDefaultResponderIsLearntAtItsFirstHitAndAnOwnRefinementIsCalledAtEveryHit() {
        let router = Router(clock: VirtualClock())
        let output = Output(name: "o", modeSize: Size(width: 800, height: 600))
        router.addOutput(output)
        let below = Surface(name: "below", frame: SurfaceRect(x: 0, y: 0, width: 100, height: 100))
        let refining = Refining(refuseLeftOf: 50)
        let top = Surface(name: "top", frame: SurfaceRect(x: 0, y: 0, width: 100, height: 100), responder: refining)
        output.root.addChild(below)
        output.root.addChild(top)
        #expect(below.unchecked.responderSlot.holder.unchecked.refine == .unknown)
        // The top surface refuses the left half: the one below gets it, and is learnt.
        #expect(router.surface(at: LayoutPoint(x: 10, y: 10)) === below)
        #expect(below.unchecked.responderSlot.holder.unchecked.refine == .followsDefault)
        #expect(top.unchecked.responderSlot.holder.unchecked.refine == .own)
        #expect(router.surface(at: LayoutPoint(x: 60, y: 10)) === top)
        #expect(router.surface(at: LayoutPoint(x: 20, y: 10)) === below)
        #expect(refining.calls == 3)
        // Pointer motions hit-test through the same check.
        router.inject(InputEvent(time: Timestamp(microseconds: 1), .pointerMotionAbsolute(LayoutPoint(x: 10, y: 10))))
        #expect(router.pointerFocus === below)
        router.inject(InputEvent(time: Timestamp(microseconds: 2), .pointerMotionAbsolute(LayoutPoint(x: 70, y: 10))))
        #expect(router.pointerFocus === top)
        #expect(refining.calls == 5)
        // A responder put in place of a learnt default gets a new holder and is asked: it
        // refuses the whole surface now.
        let refusing = Refining(refuseLeftOf: 1_000)
        below.responder = refusing
        #expect(below.unchecked.responderSlot.holder.unchecked.refine == .unknown)
        #expect(router.surface(at: LayoutPoint(x: 10, y: 10)) === output.root)
        #expect(refusing.calls == 1)
        // And the default again is learnt again.
        below.responder = PassThroughResponder()
        #expect(router.surface(at: LayoutPoint(x: 10, y: 10)) === below)
        #expect(below.unchecked.responderSlot.holder.unchecked.refine == .followsDefault)
        #expect(router.surface(at: LayoutPoint(x: 11, y: 10)) === below)
    }
}
