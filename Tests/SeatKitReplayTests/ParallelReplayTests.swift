import Dispatch
import Synchronization
import Testing
import SeatKit
import SeatKitLibinput
import SeatKitReplay

/// Replays share nothing (each has its own testbed, scratch directory and worker), so N
/// recordings can replay on N threads and give what they give one after the other.
@Suite struct ParallelReplayTests {
    @Test func fourRecordingsOnFourThreadsGiveWhatTheyGiveOneByOne() throws {
        let recordings = [try SyntheticRecordings.keyboard(), try SyntheticRecordings.mouse(),
                          try SyntheticRecordings.touchscreenTwoFingers(), try SyntheticRecordings.touchpadThreeFingerSwipe()]
        let sequential = try recordings.map { try LibinputReplay(recording: $0).run().events }
        let results = Mutex<[Int: Result<[DeviceEvent], ReplayError>]>([:])
        DispatchQueue.concurrentPerform(iterations: recordings.count) { i in
            let outcome: Result<[DeviceEvent], ReplayError>
            do throws(ReplayError) { outcome = .success(try LibinputReplay(recording: recordings[i]).run().events) } catch { outcome = .failure(error) }
            results.withLock { $0[i] = outcome }
        }
        for i in recordings.indices {
            let parallel = try results.withLock { $0[i] }!.get()
            #expect(parallel == sequential[i], "recording \(i)")
        }
    }
}
