import AllocationCounter
import Testing
import SeatKit

/// The accessibility filters on, in front of a warm router: keys, pointer motion and touch
/// motion they let through allocate nothing (the per-event path stays allocation-free).
@Suite struct AccessibilityAllocationTests {
    @Test func aWarmRouterWithEveryAccessibilityFilterOnAllocatesNothingPerKeyPointerOrTouchEvent() {
        let clock = VirtualClock()
        let router = Router(clock: clock)
        let output = Output(name: "o", modeSize: Size(width: 1920, height: 1080))
        router.addOutput(output)
        let responder = QuietResponder(handlesTouches: true, canBecomeFirst: true)
        let surface = Surface(name: "app", frame: SurfaceRect(x: 0, y: 0, width: 800, height: 600), responder: responder)
        output.root.addChild(surface)
        router.becomeFirstResponder(surface)
        let filters: [any InputFilter] = [
            TouchAccommodations(holdDuration: nil), BounceKeys(delay: .milliseconds(1)), SlowKeys(isEnabled: false),
            StickyKeys(), SimulatedSecondaryClick(), DwellClick(), MouseKeys(), LocatePointer(),
        ]
        for filter in filters { router.addFilter(filter) }
        var t: Int64 = 0
        func send(_ kind: InputEvent.Kind) {
            t += 10
            clock.advance(to: .milliseconds(t))
            router.inject(InputEvent(time: .milliseconds(t), kind))
        }
        func round(_ i: Int) {
            send(.key(keycode: 30, state: .pressed))
            send(.key(keycode: 30, state: .released))
            send(.key(keycode: 42, state: .pressed))     // Shift tapped: latches, then a unlatches it
            send(.key(keycode: 42, state: .released))
            send(.pointerMotionAbsolute(LayoutPoint(x: 100 + Double(i % 2) * 300, y: 100)))
            send(.touchMotion(TouchID(0), LayoutPoint(x: 200 + Double(i % 7), y: 200)))
            send(.touchFrame)
        }
        send(.touchDown(TouchID(0), LayoutPoint(x: 200, y: 200)))
        send(.touchFrame)
        for i in 0..<50 { round(i) }
        let callsBefore = responder.calls
        let before = seatkit_thread_allocations()
        for i in 0..<500 { round(i) }
        let count = seatkit_thread_allocations() - before
        #expect(count == 0)
        #expect(responder.calls - callsBefore >= 500 * 5, "the keys and the touch reached the app")
    }
}
