import Testing
import SeatKit

@Suite struct RotationGestureRecognizerTests {
    @Test func turningTwoFingersAQuarterMeasuresHalfPi() {
        let rig = GestureRig()
        let rotation = RotationGestureRecognizer()
        rig.output.root.addGestureRecognizer(rotation)
        rig.watch(rotation)
        rig.frame([fingerDown(1, 400, 500), fingerDown(2, 600, 500)])
        // Clockwise on screen (y down): finger 2 goes from the right of 1 to below it.
        rig.frame([fingerMoved(1, 429.3, 429.3), fingerMoved(2, 570.7, 570.7)])
        #expect(rotation.state == .began)
        #expect(abs(rotation.rotation - Double.pi / 4) < 0.01)
        rig.frame([fingerMoved(1, 500, 400), fingerMoved(2, 500, 600)])
        #expect(abs(rotation.rotation - Double.pi / 2) < 1e-9)
        rig.frame([fingerMoved(1, 600, 500), fingerMoved(2, 400, 500)])
        #expect(abs(rotation.rotation - Double.pi) < 1e-9)  // no wrap-around jump at pi
        rig.frame([fingerUp(1), fingerUp(2)])
        #expect(rig.log.matching("rotation:") == ["rotation:began", "rotation:changed", "rotation:changed", "rotation:ended"])
    }

    @Test func aSmallWobbleStaysPossible() {
        let rig = GestureRig()
        let rotation = RotationGestureRecognizer(minimumAngle: 0.1)
        rig.output.root.addGestureRecognizer(rotation)
        rig.frame([fingerDown(1, 400, 500), fingerDown(2, 600, 500)])
        rig.frame([fingerMoved(1, 400, 505), fingerMoved(2, 600, 495)])  // about -0.05 rad
        #expect(rotation.state == .possible)
        #expect(rotation.rotation < 0)
    }
}
