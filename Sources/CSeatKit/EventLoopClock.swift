@_spi(SeatKitInternals) import SeatKit

/// The router's clock on a `wl_event_loop`: `now` reads CLOCK_MONOTONIC, and one loop timer
/// source serves every pending timer, armed for the earliest deadline.
///
/// Scheduling allocates nothing once the pending list has grown, and re-arms the loop's timer
/// (a syscall) only when the new deadline is earlier than the armed one: cancelled timers are
/// forgotten without disarming, and a timer that fires early re-arms for what is still due.
///
/// The pending list, the next token and the armed deadline are hot state (the shape and rules
/// of SeatKit's UnsafeFoundations.swift): a recognizer's timer is scheduled and cancelled
/// from inside routing (a long press schedules at each touch down and cancels at its up), and
/// the run-time exclusivity checks of three stored properties were more than half of that
/// work (a schedule 240 -> 112 instructions, a cancel 325 -> 106 without them: 36 a
/// touchscreen frame in the wlroots kiosk; docs/BENCHMARKS.md, issue 24 goal 12, twelfth
/// round). No access spans a
/// call out: an action is taken out of the list before it runs, and the loop's timer is
/// armed after the list is written.
final class EventLoopClock: Clock {
    fileprivate struct Pending {
        var deadline: Timestamp
        var token: TimerToken
        var action: () -> Void
    }

    private struct HotState {
        var pending: [Pending] = []
        var nextToken: UInt64 = 1
        /// The deadline the loop's timer is armed for, if armed.
        var armedDeadline: Timestamp?
    }

    @exclusivity(unchecked) private var unchecked = HotState()

    private var timer: EventLoopSource?
    /// Run around timer actions (the C API's call bookkeeping).
    var aroundFiring: ((() -> Void) -> Void)?

    init?(loop: OpaquePointer) {
        unchecked.pending.reserveCapacity(8)
        let data = Unmanaged.passUnretained(self).toOpaque()
        guard let timer = EventLoopSource(loop: loop, add: { loop in
            CCalls.addTimer(loop, { data in
                guard let data else { return 0 }
                Unmanaged<EventLoopClock>.fromOpaque(data).takeUnretainedValue().timerFired()
                return 0
            }, data)
        }) else { return nil }
        self.timer = timer
    }

    /// Removes the loop's timer source; pending timers never fire. Called before the clock is
    /// released (the source points at it unretained). If the loop ended first, its timer went
    /// with it and timers scheduled since never fire.
    func invalidate() {
        timer?.remove()
        timer = nil
        // The actions (and what they hold) are let go after the list is emptied.
        let gone = unchecked.pending
        unchecked.pending = []
        unchecked.armedDeadline = nil
        withExtendedLifetime(gone) {}
    }

    private var source: OpaquePointer? { timer?.source }

    var now: Timestamp { Self.monotonicNow }
    /// `now` without an instance: CLOCK_MONOTONIC, which every event-loop clock reads.
    @inline(__always) static var monotonicNow: Timestamp { Timestamp(microseconds: CCalls.monotonicMicroseconds()) }

    func schedule(at deadline: Timestamp, _ action: @escaping () -> Void) -> TimerToken {
        let token = TimerToken(rawValue: unchecked.nextToken)
        unchecked.nextToken += 1
        unchecked.pending.append(Pending(deadline: deadline, token: token, action: action))
        if unchecked.armedDeadline.map({ deadline < $0 }) ?? true { arm(for: deadline) }
        return token
    }

    func cancel(_ token: TimerToken) {
        var i = 0
        while i < unchecked.pending.count {
            if unchecked.pending[i].token == token {
                // Taken out, and let go once `remove` has returned: the action's release may
                // run a deinit that reaches this clock. The last one (a long press's only
                // timer, cancelled at its touch's up) by removeLast, inlined, where
                // remove(at:) was a call that moved the elements after it (none): a cancel
                // 70 -> 36 instructions (issue 25, seventeenth round).
                if i == unchecked.pending.count - 1 {
                    _ = unchecked.pending.removeLast()
                } else {
                    _ = unchecked.pending.remove(at: i)
                }
                return
            }
            i += 1
        }
    }

    var pendingTimerCount: Int { unchecked.pending.count }

    private func arm(for deadline: Timestamp) {
        guard let source else { return }
        // Never 0 (which disarms): a deadline already past fires at the loop's next turn.
        let wait = (deadline.microseconds - now.microseconds + 999) / 1000
        CCalls.updateTimer(source, milliseconds: Int32(clamping: max(1, wait)))
        unchecked.armedDeadline = deadline
    }

    private func timerFired() {
        unchecked.armedDeadline = nil
        let body = { self.fireDue() }
        if let aroundFiring { aroundFiring(body) } else { body() }
    }

    private func fireDue() {
        // Timers in deadline order (ties in the order scheduled); an action may schedule or
        // cancel others.
        while true {
            let time = now
            var best: Int?
            var i = 0
            while i < unchecked.pending.count {
                let deadline = unchecked.pending[i].deadline
                if deadline <= time, best.map({ deadline < unchecked.pending[$0].deadline }) ?? true { best = i }
                i += 1
            }
            guard let index = best else { break }
            let timer = unchecked.pending.remove(at: index)
            timer.action()
        }
        var earliest: Timestamp?
        for timer in unchecked.pending where earliest.map({ timer.deadline < $0 }) ?? true { earliest = timer.deadline }
        if let earliest, unchecked.armedDeadline.map({ earliest < $0 }) ?? true { arm(for: earliest) }
    }
}
