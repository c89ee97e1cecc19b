import Testing
import SeatKit

/// A single tap that requires the double tap to fail: a double tap fires only the double,
/// a lone tap fires the single once the double's interval runs out.
@Suite struct TapVersusDoubleTapTests {
    final class Setup {
        let rig = GestureRig()
        let photo: Surface
        let single = TapGestureRecognizer(name: "single")
        let double = TapGestureRecognizer(name: "double", taps: 2, maximumTapInterval: .milliseconds(300))

        init() throws {
            photo = rig.surface("photo", 0, 0, 800, 800)
            try single.require(toFail: double)
            photo.addGestureRecognizer(single)
            photo.addGestureRecognizer(double)
            rig.watch(single)
            rig.watch(double)
        }
    }

    @Test func aDoubleTapFiresOnlyTheDoubleTap() throws {
        let s = try Setup()
        s.rig.down(1, 100, 100)
        s.rig.up(1)
        #expect(s.single.isWaitingForFailure)
        s.rig.down(2, 102, 100)
        s.rig.up(2)
        #expect(s.rig.log.matching("single:") == ["single:failed"])
        #expect(s.rig.log.matching("double:") == ["double:recognized"])
        s.rig.wait(1000)
        #expect(s.rig.log.matching("single:") == ["single:failed"])
    }

    @Test func aLoneTapFiresTheSingleExactlyWhenTheIntervalRunsOut() throws {
        let s = try Setup()
        s.rig.down(1, 100, 100)
        s.rig.up(1)  // at 20 ms: the double's interval ends at 320 ms
        #expect(s.rig.log.matching("single:").isEmpty)
        s.rig.wait(299)
        #expect(s.rig.log.matching("single:").isEmpty)
        s.rig.wait(1)
        #expect(s.rig.log.matching("double:") == ["double:failed"])
        #expect(s.rig.log.matching("single:") == ["single:recognized"])
        #expect(s.rig.clock.now == .milliseconds(320))
    }

    @Test func theEndedPhaseWaitsForTheDecisionAndTheResponderSeesACancel() throws {
        let s = try Setup()
        s.rig.down(1, 100, 100)
        s.rig.up(1)
        // touchesEnded is held while the taps are undecided.
        #expect(s.rig.log.matching("photo.") == ["photo.began[t1]"])
        s.rig.wait(300)
        // The single tap took the touch: the responder that saw it is cancelled, never ended.
        #expect(s.rig.log.matching("photo.") == ["photo.began[t1]", "photo.cancelled[t1]"])
        #expect(s.rig.router.activeTouchCount == 0)
    }

    @Test func withoutTheRequirementTheFirstTapWinsAndTheDoubleFails() {
        let rig = GestureRig()
        let photo = rig.surface("photo", 0, 0, 800, 800)
        let single = TapGestureRecognizer(name: "single")
        let double = TapGestureRecognizer(name: "double", taps: 2)
        photo.addGestureRecognizer(single)
        photo.addGestureRecognizer(double)
        rig.watch(single)
        rig.watch(double)
        rig.down(1, 100, 100)
        rig.up(1)
        // The single recognizes at once, which makes the double fail: the requirement is
        // what lets a double tap exist.
        #expect(rig.log.matching("single:") == ["single:recognized"])
        #expect(rig.log.matching("double:") == ["double:failed"])
    }
}

@Suite("Failure requirements")
struct FailureRequirementCycleTests {
    @Test func aRequirementCycleIsRefusedWithAClearErrorAndChangesNothing() throws {
        let a = TapGestureRecognizer(name: "a")
        let b = TapGestureRecognizer(name: "b", taps: 2)
        let c = LongPressGestureRecognizer(name: "c")
        try a.require(toFail: b)
        try b.require(toFail: c)
        #expect(throws: GestureRequirementError.cycle(["c", "a", "b", "c"])) { try c.require(toFail: a) }
        #expect(throws: GestureRequirementError.cycle(["a", "a"])) { try a.require(toFail: a) }
        // Refused, so routing still works: c recognizes on its own.
        let rig = GestureRig()
        let window = rig.surface("window", 0, 0, 500, 500)
        window.addGestureRecognizer(c)
        var began = false
        c.addTarget { if $0.state == .began { began = true } }
        rig.down(1, 10, 10)
        rig.wait(600)
        #expect(began)
        #expect("\(GestureRequirementError.cycle(["c", "a", "b", "c"]))".contains("c waits for a waits for b waits for c"))
    }
}
