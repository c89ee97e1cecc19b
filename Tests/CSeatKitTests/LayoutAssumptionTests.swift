// This file imports CSeatKit's Swift side (not the C header: the two declare the same
// function names) to pin the layout facts its per-event path relies on.
@testable import CSeatKit
@_spi(SeatKitInternals) import SeatKit
import Testing

/// Reads the target the way the C API does (unretained identity) and the retaining way.
private final class TargetProbe: Responder {
    var pairs: [(fast: ObjectIdentifier?, slow: ObjectIdentifier?)] = []
    func touchesBegan(_ event: TouchEvent, context: ResponderContext) -> ResponderResult {
        pairs.append((context.targetIdentity, context.target.map(ObjectIdentifier.init)))
        return .notHandled
    }
}

/// Records, for each crossing, whether the context's target is the surface asked.
private final class CrossingProbe: Responder {
    var crossings: [(entered: Bool, target: ObjectIdentifier?, surface: ObjectIdentifier?)] = []
    func pointerEntered(_ event: PointerCrossingEvent, context: ResponderContext) {
        crossings.append((true, context.targetIdentity, context.surface.map(ObjectIdentifier.init)))
    }
    func pointerLeft(_ event: PointerCrossingEvent, context: ResponderContext) {
        crossings.append((false, context.targetIdentity, context.surface.map(ObjectIdentifier.init)))
    }
}

struct LayoutAssumptionTests {
    /// The C API names a crossed surface as its crossing's target without asking the context
    /// (`CResponder.makeCrossingContext`): SeatKit tells entered and left only to the surface
    /// crossed, with that surface as the target.
    @Test func aCrossingsTargetIsTheSurfaceCrossed() {
        let router = Router(clock: VirtualClock())
        let output = Output(name: "out", modeSize: Size(width: 100, height: 100))
        router.addOutput(output)
        let probe = CrossingProbe()
        let parent = Surface(name: "parent", frame: SurfaceRect(x: 0, y: 0, width: 100, height: 100), responder: probe)
        let child = Surface(name: "child", frame: SurfaceRect(x: 0, y: 0, width: 50, height: 50), responder: probe)
        output.root.addChild(parent)
        parent.addChild(child)
        router.inject(InputEvent(time: .zero, .pointerMotionAbsolute(LayoutPoint(x: 10, y: 10))))
        router.inject(InputEvent(time: .zero, .pointerMotionAbsolute(LayoutPoint(x: 80, y: 80))))
        router.inject(InputEvent(time: .zero, .pointerMotionAbsolute(LayoutPoint(x: 20, y: 20))))
        // Entered the child; left it and entered the parent; left the parent and entered the child.
        #expect(probe.crossings.map(\.entered) == [true, false, true, false, true])
        #expect(probe.crossings.map(\.surface) == [child, child, parent, parent, child].map(ObjectIdentifier.init))
        for crossing in probe.crossings {
            #expect(crossing.target == crossing.surface)
        }
    }


    @Test func theCAPIsUnretainedTargetIdentityIsTheTarget() {
        let router = Router(clock: VirtualClock())
        let output = Output(name: "out", modeSize: Size(width: 100, height: 100))
        router.addOutput(output)
        let probe = TargetProbe()
        let parent = Surface(name: "parent", frame: SurfaceRect(x: 0, y: 0, width: 100, height: 100), responder: probe)
        let child = Surface(name: "child", frame: SurfaceRect(x: 0, y: 0, width: 50, height: 50), responder: probe)
        output.root.addChild(parent)
        parent.addChild(child)
        router.inject(InputEvent(time: .zero, .touchDown(TouchID(0), LayoutPoint(x: 10, y: 10))))
        router.inject(InputEvent(time: .zero, .touchFrame))
        // Asked at the child and at the parent, the target being the child both times.
        #expect(probe.pairs.count == 2)
        for pair in probe.pairs {
            #expect(pair.fast == pair.slow)
            #expect(pair.slow == ObjectIdentifier(child))
        }
    }

    @Test func touchPointsGoToCWithoutACopy() {
        #expect(CValues.touchPointLayoutMatches)
    }
}
