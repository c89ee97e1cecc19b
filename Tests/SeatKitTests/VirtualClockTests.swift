import Testing
@testable import SeatKit

@Suite("Virtual clock")
struct VirtualClockTests {
    @Test func timersFireInDeadlineOrderWithNowAtTheirDeadline() {
        let clock = VirtualClock()
        var fired: [(String, Timestamp)] = []
        _ = clock.schedule(at: .milliseconds(30)) { fired.append(("c", clock.now)) }
        _ = clock.schedule(at: .milliseconds(10)) { fired.append(("a", clock.now)) }
        _ = clock.schedule(at: .milliseconds(10)) { fired.append(("b", clock.now)) }
        clock.advance(to: .milliseconds(20))
        #expect(fired.map(\.0) == ["a", "b"])
        #expect(fired.map(\.1) == [.milliseconds(10), .milliseconds(10)])
        #expect(clock.now == .milliseconds(20))
        clock.advance(by: .milliseconds(100))
        #expect(fired.map(\.0) == ["a", "b", "c"])
    }

    @Test func aCancelledTimerNeverFiresAndTimeNeverGoesBack() {
        let clock = VirtualClock(now: .milliseconds(50))
        var fired = false
        let token = clock.schedule(at: .milliseconds(60)) { fired = true }
        clock.cancel(token)
        clock.advance(to: .milliseconds(100))
        #expect(!fired)
        clock.advance(to: .milliseconds(10))
        #expect(clock.now == .milliseconds(100))
    }

    @Test func aTimerScheduledByATimerFiresInTheSameAdvanceWhenDue() {
        let clock = VirtualClock()
        var log: [Timestamp] = []
        _ = clock.schedule(at: .milliseconds(5)) {
            log.append(clock.now)
            _ = clock.schedule(at: clock.now + .milliseconds(5)) { log.append(clock.now) }
        }
        clock.advance(to: .milliseconds(12))
        #expect(log == [.milliseconds(5), .milliseconds(10)])
    }
}
