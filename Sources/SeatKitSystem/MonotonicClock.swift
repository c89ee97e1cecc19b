#if canImport(Glibc)
import Glibc
#endif

/// `CLOCK_MONOTONIC`, the one clock libinput stamps events with and `wl_event_loop` timers
/// run on. Every adapter that needs "now" on that clock reads it here, so all of them agree
/// (a touch's time from libinput and a recognizer's timer on the event loop compare).
package enum MonotonicClock {
    /// Microseconds since an arbitrary start (boot), never going back.
    @inline(__always)
    package static func microseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000
    }
}
