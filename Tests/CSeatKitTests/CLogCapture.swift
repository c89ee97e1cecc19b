import CSeatKitSupport
import Foundation
import Testing

// The process-wide C log captured per thread, apart from CAPITests so that CI's
// ThreadSanitizer step (SEATKIT_PACKAGE=threads) can build CThreadTests with it alone.

/// The suites that change the process-wide C log (its callback and verbosity) run one at a
/// time under this suite: a fuzz test silencing the log while CAPITests counts its lines would
/// make that count wrong.
@Suite(.serialized) struct TheProcessWideCLog {}

// A C call that takes a Swift string or array as a pointer argument is written inside
// `#expect`/`#require` with its result cast (`seatkit_f(router, "A") as Bool`, `as
// OpaquePointer?`), or made before it. Swift Testing 6.3 captures each argument of a call
// it expands as a separate value, so the pointer a string or array was converted to is
// already dangling when the C function reads it; the cast keeps the call whole.
// (CDeviceMappingTests read a freed device name this way: it failed when run alone.)

/// Log lines captured from seatkit_log_init's callback, with the thread that logged each. Other
/// suites run in parallel and log their own refusals through the same callback; a test reads
/// only the lines of its own thread (a synchronous test body stays on one thread).
private let capturedLines = CapturedLines()

/// The captured lines behind a pthread mutex (`NSLock`), not `Synchronization.Mutex`: on Linux
/// that one waits with raw futex calls, which ThreadSanitizer does not see as synchronization,
/// so two test threads clearing their lines under it were reported as racing.
private final class CapturedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [(thread: pthread_t, line: String)] = []

    func withLock<Result>(_ body: (inout [(thread: pthread_t, line: String)]) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&lines)
    }
}

/// The lines the current thread logged since `forgetLoggedLines()`.
var loggedLines: [String] {
    let me = pthread_self()
    return capturedLines.withLock { lines in lines.filter { pthread_equal($0.thread, me) != 0 }.map(\.line) }
}

func forgetLoggedLines() {
    let me = pthread_self()
    capturedLines.withLock { lines in lines.removeAll { pthread_equal($0.thread, me) != 0 } }
}

let captureLog: seatkit_log_func_t = { importance, format, args in
    var buffer = [CChar](repeating: 0, count: 1024)
    guard let format, let args else { return }
    _ = vsnprintf(&buffer, buffer.count, format, args)
    recordLogLine(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
}

/// Keeps a logged line with the thread that logged it.
func recordLogLine(_ line: String) {
    let me = pthread_self()
    capturedLines.withLock { $0.append((me, line)) }
}
