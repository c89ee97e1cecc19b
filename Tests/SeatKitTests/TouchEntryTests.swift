import Testing
@testable import SeatKit

/// `Router.inject` hands a touch motion and a frame on as their parts and makes their event
/// only for whoever looks at it (a trace, a spy, a filter, a grab): whether one is there is
/// decided per event, so each of them sees the events routed once it is there, and the
/// touch moves the same either way (issue 25, eleventh round).
@Suite("Touch entry")
struct TouchEntryTests {
    /// A 500 × 500 pad handling touches, with finger 0 down at (10, 10) and moved to (20, 20).
    private static func padWithAFingerMoved() -> (Harness, Surface) {
        let h = Harness()
        let pad = h.surface("pad", 0, 0, 500, 500, handles: ["began", "moved", "ended"])
        h.down(0, 10, 10)
        h.move(0, 20, 20)
        #expect(pad.recorder.lastTouches.first?.location == LayoutPoint(x: 20, y: 20))
        return (h, pad)
    }

    private static func isReceived(_ record: TraceRecord, _ kind: (InputEvent.Kind) -> Bool) -> Bool {
        if case .received(let event) = record { return kind(event.kind) }
        return false
    }

    @Test func aSpyAndATraceAddedMidTouchSeeItsMotionAndFrameAndTheTouchStillMoves() {
        let (h, pad) = Self.padWithAFingerMoved()

        let spy = CountingSpy()
        h.router.addSpy(spy)
        let trace = TraceLog()
        h.router.trace = trace
        h.log.clear()
        h.move(0, 30, 30)
        #expect(spy.seen == 2)
        #expect(trace.records.filter { Self.isReceived($0) { if case .touchMotion = $0 { true } else { false } } }.count == 1)
        #expect(trace.records.filter { Self.isReceived($0) { if case .touchFrame = $0 { true } else { false } } }.count == 1)
        #expect(h.log.entries == ["pad.moved"])
        #expect(pad.recorder.lastTouches.first?.location == LayoutPoint(x: 30, y: 30))

        // Both gone: the next motion is routed without its event, as before them.
        h.router.removeSpy(spy)
        h.router.trace = nil
        h.log.clear()
        h.move(0, 40, 40)
        #expect(spy.seen == 2)
        #expect(h.log.entries == ["pad.moved"])
        #expect(pad.recorder.lastTouches.first?.location == LayoutPoint(x: 40, y: 40))
    }

    /// The motion entry tests the trace, a taken touch and the touch grab as one byte that
    /// their writers keep (`TouchRouting.sideRoutes`): a grab started while a finger is down
    /// must get that finger's next motion, and once it ends the finger moves its record again.
    @Test func aTouchGrabStartedMidTouchGetsTheNextMotionAndOnceEndedTheTouchMovesAgain() {
        let (h, pad) = Self.padWithAFingerMoved()

        let lock = LockScreen()
        h.router.startTouchGrab(lock)
        h.log.clear()
        h.move(0, 30, 30)
        #expect(lock.seen == ["move \(TouchID(0))"])
        #expect(h.log.entries.isEmpty)
        #expect(pad.recorder.lastTouches.first?.location == LayoutPoint(x: 20, y: 20))

        h.router.endTouchGrab()
        h.down(1, 50, 50)
        h.log.clear()
        h.move(1, 60, 60)
        #expect(lock.seen == ["move \(TouchID(0))"])
        #expect(h.log.entries == ["pad.moved"])
        #expect(pad.recorder.lastTouches.first?.location == LayoutPoint(x: 60, y: 60))
    }

    @Test func aMotionOfATouchThatIsNotDownMovesNothingAndIsTracedAsIgnored() {
        let h = Harness()
        let pad = h.surface("pad", 0, 0, 500, 500, handles: ["began", "moved", "ended"])
        h.down(0, 10, 10)
        h.up(0)
        h.log.clear()
        // Untraced: nothing is delivered for the lifted finger nor for a finger never down.
        h.move(0, 50, 50)
        h.move(3, 50, 50)
        #expect(h.log.entries.isEmpty)
        #expect(pad.recorder.lastTouches.first?.location == LayoutPoint(x: 10, y: 10))
        let trace = TraceLog()
        h.router.trace = trace
        h.send(.touchMotion(TouchID(3), LayoutPoint(x: 60, y: 60)))
        let ignored = trace.records.contains {
            if case .ignored(let event, let reason) = $0, case .touchMotion(TouchID(3), _) = event.kind { return reason == "no such touch" }
            return false
        }
        #expect(ignored)
    }

    @Test func aNonFiniteMotionIsIgnoredAndTheTouchStaysWhereItWas() {
        let h = Harness()
        let pad = h.surface("pad", 0, 0, 500, 500, handles: ["began", "moved", "ended"])
        h.down(0, 10, 10)
        h.log.clear()
        h.move(0, .nan, 20)
        h.move(0, 20, .infinity)
        #expect(h.log.entries.isEmpty)
        h.move(0, 25, 25)
        #expect(h.log.entries == ["pad.moved"])
        #expect(pad.recorder.lastTouches.first?.location == LayoutPoint(x: 25, y: 25))
    }
}
