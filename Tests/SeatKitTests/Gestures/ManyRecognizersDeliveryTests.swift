import Testing
@_spi(SeatKitInternals) @testable import SeatKit

/// A recognizer that logs every phase it is shown, with the touches of that event.
private final class PhaseLoggingRecognizer: GestureRecognizer {
    let log: GestureCallLog
    var failsOnSecondFinger = false
    /// Off: a cancelled touch leaves it possible while it follows others.
    var failsOnCancel = true
    var onMoved: (() -> Void)?

    init(_ name: String, log: GestureCallLog) {
        self.log = log
        super.init(name: name)
    }

    private func note(_ phase: String, _ event: TouchEvent) {
        log.add("\(name).\(phase)(\(event.touches.map { "t\($0.id.rawValue)" }.joined(separator: ",")))")
    }

    override func touchesBegan(_ event: TouchEvent) {
        note("began", event)
        if failsOnSecondFinger && touches.count > 1 { failIfPossible() }
    }
    override func touchesMoved(_ event: TouchEvent) {
        note("moved", event)
        onMoved?()
    }
    override func touchesEnded(_ event: TouchEvent) { note("ended", event) }
    override func touchesCancelled(_ event: TouchEvent) {
        note("cancelled", event)
        if failsOnCancel { super.touchesCancelled(event) }
    }
}

/// Delivery to many recognizers is one linear pass (issue 30, goal 7): each recognizer is
/// shown a phase once, with all of its due touches, in the order its arenas list it; a
/// settled recognizer is shown no more begins or moves but still forgets its touches at the
/// end; what an earlier recognizer's handler does in the pass is seen by the later ones.
@Suite struct ManyRecognizersDeliveryTests {
    @Test func fiftyRecognizersEachSeeAFrameOnceWithAllTheirTouchesInArenaOrder() {
        let rig = GestureRig()
        let outer = rig.surface("outer", 0, 0, 1000, 1000)
        let left = rig.surface("left", 0, 0, 400, 400, in: outer)
        let right = rig.surface("right", 500, 0, 400, 400, in: outer)
        var names: [String] = []
        // 20 on each leaf, 10 on their common parent: deepest first, then the parent's.
        for (surface, count) in [(left, 20), (right, 20), (outer, 10)] {
            for i in 0..<count {
                let r = PhaseLoggingRecognizer("\(surface.name)\(i)", log: rig.log)
                surface.addGestureRecognizer(r)
                names.append(r.name)
            }
        }
        rig.frame([fingerDown(1, 100, 100), fingerDown(2, 600, 100)])
        rig.log.clear()
        rig.frame([fingerMoved(1, 110, 100), fingerMoved(2, 610, 100)])
        let moved = rig.log.matching("").filter { $0.contains(".moved(") }
        // Each once: the leaves' with their own finger, the parent's with both.
        #expect(moved.count == 50)
        #expect(moved.prefix(20) == ArraySlice((0..<20).map { "left\($0).moved(t1)" }))
        #expect(moved.dropFirst(20).prefix(10) == ArraySlice((0..<10).map { "outer\($0).moved(t1,t2)" }))
        #expect(moved.suffix(20) == ArraySlice((0..<20).map { "right\($0).moved(t2)" }))
    }

    @Test func aFailedRecognizerIsShownNoMoreMovesButForgetsItsTouchesAtTheEnd() {
        let rig = GestureRig()
        let window = rig.surface("window", 0, 0, 1000, 1000)
        let quitter = PhaseLoggingRecognizer("quitter", log: rig.log)
        quitter.failsOnSecondFinger = true
        let stayer = PhaseLoggingRecognizer("stayer", log: rig.log)
        window.addGestureRecognizer(quitter)
        window.addGestureRecognizer(stayer)
        rig.down(1, 100, 100)
        rig.down(2, 200, 100)
        #expect(quitter.state == .failed)
        rig.log.clear()
        for x in 0..<5 { rig.move(1, 110 + Double(x), 100) }
        #expect(rig.log.matching("quitter.").isEmpty)
        #expect(rig.log.matching("stayer.moved").count == 5)
        // Settled, it still lets go of its touches as they lift, and resets after the last.
        rig.up(1)
        #expect(quitter.touches.map(\.id) == [TouchID(2)])
        rig.up(2)
        #expect(quitter.state == .possible && quitter.touches.isEmpty)
        #expect(rig.log.matching("quitter.").isEmpty)
    }

    /// Issue 30, goal 7: a recognizer that has failed costs nothing per later event. At the
    /// first motion after it failed it leaves its arenas' live entries (what begins and moves
    /// walk); it stays among their entries, which the ends walk, until its touches lift.
    @Test func aFailedRecognizerLeavesTheLiveEntriesOfItsArenasAtTheNextMotion() {
        let rig = GestureRig()
        let window = rig.surface("window", 0, 0, 1000, 1000)
        let quitter = PhaseLoggingRecognizer("quitter", log: rig.log)
        quitter.failsOnSecondFinger = true
        let stayer = PhaseLoggingRecognizer("stayer", log: rig.log)
        window.addGestureRecognizer(quitter)
        window.addGestureRecognizer(stayer)
        rig.down(1, 100, 100)
        rig.down(2, 200, 100)
        #expect(quitter.state == .failed)
        let arenas = rig.router.unchecked.touches.records.compactMap { $0.unchecked.arena }
        #expect(arenas.count == 2)
        rig.move(1, 110, 100)
        rig.move(2, 210, 100)
        for arena in arenas {
            #expect(arena.unchecked.live.map(\.recognizer.object.name) == ["stayer"])
            #expect(arena.unchecked.entries.map(\.recognizer.name) == ["quitter", "stayer"])
            #expect(arena.contains(quitter))
        }
        rig.up(1)
        rig.up(2)
        #expect(quitter.state == .possible && quitter.touches.isEmpty)
        // The next touch's arena has it live again.
        rig.down(3, 100, 100)
        // (Touches 1 and 2 keep their records while the possible stayer holds their ends back.)
        let next = rig.router.unchecked.touches.records.first { $0.unchecked.id == TouchID(3) }?.unchecked.arena
        #expect(next?.unchecked.live.map(\.recognizer.object.name) == ["quitter", "stayer"])
    }

    @Test func aTouchCancelledByAnEarlierRecognizersHandlerIsNotShownToLaterOnes() {
        let rig = GestureRig()
        let window = rig.surface("window", 0, 0, 1000, 1000)
        let leaf = rig.surface("leaf", 0, 0, 500, 500, in: window)
        let first = PhaseLoggingRecognizer("first", log: rig.log)
        let second = PhaseLoggingRecognizer("second", log: rig.log)
        second.failsOnCancel = false
        leaf.addGestureRecognizer(first)
        window.addGestureRecognizer(second)
        rig.down(1, 100, 100)
        rig.down(2, 600, 100)
        // The leaf's recognizer removes the leaf mid-pass: touch 1 is cancelled there and
        // then, so the window's recognizer (later in the same pass) is shown touch 2 alone.
        first.onMoved = { leaf.removeFromParent() }
        rig.log.clear()
        rig.frame([fingerMoved(1, 110, 100), fingerMoved(2, 610, 100)])
        #expect(rig.log.matching("first.moved") == ["first.moved(t1)"])
        #expect(rig.log.matching("second.cancelled") == ["second.cancelled(t1)"])
        #expect(rig.log.matching("second.moved") == ["second.moved(t2)"])
    }

    /// Recognizers with the same touches share the pass's points, and the next one is asked
    /// whether they are still due only when the router's count of touch-state edits moved
    /// (issue 25, tenth round): a touch cancelled by the device from an earlier recognizer's
    /// handler (no tree edit, the same touches) is not shown to the later ones, one finger
    /// or two.
    @Test func aTouchCancelledFromAnEarlierRecognizersHandlerIsNotShownToOnesWithTheSameTouches() {
        for fingers in [1, 2] {
            let rig = GestureRig()
            let window = rig.surface("window", 0, 0, 1000, 1000, handles: ["began", "moved", "ended", "cancelled"])
            let first = PhaseLoggingRecognizer("first", log: rig.log)
            let second = PhaseLoggingRecognizer("second", log: rig.log)
            let third = PhaseLoggingRecognizer("third", log: rig.log)
            second.failsOnCancel = false
            third.failsOnCancel = false
            window.addGestureRecognizer(first)
            window.addGestureRecognizer(second)
            window.addGestureRecognizer(third)
            rig.frame((1...fingers).map { fingerDown(Int32($0), 100 * Double($0), 100) })
            rig.frame((1...fingers).map { fingerMoved(Int32($0), 100 * Double($0) + 5, 100) })
            #expect(rig.log.matching("third.moved").count == 1)
            first.onMoved = { rig.send(.touchCancel(TouchID(1))) }
            rig.log.clear()
            rig.frame((1...fingers).map { fingerMoved(Int32($0), 100 * Double($0) + 10, 100) })
            #expect(rig.log.matching("first.moved") == [fingers == 1 ? "first.moved(t1)" : "first.moved(t1,t2)"])
            #expect(rig.log.matching("second.moved") == (fingers == 1 ? [] : ["second.moved(t2)"]))
            #expect(rig.log.matching("third.moved") == (fingers == 1 ? [] : ["third.moved(t2)"]))
            #expect(rig.log.matching("second.cancelled") == ["second.cancelled(t1)"])
            #expect(rig.log.matching("window.moved").allSatisfy { !$0.contains("t1") })
        }
    }

    /// The pass keeps its lists (the recognizers gathered, each one's due touches) from pass to
    /// pass and overwrites them in place (issue 25, seventh round): a pass with fewer touches
    /// or recognizers than the one before must show nothing left over from it.
    @Test func aPassWithFewerTouchesThanThePreviousShowsNoneLeftOverFromIt() {
        let rig = GestureRig()
        let window = rig.surface("window", 0, 0, 1000, 1000)
        let left = rig.surface("left", 0, 0, 400, 1000, in: window)
        let both = PhaseLoggingRecognizer("both", log: rig.log)
        let leftOnly = PhaseLoggingRecognizer("leftOnly", log: rig.log)
        window.addGestureRecognizer(both)
        left.addGestureRecognizer(leftOnly)
        rig.frame([fingerDown(1, 100, 100), fingerDown(2, 200, 100), fingerDown(3, 600, 100)])
        rig.log.clear()
        rig.frame([fingerMoved(1, 110, 100), fingerMoved(2, 210, 100), fingerMoved(3, 610, 100)])
        #expect(rig.log.matching("").filter { $0.contains(".moved(") } == ["leftOnly.moved(t1,t2)", "both.moved(t1,t2,t3)"])
        rig.log.clear()
        rig.frame([fingerMoved(3, 620, 100), fingerMoved(2, 220, 100)])
        #expect(rig.log.matching("").filter { $0.contains(".moved(") } == ["leftOnly.moved(t2)", "both.moved(t2,t3)"])
        rig.log.clear()
        rig.frame([fingerMoved(3, 630, 100)])
        #expect(rig.log.matching("").filter { $0.contains(".moved(") } == ["both.moved(t3)"])
        rig.log.clear()
        rig.frame([fingerMoved(1, 120, 100), fingerMoved(3, 640, 100)])
        #expect(rig.log.matching("").filter { $0.contains(".moved(") } == ["leftOnly.moved(t1)", "both.moved(t1,t3)"])
        // Each recognizer's touches follow the fingers: none kept a stale point.
        #expect(both.touches.map(\.location.x).sorted() == [120, 220, 640])
        #expect(leftOnly.touches.map(\.location.x).sorted() == [120, 220])
    }

    /// The pass notes the arenas in which no recognizer delays touches began, so that each
    /// grouped move is not checked against every recognizer again (issue 25, tenth round). A
    /// recognizer that starts delaying them from its own `touchesMoved` still holds that very
    /// move back from the responders, as before, and the moves after it.
    @Test func aRecognizerThatStartsDelayingBeginsInItsMoveHandlerHoldsThatMoveBack() {
        let rig = GestureRig()
        let window = rig.surface("window", 0, 0, 1000, 1000, handles: ["began", "moved", "ended"])
        let quiet = PhaseLoggingRecognizer("quiet", log: rig.log)
        let delayer = PhaseLoggingRecognizer("delayer", log: rig.log)
        window.addGestureRecognizer(quiet)
        window.addGestureRecognizer(delayer)
        rig.down(1, 100, 100)
        rig.move(1, 110, 100)
        #expect(rig.log.matching("window.moved") == ["window.moved[t1]"])
        let arena = rig.router.unchecked.touches.records.first { $0.unchecked.id == TouchID(1) }?.unchecked.arena
        #expect(arena?.unchecked.undelayedPass == rig.router.gestures.unchecked.gesturePassMark)
        rig.log.clear()
        delayer.onMoved = { delayer.delaysTouchesBegan = true }
        rig.move(1, 120, 100)
        #expect(rig.log.matching("delayer.moved") == ["delayer.moved(t1)"])
        #expect(rig.log.matching("window.").isEmpty)
        rig.move(1, 130, 100)
        #expect(rig.log.matching("window.").isEmpty)
        // Once it fails, the held move (the latest) goes out.
        delayer.onMoved = { delayer.failIfPossible() }
        rig.move(1, 140, 100)
        #expect(rig.log.matching("window.moved") == ["window.moved[t1]"])
    }
}
