import CWaylandServer
import SeatKit
@testable import SeatKitWayland
import Testing

/// The seat's spies declare the kinds they are told (``InputSpy/observedKinds``): the router
/// calls them for no other, so a kind left out is an event they never see.
@Suite struct SeatSpyKindsTests {
    /// Idle notification counts input as activity, but not device announcements; a touch's
    /// down, motions and up count at the frame that ends them (the spy is told the frame,
    /// not them), a cancel by itself.
    @Test func theIdleSpyIsToldInputAndTouchFramesButNotTheTouchEventsAFrameEnds() {
        let kinds = IdleSpy.kinds
        for kind in [InputEventKind.touchFrame, .touchCancel, .pointerMotion,
                     .pointerMotionAbsolute, .pointerButton, .pointerAxis, .touchpadSwipe, .touchpadPinch,
                     .touchpadHold, .key, .switchToggled, .tablet] {
            #expect(kinds.contains(kind: kind), "\(kind)")
        }
        for kind in [InputEventKind.touchDown, .touchMotion, .touchUp, .deviceAdded, .deviceRemoved] {
            #expect(!kinds.contains(kind: kind), "\(kind)")
        }
    }

    /// Touch activity is noted when its frame comes, at the frame's time on the router's
    /// clock: a down, a motion or an up alone leaves the last activity where it was, the frame
    /// after each moves it; a cancel moves it by itself; a touch a filter took counts at its
    /// frames too.
    @Test func touchActivityCountsAtItsFrameAndACancelByItself() throws {
        let raw = try #require(wl_display_create())
        defer { wl_display_destroy(raw) }
        let display = WaylandDisplay(wrapping: raw)
        let clock = VirtualClock(now: Timestamp(microseconds: 1_000_000))
        let router = Router(clock: clock)
        let seat = Seat(display: display, router: router)
        let notifier = IdleNotifier(seat: seat, inhibitors: false)
        let device = DeviceID(3)
        router.inject(InputEvent(time: clock.now, device: device, .deviceAdded(DeviceInfo(name: "panel", capabilities: [.touch]))))
        var last = notifier.lastActivity
        func step(_ kind: InputEvent.Kind) -> Bool {
            clock.advance(by: .milliseconds(10))
            router.inject(InputEvent(time: clock.now, device: device, kind))
            let moved = notifier.lastActivity != last
            if moved { #expect(notifier.lastActivity == clock.now) }
            last = notifier.lastActivity
            return moved
        }
        let id = TouchID(1)
        #expect(!step(.touchDown(id, LayoutPoint(x: 10, y: 10))))
        #expect(step(.touchFrame))
        #expect(!step(.touchMotion(id, LayoutPoint(x: 20, y: 10))))
        #expect(step(.touchFrame))
        #expect(!step(.touchUp(id)))
        #expect(step(.touchFrame))
        #expect(!step(.touchDown(TouchID(2), LayoutPoint(x: 10, y: 10))))
        #expect(step(.touchCancel(TouchID(2))))
        #expect(step(.touchFrame))
        // A filter that takes every touch: its touches' frames still count.
        let taker = TakeTouches()
        router.addFilter(taker)
        #expect(!step(.touchDown(TouchID(3), LayoutPoint(x: 10, y: 10))))
        #expect(step(.touchFrame))
        #expect(!step(.touchMotion(TouchID(3), LayoutPoint(x: 30, y: 10))))
        #expect(step(.touchFrame))
        #expect(taker.asked > 0)
        withExtendedLifetime((notifier, seat)) {}
    }

    /// The tablet-pad spy needs pads arriving and leaving and their events, nothing else.
    @Test func theTabletDeviceSpyIsToldDeviceChangesAndTabletEventsOnly() {
        #expect(TabletDeviceSpy.kinds == [.deviceAdded, .deviceRemoved, .tablet])
    }
}

/// Takes every touch (a lock screen's way).
private final class TakeTouches: InputFilter {
    var asked = 0
    var filteredKinds: InputEventKinds { .touches }
    func filter(_ event: InputEvent, router: Router) -> FilterDecision {
        asked += 1
        return .consume
    }
}
