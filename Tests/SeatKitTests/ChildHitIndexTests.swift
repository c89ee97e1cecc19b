import AllocationCounter
import Testing
@testable import SeatKit

@Suite("Hit-testing index over a surface's children")
struct ChildHitIndexTests {
    private func wideTree(children: Int, using rng: inout SeededGenerator) -> (root: Surface, all: [Surface]) {
        let root = Surface(name: "root", frame: SurfaceRect(x: 0, y: 0, width: 1000, height: 600))
        var all = [root]
        for i in 0..<children {
            let s = Surface(name: "c\(i)", frame: SurfaceRect(
                x: Double(Int.random(in: -50...950, using: &rng)) + 0.25, y: Double(Int.random(in: -50...550, using: &rng)),
                width: Double(Int.random(in: 1...200, using: &rng)), height: Double(Int.random(in: 1...200, using: &rng))))
            if Int.random(in: 0..<10, using: &rng) == 0 { s.isHidden = true }
            if Int.random(in: 0..<10, using: &rng) == 0 {
                s.inputRegion = [SurfaceRect(x: 0, y: 0, width: 10, height: 10)]
            }
            // Some children carry subtrees of their own, wide or deep.
            let parent = Int.random(in: 0..<6, using: &rng) == 0 ? all.randomElement(using: &rng)! : root
            parent.insertChild(s, at: Int.random(in: 0...parent.children.count, using: &rng))
            all.append(s)
        }
        return (root, all)
    }

    private func randomPoint(_ rng: inout SeededGenerator) -> SurfacePoint {
        // Whole numbers half the time, so edges are hit exactly.
        if Bool.random(using: &rng) {
            return SurfacePoint(x: Double(Int.random(in: -80...1100, using: &rng)), y: Double(Int.random(in: -80...700, using: &rng)))
        }
        return SurfacePoint(x: Double.random(in: -80...1100, using: &rng), y: Double.random(in: -80...700, using: &rng))
    }

    @Test func wideTreesAgreeWithBruteForceThroughEveryKindOfChange() {
        var rng = SeededGenerator(seed: 7)
        var checked = 0
        for round in 0..<30 {
            let (root, all) = wideTree(children: 20 + round * 13, using: &rng)
            #expect(root.children.count >= 2)
            for step in 0..<12 {
                for _ in 0..<40 {
                    let p = randomPoint(&rng)
                    let expected = SurfaceTests.referenceHit(root, p)
                    let actual = root.hitTest(p)
                    #expect(actual === expected, "round \(round) step \(step) at \(p): expected \(expected?.name ?? "nil"), got \(actual?.name ?? "nil")")
                    checked += 1
                }
                // Change the tree between batches of queries, so stale indexes would show.
                let s = all.randomElement(using: &rng)!
                switch Int.random(in: 0..<6, using: &rng) {
                case 0: if s !== root { s.frame.origin.x += Double(Int.random(in: -300...300, using: &rng)) }
                case 1: if let parent = s.parent { parent.bringToFront(s) }
                case 2: s.isHidden.toggle()
                case 3: if s !== root { s.frame.size.width = Double(Int.random(in: 1...400, using: &rng)) }
                case 4: if s !== root, Bool.random(using: &rng) { s.removeFromParent() } else { root.addChild(s === root ? Surface(frame: SurfaceRect(x: 5, y: 5, width: 5, height: 5)) : s) }
                default: s.inputRegion = Bool.random(using: &rng) ? nil : [SurfaceRect(x: 2, y: 2, width: 30, height: 30)]
                }
            }
        }
        #expect(checked == 30 * 12 * 40)
    }

    @Test func manyChildrenGetAGridWhoseCellsListEveryCandidateTopFirst() {
        var rng = SeededGenerator(seed: 11)
        let (root, _) = wideTree(children: 400, using: &rng)
        _ = root.hitTest(SurfacePoint(x: 1, y: 1))
        let index = try! #require(root.childIndexForTesting)
        #expect(index.usesGrid)
        for _ in 0..<500 {
            let p = randomPoint(&rng)
            let candidates = index.candidates(at: p)
            #expect(candidates == candidates.sorted(by: >), "candidates must run from the top down")
            for (i, child) in root.children.enumerated() {
                let local = SurfacePoint(x: p.x - child.frame.origin.x, y: p.y - child.frame.origin.y)
                if let box = child.subtreeBounds, box.contains(local) {
                    #expect(candidates.contains(i), "child \(i) holds \(p) but its cell does not list it")
                }
            }
        }
    }

    @Test func fewChildrenAreScannedWithoutAGrid() {
        let root = Surface(name: "root", frame: SurfaceRect(x: 0, y: 0, width: 100, height: 100))
        for i in 0..<(ChildHitIndex.gridThreshold - 1) {
            root.addChild(Surface(frame: SurfaceRect(x: Double(i), y: 0, width: 10, height: 10)))
        }
        // A tree this small is hit-tested through its flat table; go below it to the index.
        _ = root.hitTestBelowBounds(SurfacePoint(x: 1, y: 1))
        #expect(root.childIndexForTesting?.usesGrid == false)
    }

    @Test func raisingAChildAmongManyChangesTheAnswerAtOnce() {
        let root = Surface(name: "root", frame: SurfaceRect(x: 0, y: 0, width: 2000, height: 100))
        let under = Surface(name: "under", frame: SurfaceRect(x: 0, y: 0, width: 50, height: 50))
        let over = Surface(name: "over", frame: SurfaceRect(x: 10, y: 10, width: 50, height: 50))
        root.addChild(under)
        root.addChild(over)
        for i in 0..<100 { root.addChild(Surface(frame: SurfaceRect(x: 100 + Double(i) * 15, y: 0, width: 10, height: 10))) }
        let p = SurfacePoint(x: 20, y: 20)
        #expect(root.hitTest(p) === over)
        root.bringToFront(under)
        #expect(root.hitTest(p) === under)
        under.frame.origin.x = 500
        #expect(root.hitTest(p) === over)
        over.isInputDisabled = true
        #expect(root.hitTest(p) === root)
    }

    @Test func hitTestingAWarmWideTreeAllocatesNothingEvenAfterAChildMoves() {
        var rng = SeededGenerator(seed: 3)
        let (root, all) = wideTree(children: 500, using: &rng)
        let points = (0..<200).map { _ in randomPoint(&rng) }
        let mover = all[all.count / 2]
        func sweep() -> Int { points.reduce(0) { $0 + (root.hitTest($1) == nil ? 0 : 1) } }
        _ = sweep()
        mover.frame.origin.x += 1
        _ = sweep()  // the rebuild after a change has grown its storage once
        // Editing the tree may allocate; hit-testing after the edit (which rebuilds the
        // index in its old storage) must not.
        let (allocations, hits) = hitTestAllocationsAfterEdits(root, points, edits: 20) { step in
            mover.frame.origin.x += step.isMultiple(of: 2) ? 3 : -3
        }
        #expect(allocations == 0)
        #expect(hits > 0)
    }

    /// Far-off children at the back, so that the tree is over the flat table's limit and the
    /// per-parent index is what gets walked (without them, the flat table is).
    private func padBeyondFlatTable(_ root: Surface, _ padding: Int) {
        for i in 0..<padding { root.insertChild(Surface(name: "pad\(i)", frame: SurfaceRect(x: 900, y: 90, width: 5, height: 5)), at: 0) }
    }

    @Test(arguments: [0, FlatHitTable.surfaceLimit])
    func aResponderMayEditTheTreeWhileItsSurfaceIsBeingHitTested(padding: Int) {
        final class Rearranging: Responder {
            var edit: () -> Void = {}
            func refineHitTest(at point: SurfacePoint, in surface: Surface) -> Bool {
                edit()
                edit = {}
                return false  // refuse, so the walk goes on to the (edited) siblings below
            }
        }
        let root = Surface(name: "root", frame: SurfaceRect(x: 0, y: 0, width: 1000, height: 100))
        var children: [Surface] = []
        for i in 0..<40 {
            let s = Surface(name: "c\(i)", frame: SurfaceRect(x: Double(i % 4), y: 0, width: 50, height: 50))
            root.addChild(s)
            children.append(s)
        }
        padBeyondFlatTable(root, padding)
        let rearranging = Rearranging()
        let top = Surface(name: "top", frame: SurfaceRect(x: 0, y: 0, width: 50, height: 50), responder: rearranging)
        root.addChild(top)
        rearranging.edit = {
            for s in children.prefix(30) { s.removeFromParent() }
            for i in 0..<200 { root.addChild(Surface(frame: SurfaceRect(x: 500 + Double(i), y: 60, width: 5, height: 5))) }
        }
        let p = SurfacePoint(x: 10, y: 10)
        // The walk finishes on the tree as it began: the topmost old sibling under the point.
        #expect(root.hitTest(p) === children[39])
        #expect(root.children.count == 211 + padding)
        #expect(root.hitTest(p) === children[39])  // top still refuses
        #expect(root.hitTest(SurfacePoint(x: 501, y: 61)) === SurfaceTests.referenceHit(root, SurfacePoint(x: 501, y: 61)))
    }

    /// A surface removed from inside a hit-test's walk lives through the walk (the table or
    /// index it is on owns it) and is let go when that hit-test returns, not at the next one.
    @Test(arguments: [0, FlatHitTable.surfaceLimit])
    func aSurfaceRemovedFromInsideAHitTestIsLetGoWhenTheHitTestReturns(padding: Int) {
        final class Removing: Responder {
            var edit: () -> Void = {}
            func refineHitTest(at point: SurfacePoint, in surface: Surface) -> Bool {
                edit()
                edit = {}
                return false
            }
        }
        final class Watch { weak var surface: Surface? }
        let root = Surface(name: "root", frame: SurfaceRect(x: 0, y: 0, width: 1000, height: 100))
        let back = Surface(name: "back", frame: SurfaceRect(x: 0, y: 0, width: 50, height: 50))
        root.addChild(back)
        padBeyondFlatTable(root, padding)
        let removing = Removing()
        let top = Surface(name: "top", frame: SurfaceRect(x: 0, y: 0, width: 50, height: 50), responder: removing)
        let watch = Watch()
        do {
            let doomed = Surface(name: "doomed", frame: SurfaceRect(x: 0, y: 0, width: 50, height: 50))
            root.addChild(doomed)
            watch.surface = doomed
            root.addChild(top)
            removing.edit = { [watch] in watch.surface?.removeFromParent() }
        }
        let p = SurfacePoint(x: 10, y: 10)
        // The walk finishes on the tree as it began: `doomed`, below the refusing top.
        #expect(root.hitTest(p)?.name == "doomed")
        #expect(watch.surface == nil, "let go when the hit-test that was walking over it returned")
        #expect(root.hitTest(p) === back)
    }

    @Test(arguments: [0, FlatHitTable.surfaceLimit])
    func aHitTestFromInsideAHitTestLeavesTheOuterWalkIntact(padding: Int) {
        final class Reentrant: Responder {
            var inner: () -> Void = {}
            func refineHitTest(at point: SurfacePoint, in surface: Surface) -> Bool {
                let run = inner
                inner = {}
                run()
                return false
            }
        }
        let root = Surface(name: "root", frame: SurfaceRect(x: 0, y: 0, width: 1000, height: 100))
        var children: [Surface] = []
        for i in 0..<40 {
            let s = Surface(name: "c\(i)", frame: SurfaceRect(x: Double(i % 4), y: 0, width: 50, height: 50))
            root.addChild(s)
            children.append(s)
        }
        padBeyondFlatTable(root, padding)
        let reentrant = Reentrant()
        let top = Surface(name: "top", frame: SurfaceRect(x: 0, y: 0, width: 50, height: 50), responder: reentrant)
        root.addChild(top)
        let p = SurfacePoint(x: 10, y: 10)
        var innerResult: Surface?
        reentrant.inner = {
            innerResult = root.hitTest(p)      // walks the same index, nested
            children[39].frame.origin.y = 500  // then edits the tree: the outer walk must survive
            for i in 0..<300 { root.addChild(Surface(frame: SurfaceRect(x: 600 + Double(i), y: 0, width: 5, height: 5))) }
        }
        #expect(root.hitTest(p) === children[39])  // the outer walk saw the tree as it began
        #expect(innerResult === children[39])
        #expect(root.hitTest(p) === children[38])  // and the next hit-test sees the edit
    }

    @Test func aChildForgetsItsParentWhenTheParentIsFreed() {
        let child = Surface(name: "child", frame: SurfaceRect(x: 0, y: 0, width: 10, height: 10))
        do {
            let parent = Surface(name: "parent", frame: SurfaceRect(x: 0, y: 0, width: 10, height: 10))
            parent.addChild(child)
            #expect(child.parent === parent)
        }
        #expect(child.parent == nil)
    }
}
