import Foundation
import Testing

/// Runs each test of a suite on a thread of its own, not on one of Swift Testing's cooperative
/// threads. Those are as many as the machine has cores (two on CI), and a synchronous test that
/// waits for processes (a kiosk and its clients starting and answering, `poll(2)` with a
/// deadline) holds one for the whole wait: two such tests stalled every other test of the run,
/// core tests that take milliseconds included. On its own thread the wait holds nothing.
///
/// At most `ownThreadWidth` of these tests run at once (as many as the cooperative threads
/// they used to take), so a run starts no more compositors and clients at a time than before.
/// What a test does and checks is unchanged: its body runs as it did, on one thread.
public struct OwnThreadTrait: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        await ownThreadGate.enter()
        defer { ownThreadGate.leave() }
        try await withTaskExecutorPreference(ThreadPerJobExecutor.shared) {
            try await function()
        }
    }
}

extension Trait where Self == OwnThreadTrait {
    /// Each test on a thread of its own, at most `ownThreadWidth` at once (see `OwnThreadTrait`).
    public static var ownThread: Self { OwnThreadTrait() }
}

/// How many own-thread tests run at once: the number of cores (the width of the cooperative
/// pool those tests used to occupy), at least two.
public let ownThreadWidth = max(2, ProcessInfo.processInfo.activeProcessorCount)

private let ownThreadGate = Gate(width: ownThreadWidth)

/// Runs every job it is given on a new thread, so a job that blocks blocks only that thread.
/// A synchronous test body is one job.
final class ThreadPerJobExecutor: TaskExecutor, @unchecked Sendable {
    static let shared = ThreadPerJobExecutor()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        let thread = Thread { job.runSynchronously(on: executor) }
        // The main thread's stack size: a test body may recurse as deep as it did on a pool thread.
        thread.stackSize = 8 << 20
        thread.start()
    }
}

/// A counting semaphore whose waiters suspend (they hold no thread while they wait). A pthread
/// mutex (`NSLock`), which ThreadSanitizer sees, not `Synchronization.Mutex`.
private final class Gate: @unchecked Sendable {
    private let lock = NSLock()
    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(width: Int) { free = width }

    func enter() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            lock.lock()
            if free > 0 {
                free -= 1
                lock.unlock()
                continuation.resume()
            } else {
                waiting.append(continuation)
                lock.unlock()
            }
        }
    }

    func leave() {
        lock.lock()
        if waiting.isEmpty {
            free += 1
            lock.unlock()
        } else {
            let next = waiting.removeFirst()
            lock.unlock()
            next.resume()
        }
    }
}
