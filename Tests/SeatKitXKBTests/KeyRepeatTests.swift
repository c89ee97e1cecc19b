import Testing
import SeatKit
import SeatKitXKB

@Suite struct KeyRepeatTests {
    @Test func repeatsFollowTheDelayThenTheRateWithoutDrift() {
        let r = KeyRepeat(rate: 30, delay: .milliseconds(250))
        let press = Timestamp.milliseconds(1000)
        #expect(r.deadline(ofRepeat: 0, pressedAt: press) == .milliseconds(1250))
        #expect(r.deadline(ofRepeat: 1, pressedAt: press) == Timestamp(microseconds: 1_283_333))
        // 30 repeats a second, a second after the first: exactly, not 30 × 33.333 ms.
        #expect(r.deadline(ofRepeat: 30, pressedAt: press) == .milliseconds(2250))
    }

    @Test func repeatInfoIsInCharactersPerSecondAndMilliseconds() {
        let r = KeyRepeat(rate: 40, delay: .milliseconds(300))
        #expect(r.wireRate == 40)
        #expect(r.wireDelay == 300)
        #expect(KeyRepeat.off.wireRate == 0)
        #expect(KeyRepeat.standard.wireRate == 25)
        #expect(KeyRepeat.standard.wireDelay == 600)
    }
}
