/// A point in time on the event loop's monotonic clock, in microseconds (libinput's unit).
public struct Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Microseconds since the clock's origin (`CLOCK_MONOTONIC`'s, or a virtual clock's zero).
    public var microseconds: Int64

    /// The instant `microseconds` after the clock's origin.
    @inlinable public init(microseconds: Int64) { self.microseconds = microseconds }

    /// The instant `ms` milliseconds after the clock's origin.
    public static func milliseconds(_ ms: Int64) -> Timestamp { Timestamp(microseconds: ms * 1000) }
    /// The clock's origin: where a ``VirtualClock`` starts by default.
    public static var zero: Timestamp { Timestamp(microseconds: 0) }

    /// Whether `a` comes before `b`.
    @inlinable public static func < (a: Timestamp, b: Timestamp) -> Bool { a.microseconds < b.microseconds }
    /// The instant `b` after `a` (before it for a negative span).
    @inlinable public static func + (a: Timestamp, b: TimeSpan) -> Timestamp {
        Timestamp(microseconds: a.microseconds + b.microseconds)
    }
    /// The time from `b` to `a`; negative when `a` comes first.
    @inlinable public static func - (a: Timestamp, b: Timestamp) -> TimeSpan {
        TimeSpan(microseconds: a.microseconds - b.microseconds)
    }

    /// Milliseconds, truncated to 32 bits as Wayland's event times are.
    package var wireMilliseconds: UInt32 { UInt32(truncatingIfNeeded: microseconds / 1000) }

    /// In milliseconds, e.g. "12.5ms".
    public var description: String {
        let ms = Double(microseconds) / 1000
        return "\(ms.compactDescription)ms"
    }
}

/// A length of time in microseconds.
public struct TimeSpan: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The length in microseconds; may be negative.
    public var microseconds: Int64

    /// A span of `microseconds`.
    @inlinable public init(microseconds: Int64) { self.microseconds = microseconds }
    /// A span of `ms` milliseconds.
    public static func milliseconds(_ ms: Int64) -> TimeSpan { TimeSpan(microseconds: ms * 1000) }
    /// A span of `s` seconds, truncated to whole microseconds.
    public static func seconds(_ s: Double) -> TimeSpan { TimeSpan(microseconds: Int64(s * 1_000_000)) }
    /// The length in seconds.
    public var seconds: Double { Double(microseconds) / 1_000_000 }

    /// Whether `a` is shorter than `b`.
    @inlinable public static func < (a: TimeSpan, b: TimeSpan) -> Bool { a.microseconds < b.microseconds }
    /// In milliseconds, e.g. "500ms".
    public var description: String { "\((Double(microseconds) / 1000).compactDescription)ms" }
}

/// Identifies a scheduled timer so that it can be cancelled.
public struct TimerToken: Hashable, Sendable {
    /// The clock's own number for the timer (a ``VirtualClock`` never reuses one).
    public let rawValue: UInt64
    /// Wraps a clock's timer number: for ``Clock`` implementations.
    public init(rawValue: UInt64) { self.rawValue = rawValue }
}

/// The clock and timers of the compositor's event loop.
///
/// The router never reads the wall clock: a compositor supplies one that reads
/// `CLOCK_MONOTONIC` and arms its event loop's timers; tests and replays use ``VirtualClock``,
/// so that every run is the same. Timers fire on the event-loop thread.
public protocol Clock: AnyObject {
    /// The current time.
    var now: Timestamp { get }
    /// Calls `action` once `deadline` has passed. A deadline in the past fires at the next
    /// chance the loop gets, never from inside this call.
    func schedule(at deadline: Timestamp, _ action: @escaping () -> Void) -> TimerToken
    /// Cancels a timer that has not fired; cancelling a fired or unknown timer does nothing.
    func cancel(_ token: TimerToken)
}

/// A clock that moves only when told to: for tests and for replaying recordings.
///
/// ``advance(to:)`` fires every timer due by the new time, in deadline order (ties in the
/// order they were scheduled), with ``now`` set to each timer's deadline while it runs.
public final class VirtualClock: Clock {
    fileprivate struct Pending {
        var deadline: Timestamp
        var token: TimerToken
        var action: () -> Void
    }

    /// The hot state, exempt from run-time exclusivity checks (the rules are in
    /// UnsafeFoundations.swift: the filters read ``now`` on every event they act on, and the
    /// check was most of that read). No access spans a timer's action.
    struct HotState {
        fileprivate var now: Timestamp
        fileprivate var pending: [Pending] = []
        fileprivate var nextToken: UInt64 = 1
    }
    @exclusivity(unchecked) var unchecked: HotState

    /// The current virtual time: moved only by ``advance(to:)`` and ``advance(by:)`` (and, while
    /// a timer runs, its deadline).
    public var now: Timestamp { unchecked.now }

    /// A clock at `now` with no timers pending.
    public init(now: Timestamp = .zero) { unchecked = HotState(now: now) }

    /// Queues `action` to run during the ``advance(to:)`` that reaches `deadline` (a deadline
    /// already past runs at the next advance, never from inside this call).
    public func schedule(at deadline: Timestamp, _ action: @escaping () -> Void) -> TimerToken {
        let token = TimerToken(rawValue: unchecked.nextToken)
        unchecked.nextToken += 1
        unchecked.pending.append(Pending(deadline: deadline, token: token, action: action))
        return token
    }

    /// Removes the timer if it is still pending; a fired or unknown token does nothing.
    public func cancel(_ token: TimerToken) {
        // Tokens are unique. An index scan, not removeAll(where:), which allocates in
        // unoptimized builds: key repeat cancels a timer on every key release.
        if let index = unchecked.pending.scanIndex(where: { $0.token == token }) { unchecked.pending.remove(at: index) }
    }

    /// How many timers are pending.
    public var pendingTimerCount: Int { unchecked.pending.count }

    /// The earliest deadline still pending.
    public var nextDeadline: Timestamp? { unchecked.pending.map(\.deadline).min() }

    /// Moves time forward to `time`, firing due timers on the way. Time never goes back: an
    /// earlier `time` only fires timers already due.
    public func advance(to time: Timestamp) {
        while let index = indexOfEarliest(dueBy: time) {
            let timer = unchecked.pending.remove(at: index)
            if timer.deadline > unchecked.now { unchecked.now = timer.deadline }
            timer.action()
        }
        if time > unchecked.now { unchecked.now = time }
    }

    /// Moves time forward by `span`.
    public func advance(by span: TimeSpan) { advance(to: unchecked.now + span) }

    private func indexOfEarliest(dueBy time: Timestamp) -> Int? {
        var best: Int?
        var i = 0
        while i < unchecked.pending.count {
            let deadline = unchecked.pending[i].deadline
            if deadline <= time {
                if let b = best {
                    if deadline < unchecked.pending[b].deadline { best = i }
                } else {
                    best = i
                }
            }
            i += 1
        }
        return best
    }
}
