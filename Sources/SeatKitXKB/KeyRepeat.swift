import SeatKit

/// How a held key repeats: after ``delay``, ``rate`` times a second.
///
/// Clients get it as `wl_keyboard.repeat_info` and repeat on their own; for the compositor's
/// own responders, ``Keyboard`` generates the repeats from the router's clock.
public struct KeyRepeat: Hashable, Sendable {
    /// Repeats per second; 0 turns repeating off.
    public var rate: Int
    /// Time from the press to the first repeat.
    public var delay: TimeSpan

    /// Traps on a negative rate or delay (a programmer error).
    public init(rate: Int, delay: TimeSpan) {
        precondition(rate >= 0 && delay.microseconds >= 0, "key repeat needs a rate and delay of at least 0")
        self.rate = rate
        self.delay = delay
    }

    /// 25 per second after 600 ms: the X server's and most compositors' default.
    public static let standard = KeyRepeat(rate: 25, delay: .milliseconds(600))
    /// No repeating.
    public static let off = KeyRepeat(rate: 0, delay: .milliseconds(600))

    /// `wl_keyboard.repeat_info`'s rate argument: characters per second, 0 for off.
    public var wireRate: Int32 { Int32(clamping: rate) }
    /// `wl_keyboard.repeat_info`'s delay argument, in milliseconds.
    public var wireDelay: Int32 { Int32(clamping: delay.microseconds / 1000) }

    /// When repeat `index` (0 for the first) of a key pressed at `press` is due. Computed from
    /// the press, not from the previous repeat, so that rounding never accumulates.
    public func deadline(ofRepeat index: Int, pressedAt press: Timestamp) -> Timestamp {
        precondition(rate > 0, "a key does not repeat at rate 0")
        return press + delay + TimeSpan(microseconds: Int64(index) * 1_000_000 / Int64(rate))
    }
}
