import CWaylandServer
import SeatKit
@testable import SeatKitWayland
import Testing

/// An idle notifier watches input always (the default), or with `.whileNotificationsExist`
/// only while some client holds a notification: a compositor with no idle client pays
/// nothing per event for the protocol (the Swift kiosk's choice, as the wlroots bridge's).
@Suite struct IdleActivityTrackingTests {
    private struct Setting {
        let display: WaylandDisplay
        let clock = VirtualClock(now: Timestamp(microseconds: 1_000_000))
        let router: Router
        let seat: Seat
        let device = DeviceID(2)
        init(raw: OpaquePointer) {
            display = WaylandDisplay(wrapping: raw)
            router = Router(clock: clock)
            seat = Seat(display: display, router: router)
            router.inject(InputEvent(time: clock.now, device: device,
                                     .deviceAdded(DeviceInfo(name: "keyboard", capabilities: [.keyboard]))))
        }
        /// A key pressed and released 10 ms later than the last input.
        func typeAKey() {
            for state in [KeyState.pressed, .released] {
                clock.advance(by: .milliseconds(10))
                router.inject(InputEvent(time: clock.now, device: device, .key(keycode: 30, state: state)))
            }
        }
    }

    @Test func aNotifierWatchingForNotificationsNotesInputOnlyWhileOneExists() throws {
        let raw = try #require(wl_display_create())
        defer { wl_display_destroy(raw) }
        let s = Setting(raw: raw)
        let notifier = IdleNotifier(seat: s.seat, inhibitors: false, activity: .whileNotificationsExist)
        let started = notifier.lastActivity

        s.typeAKey()
        #expect(notifier.lastActivity == started, "no notification: the key is not watched")

        let notification = IdleNotification(notifier: notifier, timeout: 5_000)
        notifier.add(notification)
        s.typeAKey()
        #expect(notifier.lastActivity == s.clock.now, "a notification exists: the key is activity")

        notifier.remove(notification)
        let whenRemoved = notifier.lastActivity
        s.typeAKey()
        #expect(notifier.lastActivity == whenRemoved, "the last notification went: watching stopped")

        // A new notification counts from its creation, not from the stale last activity.
        let again = IdleNotification(notifier: notifier, timeout: 5_000)
        notifier.add(again)
        #expect(again.created == s.clock.now)
        s.typeAKey()
        #expect(notifier.lastActivity == s.clock.now)
        notifier.remove(again)
        withExtendedLifetime(notifier) {}
    }

    @Test func aNotifierWatchingAlwaysNotesInputWithNoNotification() throws {
        let raw = try #require(wl_display_create())
        defer { wl_display_destroy(raw) }
        let s = Setting(raw: raw)
        let notifier = IdleNotifier(seat: s.seat, inhibitors: false)
        #expect(notifier.activityTracking == .always)
        s.typeAKey()
        #expect(notifier.lastActivity == s.clock.now)
        withExtendedLifetime(notifier) {}
    }
}
