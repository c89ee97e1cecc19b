import Testing
@_spi(SeatKitInternals) @testable import SeatKit

/// A surface and an output keep their responder in the same slot (`ResponderSlot`,
/// UnsafeFoundations.swift): the router asks it without retaining it, and one replaced from
/// inside its own call lives until the call returns, then goes (rules 2 and 3 of
/// `Unretained`). Each test runs for both owners.
@Suite struct ResponderSlotTests {
    enum Owner: String, CaseIterable, CustomTestStringConvertible {
        case surface, output
        var testDescription: String { rawValue }
    }

    /// What a replaced responder saw from inside its call, kept outside it.
    final class Seen {
        var formerCountDuringCall = -1
        var motionsAfterReplacing = 0
    }

    /// Replaces itself from inside its motion handler, then reads and writes its own state
    /// (freed, it would not be there) and records how many replaced responders its owner keeps.
    final class ReplacesItself: Responder {
        let seen: Seen
        var replace: () -> Void = {}
        var formerCount: () -> Int = { -1 }
        var motions = 0
        init(seen: Seen) { self.seen = seen }
        func pointerMoved(_ event: PointerMotionEvent, context: ResponderContext) -> ResponderResult {
            replace()
            motions += 1
            seen.motionsAfterReplacing = motions
            seen.formerCountDuringCall = formerCount()
            return .notHandled
        }
    }

    /// The owner's responder, set and read through the public property, and its count of
    /// replaced responders waiting.
    static func responderOf(_ owner: Owner, _ h: Harness, _ surface: Surface) -> (set: (any Responder) -> Void, formerCount: () -> Int) {
        switch owner {
        case .surface:
            return ({ [unowned surface] in surface.responder = $0 }, { [unowned surface] in surface.formerResponderCountForTesting })
        case .output:
            return ({ [unowned output = h.output] in output.responder = $0 }, { [unowned output = h.output] in output.formerResponderCountForTesting })
        }
    }

    @Test(arguments: Owner.allCases)
    func aResponderReplacedFromInsideItsOwnCallStaysAliveUntilTheCallReturnsThenIsReleased(_ owner: Owner) {
        let h = Harness()
        let surface = h.surface("s", 0, 0, 100, 100)
        let (setResponder, formerCount) = Self.responderOf(owner, h, surface)
        let seen = Seen()
        weak var weakOld: ReplacesItself?
        do {
            let old = ReplacesItself(seen: seen)
            old.replace = { setResponder(RecordingResponder("new", log: h.log)) }
            old.formerCount = formerCount
            weakOld = old
            setResponder(old)
        }
        #expect(weakOld != nil, "the owner keeps it")
        h.log.clear()
        h.pointer(to: 50, 50)
        // Replaced, it finished its call (its own state written after the replacement), with
        // its owner keeping it for that call; released as the call returned.
        #expect(seen.motionsAfterReplacing == 1)
        #expect(seen.formerCountDuringCall == 1)
        #expect(weakOld == nil)
        #expect(formerCount() == 0)
        // The walk went on past it; the next motion asks the new responder.
        #expect(h.delegate.dropped == ["motion"])
        h.log.clear()
        h.pointer(to: 51, 50)
        #expect(h.log.entries.contains("new.motion"))
        #expect(seen.motionsAfterReplacing == 1)
    }

    @Test(arguments: Owner.allCases)
    func aResponderReplacedWithNoCallUnderWayIsReleasedAtOnce(_ owner: Owner) {
        let h = Harness()
        let surface = h.surface("s", 0, 0, 100, 100)
        let (setResponder, formerCount) = Self.responderOf(owner, h, surface)
        weak var weakOld: ReplacesItself?
        do {
            let old = ReplacesItself(seen: Seen())
            weakOld = old
            setResponder(old)
        }
        #expect(weakOld != nil)
        setResponder(PassThroughResponder())
        #expect(weakOld == nil)
        #expect(formerCount() == 0)
    }
}
