import Testing
@testable import SeatKit

/// A recognizer the test drives by hand: it sets no state of its own, and says when the arena
/// rules gave it the win (recognizing then, if `recognizesOnWin`).
final class HandDrivenRecognizer: GestureRecognizer {
    let record: (String) -> Void
    var recognizesOnWin = false
    init(_ name: String, record: @escaping (String) -> Void) {
        self.record = record
        super.init(name: name)
    }
    override var supportedInputKinds: GestureInputKinds { [.touch, .pen, .pointer] }
    override func touchesEnded(_ event: TouchEvent) {}
    override func gestureArenaWon() {
        record("\(name) won")
        if recognizesOnWin { state = .recognized }
    }
}

/// Mutter's relationships (can not cancel, recognize independently, inhibit until cancelled)
/// and Flutter's arena rules (eager win, last remaining wins, the sweep), issue 30 goal 3, on
/// the virtual clock (GestureRig: 10 layout units per millimetre, 10 ms per finger event).
@Suite struct GestureRelationshipTests {
    /// Two pans over surface "map": `near` begins after 1 mm, `far` after 5 mm.
    final class TwoPans {
        let rig = GestureRig()
        let map: Surface
        let near = PanGestureRecognizer(name: "near", minimumDistance: 1)
        let far = PanGestureRecognizer(name: "far", minimumDistance: 5)
        init() {
            map = rig.surface("map", 0, 0, 1000, 1000)
            map.addGestureRecognizer(near)
            map.addGestureRecognizer(far)
            rig.watch(near)
            rig.watch(far)
        }
        /// Down at (100, 100), then 2 mm, then 6 mm to the right.
        func drag() {
            rig.down(1, 100, 100)
            rig.move(1, 120, 100)
            rig.move(1, 160, 100)
        }
    }

    /// Three hand-driven recognizers on "pad" (in that order), a finger down on it.
    final class HandDriven {
        let rig = GestureRig()
        let pad: Surface
        let a, b, c: HandDrivenRecognizer
        init() {
            pad = rig.surface("pad", 0, 0, 500, 500)
            let log = rig.log
            a = HandDrivenRecognizer("a") { log.add($0) }
            b = HandDrivenRecognizer("b") { log.add($0) }
            c = HandDrivenRecognizer("c") { log.add($0) }
            for r in [a, b, c] {
                pad.addGestureRecognizer(r)
                rig.watch(r)
            }
            rig.down(1, 100, 100)
        }
        var transitions: [String] { rig.log.entries.filter { !$0.hasPrefix("pad.") } }
    }

    // MARK: Can not cancel

    @Test func byDefaultTheFirstPanToBeginFailsTheOther() {
        let s = TwoPans()
        s.drag()
        #expect(s.rig.log.matching("near:") == ["near:began", "near:changed"])
        #expect(s.rig.log.matching("far:") == ["far:failed"])
    }

    @Test func aRecognizerThatCannotCancelAnotherLeavesItToBeginToo() {
        let s = TwoPans()
        s.near.cannotCancel(s.far)
        #expect(!s.near.cancels(s.far) && s.far.cancels(s.near))
        s.drag()
        #expect(s.rig.log.matching("far:") == ["far:began"], "still possible at near's begin, then begins while near is in progress")
        #expect(s.near.state == .changed)
        s.rig.up(1)
        #expect(s.rig.log.matching("far:") == ["far:began", "far:ended"])
    }

    @Test func cannotCancelIsOneWayTheOtherStillFailsItByBeginningFirst() {
        let s = TwoPans()
        s.far.cannotCancel(s.near)      // the far one never begins first here
        s.drag()
        #expect(s.rig.log.matching("far:") == ["far:failed"], "near, which may still cancel far, began first")
    }

    // MARK: Recognize independently

    @Test func recognizersThatRecognizeIndependentlyNeitherWaitForNorStopEachOther() {
        let s = TwoPans()
        try! s.near.require(toFail: s.far)
        s.near.recognizeIndependently(of: s.far)
        #expect(s.far.isIndependent(of: s.near), "symmetric")
        s.drag()
        #expect(s.rig.log.matching("near:") == ["near:began", "near:changed"], "near does not wait for far")
        #expect(s.rig.log.matching("far:") == ["far:began"], "nor does near's begin stop far")
    }

    @Test func withoutIndependenceAFailureRequirementHoldsTheFirstPanBack() {
        let s = TwoPans()
        try! s.near.require(toFail: s.far)
        s.drag()
        #expect(s.rig.log.matching("far:") == ["far:began"])
        #expect(s.rig.log.matching("near:") == ["near:failed"], "near waited for far, which was recognized")
    }

    @Test func aHighPriorityRecognizerAboveDoesNotHoldOneThatRecognizesIndependentlyOfIt() {
        let rig = GestureRig()
        let parent = rig.surface("parent", 0, 0, 1000, 1000)
        let child = rig.surface("child", 0, 0, 500, 500, in: parent)
        let outer = PanGestureRecognizer(name: "outer", minimumDistance: 5)
        let inner = PanGestureRecognizer(name: "inner", minimumDistance: 1)
        parent.addHighPriorityGestureRecognizer(outer)
        child.addGestureRecognizer(inner)
        [outer, inner].forEach(rig.watch)
        inner.recognizeIndependently(of: outer)
        rig.down(1, 100, 100)
        rig.move(1, 120, 100)
        #expect(rig.log.matching("inner:") == ["inner:began"], "not held by the high-priority pan above")
        rig.move(1, 160, 100)
        #expect(rig.log.matching("outer:") == ["outer:began"])
    }

    // MARK: Inhibit until cancelled

    @Test func anInhibitedRecognitionWaitsThroughTheInhibitorsBeginAndGoesAheadWhenItIsCancelled() throws {
        let s = HandDriven()
        try s.a.inhibitUntilCancelled(s.b)
        s.a.cannotCancel(s.b)
        #expect(s.a.inhibits(s.b))
        s.b.state = .recognized
        #expect(s.b.isWaitingForFailure && s.b.state == .possible, "a may still begin")
        s.a.state = .began
        #expect(s.b.isWaitingForFailure, "a in progress still inhibits b")
        s.a.state = .cancelled
        #expect(s.transitions == ["a:began", "c:failed", "b:recognized", "a:cancelled"])
    }

    @Test func requireToFailInsteadFailsTheWaiterAtTheOthersBegin() throws {
        let s = HandDriven()
        try s.b.require(toFail: s.a)
        s.a.cannotCancel(s.b)
        s.b.state = .recognized
        s.a.state = .began
        #expect(s.transitions == ["b:failed", "a:began", "c:failed"] || s.transitions == ["a:began", "b:failed", "c:failed"])
        #expect(s.transitions.contains("b:failed"))
    }

    @Test func anInhibitedRecognitionFailsWhenTheInhibitorEnds() throws {
        let s = HandDriven()
        try s.a.inhibitUntilCancelled(s.b)
        s.a.cannotCancel(s.b)
        s.b.state = .recognized
        s.a.state = .began
        s.a.state = .ended
        #expect(s.transitions == ["a:began", "c:failed", "b:failed", "a:ended"])
    }

    @Test func anInhibitedRecognitionGoesAheadWhenTheInhibitorFails() throws {
        let s = HandDriven()
        try s.a.inhibitUntilCancelled(s.b)
        s.b.state = .recognized
        #expect(s.b.isWaitingForFailure)
        s.a.state = .failed
        #expect(s.transitions == ["b:recognized", "c:failed", "a:failed"], "the waiter goes ahead before a's targets hear of its failure")
    }

    @Test func anInhibitorThatCanStillCancelFailsThePossibleRecognizerAtItsBegin() throws {
        let s = HandDriven()
        try s.a.inhibitUntilCancelled(s.b)
        s.b.state = .recognized
        s.a.state = .began
        #expect(s.transitions.contains("b:failed"), "a conflicting begin still fails b (Mutter's default cancel)")
    }

    @Test func anInhibitionThatWouldCloseACycleIsRefused() throws {
        let a = GestureRecognizer(name: "a"), b = GestureRecognizer(name: "b")
        try a.require(toFail: b)              // a waits for b
        #expect(throws: GestureRequirementError.cycle(["b", "a", "b"])) { try a.inhibitUntilCancelled(b) }
        #expect(!a.inhibits(b))
        try b.inhibitUntilCancelled(a)        // a waits for b again: no cycle
        #expect(throws: GestureRequirementError.self) { try b.require(toFail: a) }
    }

    @Test func removingRelationshipsRestoresTheDefaults() {
        let s = TwoPans()
        s.near.cannotCancel(s.far)
        s.near.recognizeIndependently(of: s.far)
        s.near.removeRelationships(with: s.far)
        #expect(s.near.cancels(s.far) && !s.near.isIndependent(of: s.far) && !s.far.isIndependent(of: s.near))
        s.drag()
        #expect(s.rig.log.matching("far:") == ["far:failed"])
    }

    // MARK: Flutter's arena

    @Test func eagerWinTheFirstToBeRecognizedWinsAndTheOthersFail() {
        let s = HandDriven()
        s.b.state = .recognized
        #expect(s.transitions == ["b:recognized", "a:failed", "c:failed"])
    }

    @Test func theLastMemberNotToRejectWinsTheArena() {
        let s = HandDriven()
        s.rig.router.gestureArenaRules = .lastRemainingWins
        s.c.recognizesOnWin = true
        s.a.state = .failed
        #expect(s.transitions == ["a:failed"], "two members remain")
        s.b.state = .failed
        // The win comes while b's failure is under way, before b's targets hear it (as a
        // waiter's recognition does).
        #expect(s.transitions == ["a:failed", "c won", "c:recognized", "b:failed"])
    }

    @Test func withoutTheRuleTheLastMemberLeftIsNotTold() {
        let s = HandDriven()
        s.c.recognizesOnWin = true
        s.a.state = .failed
        s.b.state = .failed
        #expect(s.transitions == ["a:failed", "b:failed"])
        #expect(s.c.state == .possible)
    }

    /// A tap that requires a double tap to fail, on "photo", tap attached first.
    final class TapAndDoubleTap {
        let rig = GestureRig()
        let photo: Surface
        let tap = TapGestureRecognizer(name: "tap")
        let double = TapGestureRecognizer(name: "double", taps: 2, maximumTapInterval: .milliseconds(300))
        init(sweep: Bool) {
            photo = rig.surface("photo", 0, 0, 800, 800)
            photo.addGestureRecognizer(tap)
            photo.addGestureRecognizer(double)
            try! tap.require(toFail: double)
            [tap, double].forEach(rig.watch)
            if sweep { rig.router.gestureArenaRules = .sweepAtEnd }
        }
    }

    @Test func theSweepAtTouchUpGivesTheArenaToTheFirstMemberStillPossible() {
        let s = TapAndDoubleTap(sweep: true)
        s.rig.down(1, 100, 100)
        s.rig.up(1)
        #expect(s.rig.log.matching("tap:") == ["tap:recognized"], "no wait for the double tap's interval")
        #expect(s.rig.log.matching("double:") == ["double:failed"])
        #expect(s.rig.clock.now == .milliseconds(20))
    }

    @Test func withoutTheSweepTheTapWaitsForTheDoubleTapToFail() {
        let s = TapAndDoubleTap(sweep: false)
        s.rig.down(1, 100, 100)
        s.rig.up(1)
        #expect(s.rig.log.matching("tap:").isEmpty)
        s.rig.wait(300)
        #expect(s.rig.log.entries.filter { $0.contains(":") } == ["tap:recognized", "double:failed"])
    }

    @Test func theSweepLeavesAnArenaThatHasAWinnerAlone() {
        let s = HandDriven()
        s.rig.router.gestureArenaRules = [.sweepAtEnd, .lastRemainingWins]
        s.a.cannotCancel(s.b)
        s.a.cannotCancel(s.c)
        s.a.state = .began
        s.rig.up(1)
        #expect(!s.transitions.contains { $0.hasSuffix(" won") })
        #expect(s.b.state == .possible || s.b.state == .failed)
    }

    @Test func theSweepAtAPenTipUpGivesTheArenaToTheFirstMember() {
        let h = PenHarness()
        let canvas = h.surface("canvas", 0, 0, 400, 400)
        let log = h.log
        let first = HandDrivenRecognizer("first") { log.add($0) }
        let second = HandDrivenRecognizer("second") { log.add($0) }
        for r in [first, second] {
            r.allowedInputKinds = [GestureInputKinds.touch, .pen]
            canvas.addGestureRecognizer(r)
            r.addTarget { (r: GestureRecognizer) in log.add("\(r.name):\(r.state)") }
        }
        h.router.gestureArenaRules = .sweepAtEnd
        first.recognizesOnWin = true
        h.proximityIn(100, 100)
        h.down(100, 100)
        h.up(100, 100)
        #expect(h.log.entries.filter { !$0.hasPrefix("canvas.") } == ["second:failed", "first won", "first:recognized"])
    }
}
