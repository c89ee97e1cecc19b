import SeatKit
import Testing

/// The guide's relationships and arena rules (Snippets/Gestures.swift, GuideRelationships),
/// run: a diagonal drag pans the scroller on both axes at once, and the sweep is on.
@Suite struct RelationshipsGuideTests {
    @Test func theTwoAxisScrollerPansOnBothAxesAtOnce() throws {
        let clock = VirtualClock()
        let router = Router(clock: clock)
        let output = Output(name: "OUT", modeSize: Size(width: 1000, height: 1000))
        router.addOutput(output)
        let scroller = Surface(name: "scroller", frame: SurfaceRect(x: 100, y: 100, width: 600, height: 600))
        output.root.addChild(scroller)
        let guide = try GuideRelationships(scroller: scroller, output: output, router: router)
        #expect(router.gestureArenaRules == [.sweepAtEnd])
        #expect(guide.edge.inhibits(guide.press) && !guide.edge.cancels(guide.press))
        var ms: Int64 = 0
        func send(_ kind: InputEvent.Kind) {
            ms += 10
            clock.advance(to: .milliseconds(ms))
            router.inject(InputEvent(time: .milliseconds(ms), device: DeviceID(1), kind))
            router.inject(InputEvent(time: .milliseconds(ms), device: DeviceID(1), .touchFrame))
        }
        send(.touchDown(TouchID(1), LayoutPoint(x: 300, y: 300)))
        send(.touchMotion(TouchID(1), LayoutPoint(x: 340, y: 340)))
        send(.touchMotion(TouchID(1), LayoutPoint(x: 380, y: 380)))
        #expect(guide.across.state.isInProgress && guide.along.state.isInProgress, "neither pan cancelled the other")
        send(.touchUp(TouchID(1)))
        #expect(guide.across.state == .possible && guide.along.state == .possible)
    }
}
