import Testing
@_spi(SeatKitInternals) @testable import SeatKit

/// An output's responder is asked through a holder, not retained (rule 2 and 3 of
/// `Unretained`, UnsafeFoundations.swift): one replaced from inside its own call lives until
/// the call ends, then goes; the walk goes on as the responder it asked chose (issue 25,
/// eleventh round).
@Suite struct OutputResponderHolderTests {
    /// Replaces itself as its output's responder from inside its motion handler, then reads
    /// its own state (freed, it would not be there to read).
    final class ReplacesItself: Responder {
        unowned let output: Output
        let replacement: any Responder
        let log: CallLog
        var motions = 0
        init(output: Output, replacement: any Responder, log: CallLog) {
            self.output = output
            self.replacement = replacement
            self.log = log
        }
        func pointerMoved(_ event: PointerMotionEvent, context: ResponderContext) -> ResponderResult {
            output.responder = replacement
            motions += 1
            log.add("old.motion \(motions)")
            return .notHandled
        }
    }

    final class Logs: Responder {
        let log: CallLog
        init(log: CallLog) { self.log = log }
        func pointerMoved(_ event: PointerMotionEvent, context: ResponderContext) -> ResponderResult {
            log.add("new.motion")
            return .notHandled
        }
    }

    @Test func anOutputResponderReplacedFromInsideItsCallLivesUntilTheCallEndsThenGoes() {
        let h = Harness()
        weak var weakOld: ReplacesItself?
        do {
            let old = ReplacesItself(output: h.output, replacement: Logs(log: h.log), log: h.log)
            weakOld = old
            h.output.responder = old
        }
        // The output is the only owner now.
        #expect(weakOld != nil)
        h.log.clear()
        h.pointer(to: 500, 500)
        // Asked once, alive through its call, the walk went on to the delegate, and it is gone
        // now that the output let it go.
        #expect(h.log.entries.first == "old.motion 1")
        #expect(h.delegate.dropped == ["motion"])
        #expect(weakOld == nil)
        #expect(h.output.formerResponderCountForTesting == 0)
        // The new responder is asked from the next walk on, and learnt as keeping the default.
        h.log.clear()
        h.pointer(to: 501, 500)
        #expect(h.log.entries.first == "new.motion")
        #expect(h.output.unchecked.responderChain == .followsDefault)
        #expect(h.delegate.dropped == ["motion", "motion"])
    }
}
