import Testing
@testable import SeatKit

/// What issue 25's fourteenth round changed in a touch's down and up (the router's arena
/// bookkeeping, a recognizer's delegate read, a pan's end estimate worked out when read)
/// keeps what recognizers, delegates and targets see.
@Suite struct TouchDownUpBookkeepingTests {
    // MARK: The delegate

    @Test func aDelegateSetAfterATouchIsAskedAtTheNextTouch() {
        let rig = GestureRig()
        let pan = PanGestureRecognizer()
        rig.output.root.addGestureRecognizer(pan)
        rig.down(1, 100, 100)
        #expect(pan.touches.map(\.id) == [TouchID(1)])
        rig.up(1)
        let delegate = SimultaneousDelegate()
        delegate.receives = { _ in false }
        pan.delegate = delegate
        rig.down(2, 100, 100)
        #expect(pan.touches.isEmpty)
        rig.up(2)
    }

    @Test func aDelegateThatWentAwayIsNotAsked() {
        let rig = GestureRig()
        let pan = PanGestureRecognizer()
        rig.output.root.addGestureRecognizer(pan)
        do {
            let delegate = SimultaneousDelegate()
            delegate.receives = { _ in false }
            pan.delegate = delegate
            rig.down(1, 100, 100)
            #expect(pan.touches.isEmpty)
            rig.up(1)
        }
        // Held weakly: gone with its last owner, and the defaults apply again.
        #expect(pan.delegate == nil)
        rig.down(2, 100, 100)
        #expect(pan.touches.map(\.id) == [TouchID(2)])
        rig.up(2)
    }

    @Test func aDelegateSetToNilLeavesTheDefaults() {
        let rig = GestureRig()
        let pan = PanGestureRecognizer()
        rig.output.root.addGestureRecognizer(pan)
        let delegate = SimultaneousDelegate()
        delegate.receives = { _ in false }
        pan.delegate = delegate
        pan.delegate = nil
        rig.down(1, 100, 100)
        #expect(pan.touches.map(\.id) == [TouchID(1)])
        rig.up(1)
    }

    // MARK: The pan's end estimate

    @Test func aPansEndVelocityIsTheOneAtTheLiftEvenAfterTheOtherFingerMoves() throws {
        let rig = GestureRig()
        let pan = PanGestureRecognizer(minimumTouches: 2)
        rig.output.root.addGestureRecognizer(pan)
        var atEnd: Vector?
        pan.addTarget { r in if r.state == .ended { atEnd = (r as! PanGestureRecognizer).velocity } }
        rig.frame([fingerDown(1, 100, 100), fingerDown(2, 100, 300)])
        for x in stride(from: 110.0, through: 300, by: 10) { rig.frame([fingerMoved(1, x, 100), fingerMoved(2, x, 300)]) }
        rig.up(1)
        let end = try #require(atEnd)
        #expect(pan.state == .ended)
        #expect(end.dx > 0)
        // The ended pan still holds finger 2, and is shown none of its motion: its velocity
        // stays the lift's.
        rig.wait(30)
        rig.move(2, 900, 300)
        rig.move(2, 100, 300)
        #expect(pan.state == .ended)
        #expect(pan.velocity == end)
        rig.up(2)
        #expect(pan.state == .possible)
        #expect(pan.velocity == .zero)
    }

    @Test func aFailedPanReportsTheLiftsVelocityToItsTargets() throws {
        let rig = GestureRig()
        let pan = PanGestureRecognizer(minimumDistance: 100_000)
        rig.output.root.addGestureRecognizer(pan)
        var atFailure: Vector?
        pan.addTarget { r in if r.state == .failed { atFailure = (r as! PanGestureRecognizer).velocity } }
        rig.down(1, 0, 100)
        for x in stride(from: 10.0, through: 100, by: 10) { rig.move(1, x, 100) }  // 10 units / 10 ms
        rig.up(1)
        let v = try #require(atFailure)
        #expect(abs(v.dx - 1000) < 0.1 && v.dy == 0)
        #expect(pan.state == .possible && pan.velocity == .zero)
    }

    // MARK: Failures, resets and arenas

    @Test func recognizersThatFailAtTheLiftHearItOnceEachAndJoinTheNextTouch() {
        let rig = GestureRig()
        let swipe = SwipeGestureRecognizer(name: "switch", direction: [.left, .right], touches: 3, minimumDistance: 30)
        let press = LongPressGestureRecognizer(name: "press", minimumPressDuration: .seconds(10))
        let pan = PanGestureRecognizer(name: "pan", minimumDistance: 100_000)
        let view = rig.surface("view", 0, 0, 1000, 1000)
        view.addGestureRecognizer(press)
        rig.output.root.addGestureRecognizer(pan)
        rig.output.addGestureRecognizer(swipe)
        var heard: [String] = []
        for r in [swipe, press, pan] as [GestureRecognizer] { r.addTarget { heard.append("\($0.name):\($0.state)") } }
        for id in Int32(1)...3 {
            heard.removeAll()
            rig.down(id, 100, 100)
            #expect(swipe.touches.count == 1 && press.touches.count == 1 && pan.touches.count == 1)
            rig.up(id)
            // Deepest first, then the output's: each fails once, then all three reset.
            #expect(heard == ["press:failed", "pan:failed", "switch:failed"])
            #expect([swipe, press, pan].allSatisfy { $0.state == .possible && $0.touches.isEmpty })
        }
        #expect(rig.log.matching("view.") == ["view.began[t1]", "view.ended[t1]", "view.began[t2]", "view.ended[t2]",
                                              "view.began[t3]", "view.ended[t3]"])
    }

    @Test func aRecognizerWaitingForAnotherToFailStillGoesAheadWhenItFailsAtTheLift() {
        let rig = GestureRig()
        let tap = TapGestureRecognizer(name: "tap")
        let press = LongPressGestureRecognizer(name: "press", minimumPressDuration: .seconds(10))
        rig.output.root.addGestureRecognizer(tap)
        rig.output.root.addGestureRecognizer(press)
        try? tap.require(toFail: press)
        var heard: [String] = []
        tap.addTarget { heard.append("tap:\($0.state)") }
        press.addTarget { heard.append("press:\($0.state)") }
        rig.down(1, 100, 100)
        rig.up(1)
        // The press's failure has a waiter: the tap's recognition goes ahead at it.
        #expect(heard.sorted() == ["press:failed", "tap:recognized"])
        #expect(tap.state == .possible && press.state == .possible)
    }

    // MARK: The list helpers

    @Test func removeKeepingOrderIsRemoveAt() {
        for count in 1...5 {
            for index in 0..<count {
                var a = Array(0..<count)
                var b = a
                a.removeKeepingOrder(at: index)
                b.remove(at: index)
                #expect(a == b)
            }
        }
    }

    @Test func removeKeepingOrderReleasesTheRemovedObjectOnly() {
        final class Box {}
        var boxes = [Box(), Box(), Box()]
        weak var first = boxes[0]
        weak var middle = boxes[1]
        weak var last = boxes[2]
        boxes.removeKeepingOrder(at: 1)
        #expect(middle == nil)
        #expect(first != nil && last != nil && boxes[0] === first && boxes[1] === last)
        boxes.removeKeepingOrder(at: 1)
        #expect(last == nil && boxes.count == 1)
        boxes.removeKeepingOrder(at: 0)
        #expect(first == nil && boxes.isEmpty)
    }
}
