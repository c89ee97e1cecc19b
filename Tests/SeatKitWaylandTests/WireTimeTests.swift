import Testing
@_spi(SeatKitInternals) import SeatKit
@testable import SeatKitWayland

/// The senders' own conversion of an event's time to the wire's milliseconds gives what the
/// core's `Timestamp.wireMilliseconds` gives: every wl_touch and wl_pointer event carries it.
@Suite struct WireTimeTests {
    @Test func theSendersWireTimeIsTheCoresWireMilliseconds() {
        let times: [Int64] = [0, 999, 1_000, 1_999, 123_456_789, Int64(UInt32.max) * 1_000 + 5_432,
                              Int64(UInt32.max) * 1_000 * 3 + 17_000, -1, -999, -1_000, -1_001, .max, .min]
        for microseconds in times {
            let time = Timestamp(microseconds: microseconds)
            #expect(wireTime(time) == time.wireMilliseconds, "at \(microseconds) µs")
        }
        // Milliseconds wrap past 32 bits, as on the wire.
        #expect(wireTime(Timestamp(microseconds: (Int64(UInt32.max) + 2) * 1_000)) == 1)
    }
}
