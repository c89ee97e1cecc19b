import Testing
import SeatKit

@Suite struct PinchGestureRecognizerTests {
    @Test func spreadingTwoFingersScalesFromOne() {
        let rig = GestureRig()
        let pinch = PinchGestureRecognizer(minimumSpanChange: 3)
        rig.output.root.addGestureRecognizer(pinch)
        rig.watch(pinch)
        rig.frame([fingerDown(1, 400, 500), fingerDown(2, 600, 500)])  // span 100
        rig.frame([fingerMoved(1, 390, 500), fingerMoved(2, 610, 500)])  // span 110: 1 mm
        #expect(pinch.state == .possible)
        rig.frame([fingerMoved(1, 350, 500), fingerMoved(2, 650, 500)])  // span 150
        #expect(pinch.state == .began)
        #expect(pinch.scale == 1.5)
        #expect(pinch.velocity > 0)
        rig.frame([fingerMoved(1, 300, 500), fingerMoved(2, 700, 500)])
        #expect(pinch.scale == 2)
        rig.up(1)
        #expect(rig.log.matching("pinch:") == ["pinch:began", "pinch:changed", "pinch:ended"])
    }

    @Test func oneFingerAloneNeverPinches() {
        let rig = GestureRig()
        let pinch = PinchGestureRecognizer()
        rig.output.root.addGestureRecognizer(pinch)
        rig.watch(pinch)
        rig.down(1, 400, 500)
        rig.move(1, 100, 500)
        rig.up(1)
        #expect(rig.log.matching("pinch:") == ["pinch:failed"])
    }

    @Test func liftingOneOfTwoStillFingersFailsItAndTheEndReachesTheMap() {
        let rig = GestureRig()
        let map = rig.surface("map", 0, 0, 1000, 1000)
        let pinch = PinchGestureRecognizer()
        map.addGestureRecognizer(pinch)
        rig.watch(pinch)
        rig.frame([fingerDown(1, 400, 500), fingerDown(2, 600, 500)])
        rig.up(1)
        #expect(rig.log.entries == ["map.began[t1,t2]", "pinch:failed", "map.ended[t1]"])
    }
}
