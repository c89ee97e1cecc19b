import CLibinput
import CSeatKitSupport
import SeatKit
import SeatKitSystem

#if canImport(Glibc)
import Glibc
#endif

/// Every call this module makes into C (libwayland-server, libc, the support shims) goes
/// through here: one place to trace or fake them.
enum CCalls {
    // MARK: Clock

    /// CLOCK_MONOTONIC in microseconds: libinput's clock, and wl_event_loop timers'.
    static func monotonicMicroseconds() -> Int64 { MonotonicClock.microseconds() }

    // MARK: Threads

    /// The calling thread, as a token no other thread ever gets, even after this one exits
    /// (a `pthread_t` is reused: a router left on an ended thread would be usable from the
    /// next thread that got its value).
    @inline(__always)
    static func currentThread() -> UInt64 { seatkit_support_thread_token() }

    /// A process-lifetime mutex (never destroyed).
    static func makeMutex() -> UnsafeMutablePointer<pthread_mutex_t> {
        let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        return mutex
    }

    @inline(__always)
    static func lock(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) { pthread_mutex_lock(mutex) }

    @inline(__always)
    static func unlock(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) { pthread_mutex_unlock(mutex) }

    /// This thread's C API state (seatkit_support_thread_state), and setting it.
    @inline(__always)
    static func threadState() -> UnsafeMutableRawPointer? { seatkit_support_thread_state() }

    static func setThreadState(_ state: UnsafeMutableRawPointer, release: @convention(c) (UnsafeMutableRawPointer?) -> Void) {
        seatkit_support_set_thread_state(state, release)
    }

    // MARK: wl_event_loop timers

    typealias TimerCallback = @convention(c) (UnsafeMutableRawPointer?) -> Int32

    static func addTimer(_ loop: OpaquePointer, _ callback: TimerCallback, _ data: UnsafeMutableRawPointer) -> OpaquePointer? {
        wl_event_loop_add_timer(loop, callback, data)
    }

    /// Arms the timer `milliseconds` from now; 0 disarms it.
    static func updateTimer(_ source: OpaquePointer, milliseconds: Int32) {
        // timerfd_settime failing leaves the router's timers (key repeat, long press) dead:
        // the compositor's log must say so.
        if wl_event_source_timer_update(source, milliseconds) < 0 {
            Log.error("wl_event_source_timer_update(\(milliseconds) ms) failed: the router's timers will not fire")
        }
    }

    typealias FDCallback = @convention(c) (Int32, UInt32, UnsafeMutableRawPointer?) -> Int32

    /// Watches `fd` for reading.
    static func addReadableFD(_ loop: OpaquePointer, _ fd: Int32, _ callback: FDCallback,
                              _ data: UnsafeMutableRawPointer) -> OpaquePointer? {
        wl_event_loop_add_fd(loop, fd, UInt32(WL_EVENT_READABLE), callback, data)
    }

    static func removeSource(_ source: OpaquePointer) {
        _ = wl_event_source_remove(source)
    }

    typealias LoopGoneCallback = @convention(c) (UnsafeMutableRawPointer?) -> Void

    /// Calls `gone` when `loop` is destroyed, while it is still whole (seatkit_support_watch_loop).
    static func watchLoop(_ loop: OpaquePointer, _ gone: LoopGoneCallback, _ data: UnsafeMutableRawPointer) -> OpaquePointer? {
        seatkit_support_watch_loop(loop, gone, data)
    }

    static func unwatchLoop(_ watch: OpaquePointer?) { seatkit_support_unwatch_loop(watch) }

    // MARK: wl_signal

    static func makeSignal() -> UnsafeMutablePointer<wl_signal> {
        let signal = UnsafeMutablePointer<wl_signal>.allocate(capacity: 1)
        signal.initialize(to: wl_signal())
        wl_signal_init(signal)
        return signal
    }

    /// Emits the signal (listeners may remove themselves, or any other listener, while it
    /// runs; a listener added while it runs is not called). A signal with one listener calls
    /// it directly: the same, without `wl_signal_emit_mutable`'s cursor and end links put in
    /// the list and taken out (~90 instructions an emit; the touch-frame signal is emitted
    /// once a touch frame, its one listener the wlroots bridge's): the lone listener may
    /// remove itself or add others, and the list is not read after its call. A signal with
    /// none calls nothing, and puts nothing in its list (the touch-frame signal of a router
    /// whose bridge takes the touch-frame callback: ~55 instructions a frame).
    static func emitSignal(_ signal: UnsafeMutablePointer<wl_signal>, data: OpaquePointer) {
        let head = UnsafeMutableRawPointer(signal).advanced(by: MemoryLayout<wl_signal>.offset(of: \.listener_list)!)
            .assumingMemoryBound(to: wl_list.self)
        guard let first = head.pointee.next, first != head else { return }
        if first.pointee.next == head {
            let listener = UnsafeMutableRawPointer(first).advanced(by: -MemoryLayout<wl_listener>.offset(of: \.link)!)
                .assumingMemoryBound(to: wl_listener.self)
            if let notify = listener.pointee.notify {
                notify(listener, UnsafeMutableRawPointer(data))
            }
            return
        }
        wl_signal_emit_mutable(signal, UnsafeMutableRawPointer(data))
    }

    static func freeSignal(_ signal: UnsafeMutablePointer<wl_signal>) {
        signal.deinitialize(count: 1)
        signal.deallocate()
    }

    /// Emits the signal (listeners may remove themselves while it runs), then frees it.
    static func emitAndFreeSignal(_ signal: UnsafeMutablePointer<wl_signal>, data: OpaquePointer) {
        wl_signal_emit_mutable(signal, UnsafeMutableRawPointer(data))
        signal.deinitialize(count: 1)
        signal.deallocate()
    }

    // MARK: Log

    static func log(_ importance: seatkit_log_importance, _ message: String) {
        message.withCString { seatkit_support_log(importance, $0) }
    }

    /// `message` (a C string) in the log, as ``log(_:_:)`` with no String made.
    static func log(_ importance: seatkit_log_importance, cString message: UnsafePointer<CChar>) {
        seatkit_support_log(importance, message)
    }

    static func logVerbosity() -> seatkit_log_importance { seatkit_log_get_verbosity() }

    /// Contexts made on this thread from now on (until called with nil) log their lines to
    /// `sink`, formatted in C (CLibinput's `seatkit_libinput_set_pending_log_line_sink`).
    typealias LibinputLineSink = seatkit_log_line_sink

    static func setPendingLibinputLineSink(_ sink: LibinputLineSink?) {
        seatkit_libinput_set_pending_log_line_sink(sink)
    }

    // MARK: Files and the environment

    static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        return String(cString: value)
    }

    // MARK: Memory handed to C

    /// A copy of `text` on the C heap, for the caller to free().
    static func mallocString(_ text: String) -> UnsafeMutablePointer<CChar>? {
        text.withCString { strdup($0) }
    }

    static func free(_ pointer: UnsafeMutableRawPointer?) { Glibc.free(pointer) }
}
