import Testing
import SeatKit

@Suite struct PanGestureRecognizerTests {
    @Test func beginsAfterTheMinimumDistanceInMillimetres() {
        let rig = GestureRig()  // 10 units per mm
        let pan = PanGestureRecognizer(minimumDistance: 3)
        rig.output.root.addGestureRecognizer(pan)
        rig.watch(pan)
        rig.down(1, 100, 100)
        rig.move(1, 129, 100)
        #expect(pan.state == .possible)
        rig.move(1, 131, 100)
        #expect(pan.state == .began)
        #expect(pan.translation == Vector(dx: 31, dy: 0))
    }

    @Test func withoutAPhysicalSizeTheFallbackDPIApplies() {
        let rig = GestureRig(millimetreScale: false)  // 96 dpi: 3.78 units per mm
        let pan = PanGestureRecognizer(minimumDistance: 3)
        rig.output.root.addGestureRecognizer(pan)
        rig.down(1, 100, 100)
        rig.move(1, 111, 100)  // 2.9 mm
        #expect(pan.state == .possible)
        rig.move(1, 112, 100)  // 3.2 mm
        #expect(pan.state == .began)
    }

    @Test func reportsTheVelocityTheFingerLiftedWith() throws {
        let rig = GestureRig()
        let pan = PanGestureRecognizer()
        rig.output.root.addGestureRecognizer(pan)
        var endVelocity: Vector?
        pan.addTarget { r in if r.state == .ended { endVelocity = (r as! PanGestureRecognizer).velocity } }
        rig.down(1, 0, 100)
        for x in stride(from: 10.0, through: 100, by: 10) { rig.move(1, x, 100) }  // 10 units / 10 ms
        rig.up(1)
        let v = try #require(endVelocity)
        #expect(abs(v.dx - 1000) < 0.1 && v.dy == 0)
    }

    @Test func aFingerThatRestsBeforeLiftingEndsWithZeroVelocity() {
        let rig = GestureRig()
        let pan = PanGestureRecognizer()
        rig.output.root.addGestureRecognizer(pan)
        rig.down(1, 0, 100)
        for x in stride(from: 10.0, through: 100, by: 10) { rig.move(1, x, 100) }
        rig.wait(200)
        rig.up(1)
        #expect(pan.state == .possible)  // reset after the end
        var ended = false
        pan.addTarget { r in if r.state == .ended { ended = (r as! PanGestureRecognizer).velocity == .zero } }
        rig.down(2, 0, 100)
        for x in stride(from: 10.0, through: 100, by: 10) { rig.move(2, x, 100) }
        rig.wait(200)
        rig.up(2)
        #expect(ended)
    }

    @Test func aSecondFingerDoesNotMakeTheTranslationJump() {
        let rig = GestureRig()
        let pan = PanGestureRecognizer()
        rig.output.root.addGestureRecognizer(pan)
        rig.down(1, 100, 100)
        rig.move(1, 200, 100)
        rig.down(2, 500, 500)
        #expect(pan.translation == Vector(dx: 100, dy: 0))
        rig.frame([fingerMoved(1, 210, 100), fingerMoved(2, 510, 500)])
        #expect(pan.translation == Vector(dx: 110, dy: 0))
    }

    @Test func tooManyFingersFailIt() {
        let rig = GestureRig()
        let pan = PanGestureRecognizer(maximumTouches: 1)
        rig.output.root.addGestureRecognizer(pan)
        rig.watch(pan)
        rig.frame([fingerDown(1, 100, 100), fingerDown(2, 200, 100)])
        #expect(rig.log.matching("pan:") == ["pan:failed"])
    }
}
