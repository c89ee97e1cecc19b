import Testing
@_spi(SeatKitInternals) @testable import SeatKit

/// A phase held while a settle delivers its last release group (a responder that injects a
/// frame from the released phase's call) is kept for a later settle, not cut with the
/// released ones: its touch's began still reaches its surface once its recognizer fails.
@Suite struct HeldDuringSettleTests {
    /// Logs like `TouchLoggingResponder` and, once, runs `onMoved` from its touchesMoved.
    final class InjectingResponder: Responder {
        let name: String
        let log: GestureCallLog
        var onMoved: (() -> Void)?

        init(_ name: String, log: GestureCallLog) {
            self.name = name
            self.log = log
        }

        private func note(_ phase: String, _ event: TouchEvent) {
            log.add("\(name).\(phase)[\(event.touches.map { "t\($0.id.rawValue)" }.joined(separator: ","))]")
        }

        func touchesBegan(_ event: TouchEvent, context: ResponderContext) -> ResponderResult {
            note("began", event)
            return .handled
        }
        func touchesMoved(_ event: TouchEvent, context: ResponderContext) -> ResponderResult {
            note("moved", event)
            if let action = onMoved {
                onMoved = nil
                action()
            }
            return .handled
        }
        func touchesEnded(_ event: TouchEvent, context: ResponderContext) -> ResponderResult { note("ended", event); return .handled }
        func touchesCancelled(_ event: TouchEvent, context: ResponderContext) { note("cancelled", event) }
    }

    @Test func aTouchHeldFromTheLastReleasedPhasesCallIsReleasedLaterNotLost() {
        let rig = GestureRig()
        let canvasResponder = InjectingResponder("canvas", log: rig.log)
        let canvas = Surface(name: "canvas", frame: SurfaceRect(x: 0, y: 0, width: 500, height: 1000), responder: canvasResponder)
        rig.output.root.addChild(canvas)
        let side = rig.surface("side", 500, 0, 500, 1000, handles: ["began", "moved", "ended", "cancelled"])
        let canvasPress = LongPressGestureRecognizer(minimumPressDuration: .milliseconds(500), allowableMovement: 10)
        canvasPress.delaysTouchesBegan = true
        canvas.addGestureRecognizer(canvasPress)
        let sidePress = LongPressGestureRecognizer(minimumPressDuration: .milliseconds(500), allowableMovement: 10)
        sidePress.delaysTouchesBegan = true
        side.addGestureRecognizer(sidePress)

        rig.down(1, 100, 100)
        #expect(rig.log.entries.isEmpty)
        // The canvas's began and move are released when its press fails (two groups, the
        // move last); from the move's call, a second finger comes down on the side, whose
        // press holds it.
        canvasResponder.onMoved = {
            rig.send(.touchDown(TouchID(2), LayoutPoint(x: 700, y: 100)))
            rig.send(.touchFrame)
        }
        rig.move(1, 300, 100)
        #expect(rig.log.entries == ["canvas.began[t1]", "canvas.moved[t1]"])
        #expect(!rig.log.entries.contains("side.began[t2]"))
        // The side's press fails: the held began of the second finger goes out, then its move.
        rig.move(2, 900, 100)
        #expect(rig.log.matching("side.") == ["side.began[t2]", "side.moved[t2]"])
        rig.up(2)
        rig.up(1)
        #expect(rig.log.matching("side.") == ["side.began[t2]", "side.moved[t2]", "side.ended[t2]"])
        #expect(rig.router.gestures.unchecked.heldTouches.isEmpty)
        #expect(rig.router.activeTouchCount == 0)
    }
}
