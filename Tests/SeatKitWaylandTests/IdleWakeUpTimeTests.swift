import CWaylandServer
import Glibc
import SeatKit
import SeatKitWayland
import Testing

/// The idle notifier's spy, on the display's `EventLoopClock`, reads the clock once per
/// wake-up of a watched fd (issue 25, eleventh round): the events a libinput source reads in
/// one go all note the time the first of them read; the next wake-up, and input from
/// outside a wake-up, read it again.
@Suite struct IdleWakeUpTimeTests {
    /// The monotonic clock's microseconds, as `EventLoopClock.now`.
    private static func now() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000
    }

    /// Spins until the monotonic clock's microsecond count is past `t`: the clock moves on
    /// between two events, so that noting the same time is the wake-up's doing.
    private static func waitPast(_ t: Int64) {
        while now() <= t {}
    }

    @Test func theEventsOfOneWakeUpNoteTheTimeTheFirstReadAndTheNextWakeUpReadsItAgain() throws {
        let raw = try #require(wl_display_create())
        defer { wl_display_destroy(raw) }
        let display = WaylandDisplay(wrapping: raw)
        let router = Router(clock: display.clock)
        let seat = Seat(display: display, router: router)
        let notifier = IdleNotifier(seat: seat, inhibitors: false)
        let device = DeviceID(2)
        router.inject(InputEvent(time: display.clock.now, device: device,
                                 .deviceAdded(DeviceInfo(name: "keyboard", capabilities: [.keyboard]))))

        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        try #require(write(fds[1], "x", 1) == 1)

        var noted: [Int64] = []
        var before: Int64 = 0
        display.watch(fileDescriptor: fds[0]) {
            before = Self.now()
            for state in [KeyState.pressed, .released] {
                Self.waitPast(Self.now())
                router.inject(InputEvent(time: display.clock.now, device: device, .key(keycode: 30, state: state)))
                noted.append(notifier.lastActivity.microseconds)
            }
        }
        display.dispatch(timeout: 0)
        try #require(noted.count == 2)
        // Both events of the wake-up: the time the first read, though the clock moved on.
        #expect(noted[0] == noted[1])
        #expect(noted[0] >= before)

        // The next wake-up reads the clock again.
        Self.waitPast(noted[1])
        display.dispatch(timeout: 0)
        try #require(noted.count == 4)
        #expect(noted[2] > noted[1])
        #expect(noted[2] == noted[3])

        // Outside a wake-up, every event reads the clock.
        display.stopWatching(fileDescriptor: fds[0])
        var outside: [Int64] = []
        for state in [KeyState.pressed, .released] {
            Self.waitPast(Self.now())
            router.inject(InputEvent(time: display.clock.now, device: device, .key(keycode: 31, state: state)))
            outside.append(notifier.lastActivity.microseconds)
        }
        #expect(outside[0] > noted[3])
        #expect(outside[1] > outside[0])
        withExtendedLifetime((notifier, seat)) {}
    }
}
