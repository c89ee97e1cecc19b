import Dispatch
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
        // Each thread's outcome in a slot of its own, read after `concurrentPerform` returns (its
        // join orders the writes before the reads): under a `Mutex`, whose lock ThreadSanitizer
        // does not follow, TSan could report the writes as a race (SurfaceIdentityTests did).
        nonisolated(unsafe) let results = UnsafeMutableBufferPointer<Result<[DeviceEvent], ReplayError>?>.allocate(capacity: recordings.count)
        results.initialize(repeating: nil)
        defer { _ = results.deinitialize(); results.deallocate() }
        DispatchQueue.concurrentPerform(iterations: recordings.count) { i in
            let outcome: Result<[DeviceEvent], ReplayError>
            do throws(ReplayError) { outcome = .success(try LibinputReplay(recording: recordings[i]).run().events) } catch { outcome = .failure(error) }
            results[i] = outcome
        }
        for i in recordings.indices {
            let parallel = try results[i]!.get()
            #expect(parallel == sequential[i], "recording \(i)")
        }
    }
}
