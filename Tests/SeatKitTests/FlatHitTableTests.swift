import AllocationCounter
import Testing
@testable import SeatKit

@Suite("Flat hit-testing table of a small subtree")
struct FlatHitTableTests {
    /// A random tree of `count` surfaces besides the root, nested and overlapping, with
    /// fractional origins so that rounding in the coordinate steps would show.
    private func randomTree(surfaces count: Int, using rng: inout SeededGenerator) -> (root: Surface, all: [Surface]) {
        let root = Surface(name: "root", frame: SurfaceRect(x: 0, y: 0, width: 300, height: 300))
        if Int.random(in: 0..<3, using: &rng) == 0 { root.inputRegion = [] }
        var all = [root]
        for i in 0..<count {
            let parent = all.randomElement(using: &rng)!
            let s = Surface(name: "s\(i)", frame: randomFrame(&rng))
            if Int.random(in: 0..<8, using: &rng) == 0 { s.isHidden = true }
            if Int.random(in: 0..<10, using: &rng) == 0 { s.isInputDisabled = true }
            if Int.random(in: 0..<6, using: &rng) == 0 { s.clipsChildren = true }
            if Int.random(in: 0..<6, using: &rng) == 0 { s.inputRegion = randomRegion(&rng) }
            parent.insertChild(s, at: Int.random(in: 0...parent.children.count, using: &rng))
            all.append(s)
        }
        return (root, all)
    }

    private func randomFrame(_ rng: inout SeededGenerator) -> SurfaceRect {
        SurfaceRect(x: Double(Int.random(in: -40...260, using: &rng)) + 0.1 * Double(Int.random(in: 0...9, using: &rng)),
                    y: Double(Int.random(in: -40...260, using: &rng)) + 0.7 * Double(Int.random(in: 0...3, using: &rng)),
                    width: Double(Int.random(in: 1...120, using: &rng)), height: Double(Int.random(in: 1...120, using: &rng)))
    }

    private func randomRegion(_ rng: inout SeededGenerator) -> [SurfaceRect]? {
        switch Int.random(in: 0..<3, using: &rng) {
        case 0: return nil
        case 1: return []
        default: return [SurfaceRect(x: Double(Int.random(in: 0...30, using: &rng)), y: 0, width: 40, height: 40),
                         SurfaceRect(x: 0, y: 50.5, width: 20, height: 20)]
        }
    }

    private func randomPoint(_ rng: inout SeededGenerator) -> SurfacePoint {
        // Whole numbers half the time, so edges are hit exactly.
        if Bool.random(using: &rng) {
            return SurfacePoint(x: Double(Int.random(in: -60...380, using: &rng)), y: Double(Int.random(in: -60...380, using: &rng)))
        }
        return SurfacePoint(x: Double.random(in: -60...380, using: &rng), y: Double.random(in: -60...380, using: &rng))
    }

    private func countSurfaces(_ s: Surface) -> Int { 1 + s.children.reduce(0) { $0 + countSurfaces($1) } }

    @Test func smallTreesAgreeWithBruteForceThroughRandomEditsOfEveryKind() {
        var rng = SeededGenerator(seed: 19)
        var checked = 0, flatWalks = 0
        for round in 0..<150 {
            let (root, all) = randomTree(surfaces: 1 + round % 45, using: &rng)
            // A second tree, so that subtrees also move between trees.
            let (otherRoot, others) = randomTree(surfaces: 3, using: &rng)
            let pool = all + others
            for step in 0..<16 {
                for _ in 0..<12 {
                    let p = randomPoint(&rng)
                    let expected = SurfaceTests.referenceHit(root, p)
                    let actual = root.hitTest(p)
                    #expect(actual === expected, "round \(round) step \(step) at \(p): expected \(expected?.name ?? "nil"), got \(actual?.name ?? "nil")")
                    #expect(otherRoot.hitTest(p) === SurfaceTests.referenceHit(otherRoot, p))
                    checked += 1
                }
                #expect(root.unchecked.subtreeSurfaceCount == countSurfaces(root))
                #expect(otherRoot.unchecked.subtreeSurfaceCount == countSurfaces(otherRoot))
                if let table = root.flatTableForTesting, table.unchecked.builtAtEdit == root.unchecked.subtreeEditCount { flatWalks += 1 }
                // One edit of any kind between batches, so a stale table would show.
                let s = pool.randomElement(using: &rng)!
                let isRoot = s === root || s === otherRoot
                switch Int.random(in: 0..<11, using: &rng) {
                case 0: if !isRoot { s.frame.origin.x += Double(Int.random(in: -3...3, using: &rng)) }  // often inside the parent's box
                case 1: if !isRoot { s.frame = randomFrame(&rng) }
                case 2: if let parent = s.parent { parent.bringToFront(s) }
                case 3: s.isHidden.toggle()
                case 4: s.isInputDisabled.toggle()
                case 5: s.clipsChildren.toggle()
                case 6: s.inputRegion = randomRegion(&rng)
                case 7: if !isRoot { s.removeFromParent() }
                case 8, 9:
                    // Insert (or move) into any surface of either tree, if that makes no cycle.
                    let parent = pool.randomElement(using: &rng)!
                    if !isRoot, parent !== s, !parent.isDescendant(of: s) {
                        parent.insertChild(s, at: Int.random(in: 0...parent.children.count, using: &rng))
                    }
                default: if !isRoot { s.frame.size.height = Double(Int.random(in: 1...150, using: &rng)) }
                }
            }
        }
        #expect(checked == 150 * 16 * 12)
        #expect(flatWalks > 150 * 16 / 2, "most batches should have gone through a current flat table")
    }

    @Test func aMoveThatLeavesEveryBoundingBoxAloneStillChangesTheAnswer() {
        let root = Surface(name: "root", frame: SurfaceRect(x: 0, y: 0, width: 200, height: 200))
        let window = Surface(name: "window", frame: SurfaceRect(x: 0, y: 0, width: 200, height: 200))
        let a = Surface(name: "a", frame: SurfaceRect(x: 10, y: 10, width: 20, height: 20))
        let b = Surface(name: "b", frame: SurfaceRect(x: 100, y: 100, width: 20, height: 20))
        root.addChild(window)
        window.addChild(a)
        window.addChild(b)
        let p = SurfacePoint(x: 15, y: 15)
        #expect(root.hitTest(p) === a)
        let boxes = (root.subtreeBounds, window.subtreeBounds)
        b.frame.origin = SurfacePoint(x: 5, y: 5)  // over a, inside window: no box changes
        #expect(root.subtreeBounds == boxes.0 && window.subtreeBounds == boxes.1)
        #expect(root.hitTest(p) === b)
        window.bringToFront(a)
        #expect(root.hitTest(p) === a)
        a.inputRegion = [SurfaceRect(x: 0, y: 0, width: 2, height: 2)]
        #expect(root.hitTest(p) === b)
        b.isInputDisabled = true
        #expect(root.hitTest(p) === window)
    }

    @Test func candidatesAreAskedAtTheSamePointsToTheBitAsTheRecursionAsks() {
        final class Recording: Responder {
            var asked: [(SurfaceID, UInt64, UInt64)] = []
            var refuses = true
            func refineHitTest(at point: SurfacePoint, in surface: Surface) -> Bool {
                asked.append((surface.id, point.x.bitPattern, point.y.bitPattern))
                return !refuses
            }
        }
        var rng = SeededGenerator(seed: 23)
        let recording = Recording()
        for _ in 0..<40 {
            let (root, all) = randomTree(surfaces: 30, using: &rng)
            for s in all {
                s.responder = recording
                if s !== root {
                    s.frame.origin.x += 0.1 * Double(Int.random(in: 1...9, using: &rng))
                    s.frame.origin.y += 0.3 * Double(Int.random(in: 1...9, using: &rng))
                }
            }
            for _ in 0..<50 {
                // Every candidate refuses: both walks visit everything they would test.
                let p = SurfacePoint(x: Double.random(in: -60...380, using: &rng), y: Double.random(in: -60...380, using: &rng))
                recording.asked = []
                #expect(root.hitTest(p) == nil)
                let flat = recording.asked
                recording.asked = []
                if let box = root.subtreeBounds, box.contains(p) { #expect(root.hitTestBelowBounds(p) == nil) }
                #expect(flat.elementsEqual(recording.asked, by: { $0 == $1 }))
            }
            #expect(root.flatTableForTesting != nil)
        }
    }

    @Test func aRefusedCandidateLetsTheWalkGoOnBelowItThenToItsParent() {
        final class Refusing: Responder {
            func refineHitTest(at point: SurfacePoint, in surface: Surface) -> Bool { false }
        }
        let root = Surface(name: "root", frame: SurfaceRect(x: 0, y: 0, width: 100, height: 100))
        let window = Surface(name: "window", frame: SurfaceRect(x: 10, y: 10, width: 80, height: 80))
        let under = Surface(name: "under", frame: SurfaceRect(x: 0, y: 0, width: 30, height: 30))
        let over = Surface(name: "over", frame: SurfaceRect(x: 0, y: 0, width: 30, height: 30), responder: Refusing())
        root.addChild(window)
        window.addChild(under)
        window.addChild(over)
        let p = SurfacePoint(x: 15, y: 15)
        #expect(root.hitTest(p) === under)
        under.responder = Refusing()
        #expect(root.hitTest(p) === window)
        window.responder = Refusing()
        #expect(root.hitTest(p) === root)
    }

    @Test func aResponderMayEditTheTreeAndHitTestAgainDuringAFlatWalk() {
        final class Rearranging: Responder {
            var onRefine: () -> Void = {}
            func refineHitTest(at point: SurfacePoint, in surface: Surface) -> Bool {
                let run = onRefine
                onRefine = {}
                run()
                return false  // refuse, so the walk goes on below the edited part
            }
        }
        let root = Surface(name: "root", frame: SurfaceRect(x: 0, y: 0, width: 1000, height: 100))
        var windows: [Surface] = []
        for i in 0..<6 {
            let w = Surface(name: "w\(i)", frame: SurfaceRect(x: Double(i), y: 0, width: 50, height: 50))
            w.addChild(Surface(name: "w\(i)-popup", frame: SurfaceRect(x: 40, y: 40, width: 5, height: 5)))
            root.addChild(w)
            windows.append(w)
        }
        let rearranging = Rearranging()
        let top = Surface(name: "top", frame: SurfaceRect(x: 0, y: 0, width: 50, height: 50), responder: rearranging)
        root.addChild(top)
        let p = SurfacePoint(x: 10, y: 10)
        #expect(root.hitTest(p) === windows[5])  // builds the table; top refuses
        let first = try! #require(root.flatTableForTesting)
        var inner: Surface?
        var retiredDuringWalk = 0
        rearranging.onRefine = {
            // Remove the window the walk would answer next, hide another, add more.
            windows[5].removeFromParent()
            windows[4].isHidden = true
            for i in 0..<10 { root.addChild(Surface(name: "late\(i)", frame: SurfaceRect(x: 600 + Double(i) * 10, y: 0, width: 5, height: 5))) }
            inner = root.hitTest(p)  // a new table for the new tree; the old one is still walked
            retiredDuringWalk = root.retiredFlatTableCountForTesting
        }
        // The outer walk finishes on the tree as it began.
        #expect(root.hitTest(p) === windows[5])
        #expect(inner === windows[3])  // w5 removed, w4 hidden, top refused
        #expect(retiredDuringWalk == 1)
        #expect(root.retiredFlatTableCountForTesting == 0, "the old table goes once its walk ends")
        #expect(root.flatTableForTesting !== first)
        #expect(root.hitTest(p) === windows[3])
        top.responder = PassThroughResponder()  // the reference knows nothing of refusals
        for x in stride(from: 0.0, to: 700, by: 7) {
            let q = SurfacePoint(x: x, y: 2)
            #expect(root.hitTest(q) === SurfaceTests.referenceHit(root, q))
        }
    }

    @Test(arguments: [0, FlatHitTable.surfaceLimit])
    func aResponderReplacedFromInsideItsOwnRefineHitTestLivesUntilTheCallReturns(padding: Int) {
        final class SelfReplacing: Responder {
            var marker = [Int](repeating: 7, count: 64)  // would read as garbage once freed
            func refineHitTest(at point: SurfacePoint, in surface: Surface) -> Bool {
                surface.responder = PassThroughResponder()  // drops the surface's only reference
                return marker.allSatisfy { $0 == 7 } ? false : true
            }
        }
        let root = Surface(name: "root", frame: SurfaceRect(x: 0, y: 0, width: 100, height: 100))
        for i in 0..<padding { root.insertChild(Surface(name: "pad\(i)", frame: SurfaceRect(x: 90, y: 90, width: 5, height: 5)), at: 0) }
        let window = Surface(name: "window", frame: SurfaceRect(x: 0, y: 0, width: 50, height: 50))
        root.addChild(window)
        weak var replaced: SelfReplacing?
        do {
            let responder = SelfReplacing()
            replaced = responder
            window.responder = responder
        }
        #expect(replaced != nil)
        #expect(root.hitTest(SurfacePoint(x: 10, y: 10)) === root)  // refused while still alive
        #expect(replaced == nil, "the replaced responder goes once its call has returned")
        #expect(root.hitTest(SurfacePoint(x: 10, y: 10)) === window)
    }

    @Test func hitTestingAWarmSmallTreeAllocatesNothingEvenAfterEdits() {
        var rng = SeededGenerator(seed: 5)
        let (root, all) = randomTree(surfaces: 40, using: &rng)
        let points = (0..<200).map { _ in randomPoint(&rng) }
        let mover = all[all.count / 2], raised = all[all.count / 3]
        func sweep() -> Int { points.reduce(0) { $0 + (root.hitTest($1) == nil ? 0 : 1) } }
        _ = sweep()
        mover.frame.origin.x += 1
        _ = sweep()  // the rebuild after a change has grown its storage once
        #expect(root.flatTableForTesting != nil)
        // Editing may allocate; hit-testing after the edit (which rebuilds the table in its
        // old storage) must not.
        let (allocations, hits) = hitTestAllocationsAfterEdits(root, points, edits: 20) { step in
            mover.frame.origin.x += step.isMultiple(of: 2) ? 3 : -3
            if step.isMultiple(of: 5), let parent = raised.parent { parent.bringToFront(raised) }
        }
        #expect(allocations == 0)
        #expect(hits > 0)
    }

    private func agreesWithReference(_ root: Surface) -> Bool {
        stride(from: -5.0, to: 1000, by: 9.5).allSatisfy { x in
            stride(from: -5.0, to: 1000, by: 61).allSatisfy { y in
                let p = SurfacePoint(x: x, y: y)
                return root.hitTest(p) === SurfaceTests.referenceHit(root, p)
            }
        }
    }

    @Test func treesLargerThanTheLimitUseThePerParentIndexAndSwitchBackWhenTheyShrink() {
        let limit = FlatHitTable.surfaceLimit
        let root = Surface(name: "root", frame: SurfaceRect(x: 0, y: 0, width: 1000, height: 1000))
        // Eight windows with popups, none with a grid's worth of children: exactly the limit.
        let windows = (0..<8).map { i in Surface(name: "w\(i)", frame: SurfaceRect(x: Double(i) * 110, y: Double(i) * 90, width: 300, height: 300)) }
        windows.forEach(root.addChild)
        for k in 0..<(limit - 1 - windows.count) {
            windows[k % windows.count].addChild(Surface(name: "p\(k)", frame: SurfaceRect(x: Double(k * 13 % 280), y: Double(k * 29 % 280), width: 40, height: 30)))
        }
        #expect(root.unchecked.subtreeSurfaceCount == limit)
        #expect(agreesWithReference(root))
        let table = try! #require(root.flatTableForTesting)
        #expect(table.unchecked.isUsable && table.unchecked.builtAtEdit == root.unchecked.subtreeEditCount)
        #expect(root.childIndexForTesting == nil, "a tree at the limit never needs the per-parent index")

        // One more surface, deep down: over the limit.
        windows[3].children[0].addChild(Surface(name: "extra", frame: SurfaceRect(x: 5, y: 5, width: 10, height: 10)))
        #expect(root.unchecked.subtreeSurfaceCount == limit + 1)
        #expect(agreesWithReference(root))
        #expect(root.childIndexForTesting != nil)
        #expect(table.unchecked.builtAtEdit != root.unchecked.subtreeEditCount, "the flat table is not rebuilt over the limit")

        // Back at the limit: the flat table again, rebuilt for the tree as it is now.
        windows[3].children[0].children[0].removeFromParent()
        windows[5].frame.origin.x += 300
        #expect(root.unchecked.subtreeSurfaceCount == limit)
        #expect(agreesWithReference(root))
        #expect(root.flatTableForTesting?.unchecked.builtAtEdit == root.unchecked.subtreeEditCount)
        #expect(root.flatTableForTesting?.unchecked.isUsable == true)
    }

    @Test func aSmallTreeWithAWideParentIsLeftToThePerParentGrid() {
        let root = Surface(name: "root", frame: SurfaceRect(x: 0, y: 0, width: 1000, height: 1000))
        let window = Surface(name: "window", frame: SurfaceRect(x: 50, y: 50, width: 900, height: 900))
        root.addChild(window)
        var items: [Surface] = []
        for i in 0..<FlatHitTable.childLimit {
            let item = Surface(name: "i\(i)", frame: SurfaceRect(x: Double(i * 37 % 850), y: Double(i * 53 % 850), width: 60, height: 60))
            window.addChild(item)
            items.append(item)
        }
        #expect(root.unchecked.subtreeSurfaceCount <= FlatHitTable.surfaceLimit)
        #expect(agreesWithReference(root))
        #expect(root.flatTableForTesting?.unchecked.isUsable == false)
        #expect(window.childIndexForTesting?.usesGrid == true)
        items[0].frame.origin.x += 20  // an edit: the table is looked at again, still too wide
        #expect(agreesWithReference(root))
        #expect(root.flatTableForTesting?.unchecked.isUsable == false)
        items[1].removeFromParent()  // one child fewer than a grid: a flat table again
        #expect(agreesWithReference(root))
        #expect(root.flatTableForTesting?.unchecked.isUsable == true)
    }

    @Test func aChainDeeperThanTheLevelLimitIsLeftToThePerParentIndex() {
        let root = Surface(name: "root", frame: SurfaceRect(x: 0, y: 0, width: 1000, height: 1000))
        var tip = root
        for i in 0...FlatHitTable.levelLimit {  // one level more than a walk keeps points for
            let s = Surface(name: "d\(i)", frame: SurfaceRect(x: 3.1, y: 2.7, width: 900 - Double(i) * 10, height: 900 - Double(i) * 10))
            if i.isMultiple(of: 3) { s.inputRegion = [SurfaceRect(x: 0, y: 0, width: 200, height: 900)] }
            tip.addChild(s)
            tip = s
        }
        #expect(agreesWithReference(root))
        #expect(root.flatTableForTesting?.unchecked.isUsable == false)
        tip.removeFromParent()  // one level fewer: fits
        #expect(agreesWithReference(root))
        #expect(root.flatTableForTesting?.unchecked.isUsable == true)
    }

    @Test func theTableListsChildrenTopFirstEachBeforeItsParentAndSkipsWhatCannotBeHit() {
        let root = Surface(name: "root", frame: SurfaceRect(x: 0, y: 0, width: 100, height: 100))
        root.inputRegion = []
        let back = Surface(name: "back", frame: SurfaceRect(x: 0, y: 0, width: 50, height: 50))
        let front = Surface(name: "front", frame: SurfaceRect(x: 10, y: 10, width: 50, height: 50))
        let popup = Surface(name: "popup", frame: SurfaceRect(x: 5, y: 5, width: 10, height: 10))
        let hidden = Surface(name: "hidden", frame: SurfaceRect(x: 0, y: 0, width: 10, height: 10))
        hidden.isHidden = true
        root.addChild(back)
        root.addChild(front)
        front.addChild(popup)
        front.addChild(hidden)
        _ = root.hitTest(SurfacePoint(x: 1, y: 1))
        let layout = try! #require(root.flatTableForTesting).layoutForTesting
        #expect(layout.map(\.surface.name) == ["front", "popup", "front", "back"])
        #expect(layout.map(\.isCandidate) == [false, true, true, true])
        #expect(layout.map(\.level) == [0, 1, 1, 0])
    }
}
