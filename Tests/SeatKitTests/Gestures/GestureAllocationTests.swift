import AllocationCounter
import Testing
import SeatKit

/// Once warm, a touch motion through arenas, recognizers and responders allocates nothing.
@Suite struct GestureAllocationTests {
    /// Allocations made by `body` on this thread.
    func allocations(_ body: () -> Void) -> UInt64 {
        let before = seatkit_thread_allocations()
        body()
        return seatkit_thread_allocations() - before
    }

    func makeRig() -> (GestureRig, PanGestureRecognizer) {
        let rig = GestureRig()
        rig.step = 1
        let window = rig.surface("window", 0, 0, 1000, 1000)
        let content = Surface(name: "content", frame: SurfaceRect(x: 0, y: 0, width: 1000, height: 1000))
        window.addChild(content)
        let pan = PanGestureRecognizer()
        window.addGestureRecognizer(pan)
        content.addGestureRecognizer(PinchGestureRecognizer())
        rig.output.addGestureRecognizer(SwipeGestureRecognizer(direction: .up, touches: 3))
        return (rig, pan)
    }

    @Test func motionDuringAPanAllocatesNothing() {
        let (rig, pan) = makeRig()
        // Warm up: a whole gesture, then a second one up to the point of measuring.
        for id: Int32 in 1...2 {
            rig.down(id, 100, 100)
            for x in 0..<40 { rig.move(id, 100 + Double(x) * 5, 100) }
            if id == 1 { rig.up(id) }
        }
        #expect(pan.state == .changed)
        var x = 300.0
        let count = allocations {
            for _ in 0..<100 {
                x += 1
                rig.move(2, x, 100)
            }
        }
        #expect(count == 0)
        #expect(pan.translation.dx == x - 100)
    }

    /// The velocity tracker is a fixed inline ring and its fit runs on the stack: a target
    /// that reads the velocity at every change allocates nothing either.
    @Test func readingThePansVelocityAtEveryMotionAllocatesNothing() {
        let (rig, pan) = makeRig()
        var total = 0.0
        pan.addTarget { r in total += (r as! PanGestureRecognizer).velocityEstimate.perSecond.dx }
        for id: Int32 in 1...2 {
            rig.down(id, 100, 100)
            for x in 0..<40 { rig.move(id, 100 + Double(x) * 5, 100) }
            if id == 1 { rig.up(id) }
        }
        var x = 300.0
        let count = allocations {
            for _ in 0..<100 {
                x += 1
                rig.move(2, x, 100)
            }
        }
        #expect(count == 0)
        #expect(abs(pan.velocity.dx - 1000) < 1e-6 && total > 0)
    }

    @Test func heldMotionBeforeRecognitionAllocatesNothing() {
        let (rig, pan) = makeRig()
        pan.delaysTouchesBegan = true
        pan.minimumDistance = 1000  // stays possible: every move is held and collapsed
        for id: Int32 in 1...2 {
            rig.down(id, 100, 100)
            for x in 0..<40 { rig.move(id, 100 + Double(x % 3), 100) }
            if id == 1 { rig.up(id) }
        }
        #expect(pan.state == .possible)
        let count = allocations {
            for i in 0..<100 { rig.move(2, 100 + Double(i % 3), 100) }
        }
        #expect(count == 0)
        // The second touch stayed held the whole time.
        #expect(!rig.log.entries.contains { $0.contains("t2") })
    }

    @Test func tapsAndLongPressesAllocateNothingPerGestureOnceWarm() throws {
        let rig = GestureRig()
        // A responder that takes every touch and logs nothing: only the router is measured.
        let window = Surface(name: "window", frame: SurfaceRect(x: 0, y: 0, width: 1000, height: 1000),
                             responder: SilentTouchResponder())
        rig.output.root.addChild(window)
        let tap = TapGestureRecognizer()
        let double = TapGestureRecognizer(name: "double", taps: 2)
        let press = LongPressGestureRecognizer()
        window.addGestureRecognizer(tap)
        window.addGestureRecognizer(double)
        window.addGestureRecognizer(press)
        try tap.require(toFail: double)
        var recognized = 0
        tap.addTarget { if $0.state == .recognized { recognized += 1 } }
        var pressed = 0
        press.addTarget { if $0.state == .began { pressed += 1 } }
        // A tap (the double tap's interval runs out: the tap fires), then a press held long
        // enough to begin the long press; all at the recognizers' default timings.
        func gestures(_ ids: ClosedRange<Int32>) {
            // A while loop: in debug builds a for-in over a range allocates.
            var id = ids.lowerBound
            while id <= ids.upperBound {
                defer { id += 1 }
                rig.down(id, 100, 100)
                rig.up(id)
                rig.wait(400)
                rig.down(id, 200, 200)
                rig.wait(600)
                rig.up(id)
                rig.wait(400)
            }
        }
        gestures(1...3)
        let count = allocations { gestures(4...23) }
        #expect(recognized == 23)
        #expect(pressed == 23)
        #expect(count == 0)
    }
}

/// Takes every touch and records nothing.
final class SilentTouchResponder: Responder {
    func touchesBegan(_ event: TouchEvent, context: ResponderContext) -> ResponderResult { .handled }
    func touchesMoved(_ event: TouchEvent, context: ResponderContext) -> ResponderResult { .handled }
    func touchesEnded(_ event: TouchEvent, context: ResponderContext) -> ResponderResult { .handled }
}
