import Testing
@_spi(SeatKitInternals) @testable import SeatKit

/// A held phase links its touch's record unretained (`HeldTouch.record`): the router's
/// records own it, and a record goes back to the pool only after its held phases are purged.
@Suite struct HeldTouchRecordTests {
    @Test func aHeldPhaseIsTrivialSoHoldingAndReleasingItRetainsNothing() {
        #expect(_isPOD(HeldTouch.self))
    }

    @Test func aRecordReusedAfterItsHeldTouchWasCancelledCarriesNoneOfItsHeldPhases() {
        let rig = GestureRig()
        let canvas = rig.surface("canvas", 0, 0, 1000, 1000)
        let press = LongPressGestureRecognizer(minimumPressDuration: .milliseconds(500), allowableMovement: 10)
        press.delaysTouchesBegan = true
        canvas.addGestureRecognizer(press)
        rig.down(1, 100, 100)
        rig.move(1, 102, 100)
        #expect(rig.router.gestures.unchecked.heldTouches.count == 2)
        let record = rig.router.gestures.unchecked.heldTouches[0].record.identity
        // The device cancels the held touch: its phases are dropped and its record pooled.
        rig.send(.touchCancel(TouchID(1)))
        #expect(rig.router.gestures.unchecked.heldTouches.isEmpty)
        #expect(rig.router.activeTouchCount == 0)
        // The next touch takes the pooled record and is held in its turn.
        rig.down(2, 200, 200)
        #expect(rig.router.gestures.unchecked.heldTouches.count == 1)
        #expect(rig.router.gestures.unchecked.heldTouches.first?.record.identity == record)
        #expect(rig.router.gestures.unchecked.heldTouches.allSatisfy { $0.sequence.unchecked.id == TouchID(2) })
        #expect(rig.log.entries.isEmpty)
        rig.move(2, 203, 200)
        #expect(rig.log.entries.isEmpty)
        // It lifts before the press's duration: the press fails, and only its own phases go
        // out, in order.
        rig.up(2)
        #expect(rig.log.entries == ["canvas.began[t2]", "canvas.moved[t2]", "canvas.ended[t2]"])
        #expect(rig.router.gestures.unchecked.heldTouches.isEmpty)
        #expect(rig.router.activeTouchCount == 0)
    }
}
