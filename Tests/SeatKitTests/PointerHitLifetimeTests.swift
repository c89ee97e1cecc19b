import Testing
@_spi(SeatKitInternals) @testable import SeatKit

/// A pointer motion's hit-test, focus change and walk without reference counting (issue 25,
/// tenth round): the surface hit is handed out unretained while nothing is edited (rule 7 of
/// `Unretained`), the output's root, the new focus and the focus walked from are pinned, not
/// retained. Each test has a handler take the object out of the tree, or the layout, while the
/// router holds it unretained, with nothing else owning it: the router must neither touch it
/// after it is freed nor keep it alive after the motion.
@Suite struct PointerHitLifetimeTests {
    /// Logs its motions, enters and leaves; runs the hooks it is given.
    final class Hooked: Responder {
        let name: String
        let log: CallLog
        var onRefine: (() -> Void)?
        var onMotion: (() -> Void)?
        var onLeave: (() -> Void)?
        init(_ name: String, log: CallLog) { self.name = name; self.log = log }
        func refineHitTest(at point: SurfacePoint, in surface: Surface) -> Bool {
            onRefine?()
            return true
        }
        func pointerMoved(_ event: PointerMotionEvent, context: ResponderContext) -> ResponderResult {
            log.add("\(name).motion")
            onMotion?()
            return .notHandled
        }
        func pointerEntered(_ event: PointerCrossingEvent, context: ResponderContext) { log.add("\(name).enter") }
        func pointerLeft(_ event: PointerCrossingEvent, context: ResponderContext) {
            log.add("\(name).leave")
            onLeave?()
        }
    }

    private func hooked(_ h: Harness, _ name: String, _ x: Double, _ w: Double, in parent: Surface) -> Surface {
        let s = Surface(name: name, frame: SurfaceRect(x: x, y: 10, width: w, height: 100), responder: Hooked(name, log: h.log))
        parent.addChild(s)
        return s
    }

    @Test func aFocusThatTakesItselfOutOfTheTreeInItsMotionHandlerIsAskedPinnedAndFreedAfterTheWalk() {
        let h = Harness()
        weak var weakA: Surface?
        var pinsSeen: [UInt32] = []
        do {
            let a = hooked(h, "a", 10, 100, in: h.output.root)
            weakA = a
            h.pointer(to: 40, 40)
            #expect(h.router.pointerFocus === a)
            (a.responder as! Hooked).onMotion = { [unowned a] in
                pinsSeen.append(a.walkPinCountForTesting)
                a.removeFromParent()
                #expect(a.name == "a", "still alive inside its ask")
            }
        }
        h.log.clear()
        h.pointer(to: 41, 40)
        #expect(pinsSeen == [1], "the focus is walked from pinned, not owned")
        #expect(h.log.entries.first == "a.motion")
        #expect(h.router.pointerFocus === h.output.root, "focus caught up with what is under the pointer")
        #expect(h.delegate.dropped.last == "motion", "the walk went on to the former output and the delegate")
        #expect(weakA == nil, "freed once the walk unpinned it")
    }

    @Test func aSurfaceWhoseRefineTakesItOutOfTheTreeDuringAMotionsHitTestIsNotEnteredAndIsFreedAfter() {
        let h = Harness()
        weak var weakT: Surface?
        let base = hooked(h, "base", 10, 300, in: h.output.root)
        do {
            let t = hooked(h, "t", 200, 50, in: h.output.root)
            weakT = t
            // Found by the hit-test, it takes itself out of the tree and accepts: the hit is a
            // surface no longer in the tree, which only the hit-test's reference holds.
            (t.responder as! Hooked).onRefine = { [unowned t] in t.removeFromParent() }
        }
        h.pointer(to: 40, 40)
        #expect(h.router.pointerFocus === base)
        h.log.clear()
        h.pointer(to: 220, 40)
        #expect(h.log.entries.contains("base.leave"))
        #expect(!h.log.entries.contains("t.enter"), "a surface out of the tree is not entered")
        #expect(h.router.pointerFocus == nil)
        #expect(weakT == nil, "not kept after the motion")
        // The next motion hit-tests the tree as it is now.
        h.pointer(to: 40, 41)
        #expect(h.router.pointerFocus === base)
        #expect(h.router.unchecked.pointer.checkInvariants(layout: h.router.layout, treeEditCount: h.router.unchecked.treeEditCount).isEmpty)
    }

    @Test func anOutputTakenOutOfTheLayoutByARefineDuringAMotionsHitTestIsFreedAfterTheHitTest() {
        let h = Harness()
        weak var weakOutput: Output?
        weak var weakRoot: Surface?
        weak var weakT: Surface?
        do {
            let second = Output(name: "OUT-2", position: LayoutPoint(x: 1000, y: 0), modeSize: Size(width: 500, height: 500))
            h.router.addOutput(second)
            let t = hooked(h, "t", 10, 100, in: second.root)
            weakOutput = second
            weakRoot = second.root
            weakT = t
            // The hit-test's root is this output's; its refine takes the output out of the
            // layout, and the test keeps no reference to it: the pinned root must outlive it.
            (t.responder as! Hooked).onRefine = { [unowned router = h.router, unowned second] in router.removeOutput(second) }
        }
        h.pointer(to: 1040, 40)
        #expect(weakOutput == nil)
        #expect(weakRoot == nil, "the root, pinned for the hit-test, is let go after it")
        #expect(weakT == nil)
        #expect(h.router.pointerFocus == nil)
        #expect(h.router.layout.outputs.count == 1)
        #expect(h.router.unchecked.pointer.checkInvariants(layout: h.router.layout, treeEditCount: h.router.unchecked.treeEditCount).isEmpty)
    }

    @Test func aNewFocusTakenOutOfTheTreeByTheOldFocussLeaveHandlerIsNotEnteredAndIsFreedAfter() {
        let h = Harness()
        weak var weakT: Surface?
        var pinsSeen: [UInt32] = []
        let a = hooked(h, "a", 10, 100, in: h.output.root)
        do {
            let t = hooked(h, "t", 200, 50, in: h.output.root)
            weakT = t
            (a.responder as! Hooked).onLeave = { [unowned t] in
                pinsSeen.append(t.walkPinCountForTesting)
                t.removeFromParent()
            }
        }
        h.pointer(to: 40, 40)
        #expect(h.router.pointerFocus === a)
        h.log.clear()
        h.pointer(to: 220, 40)
        #expect(pinsSeen == [1], "the new focus is pinned while the old one is told it left")
        #expect(h.log.entries.first == "a.leave")
        #expect(!h.log.entries.contains("t.enter"))
        #expect(h.router.pointerFocus == nil)
        #expect(weakT == nil, "freed once the focus change unpinned it")
    }

    @Test func aMotionOverTheFocusAgainAndAFocusChangeLeaveNoPinBehind() {
        let h = Harness()
        let a = hooked(h, "a", 10, 100, in: h.output.root)
        let b = hooked(h, "b", 200, 50, in: h.output.root)
        h.pointer(to: 40, 40)
        h.pointer(to: 41, 40)
        h.pointer(to: 220, 40)
        #expect(h.router.pointerFocus === b)
        #expect(h.log.entries == ["a.enter", "a.motion", "a.motion", "a.leave", "b.enter", "b.motion"])
        for s in [a, b, h.output.root] {
            #expect(s.walkPinCountForTesting == 0 && !s.isKeptForWalkForTesting)
        }
    }

    /// `Router.surface(at:)` (a kiosk's tap-to-focus filter asks it at every touch down) reads
    /// the output unretained and pins its root for the hit-test, as the pointer's motion does
    /// (issue 25, seventeenth round): a refine that takes the output out of the layout, with
    /// nothing else owning it, must not free the root under the walk, and nothing may be kept
    /// once the caller lets the hit go.
    @Test func anOutputTakenOutOfTheLayoutByARefineDuringSurfaceAtKeepsItsRootForTheHitTestOnly() {
        let h = Harness()
        weak var weakOutput: Output?
        weak var weakRoot: Surface?
        weak var weakT: Surface?
        var rootPinsSeen: [UInt32] = []
        do {
            let second = Output(name: "OUT-2", position: LayoutPoint(x: 1000, y: 0), modeSize: Size(width: 500, height: 500))
            h.router.addOutput(second)
            let t = hooked(h, "t", 10, 100, in: second.root)
            weakOutput = second
            weakRoot = second.root
            weakT = t
            (t.responder as! Hooked).onRefine = { [unowned router = h.router, unowned second, unowned root = second.root] in
                rootPinsSeen.append(root.walkPinCountForTesting)
                router.removeOutput(second)
            }
        }
        do {
            let hit = h.router.surface(at: LayoutPoint(x: 1040, y: 40))
            #expect(rootPinsSeen == [1], "the root is pinned for the hit-test, not owned")
            #expect(hit != nil && hit === weakT, "the hit-test finished on the tree as it began")
            #expect(weakOutput == nil, "the output is not kept by the hit-test")
            #expect(weakRoot == nil, "the root is let go once the hit-test unpinned it")
        }
        #expect(weakT == nil, "the hit surface is let go with the caller's reference")
        #expect(h.router.layout.outputs.count == 1)
        // The same call over the output still in the layout leaves no pin behind.
        let s = hooked(h, "s", 10, 100, in: h.output.root)
        #expect(h.router.surface(at: LayoutPoint(x: 40, y: 40)) === s)
        #expect(h.output.root.walkPinCountForTesting == 0 && !h.output.root.isKeptForWalkForTesting)
    }
}
