import Testing
import SeatKit

@Suite struct GestureDelegateTests {
    @Test func shouldReceiveKeepsARecognizerOutOfATouch() {
        let rig = GestureRig()
        let delegate = SimultaneousDelegate()
        delegate.receives = { $0.location.x < 500 }
        let pan = PanGestureRecognizer()
        pan.delegate = delegate
        let view = rig.surface("view", 0, 0, 1000, 1000)
        view.addGestureRecognizer(pan)
        rig.down(1, 700, 100)
        rig.move(1, 900, 100)
        #expect(pan.state == .possible)
        #expect(rig.log.matching("view.") == ["view.began[t1]", "view.moved[t1]"])
        rig.down(2, 100, 500)
        rig.move(2, 300, 500)
        #expect(pan.state == .began)
        #expect(pan.touches.map(\.id) == [TouchID(2)])
    }

    @Test func shouldBeginNoFailsTheRecognizerAndTheResponderKeepsTheTouch() {
        let rig = GestureRig()
        let delegate = SimultaneousDelegate()
        delegate.refusesBegin = true
        let pan = PanGestureRecognizer()
        pan.delegate = delegate
        let view = rig.surface("view", 0, 0, 1000, 1000)
        view.addGestureRecognizer(pan)
        rig.watch(pan)
        rig.down(1, 100, 100)
        rig.move(1, 300, 100)
        rig.up(1)
        #expect(rig.log.entries == ["view.began[t1]", "pan:failed", "view.moved[t1]", "view.ended[t1]"])
    }

    @Test func aDisabledRecognizerJoinsNoTouch() {
        let rig = GestureRig()
        let pan = PanGestureRecognizer()
        pan.isEnabled = false
        rig.output.root.addGestureRecognizer(pan)
        rig.down(1, 100, 100)
        rig.move(1, 300, 100)
        #expect(pan.state == .possible)
        #expect(pan.touches.isEmpty)
    }

    @Test func aRecognizerMovesWhenAddedElsewhere() {
        let rig = GestureRig()
        let a = rig.surface("a", 0, 0, 500, 1000)
        let b = rig.surface("b", 500, 0, 500, 1000)
        let pan = PanGestureRecognizer()
        a.addGestureRecognizer(pan)
        b.addGestureRecognizer(pan)
        #expect(a.gestureRecognizers.isEmpty)
        #expect(pan.surface === b)
        rig.output.addGestureRecognizer(pan)
        #expect(b.gestureRecognizers.isEmpty)
        #expect(pan.surface == nil && pan.output === rig.output)
    }
}
