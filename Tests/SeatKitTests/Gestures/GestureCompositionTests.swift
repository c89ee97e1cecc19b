import Testing
@testable import SeatKit

/// Composition (issue 30, goal 3): sequenced, exclusive and simultaneous recognizers, high
/// priority and masks, on the virtual clock (GestureRig: 10 layout units per millimetre,
/// each finger event 10 ms after the last).
@Suite struct GestureCompositionTests {
    /// A long press sequenced before a pan on surface "map", every part watched.
    final class HoldThenDrag {
        let rig = GestureRig()
        let map: Surface
        let hold = LongPressGestureRecognizer(name: "hold", minimumPressDuration: .milliseconds(500), allowableMovement: 5)
        let drag = PanGestureRecognizer(name: "drag", minimumDistance: 2)
        let composite: SequenceGestureRecognizer

        init() {
            map = rig.surface("map", 0, 0, 1000, 1000)
            composite = hold.sequenced(before: drag, name: "hold-drag")
            map.addGestureRecognizer(composite)
            rig.watch(hold)
            rig.watch(drag)
            rig.watch(composite)
        }
    }

    @Test func longPressSequencedBeforePanYieldsADragOnlyAfterTheHold() {
        let s = HoldThenDrag()
        s.rig.down(1, 100, 100)                 // at 10 ms
        s.rig.move(1, 130, 100)                 // 3 mm: a pan alone would have begun
        #expect(s.rig.log.entries.filter { $0.contains(":") }.isEmpty)
        #expect(s.composite.stage == .first)
        s.rig.wait(489)
        #expect(s.composite.state == .possible)
        s.rig.wait(1)                           // 510 ms: the hold's deadline
        #expect(s.rig.log.matching("hold") == ["hold:began", "hold-drag:began"])
        #expect(s.composite.stage == .second)
        s.rig.move(1, 140, 100)                 // 1 mm from where the hold ended: not yet
        #expect(s.drag.state == .possible)
        s.rig.move(1, 180, 100)                 // 5 mm
        #expect(s.rig.log.matching("drag") == ["drag:began"])
        #expect(s.composite.state == .changed)
        #expect(s.drag.translation == Vector(dx: 50, dy: 0), "measured from where the fingers were at the hold")
        s.rig.up(1)
        #expect(s.rig.log.matching("hold-drag:") == ["hold-drag:began", "hold-drag:changed", "hold-drag:ended"])
        #expect(s.composite.state == .possible && s.hold.state == .possible && s.drag.state == .possible)
        #expect(s.composite.stage == .first)
    }

    @Test func movingBeforeTheHoldFailsTheSequenceAndTheTouchIsTheResponders() {
        let s = HoldThenDrag()
        s.rig.down(1, 100, 100)
        s.rig.move(1, 200, 100)                 // 10 mm before the deadline
        #expect(s.rig.log.matching("hold") == ["hold:failed", "hold-drag:failed"])
        s.rig.wait(1000)
        #expect(s.rig.log.matching("drag:").isEmpty, "the drag never saw input")
        s.rig.up(1)
        #expect(s.rig.log.matching("map.") == ["map.began[t1]", "map.moved[t1]", "map.ended[t1]"])
    }

    @Test func aHoldWithoutADragCancelsTheSequence() {
        let s = HoldThenDrag()
        s.rig.down(1, 100, 100)
        s.rig.wait(600)
        s.rig.up(1)
        #expect(s.rig.log.matching("hold-drag:") == ["hold-drag:began", "hold-drag:cancelled"])
        #expect(s.rig.log.matching("map.") == ["map.began[t1]", "map.cancelled[t1]"], "the hold took the touch")
    }

    /// exclusively(double tap, tap) on "photo".
    final class TapOrDoubleTap {
        let rig = GestureRig()
        let photo: Surface
        let double = TapGestureRecognizer(name: "double", taps: 2, maximumTapInterval: .milliseconds(300))
        let single = TapGestureRecognizer(name: "single")
        let composite: ExclusiveGestureRecognizer

        init() {
            photo = rig.surface("photo", 0, 0, 800, 800)
            composite = double.exclusively(before: single, name: "taps")
            photo.addGestureRecognizer(composite)
            rig.watch(double)
            rig.watch(single)
            rig.watch(composite)
        }
    }

    @Test func exclusivelyDoubleTapBeforeTapGivesTheTapOnlyAfterTheDoubleTapFailed() {
        let s = TapOrDoubleTap()
        s.rig.down(1, 100, 100)
        s.rig.up(1)                             // at 20 ms; the double's interval ends at 320 ms
        #expect(s.rig.log.matching("single:").isEmpty, "the tap waits for the double tap")
        #expect(s.composite.state == .possible)
        s.rig.wait(299)
        #expect(s.rig.log.entries.filter { $0.contains(":") }.isEmpty)
        s.rig.wait(1)
        #expect(s.rig.log.entries.filter { $0.contains(":") } == ["double:failed", "single:recognized", "taps:recognized"])
        #expect(s.rig.clock.now == .milliseconds(320))
    }

    @Test func exclusivelyDoubleTapBeforeTapGivesTheDoubleTapAtOnceAndTheTapFails() {
        let s = TapOrDoubleTap()
        var winner: String?
        s.composite.addTarget { c in winner = (c as! ExclusiveGestureRecognizer).winner?.name }
        s.rig.down(1, 100, 100)
        s.rig.up(1)
        s.rig.down(2, 102, 100)
        s.rig.up(2)
        #expect(s.rig.log.entries.filter { $0.contains(":") } == ["double:recognized", "single:failed", "taps:recognized"])
        #expect(winner == "double")
        s.rig.wait(1000)
        #expect(s.rig.log.matching("single:") == ["single:failed"])
        #expect(s.composite.state == .possible && s.composite.winner == nil)
    }

    @Test func simultaneouslyRunsPinchAndPanOverTheSameFingers() {
        let rig = GestureRig()
        let photo = rig.surface("photo", 0, 0, 1000, 1000)
        let pinch = PinchGestureRecognizer(name: "pinch")
        let pan = PanGestureRecognizer(name: "pan", minimumTouches: 2)
        let both = pinch.simultaneously(with: pan, name: "both")
        photo.addGestureRecognizer(both)
        [pinch, pan, both].forEach(rig.watch)
        rig.frame([fingerDown(1, 400, 500), fingerDown(2, 600, 500)])
        rig.frame([fingerMoved(1, 350, 600), fingerMoved(2, 650, 600)])   // apart and down
        #expect(pinch.state == .began && pan.state == .began)
        #expect(both.state == .changed)
        rig.frame([fingerUp(1), fingerUp(2)])
        #expect(rig.log.matching("both:") == ["both:began", "both:changed", "both:ended"])
        #expect(rig.log.matching("pinch:") == ["pinch:began", "pinch:ended"])
        #expect(rig.log.matching("pan:") == ["pan:began", "pan:ended"])
    }

    @Test func aCompositeCompetesWithOtherRecognizersAsOne() throws {
        // A pan beside the sequence: the pan begins first (before the hold's deadline) and
        // the sequence, a conflicting recognizer, fails.
        let s = HoldThenDrag()
        let scroll = PanGestureRecognizer(name: "scroll")
        s.map.addGestureRecognizer(scroll)
        s.rig.watch(scroll)
        s.rig.down(1, 100, 100)
        s.rig.move(1, 100, 140)                 // 4 mm: the scroll begins, the hold is still in its allowance
        #expect(s.rig.log.matching("scroll:") == ["scroll:began"])
        #expect(s.rig.log.matching("hold-drag:") == ["hold-drag:failed"])
        s.rig.wait(1000)
        #expect(s.rig.log.matching("hold:").isEmpty, "a failed composite shows its parts nothing more")
        s.rig.up(1)
    }

    @Test func aPartAttachedElsewhereLeavesItsComposite() {
        let s = TapOrDoubleTap()
        #expect(s.single.composite === s.composite)
        s.photo.addGestureRecognizer(s.single)
        #expect(s.single.composite == nil && s.single.surface === s.photo)
        s.rig.down(1, 100, 100)
        s.rig.up(1)
        #expect(s.rig.log.matching("single:") == ["single:recognized"], "on its own now: at once, not after the double tap")
        #expect(s.rig.log.matching("taps:") == ["taps:failed"], "the tap beside it began first")
        s.rig.wait(300)
        #expect(s.rig.log.matching("double:").isEmpty, "a settled composite's part hears nothing more")
        #expect(s.composite.state == .possible && s.double.state == .possible)
    }

    // MARK: High priority and masks

    /// A list (0,0 1000×1000) with a row (0,0 1000×100) inside.
    final class ListAndRow {
        let rig = GestureRig()
        let list: Surface
        let row: Surface
        init() {
            list = rig.surface("list", 0, 0, 1000, 1000)
            row = rig.surface("row", 0, 0, 1000, 100, in: list)
        }
    }

    @Test func highPriorityOnAParentWithMaskNoneKeepsAChildsRecognizerFromRunning() {
        let t = ListAndRow()
        let rowTap = TapGestureRecognizer(name: "row-tap")
        let listTap = TapGestureRecognizer(name: "list-tap")
        t.row.addGestureRecognizer(rowTap)
        t.list.addHighPriorityGestureRecognizer(listTap, including: .none)
        t.rig.watch(rowTap)
        t.rig.watch(listTap)
        t.rig.down(1, 50, 50)
        #expect(!rowTap.unchecked.isEngaged && !listTap.unchecked.isEngaged)
        t.rig.up(1)
        #expect(t.rig.log.entries == ["row.began[t1]", "list.began[t1]", "row.ended[t1]", "list.ended[t1]"],
                "no recognizer ran; the touch went up the chain as without recognizers")
        // Back to .all: both run, and the parent's goes first.
        listTap.mask = .all
        t.rig.log.clear()
        t.rig.down(2, 50, 50)
        t.rig.up(2)
        #expect(t.rig.log.matching("list-tap:") == ["list-tap:recognized"])
        #expect(t.rig.log.matching("row-tap:") == ["row-tap:failed"])
    }

    @Test func aHighPriorityParentMakesTheChildsRecognitionWaitUntilItFails() {
        let t = ListAndRow()
        let rowTap = TapGestureRecognizer(name: "row-tap")
        let listPan = PanGestureRecognizer(name: "list-pan")
        t.row.addGestureRecognizer(rowTap)
        t.list.addHighPriorityGestureRecognizer(listPan)
        t.rig.watch(rowTap)
        t.rig.watch(listPan)
        // A tap: the row's tap (deepest, shown the end first) waits for the pan to fail.
        var panStateAtTheTap: GestureRecognizerState?
        rowTap.addTarget { _ in panStateAtTheTap = listPan.state }
        t.rig.down(1, 50, 50)
        t.rig.up(1)
        #expect(t.rig.log.matching("row-tap:") == ["row-tap:recognized"])
        #expect(t.rig.log.matching("list-pan:") == ["list-pan:failed"])
        #expect(panStateAtTheTap == .failed, "recognized only once the high-priority pan had failed")
        // A drag: the pan wins, the tap fails.
        t.rig.log.clear()
        t.rig.down(2, 50, 50)
        t.rig.move(2, 50, 90)
        #expect(t.rig.log.entries.filter { $0.contains(":") } == ["list-pan:began", "row-tap:failed"])
        t.rig.up(2)
    }

    @Test func aHighPriorityRecognizerElsewhereLeavesOtherWaitersAlone() throws {
        let rig = GestureRig()
        let photo = rig.surface("photo", 0, 0, 400, 400)
        let other = rig.surface("other", 500, 0, 400, 400)
        let single = TapGestureRecognizer(name: "single")
        let double = TapGestureRecognizer(name: "double", taps: 2)
        try single.require(toFail: double)
        photo.addGestureRecognizer(single)
        photo.addGestureRecognizer(double)
        let urgent = TapGestureRecognizer(name: "urgent")
        other.addHighPriorityGestureRecognizer(urgent)
        [single, double, urgent].forEach(rig.watch)
        rig.down(1, 100, 100)
        rig.up(1)                               // the single waits for the double
        rig.down(2, 600, 100)
        rig.up(2)                               // a high-priority tap on another surface
        #expect(rig.log.matching("urgent:") == ["urgent:recognized"])
        #expect(rig.log.matching("single:").isEmpty, "still waiting for the double tap, not refused")
        rig.wait(300)
        #expect(rig.log.matching("single:") == ["single:recognized"])
    }

    @Test func withoutHighPriorityTheChildsTapIsRecognizedAtOnce() {
        let t = ListAndRow()
        let rowTap = TapGestureRecognizer(name: "row-tap")
        let listPan = PanGestureRecognizer(name: "list-pan")
        t.row.addGestureRecognizer(rowTap)
        t.list.addGestureRecognizer(listPan)
        t.rig.watch(rowTap)
        t.rig.watch(listPan)
        t.rig.down(1, 50, 50)
        t.rig.up(1)
        #expect(t.rig.log.entries.filter { $0.contains(":") } == ["row-tap:recognized", "list-pan:failed"])
    }

    @Test func maskGestureRunsOnlyTheParentsRecognizerAndSubviewsOnlyTheChildrens() {
        let t = ListAndRow()
        let rowTap = TapGestureRecognizer(name: "row-tap")
        let listTap = TapGestureRecognizer(name: "list-tap")
        t.row.addGestureRecognizer(rowTap)
        t.list.addGestureRecognizer(listTap)
        t.rig.watch(rowTap)
        t.rig.watch(listTap)
        listTap.mask = .gesture
        t.rig.down(1, 50, 50)
        t.rig.up(1)
        #expect(t.rig.log.entries.filter { $0.contains(":") } == ["list-tap:recognized"])
        listTap.mask = .subviews
        t.rig.log.clear()
        t.rig.down(2, 50, 50)
        t.rig.up(2)
        #expect(t.rig.log.entries.filter { $0.contains(":") } == ["row-tap:recognized"])
    }

    @Test func anOutputsMaskKeepsEverySurfacesRecognizersOut() {
        let t = ListAndRow()
        let rowTap = TapGestureRecognizer(name: "row-tap")
        let edge = ScreenEdgePanGestureRecognizer(name: "edge", edges: .left)
        t.row.addGestureRecognizer(rowTap)
        t.rig.output.addGestureRecognizer(edge)
        edge.mask = .gesture
        t.rig.down(1, 50, 50)
        #expect(!rowTap.unchecked.isEngaged)
        #expect(edge.unchecked.isEngaged)
        t.rig.up(1)
    }

    @Test func aPenDrivesASequenceLikeAFinger() {
        let hold = LongPressGestureRecognizer(name: "hold", minimumPressDuration: .milliseconds(300))
        let drag = PanGestureRecognizer(name: "drag", minimumDistance: 2)
        let composite = hold.sequenced(before: drag, name: "hold-drag")
        #expect(composite.inputKinds.contains(.pen))
        let h = PenHarness()
        let canvas = h.surface("canvas", 0, 0, 400, 400)
        canvas.addGestureRecognizer(composite)
        let log = h.log
        for r in [hold, drag, composite] as [GestureRecognizer] { r.addTarget { log.add("\($0.name):\($0.state)") } }
        h.proximityIn(100, 100)
        h.down(100, 100)
        h.clock.advance(to: .milliseconds(400))
        h.time = 400
        h.move(150, 100, pressure: 0.5)
        h.up(150, 100)
        #expect(log.entries.filter { $0.contains(":") } == ["hold:began", "hold-drag:began", "drag:began", "hold-drag:changed", "drag:ended", "hold-drag:ended", "hold:cancelled"])
        #expect(composite.currentInputKind == .pen)
    }
}
