import Testing
@_spi(SeatKitInternals) @testable import SeatKit

/// A pointer motion's walk goes from an attached root to its output pinned, not retained
/// ("Asking an output without owning it", UnsafeFoundations.swift; issue 25, eleventh round):
/// an output whose responder takes it out of the layout, with nothing else owning it, lives
/// until the walk is done with it, then goes; the walk goes on to the delegate as before.
@Suite struct OutputPinTests {
    /// Takes its output out of the layout from inside its motion handler, then reads it.
    final class RemovesItsOutput: Responder {
        unowned let router: Router
        let log: CallLog
        var onMotion: ((ResponderContext) -> Void)?
        init(router: Router, log: CallLog) {
            self.router = router
            self.log = log
        }
        func pointerMoved(_ event: PointerMotionEvent, context: ResponderContext) -> ResponderResult {
            log.add("output.motion")
            onMotion?(context)
            return .notHandled
        }
    }

    @Test func anOutputTakenOutOfTheLayoutByItsOwnResponderDuringAMotionIsAskedPinnedAndFreedAfterTheWalk() {
        let h = Harness()
        weak var weakOutput: Output?
        var pinsSeen: [UInt32] = []
        var keptSeen: [Bool] = []
        do {
            let second = Output(name: "OUT-2", position: LayoutPoint(x: 1000, y: 0), modeSize: Size(width: 500, height: 500))
            h.router.addOutput(second)
            // Responders that keep the default next link: the walk follows the parents itself.
            second.root.addChild(Surface(name: "t", frame: SurfaceRect(x: 10, y: 10, width: 100, height: 100)))
            let responder = RemovesItsOutput(router: h.router, log: h.log)
            second.responder = responder
            weakOutput = second
            // The first two walks learn that the focus and the root keep the default next
            // link; from the next one on, the walk follows the output pinned.
            h.pointer(to: 1040, 40)
            h.pointer(to: 1041, 40)
            responder.onMotion = { [unowned router = h.router, unowned second] _ in
                pinsSeen.append(second.walkPinCountForTesting)
                router.removeOutput(second)
                keptSeen.append(second.isKeptForWalkForTesting)
                #expect(second.name == "OUT-2", "still alive inside its ask")
            }
        }
        // The output is owned by the layout alone now.
        #expect(weakOutput != nil)
        h.log.clear()
        h.pointer(to: 1042, 40)
        #expect(pinsSeen == [1], "the output is asked pinned, not owned")
        #expect(keptSeen == [true], "taken out of the layout while pinned, it keeps itself")
        #expect(h.log.entries.contains("output.motion"))
        #expect(h.delegate.dropped.last == "motion", "the walk went on to the delegate")
        #expect(weakOutput == nil, "let go once the walk is done with it")
        #expect(h.router.layout.outputs.count == 1)
    }

    @Test func anOutputAskedByAMotionsWalkIsUnpinnedAfterAndAnOutputRemovedUnpinnedIsNotKept() {
        let h = Harness()
        let second = Output(name: "OUT-2", position: LayoutPoint(x: 1000, y: 0), modeSize: Size(width: 500, height: 500))
        h.router.addOutput(second)
        second.root.addChild(Surface(name: "t", frame: SurfaceRect(x: 10, y: 10, width: 100, height: 100)))
        var pinsSeen: [UInt32] = []
        let responder = RemovesItsOutput(router: h.router, log: h.log)
        responder.onMotion = { [unowned second] _ in pinsSeen.append(second.walkPinCountForTesting) }
        second.responder = responder
        h.pointer(to: 1040, 40)
        h.pointer(to: 1041, 40)
        h.pointer(to: 1042, 40)
        h.pointer(to: 1043, 40)
        // The first two walks learnt the focus's and the root's next links (the output owned
        // by its link); the others pinned it.
        #expect(pinsSeen == [0, 0, 1, 1])
        #expect(second.walkPinCountForTesting == 0)
        h.router.removeOutput(second)
        #expect(!second.isKeptForWalkForTesting, "no walk is on it: the layout's reference just goes")
    }
}
