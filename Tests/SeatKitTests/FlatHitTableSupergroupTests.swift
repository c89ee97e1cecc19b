import Testing
@_spi(SeatKitInternals) @testable import SeatKit

/// A surface with `FlatHitTable.supergroupingThreshold` children or more (below the grid's
/// `childLimit`) has its children's groups behind supergroup entries: the answers are the
/// recursion's, to the bit (issue 25, eleventh round).
@Suite struct FlatHitTableSupergroupTests {
    @Test func wideParentsAgreeWithBruteForceWithAndWithoutSupergroups() {
        var rng = SeededGenerator(seed: 31)
        var checked = 0
        for round in 0..<60 {
            let root = Surface(name: "root", frame: SurfaceRect(x: 0, y: 0, width: 400, height: 400))
            // 8 ... 31 children: groups alone, and one to several supergroups.
            let count = 8 + round % 24
            var all: [Surface] = []
            for i in 0..<count {
                let s = Surface(name: "c\(i)", frame: SurfaceRect(x: Double(Int.random(in: -20...380, using: &rng)) + 0.1 * Double(Int.random(in: 0...9, using: &rng)),
                                                                    y: Double(Int.random(in: -20...380, using: &rng)) + 0.7 * Double(Int.random(in: 0...3, using: &rng)),
                                                                    width: Double(Int.random(in: 1...60, using: &rng)), height: Double(Int.random(in: 1...60, using: &rng))))
                if Int.random(in: 0..<8, using: &rng) == 0 { s.isHidden = true }
                root.addChild(s)
                all.append(s)
                if Int.random(in: 0..<4, using: &rng) == 0 {
                    s.addChild(Surface(name: "c\(i).child", frame: SurfaceRect(x: 2, y: 2, width: 30, height: 30)))
                }
            }
            for _ in 0..<200 {
                let p = SurfacePoint(x: Double.random(in: -30...430, using: &rng), y: Double.random(in: -30...430, using: &rng))
                let expected = SurfaceTests.referenceHit(root, p)
                let actual = root.hitTest(p)
                #expect(actual === expected, "round \(round) (\(count) children) at \(p): expected \(expected?.name ?? "nil"), got \(actual?.name ?? "nil")")
                checked += 1
            }
            #expect(root.flatTableForTesting?.unchecked.isUsable == true)
            // An edit, and again through the rebuilt table.
            all[Int.random(in: 0..<count, using: &rng)].frame.origin.x += 17
            for _ in 0..<50 {
                let p = SurfacePoint(x: Double.random(in: -30...430, using: &rng), y: Double.random(in: -30...430, using: &rng))
                #expect(root.hitTest(p) === SurfaceTests.referenceHit(root, p))
            }
        }
        #expect(checked == 60 * 200)
    }

    @Test func twentyPanelsBesideAWindowPutSixteenBehindOneSupergroup() {
        let root = Surface(name: "root", frame: SurfaceRect(x: 0, y: 0, width: 1920, height: 1080))
        let window = Surface(name: "window", frame: SurfaceRect(x: 10, y: 10, width: 400, height: 400))
        root.addChild(window)
        var panels: [Surface] = []
        for i in 0..<20 {
            let panel = Surface(name: "panel\(i)", frame: SurfaceRect(x: 500 + Double(i) * 20, y: 0, width: 15, height: 500))
            root.addChild(panel)
            panels.append(panel)
        }
        #expect(root.hitTest(SurfacePoint(x: 60, y: 60)) === window)
        #expect(root.hitTest(SurfacePoint(x: 505, y: 60)) === panels[0])
        #expect(root.hitTest(SurfacePoint(x: 885, y: 60)) === panels[19])
        #expect(root.hitTest(SurfacePoint(x: 517, y: 60)) === root)
        let table = root.flatTableForTesting!
        let groups = (0..<table.unchecked.entries.count).filter { table.unchecked.entries[$0].isGroup }
        // One supergroup (16 panels, four groups), one group of the last four panels, and the
        // window, the last child, in no group.
        #expect(groups.count == 6)
        let first = table.unchecked.entries[groups[0]]
        #expect(Int(first.next) == groups[5])
        #expect(table.layoutForTesting.count == 22)
    }
}
