import Testing
@_spi(SeatKitInternals) @testable import SeatKit

/// A recognizer that logs the moves it is shown and can act from its move handler.
private final class MoveLoggingRecognizer: GestureRecognizer {
    let log: GestureCallLog
    var onMoved: (() -> Void)?
    /// Fails at a lift, so that the touch's record and arena are let go of.
    var failsAtLift = false

    init(_ name: String, log: GestureCallLog) {
        self.log = log
        super.init(name: name)
    }

    override func touchesMoved(_ event: TouchEvent) {
        log.add("\(name).moved(\(event.touches.map { "t\($0.id.rawValue)@\(Int($0.location.x))" }.joined(separator: ",")))")
        onMoved?()
    }

    override func touchesEnded(_ event: TouchEvent) { if failsAtLift { failIfPossible() } }
}

/// The recognizer pass of one due touch (one finger going down, moving or lifting: most
/// passes), pinned down for the next attempt to make it cheaper (issue 25, sixteenth round:
/// a gather kept from the last move, and the arena's entries copied without the gather, were
/// both tried and dropped; docs/BENCHMARKS.md). Each test edits what the gather checks (a
/// recognizer settled, reset, removed, starting to delay touches began; the arena reused; a
/// second finger) between or inside moves, and checks that the recognizers shown, and the
/// arena's live entries, are what the gather gives.
@Suite struct LoneTouchPassTests {
    private func moves(_ rig: GestureRig) -> [String] { rig.log.matching("").filter { $0.contains(".moved(") } }

    @Test func aLoneFingersMovesReachEveryLiveRecognizerInArenaOrderEachTime() {
        let rig = GestureRig()
        let window = rig.surface("window", 0, 0, 1000, 1000)
        let names = ["a", "b", "c"]
        for name in names { window.addGestureRecognizer(MoveLoggingRecognizer(name, log: rig.log)) }
        rig.down(1, 100, 100)
        for x in 1...4 { rig.move(1, 100 + Double(x), 100) }
        #expect(moves(rig) == (1...4).flatMap { x in names.map { "\($0).moved(t1@\(100 + x))" } })
    }

    @Test func aRecognizerThatFailsOnALoneFingersMoveIsShownNoLaterMoveAndLeavesTheLiveEntries() {
        let rig = GestureRig()
        let window = rig.surface("window", 0, 0, 1000, 1000)
        let first = MoveLoggingRecognizer("first", log: rig.log)
        let quitter = MoveLoggingRecognizer("quitter", log: rig.log)
        let last = MoveLoggingRecognizer("last", log: rig.log)
        for r in [first, quitter, last] { window.addGestureRecognizer(r) }
        rig.down(1, 100, 100)
        rig.move(1, 101, 100)
        rig.move(1, 102, 100)
        quitter.onMoved = { quitter.failIfPossible() }
        rig.move(1, 103, 100)
        #expect(quitter.state == .failed)
        rig.log.clear()
        rig.move(1, 104, 100)
        rig.move(1, 105, 100)
        #expect(moves(rig) == ["first.moved(t1@104)", "last.moved(t1@104)", "first.moved(t1@105)", "last.moved(t1@105)"])
        let arena = rig.router.unchecked.touches.records.first { $0.unchecked.id == TouchID(1) }?.unchecked.arena
        #expect(arena?.unchecked.live.map(\.recognizer.object.name) == ["first", "last"])
    }

    @Test func aRecognizerFailedFromOutsideBetweenALoneFingersMovesIsShownNoLaterMove() {
        let rig = GestureRig()
        let window = rig.surface("window", 0, 0, 1000, 1000)
        let keeper = MoveLoggingRecognizer("keeper", log: rig.log)
        let quitter = MoveLoggingRecognizer("quitter", log: rig.log)
        window.addGestureRecognizer(keeper)
        window.addGestureRecognizer(quitter)
        rig.down(1, 100, 100)
        rig.move(1, 101, 100)
        rig.move(1, 102, 100)
        rig.log.clear()
        // From the compositor's own code, with no pass under way.
        quitter.failIfPossible()
        rig.move(1, 103, 100)
        rig.move(1, 104, 100)
        #expect(moves(rig) == ["keeper.moved(t1@103)", "keeper.moved(t1@104)"])
    }

    @Test func aRecognizerRemovedFromItsSurfaceBetweenALoneFingersMovesIsShownNoLaterMove() {
        let rig = GestureRig()
        let window = rig.surface("window", 0, 0, 1000, 1000)
        let keeper = MoveLoggingRecognizer("keeper", log: rig.log)
        let leaver = MoveLoggingRecognizer("leaver", log: rig.log)
        window.addGestureRecognizer(leaver)
        window.addGestureRecognizer(keeper)
        rig.down(1, 100, 100)
        rig.move(1, 101, 100)
        rig.move(1, 102, 100)
        rig.log.clear()
        window.removeGestureRecognizer(leaver)
        rig.move(1, 103, 100)
        rig.move(1, 104, 100)
        #expect(moves(rig) == ["keeper.moved(t1@103)", "keeper.moved(t1@104)"])
    }

    /// The arena of a lifted finger goes back to the pool and is the next finger's, at the
    /// same place in the router's touches: its moves are shown to its own recognizers.
    @Test func theNextFingerInARecycledArenaAtTheSameIndexIsShownToItsOwnRecognizers() {
        let rig = GestureRig()
        let left = rig.surface("left", 0, 0, 400, 400)
        let right = rig.surface("right", 500, 0, 400, 400)
        let l = MoveLoggingRecognizer("L", log: rig.log), r = MoveLoggingRecognizer("R", log: rig.log)
        l.failsAtLift = true
        r.failsAtLift = true
        left.addGestureRecognizer(l)
        right.addGestureRecognizer(r)
        rig.down(1, 100, 100)
        rig.move(1, 101, 100)
        rig.move(1, 102, 100)
        let firstArena = rig.router.unchecked.touches.records.first { $0.unchecked.id == TouchID(1) }?.unchecked.arena
        rig.up(1)
        rig.log.clear()
        rig.down(2, 600, 100)
        #expect(rig.router.unchecked.touches.records.count == 1)
        let secondArena = rig.router.unchecked.touches.records.first { $0.unchecked.id == TouchID(2) }?.unchecked.arena
        #expect(firstArena != nil && firstArena === secondArena)
        rig.move(2, 601, 100)
        rig.move(2, 602, 100)
        #expect(moves(rig) == ["R.moved(t2@601)", "R.moved(t2@602)"])
    }

    /// `delaysTouchesBegan` set from the compositor's own code between two moves of a lone
    /// finger: the next move is held back from the responders, as when its gather looked.
    @Test func aRecognizerThatStartsDelayingBeginsBetweenALoneFingersMovesHoldsTheNextMoveBack() {
        let rig = GestureRig()
        let window = rig.surface("window", 0, 0, 1000, 1000, handles: ["began", "moved", "ended"])
        let quiet = MoveLoggingRecognizer("quiet", log: rig.log)
        let delayer = MoveLoggingRecognizer("delayer", log: rig.log)
        window.addGestureRecognizer(quiet)
        window.addGestureRecognizer(delayer)
        rig.down(1, 100, 100)
        rig.move(1, 101, 100)
        rig.move(1, 102, 100)
        #expect(rig.log.matching("window.moved").count == 2)
        rig.log.clear()
        delayer.delaysTouchesBegan = true
        rig.move(1, 103, 100)
        #expect(moves(rig) == ["quiet.moved(t1@103)", "delayer.moved(t1@103)"])
        #expect(rig.log.matching("window.").isEmpty)
    }

    /// A second finger going down makes the next move's pass one of two touches; once it
    /// lifts, the first finger's moves are shown to its recognizers with its touch alone.
    @Test func aLoneFingersMovesAfterASecondFingerCameAndWentShowItsOwnTouchOnly() {
        let rig = GestureRig()
        let window = rig.surface("window", 0, 0, 1000, 1000)
        window.addGestureRecognizer(MoveLoggingRecognizer("a", log: rig.log))
        window.addGestureRecognizer(MoveLoggingRecognizer("b", log: rig.log))
        rig.down(1, 100, 100)
        rig.move(1, 101, 100)
        rig.move(1, 102, 100)
        rig.down(2, 300, 100)
        rig.frame([.touchMotion(TouchID(1), LayoutPoint(x: 103, y: 100)), .touchMotion(TouchID(2), LayoutPoint(x: 301, y: 100))])
        rig.up(2)
        rig.log.clear()
        rig.move(1, 104, 100)
        rig.move(1, 105, 100)
        #expect(moves(rig) == ["a.moved(t1@104)", "b.moved(t1@104)", "a.moved(t1@105)", "b.moved(t1@105)"])
    }
    /// The lift of a lone finger is shown to every current entry of its arena, settled ones
    /// too: each forgets the touch and resets.
    @Test func aRecognizerSettledBeforeALoneFingersLiftStillForgetsItAndResets() {
        let rig = GestureRig()
        let window = rig.surface("window", 0, 0, 1000, 1000)
        let quitter = MoveLoggingRecognizer("quitter", log: rig.log)
        let keeper = MoveLoggingRecognizer("keeper", log: rig.log)
        window.addGestureRecognizer(quitter)
        window.addGestureRecognizer(keeper)
        quitter.onMoved = { quitter.failIfPossible() }
        rig.down(1, 100, 100)
        rig.move(1, 101, 100)
        rig.move(1, 102, 100)
        #expect(quitter.state == .failed && quitter.touches.map(\.id) == [TouchID(1)])
        rig.up(1)
        #expect(quitter.state == .possible && quitter.touches.isEmpty)
        #expect(keeper.touches.isEmpty)
        #expect(moves(rig) == ["quitter.moved(t1@101)", "keeper.moved(t1@101)", "keeper.moved(t1@102)"])
    }
}
