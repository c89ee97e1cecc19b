import Testing
@testable import SeatKit

/// The end of a touch frame (issue 25, fourteenth round): the sinks and observers are told
/// inline, and the compaction's scan is skipped while nothing can have finished a record
/// (`TouchRouting.finishes`, `dueEdits`). Every way a record finishes must still return it to
/// the pool at the end of the frame or call that finished it; debug builds also check, at each
/// skipped scan, that no record is finished.
@Suite("Touch frame end")
struct FrameEndBookkeepingTests {
    final class FrameCounter: TouchFrameObserver {
        let name: String
        let log: CallLog
        init(_ name: String, log: CallLog) {
            self.name = name
            self.log = log
        }
        func routerDidFinishTouchFrame(_ router: Router) { log.add("\(name).frameEnd") }
    }

    /// A responder that cancels every touch from its n-th move.
    final class CancellingResponder: Responder {
        var moves = 0
        let cancelAt: Int
        init(cancelAt: Int) { self.cancelAt = cancelAt }
        func touchesBegan(_ event: TouchEvent, context: ResponderContext) -> ResponderResult { .handled }
        func touchesMoved(_ event: TouchEvent, context: ResponderContext) -> ResponderResult {
            moves += 1
            if moves == cancelAt { context.router.cancelTouches(reason: "test") { _ in true } }
            return .handled
        }
        func touchesEnded(_ event: TouchEvent, context: ResponderContext) -> ResponderResult { .handled }
        func touchesCancelled(_ event: TouchEvent, context: ResponderContext) {}
    }

    func records(_ h: Harness) -> Int { h.router.unchecked.touches.records.count }

    @Test func aTouchLiftedAfterMotionFramesGoesBackToThePoolAtItsFramesEnd() {
        let h = Harness()
        h.surface("a", 0, 0, 500, 500, handles: ["began", "moved", "ended"])
        for round in 0..<3 {
            h.send(.touchDown(TouchID(1), LayoutPoint(x: 10, y: 10)))
            h.send(.touchFrame)
            for step in 1...4 {
                h.send(.touchMotion(TouchID(1), LayoutPoint(x: 10 + Double(step), y: 10)))
                h.send(.touchFrame)
                #expect(records(h) == 1, "round \(round) step \(step)")
            }
            h.send(.touchUp(TouchID(1)))
            #expect(records(h) == 1, "the up alone finishes nothing")
            h.send(.touchFrame)
            #expect(records(h) == 0, "round \(round): the lifted touch's record is compacted")
            // A motion frame with nothing down after it: nothing to compact, nothing broken.
            h.send(.touchFrame)
            #expect(records(h) == 0)
        }
        #expect(h.router.unchecked.touches.pool.count >= 1)
        #expect(h.router.unchecked.touches.checkInvariants(treeEditCount: h.router.unchecked.treeEditCount,
                                                           held: h.router.gestures.unchecked.heldTouches).isEmpty)
    }

    @Test func aTouchCancelledFromAMotionsHandlerIsCompactedWhenTheFrameEnds() {
        let h = Harness()
        let responder = CancellingResponder(cancelAt: 3)
        h.output.root.addChild(Surface(name: "c", frame: SurfaceRect(x: 0, y: 0, width: 500, height: 500), responder: responder))
        h.send(.touchDown(TouchID(4), LayoutPoint(x: 10, y: 10)))
        h.send(.touchFrame)
        for step in 1...2 {
            h.send(.touchMotion(TouchID(4), LayoutPoint(x: 10 + Double(step), y: 10)))
            h.send(.touchFrame)
            #expect(records(h) == 1)
        }
        h.send(.touchMotion(TouchID(4), LayoutPoint(x: 20, y: 10)))
        h.send(.touchFrame)
        #expect(responder.moves == 3)
        #expect(records(h) == 0, "cancelled mid-walk: compacted when the frame ends")
        // The finger is still on the glass: its later events find no touch.
        h.send(.touchMotion(TouchID(4), LayoutPoint(x: 30, y: 10)))
        h.send(.touchFrame)
        #expect(responder.moves == 3)
        #expect(records(h) == 0)
    }

    /// A compaction between a touch's up and its frame (another touch cancelled from outside
    /// any frame) leaves the lifted touch unfinished; its frame then finishes it without
    /// bumping `dueEdits`, and must still return it to the pool (`TouchRouting.finishes`).
    @Test func aTouchLiftedAfterACompactionBetweenItsUpAndItsFrameIsCompactedAtItsFramesEnd() {
        let h = Harness()
        h.surface("a", 0, 0, 500, 500, handles: ["began", "moved", "ended", "cancelled"])
        h.send(.touchDown(TouchID(1), LayoutPoint(x: 10, y: 10)))
        h.send(.touchDown(TouchID(2), LayoutPoint(x: 20, y: 10)))
        h.send(.touchFrame)
        h.send(.touchMotion(TouchID(1), LayoutPoint(x: 12, y: 10)))
        h.send(.touchFrame)
        h.send(.touchUp(TouchID(1)))
        h.router.cancelTouches(reason: "test") { $0.id == TouchID(2) }
        #expect(records(h) == 1, "the cancelled touch is compacted at once; the lifted one waits for its frame")
        h.send(.touchFrame)
        #expect(records(h) == 0, "the lifted touch's record is compacted at its frame's end")
        #expect(h.log.entries == ["a.began", "a.moved", "a.cancelled", "a.ended"])
    }

    /// Sinks hear each frame's end before the observers, once a frame, motion frames included.
    @Test func sinksThenObserversHearEveryFramesEnd() {
        let h = Harness()
        h.surface("a", 0, 0, 500, 500, handles: ["began", "moved", "ended"])
        let sink = FrameCounter("sink", log: h.log)
        let observer = FrameCounter("observer", log: h.log)
        h.router.addTouchFrameSink(sink)
        h.router.addTouchFrameObserver(observer)
        h.send(.touchDown(TouchID(1), LayoutPoint(x: 10, y: 10)))
        h.send(.touchFrame)
        h.send(.touchMotion(TouchID(1), LayoutPoint(x: 12, y: 10)))
        h.send(.touchFrame)
        h.send(.touchUp(TouchID(1)))
        h.send(.touchFrame)
        #expect(h.log.entries == ["a.began", "sink.frameEnd", "observer.frameEnd",
                                  "a.moved", "sink.frameEnd", "observer.frameEnd",
                                  "a.ended", "sink.frameEnd", "observer.frameEnd"])
        h.router.removeTouchFrameObserver(observer)
        h.log.clear()
        h.send(.touchDown(TouchID(2), LayoutPoint(x: 10, y: 10)))
        h.send(.touchFrame)
        #expect(h.log.entries == ["a.began", "sink.frameEnd"])
    }
}
