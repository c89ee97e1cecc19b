@_spi(SeatKitInternals) import SeatKit

/// The router's clock on a `wl_event_loop`: `now` reads CLOCK_MONOTONIC, and one loop timer
/// source serves every pending timer, armed for the earliest deadline.
///
/// Scheduling allocates nothing once the pending list has grown, and re-arms the loop's timer
/// (a syscall) only when the new deadline is earlier than the armed one: cancelled timers are
/// forgotten without disarming, and a timer that fires early re-arms for what is still due.
final class EventLoopClock: Clock {
    private struct Pending {
        var deadline: Timestamp
        var token: TimerToken
        var action: () -> Void
    }

    private var timer: EventLoopSource?
    private var pending: [Pending] = []
    private var nextToken: UInt64 = 1
    /// The deadline the loop's timer is armed for, if armed.
    private var armedDeadline: Timestamp?
    /// Run around timer actions (the C API's call bookkeeping).
    var aroundFiring: ((() -> Void) -> Void)?

    init?(loop: OpaquePointer) {
        pending.reserveCapacity(8)
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
        pending.removeAll()
        armedDeadline = nil
    }

    private var source: OpaquePointer? { timer?.source }

    var now: Timestamp { Self.monotonicNow }
    /// `now` without an instance: CLOCK_MONOTONIC, which every event-loop clock reads.
    @inline(__always) static var monotonicNow: Timestamp { Timestamp(microseconds: CCalls.monotonicMicroseconds()) }

    func schedule(at deadline: Timestamp, _ action: @escaping () -> Void) -> TimerToken {
        let token = TimerToken(rawValue: nextToken)
        nextToken += 1
        pending.append(Pending(deadline: deadline, token: token, action: action))
        if armedDeadline.map({ deadline < $0 }) ?? true { arm(for: deadline) }
        return token
    }

    func cancel(_ token: TimerToken) {
        var i = 0
        while i < pending.count {
            if pending[i].token == token {
                pending.remove(at: i)
                return
            }
            i += 1
        }
    }

    var pendingTimerCount: Int { pending.count }

    private func arm(for deadline: Timestamp) {
        guard let source else { return }
        // Never 0 (which disarms): a deadline already past fires at the loop's next turn.
        let wait = (deadline.microseconds - now.microseconds + 999) / 1000
        CCalls.updateTimer(source, milliseconds: Int32(clamping: max(1, wait)))
        armedDeadline = deadline
    }

    private func timerFired() {
        armedDeadline = nil
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
            while i < pending.count {
                if pending[i].deadline <= time, best.map({ pending[i].deadline < pending[$0].deadline }) ?? true { best = i }
                i += 1
            }
            guard let index = best else { break }
            let timer = pending.remove(at: index)
            timer.action()
        }
        var earliest: Timestamp?
        for timer in pending where earliest.map({ timer.deadline < $0 }) ?? true { earliest = timer.deadline }
        if let earliest, armedDeadline.map({ earliest < $0 }) ?? true { arm(for: earliest) }
    }
}
