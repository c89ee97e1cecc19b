import Testing
@_spi(SeatKitInternals) @testable import SeatKit

/// The walk up the tree without owning each surface (pins, UnsafeFoundations.swift), the
/// default next link learnt once per responder (`NextResponderProbe`), and the drop reported
/// through the delegate the walk read (issue 25, ninth round).
@Suite struct UnretainedWalkTests {
    /// A responder that logs its motions and keeps the default next link (the walks follow
    /// its parent unretained), unlike `RecordingResponder`, which implements it.
    final class Plain: Responder {
        let name: String
        let log: CallLog
        var onMotion: (() -> Void)?
        var onTouchMoved: (() -> Void)?
        init(_ name: String, log: CallLog) { self.name = name; self.log = log }
        func pointerMoved(_ event: PointerMotionEvent, context: ResponderContext) -> ResponderResult {
            log.add("\(name).motion")
            onMotion?()
            return .notHandled
        }
        func touchesBegan(_ event: TouchEvent, context: ResponderContext) -> ResponderResult {
            log.add("\(name).began")
            return .notHandled
        }
        func touchesMoved(_ event: TouchEvent, context: ResponderContext) -> ResponderResult {
            log.add("\(name).moved")
            onTouchMoved?()
            return .notHandled
        }
        func touchesCancelled(_ event: TouchEvent, context: ResponderContext) {
            log.add("\(name).cancelled")
        }
    }

    /// root › a › b › c, pointer on c: a motion walks c, b, a, the output, the delegate.
    private func chain(_ h: Harness) -> (a: Surface, b: Surface, c: Surface) {
        func plain(_ name: String, _ x: Double, _ w: Double, in parent: Surface) -> Surface {
            let s = Surface(name: name, frame: SurfaceRect(x: x, y: x, width: w, height: w), responder: Plain(name, log: h.log))
            parent.addChild(s)
            return s
        }
        let a = plain("a", 10, 300, in: h.output.root)
        let b = plain("b", 10, 200, in: a)
        let c = plain("c", 10, 100, in: b)
        return (a, b, c)
    }

    @Test func aSurfaceRemovedAndDroppedWhileAWalkAsksItLivesUntilTheWalkMovesOnThenGoes() {
        let h = Harness()
        weak var weakA: Surface?
        do {
            let (a, _, _) = chain(h)
            weakA = a
            h.pointer(to: 40, 40)
            // a, asked with the walk on it unretained, takes itself out of the tree; the test
            // holds no reference to it after this block, so the tree's was the last.
            (a.responder as! Plain).onMotion = { [unowned a] in a.removeFromParent() }
        }
        h.log.clear()
        h.pointer(to: 41, 40)
        // c and b are gone with a (removed), so only what the walk asked before the removal
        // and the end of the chain: the removed a went on to its former output.
        #expect(h.log.entries.contains("a.motion"))
        #expect(h.delegate.dropped.last == "motion")
        #expect(weakA == nil, "kept only until the walk moved on")
    }

    @Test func anAncestorRemovedAndDroppedFromInsideAWalkFreesThePinnedSurfaceOnlyAfterItsAsk() {
        let h = Harness()
        weak var weakB: Surface?
        var pinsSeen: [UInt32] = []
        var keptSeen: [Bool] = []
        do {
            let (a, b, _) = chain(h)
            weakB = b
            h.pointer(to: 40, 40)
            (b.responder as! Plain).onMotion = { [unowned b] in
                pinsSeen.append(b.walkPinCountForTesting)
                // a goes, and nothing holds it: its deinit lets b go, and b (pinned) keeps itself.
                b.parent?.removeFromParent()
                keptSeen.append(b.isKeptForWalkForTesting)
                #expect(b.name == "b", "still alive inside its ask")
            }
            _ = a
        }
        h.log.clear()
        h.pointer(to: 41, 40)
        #expect(pinsSeen == [1], "b is asked pinned, not owned")
        #expect(keptSeen == [true])
        #expect(weakB == nil, "released when the walk unpinned it")
        #expect(h.delegate.dropped.last == "motion")
    }

    /// A moving touch's walk is the same unretained walk (issue 25, ninth round, `i25w`). Unlike
    /// the pointer's case above, the touch's record still holds b (it saw the touch begin and is
    /// owed its cancel), so b outlives the walk without keeping itself.
    @Test func aSurfaceWhoseTouchMoveHandlerRemovesItsAncestorIsAskedPinnedUnpinnedAfterAndTheWalkStops() {
        let h = Harness()
        var pinsSeen: [UInt32] = []
        let (a, b, _) = chain(h)
        (b.responder as! Plain).onTouchMoved = { [unowned b] in
            pinsSeen.append(b.walkPinCountForTesting)
            b.parent?.removeFromParent()
            #expect(b.name == "b", "still alive inside its ask")
        }
        h.down(0, 40, 40)
        #expect(h.log.entries.prefix(3) == ["c.began", "b.began", "a.began"])
        h.log.clear()
        h.move(0, 41, 40)
        #expect(pinsSeen == [1], "b is asked pinned, not owned")
        #expect(b.walkPinCountForTesting == 0 && !b.isKeptForWalkForTesting, "unpinned when the walk moved on")
        // Removing cancelled the touch: the walk stops after b, a is not asked about the move.
        #expect(h.log.entries.prefix(2) == ["c.moved", "b.moved"])
        #expect(!h.log.entries.contains("a.moved"))
        #expect(!h.log.entries.contains("delegate.moved"))
        _ = a
    }

    @Test func aMovedSurfaceIsKeptWhilePinnedAndTheWalkGoesOnToItsNewParent() {
        let h = Harness()
        let (a, b, _) = chain(h)
        let other = h.surface("other", 500, 500, 100, 100)
        h.pointer(to: 40, 40)
        (b.responder as! Plain).onMotion = { other.addChild(b) }
        h.log.clear()
        h.pointer(to: 41, 40)
        // Moved mid-walk (kept while pinned: its former parent let it go), b's next link is
        // its new parent, as an owning walk finds it.
        #expect(h.log.entries.prefix(3) == ["c.motion", "b.motion", "other.motion"])
        #expect(!b.isKeptForWalkForTesting && b.walkPinCountForTesting == 0)
        _ = a
    }

    @Test func aResponderWithItsOwnNextLinkIsCalledAtEveryWalkAndTheDefaultIsLearntOnce() throws {
        let h = Harness()
        let a = h.surface("a", 10, 10, 300, 300)
        let b = h.surface("b", 10, 10, 200, 200, in: a)
        let c = h.surface("c", 10, 10, 100, 100, in: b)
        let side = h.surface("side", 600, 600, 10, 10)
        h.pointer(to: 40, 40)
        b.recorder.redirect = .some(.surface(side))
        h.log.clear()
        h.pointer(to: 41, 40)
        h.pointer(to: 42, 40)
        #expect(h.log.entries == ["c.motion", "b.motion", "side.motion", "c.motion", "b.motion", "side.motion"])
        // RecordingResponder implements nextResponder: the holder of c, the first link, whose
        // next link the walk asked for, says so (b, after it, is on the owning walk, which
        // calls every responder's nextResponder as before).
        #expect(c.unchecked.responderSlot.holder.unchecked.chain == .own)
        // A responder with the default is learnt as such after its first walk.
        let plain = Surface(name: "plain", frame: SurfaceRect(x: 0, y: 0, width: 50, height: 50))
        c.addChild(plain)
        h.pointer(to: 45, 45)
        h.pointer(to: 46, 45)
        #expect(plain.unchecked.responderSlot.holder.unchecked.chain == .followsDefault)
        // Redirect lifted: the walk follows the parents again, every time through b's call.
        b.recorder.redirect = nil
        h.log.clear()
        h.pointer(to: 47, 45)
        #expect(h.log.entries == ["c.motion", "b.motion", "a.motion"])
        _ = a
    }

    @Test func theProbeTellsTheDefaultOnlyForTheResponderItRanFor() {
        let plain = PassThroughResponder()
        let own = RecordingResponder("own", log: CallLog())
        let (_, plainKind) = NextResponderProbe.classify(plain, after: .delegate)
        let (_, ownKind) = NextResponderProbe.classify(own, after: .delegate)
        #expect(plainKind == .followsDefault)
        #expect(ownKind == .own)
        // A custom implementation that asks another responder's default is still its own.
        final class AsksAnother: Responder {
            let other = PassThroughResponder()
            func nextResponder(after defaultNext: __owned ChainLink?) -> ChainLink? { other.nextResponder(after: defaultNext) }
        }
        #expect(NextResponderProbe.classify(AsksAnother(), after: nil).1 == .own)
    }

    @Test func aDelegateReplacedDuringItsAskIsNotToldTheDropTheNewOneIs() {
        let h = Harness()
        _ = chain(h)
        h.pointer(to: 40, 40)
        let second = RecordingDelegate(log: h.log)
        final class Swapper: CompositorDelegate {
            let router: Router
            let next: RecordingDelegate
            var drops = 0
            init(router: Router, next: RecordingDelegate) { self.router = router; self.next = next }
            func pointerMoved(_ event: PointerMotionEvent, context: ResponderContext) -> ResponderResult {
                router.delegate = next
                return .notHandled
            }
            func router(_ router: Router, dropped event: DroppedEvent) { drops += 1 }
        }
        let swapper = Swapper(router: h.router, next: second)
        h.router.delegate = swapper
        h.pointer(to: 41, 40)
        #expect(swapper.drops == 0)
        #expect(second.dropped == ["motion"])
        // And a delegate that stays is told through the walk's read.
        h.pointer(to: 42, 40)
        #expect(second.dropped == ["motion", "motion"])
    }

    @Test func anOutputResponderWithItsOwnNextLinkIsCalledAtEveryWalkAndOneReplacedIsAskedAgain() {
        final class CountsNext: Responder {
            var calls = 0
            func nextResponder(after defaultNext: __owned ChainLink?) -> ChainLink? {
                calls += 1
                return defaultNext
            }
        }
        let h = Harness()
        _ = chain(h)
        let counting = CountsNext()
        h.output.responder = counting
        h.pointer(to: 40, 40)
        h.pointer(to: 41, 40)
        h.pointer(to: 42, 40)
        #expect(counting.calls == 3)
        #expect(h.output.unchecked.responderChain == .own)
        #expect(h.delegate.dropped == ["motion", "motion", "motion"])
        h.output.responder = PassThroughResponder()
        #expect(h.output.unchecked.responderChain == .unknown)
        h.pointer(to: 43, 40)
        #expect(h.output.unchecked.responderChain == .followsDefault)
        h.pointer(to: 44, 40)
        #expect(h.delegate.dropped.count == 5)
    }
}

/// Flat hit tables group many children behind group entries (issue 25, ninth round): the
/// answers are the recursive walk's.
@Suite struct FlatHitTableGroupTests {
    @Test func manySiblingsInGroupsGiveTheRecursiveWalksAnswersAtEveryPoint() {
        let root = Surface(name: "root", frame: SurfaceRect(x: 0, y: 0, width: 1000, height: 600))
        var generator = SeededGenerator(seed: 25)
        for i in 0..<24 {
            let x = Double(Int.random(in: 0..<900, using: &generator)), y = Double(Int.random(in: 0..<500, using: &generator))
            let s = Surface(name: "s\(i)", frame: SurfaceRect(x: x, y: y, width: Double(Int.random(in: 5..<120, using: &generator)),
                                                              height: Double(Int.random(in: 5..<120, using: &generator))))
            if i % 5 == 0 { s.addChild(Surface(name: "s\(i)c", frame: SurfaceRect(x: 2, y: 2, width: 3, height: 3))) }
            root.addChild(s)
        }
        var x = -5.0
        while x < 1005 {
            var y = -5.0
            while y < 605 {
                let p = SurfacePoint(x: x, y: y)
                #expect(root.hitTest(p) === root.hitTest(p, visiting: { _ in }), "at \(p)")
                y += 3.5
            }
            x += 3.5
        }
        #expect(root.flatTableForTesting != nil)
    }
}
