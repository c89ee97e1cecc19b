import Testing
import SeatKit

/// Maps want pinch and rotation at once; by default the first to begin excludes the other.
@Suite struct PinchAndRotationTogetherTests {
    func twistAndSpread(_ rig: GestureRig) {
        rig.frame([fingerDown(1, 400, 500), fingerDown(2, 600, 500)])
        rig.frame([fingerMoved(1, 300, 500), fingerMoved(2, 700, 500)])           // spread: pinch begins
        rig.frame([fingerMoved(1, 358.6, 358.6), fingerMoved(2, 641.4, 641.4)])   // a quarter turn's half
        rig.frame([fingerUp(1), fingerUp(2)])
    }

    /// A watched pinch and rotation on a map filling the output.
    func mapWithPinchAndRotation() -> (GestureRig, PinchGestureRecognizer, RotationGestureRecognizer) {
        let rig = GestureRig()
        let map = rig.surface("map", 0, 0, 1000, 1000)
        let pinch = PinchGestureRecognizer()
        let rotation = RotationGestureRecognizer()
        map.addGestureRecognizer(pinch)
        map.addGestureRecognizer(rotation)
        rig.watch(pinch)
        rig.watch(rotation)
        return (rig, pinch, rotation)
    }

    @Test func withTheDelegateBothRecognizeOverTheSameTouches() {
        let (rig, pinch, _) = mapWithPinchAndRotation()
        let together = SimultaneousDelegate()
        pinch.delegate = together
        twistAndSpread(rig)
        #expect(rig.log.matching("pinch:") == ["pinch:began", "pinch:changed", "pinch:ended"])
        #expect(rig.log.matching("rotation:") == ["rotation:began", "rotation:ended"])
        // The map's responder saw the touches begin and lost them once, to the pinch.
        #expect(rig.log.matching("map.") == ["map.began[t1,t2]", "map.cancelled[t1]", "map.cancelled[t2]"])
    }

    @Test func withoutItTheRotationFailsWhenThePinchBegins() {
        let (rig, _, _) = mapWithPinchAndRotation()
        twistAndSpread(rig)
        #expect(rig.log.matching("pinch:") == ["pinch:began", "pinch:changed", "pinch:ended"])
        #expect(rig.log.matching("rotation:") == ["rotation:failed"])
    }
}
