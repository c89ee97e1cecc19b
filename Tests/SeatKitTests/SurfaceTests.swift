import Dispatch
import Testing
@testable import SeatKit

@Suite("Surface hit-testing")
struct SurfaceTests {
    /// UIKit's documented example: A holds B and C, C holds D and E; B and D are in front.
    @Test func touchInEChecksBThenCThenDThenEAndEIsTheHitTestSurface() {
        let a = Surface(name: "A", frame: SurfaceRect(x: 0, y: 0, width: 400, height: 400))
        let b = Surface(name: "B", frame: SurfaceRect(x: 0, y: 0, width: 400, height: 100))
        let c = Surface(name: "C", frame: SurfaceRect(x: 0, y: 150, width: 400, height: 250))
        let d = Surface(name: "D", frame: SurfaceRect(x: 0, y: 0, width: 200, height: 250))
        let e = Surface(name: "E", frame: SurfaceRect(x: 200, y: 0, width: 200, height: 250))
        a.addChild(c)
        a.addChild(b)  // on top of C
        c.addChild(e)
        c.addChild(d)  // on top of E
        var visited: [String] = []
        let hit = a.hitTest(SurfacePoint(x: 300, y: 200)) { visited.append($0.name) }
        #expect(visited == ["A", "B", "C", "D", "E"])
        #expect(hit === e)
        #expect(a.hitTest(SurfacePoint(x: 300, y: 200)) === e)
    }

    @Test func hiddenAndInputDisabledSubtreesAreSkipped() {
        let root = Surface(name: "root", frame: SurfaceRect(x: 0, y: 0, width: 100, height: 100))
        let panel = Surface(name: "panel", frame: SurfaceRect(x: 0, y: 0, width: 100, height: 100))
        let child = Surface(name: "child", frame: SurfaceRect(x: 10, y: 10, width: 20, height: 20))
        root.addChild(panel)
        panel.addChild(child)
        let p = SurfacePoint(x: 15, y: 15)
        #expect(root.hitTest(p) === child)
        panel.isHidden = true
        #expect(root.hitTest(p) === root)
        panel.isHidden = false
        panel.isInputDisabled = true
        #expect(root.hitTest(p) === root)
        panel.isInputDisabled = false
        child.isHidden = true
        #expect(root.hitTest(p) === panel)
    }

    @Test func inputRegionLimitsWhereASurfaceIsHitAndIsClippedToItsBounds() {
        let root = Surface(name: "root", frame: SurfaceRect(x: 0, y: 0, width: 200, height: 200))
        root.inputRegion = []
        let s = Surface(name: "s", frame: SurfaceRect(x: 0, y: 0, width: 100, height: 100))
        s.inputRegion = [SurfaceRect(x: 0, y: 0, width: 50, height: 50), SurfaceRect(x: 80, y: 80, width: 100, height: 100)]
        root.addChild(s)
        #expect(root.hitTest(SurfacePoint(x: 10, y: 10)) === s)
        #expect(root.hitTest(SurfacePoint(x: 60, y: 60)) == nil)
        #expect(root.hitTest(SurfacePoint(x: 90, y: 90)) === s)
        // The second rectangle reaches past the surface, but input stops at its edge.
        #expect(root.hitTest(SurfacePoint(x: 150, y: 150)) == nil)
        #expect(s.subtreeBounds == SurfaceRect(x: 0, y: 0, width: 100, height: 100))
        s.inputRegion = nil
        #expect(root.hitTest(SurfacePoint(x: 60, y: 60)) === s)
    }

    @Test func childrenOutsideTheParentAreHitUnlessTheParentClips() {
        let root = Surface(name: "root", frame: SurfaceRect(x: 0, y: 0, width: 500, height: 500))
        root.inputRegion = []
        let parent = Surface(name: "parent", frame: SurfaceRect(x: 100, y: 100, width: 100, height: 100))
        let sticking = Surface(name: "sticking-out", frame: SurfaceRect(x: 80, y: 80, width: 100, height: 100))
        root.addChild(parent)
        parent.addChild(sticking)
        let outside = SurfacePoint(x: 250, y: 250)  // in the child, outside the parent
        #expect(root.hitTest(outside) === sticking)
        parent.clipsChildren = true
        #expect(root.hitTest(outside) == nil)
        #expect(root.hitTest(SurfacePoint(x: 190, y: 190)) === sticking)
        parent.clipsChildren = false
        #expect(root.hitTest(outside) === sticking)
    }

    @Test func aResponderCanRefusePointsOfItsSurface() {
        final class RoundButton: Responder {
            func refineHitTest(at point: SurfacePoint, in surface: Surface) -> Bool {
                let dx = point.x - 50, dy = point.y - 50
                return dx * dx + dy * dy <= 50 * 50
            }
        }
        let root = Surface(name: "root", frame: SurfaceRect(x: 0, y: 0, width: 100, height: 100))
        let round = Surface(name: "round", frame: SurfaceRect(x: 0, y: 0, width: 100, height: 100), responder: RoundButton())
        root.addChild(round)
        #expect(root.hitTest(SurfacePoint(x: 50, y: 50)) === round)
        #expect(root.hitTest(SurfacePoint(x: 2, y: 2)) === root)
    }

    @Test func subtreeBoundsFollowFramesChildrenAndFlagsIncrementally() {
        let root = Surface(name: "root", frame: SurfaceRect(x: 0, y: 0, width: 10, height: 10))
        let mid = Surface(name: "mid", frame: SurfaceRect(x: 100, y: 100, width: 10, height: 10))
        let leaf = Surface(name: "leaf", frame: SurfaceRect(x: 50, y: 0, width: 10, height: 10))
        root.addChild(mid)
        mid.addChild(leaf)
        #expect(root.subtreeBounds == SurfaceRect(x: 0, y: 0, width: 160, height: 110))
        leaf.frame.origin.x = 90
        #expect(root.subtreeBounds == SurfaceRect(x: 0, y: 0, width: 200, height: 110))
        leaf.isHidden = true
        #expect(root.subtreeBounds == SurfaceRect(x: 0, y: 0, width: 110, height: 110))
        leaf.isHidden = false
        leaf.removeFromParent()
        #expect(root.subtreeBounds == SurfaceRect(x: 0, y: 0, width: 110, height: 110))
        mid.isInputDisabled = true
        #expect(root.subtreeBounds == SurfaceRect(x: 0, y: 0, width: 10, height: 10))
    }

    @Test func aPointOnTheRightOrBottomEdgeIsOutside() {
        let root = Surface(name: "root", frame: SurfaceRect(x: 0, y: 0, width: 10, height: 10))
        #expect(root.hitTest(SurfacePoint(x: 9.99, y: 0)) === root)
        #expect(root.hitTest(SurfacePoint(x: 10, y: 5)) == nil)
        #expect(root.hitTest(SurfacePoint(x: 5, y: 10)) == nil)
    }

    @Test func addingAChildMovesItFromItsOldParent() {
        let a = Surface(name: "a", frame: SurfaceRect(x: 0, y: 0, width: 10, height: 10))
        let b = Surface(name: "b", frame: SurfaceRect(x: 20, y: 0, width: 10, height: 10))
        let c = Surface(name: "c", frame: SurfaceRect(x: 0, y: 0, width: 5, height: 5))
        a.addChild(c)
        b.addChild(c)
        #expect(a.children.isEmpty)
        #expect(c.parent === b)
        #expect(a.subtreeBounds == SurfaceRect(x: 0, y: 0, width: 10, height: 10))
    }

    /// Brute force: every surface, front to back in painting order, with its absolute
    /// accepting area, ignoring bounding boxes entirely.
    static func referenceHit(_ root: Surface, _ p: SurfacePoint) -> Surface? {
        func walk(_ s: Surface, _ p: SurfacePoint, clip: SurfaceRect?) -> Surface? {
            if s.isHidden || s.isInputDisabled { return nil }
            var childClip = clip
            if s.clipsChildren {
                let mine = s.bounds
                childClip = clip.map { $0.intersection(mine) } ?? mine
            }
            for child in s.children.reversed() {
                let local = SurfacePoint(x: p.x - child.frame.origin.x, y: p.y - child.frame.origin.y)
                let clipLocal = childClip?.offset(by: Vector(dx: -child.frame.origin.x, dy: -child.frame.origin.y))
                if let hit = walk(child, local, clip: clipLocal) { return hit }
            }
            if let clip, !clip.contains(p) { return nil }
            guard s.bounds.contains(p) else { return nil }
            if let region = s.inputRegion, !region.contains(where: { $0.contains(p) }) { return nil }
            return s
        }
        return walk(root, p, clip: nil)
    }

    /// `p`, in `root`'s space, in the space of `surface` (in `root`'s subtree), by a walk up.
    static func point(_ p: SurfacePoint, inSpaceOf surface: Surface, under root: Surface) -> SurfacePoint {
        var x = p.x, y = p.y
        var node: Surface? = surface
        while let current = node, current !== root {
            x -= current.frame.origin.x
            y -= current.frame.origin.y
            node = current.parent
        }
        return SurfacePoint(x: x, y: y)
    }

    @Test func aHitTestReturnsThePointInTheSpaceOfTheSurfaceItHit() {
        let root = Surface(name: "root", frame: SurfaceRect(x: 0, y: 0, width: 500, height: 500))
        let window = Surface(name: "window", frame: SurfaceRect(x: 100, y: 50, width: 300, height: 300))
        let below = Surface(name: "below", frame: SurfaceRect(x: -20, y: -10, width: 40, height: 40))
        below.isBelowParent = true
        let button = Surface(name: "button", frame: SurfaceRect(x: 10.5, y: 20, width: 50, height: 50))
        root.addChild(window)
        window.addChild(below)
        window.addChild(button)
        #expect(root.hitTestLocating(SurfacePoint(x: 120, y: 80))?.surface === button)
        #expect(root.hitTestLocating(SurfacePoint(x: 120, y: 80))?.location == SurfacePoint(x: 9.5, y: 10))
        // Through the walk for a surface with a child below it, and that child.
        #expect(root.hitTestLocating(SurfacePoint(x: 300, y: 300))?.location == SurfacePoint(x: 200, y: 250))
        #expect(root.hitTestLocating(SurfacePoint(x: 85, y: 45))?.surface === below)
        #expect(root.hitTestLocating(SurfacePoint(x: 85, y: 45))?.location == SurfacePoint(x: 5, y: 5))
        #expect(root.hitTestLocating(SurfacePoint(x: 499, y: 499))?.location == SurfacePoint(x: 499, y: 499))
        #expect(root.hitTestLocating(SurfacePoint(x: 600, y: 1)) == nil)
    }

    @Test func hitTestingAgreesWithABruteForceReferenceOnThousandsOfRandomTrees() {
        var rng = SeededGenerator(seed: 42)
        var checked = 0
        for _ in 0..<2000 {
            let root = Surface(name: "root", frame: SurfaceRect(x: 0, y: 0, width: 300, height: 300))
            var all = [root]
            for i in 0..<Int.random(in: 1...25, using: &rng) {
                let parent = all.randomElement(using: &rng)!
                let s = Surface(name: "s\(i)", frame: SurfaceRect(
                    x: Double(Int.random(in: -40...260, using: &rng)), y: Double(Int.random(in: -40...260, using: &rng)),
                    width: Double(Int.random(in: 1...120, using: &rng)), height: Double(Int.random(in: 1...120, using: &rng))))
                if Int.random(in: 0..<6, using: &rng) == 0 { s.isHidden = true }
                if Int.random(in: 0..<8, using: &rng) == 0 { s.isInputDisabled = true }
                if Int.random(in: 0..<5, using: &rng) == 0 { s.clipsChildren = true }
                if Int.random(in: 0..<5, using: &rng) == 0 {
                    s.inputRegion = [SurfaceRect(x: Double(Int.random(in: 0...30, using: &rng)), y: 0, width: 40, height: 40)]
                }
                parent.insertChild(s, at: Int.random(in: 0...parent.children.count, using: &rng))
                all.append(s)
            }
            // Mutate after building, so the incremental boxes are exercised too.
            for _ in 0..<3 {
                let s = all.randomElement(using: &rng)!
                if s !== root { s.frame.origin.x += Double(Int.random(in: -50...50, using: &rng)) }
            }
            if let victim = all.dropFirst().randomElement(using: &rng), Bool.random(using: &rng) {
                victim.removeFromParent()
            }
            for _ in 0..<10 {
                let p = SurfacePoint(x: Double.random(in: -60...380, using: &rng), y: Double.random(in: -60...380, using: &rng))
                let expected = Self.referenceHit(root, p)
                let actual = root.hitTest(p)
                #expect(actual === expected, "at \(p): expected \(expected?.name ?? "nil"), got \(actual?.name ?? "nil")")
                // The surface-local point comes back with the surface, as the walk down found it.
                let located = root.hitTestLocating(p)
                #expect(located?.surface === expected)
                if let located { #expect(located.location == Self.point(p, inSpaceOf: located.surface, under: root)) }
                checked += 1
            }
        }
        #expect(checked == 20_000)
    }

    // MARK: Removed surfaces are let go by the hit-test tables

    final class Watch { weak var surface: Surface? }

    /// A flat table owns every surface of its subtree until it is rebuilt; a surface that
    /// leaves the subtree is let go at once, not at the next hit-test.
    @Test func aSurfaceRemovedAfterAFlatHitTestIsLetGoAtOnce() {
        let root = Surface(name: "root", frame: SurfaceRect(x: 0, y: 0, width: 1000, height: 1000))
        let window = Surface(name: "window", frame: SurfaceRect(x: 0, y: 0, width: 800, height: 800))
        root.addChild(window)
        let watch = Watch()
        do {
            let button = Surface(name: "button", frame: SurfaceRect(x: 10, y: 10, width: 100, height: 100))
            window.addChild(button)
            watch.surface = button
            #expect(root.hitTest(SurfacePoint(x: 20, y: 20)) === button)
            #expect(root.flatTableForTesting != nil)
            button.removeFromParent()
        }
        #expect(watch.surface == nil, "let go by the root's flat table as it left the tree")
        #expect(root.hitTest(SurfacePoint(x: 20, y: 20)) === window)
    }

    /// The same for a tree too large for a flat table, hit-tested through each parent's
    /// child index: the parent's index lets the removed child go at once.
    @Test func aSurfaceRemovedAfterAnIndexedHitTestIsLetGoAtOnce() {
        let root = Surface(name: "root", frame: SurfaceRect(x: 0, y: 0, width: 1000, height: 1000))
        for i in 0..<(FlatHitTable.surfaceLimit + 2) {
            root.addChild(Surface(name: "tile\(i)", frame: SurfaceRect(x: Double(i % 10) * 50, y: Double(i / 10) * 50, width: 40, height: 40)))
        }
        let watch = Watch()
        do {
            let top = Surface(name: "top", frame: SurfaceRect(x: 900, y: 900, width: 50, height: 50))
            root.addChild(top)
            watch.surface = top
            #expect(root.hitTest(SurfacePoint(x: 910, y: 910)) === top)
            #expect(root.childIndexForTesting != nil)
            top.removeFromParent()
        }
        #expect(watch.surface == nil, "let go by the root's child index as it left the tree")
        #expect(root.hitTest(SurfacePoint(x: 910, y: 910)) === root)
    }
}

@Suite("Surface identity")
struct SurfaceIdentityTests {
    @Test func surfacesMadeOnManyThreadsAtOnceGetDistinctIDs() {
        // Each thread's IDs in a slot of its own, read after `concurrentPerform` returns (its
        // join orders the writes before the reads): nothing shared is written, so
        // ThreadSanitizer has nothing to see but the surfaces' own counter. Gathered under a
        // `Mutex`, TSan once reported the appends as a race (CI, thirteenth round): the
        // Synchronization module's lock is not one it follows.
        nonisolated(unsafe) let slots = UnsafeMutableBufferPointer<[UInt32]>.allocate(capacity: 8)
        slots.initialize(repeating: [])
        defer { _ = slots.deinitialize(); slots.deallocate() }
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            var mine: [UInt32] = []
            for _ in 0..<2_000 {
                mine.append(Surface(frame: SurfaceRect(x: 0, y: 0, width: 1, height: 1)).id.rawValue)
            }
            slots[thread] = mine
        }
        let all = slots.flatMap { $0 }
        #expect(all.count == 16_000)
        #expect(Set(all).count == 16_000)
    }
}
