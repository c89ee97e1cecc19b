import Glibc
import Logging
import SeatKit
import SeatKitSystem

/// A Wayland display: the listening socket, the clients, and the event loop they all run on.
///
/// Either SeatKit opens it (``init(socketName:)``: it owns the display, its socket and its
/// clients), or a compositor that already has a `wl_display` hands it over
/// (``init(wrapping:socketName:)``: the compositor keeps owning it, runs its loop and
/// destroys it; SeatKit only adds globals and event sources to it).
///
/// One thread: everything SeatKitWayland does happens inside the event loop's dispatch on
/// the thread that runs it. Nothing here is `Sendable`.
public final class WaylandDisplay {
    package let display: OpaquePointer
    package let loop: OpaquePointer
    /// The socket name clients put in `WAYLAND_DISPLAY`; for a wrapped display, what its
    /// owner said (empty when it did not).
    public let socketName: String
    /// The event loop's monotonic clock, with timers on the loop: give it to the router.
    public private(set) lazy var clock = EventLoopClock(eventLoop: loop)
    private var watches: [Int32: (source: OpaquePointer, box: WatchBox)] = [:]
    /// The wake-ups of the watched fds: the idle notifier's spy reads the clock once per
    /// wake-up, not per event (``WakeUpTime``).
    let wakeUp = WakeUpTime()
    /// False for a wrapped display: its owner destroys it.
    private let ownsDisplay: Bool

    /// Uses a compositor's existing display (`struct wl_display *`) and its event loop. The
    /// display must outlive this object and everything made on it (``Seat``, shells); this
    /// object's deinit removes only the event sources it added.
    public init(wrapping display: OpaquePointer, socketName: String = "") {
        self.display = display
        self.loop = Libwayland.eventLoop(display)
        self.socketName = socketName
        self.ownsDisplay = false
        Libwayland.readTraceEnvironment()
    }

    /// The `struct wl_display *`, for calls SeatKit does not wrap.
    public var handle: OpaquePointer { display }
    /// The display's `struct wl_event_loop *`.
    public var eventLoop: OpaquePointer { loop }

    /// Opens a display listening on `$XDG_RUNTIME_DIR/<socketName>`; with no name, the first
    /// free `wayland-N`. Throws when the socket cannot be created (no XDG_RUNTIME_DIR, name taken).
    public init(socketName: String? = nil) throws {
        Libwayland.readTraceEnvironment()
        guard let display = Libwayland.createDisplay() else { throw WaylandError.displayCreation }
        self.display = display
        self.loop = Libwayland.eventLoop(display)
        self.ownsDisplay = true
        if let socketName {
            guard Libwayland.addSocket(display, name: socketName) else {
                Libwayland.destroyDisplay(display)
                throw WaylandError.socket(socketName)
            }
            self.socketName = socketName
        } else {
            guard let name = Libwayland.addSocketAuto(display) else {
                Libwayland.destroyDisplay(display)
                throw WaylandError.socket("wayland-N")
            }
            self.socketName = name
        }
    }

    deinit {
        for watch in watches.values {
            Libwayland.removeSource(watch.source)
            watch.box.retire()
        }
        guard ownsDisplay else { return }
        Libwayland.destroyClients(display)
        Libwayland.destroyDisplay(display)
    }

    /// Adds the wl_shm global (libwayland's own implementation: ARGB8888 and XRGB8888).
    public func addSharedMemory() {
        _ = Libwayland.initShm(display)
    }

    /// Runs the event loop until ``terminate()``.
    public func run() { Libwayland.run(display) }
    public func terminate() { Libwayland.terminate(display) }

    /// Handles what is ready, waiting at most `timeout` milliseconds (-1: until something
    /// happens), then sends queued events to clients.
    public func dispatch(timeout: Int32) {
        Libwayland.dispatch(loop, timeout: timeout)
        flushClients()
    }

    /// Sends queued events to every client now, rather than when the loop next sleeps.
    public func flushClients() { Libwayland.flushClients(display) }

    /// Calls `readable` on the loop's thread whenever `fd` can be read (or hung up: then
    /// call ``stopWatching(fileDescriptor:)``, or the loop keeps calling). `readable` may
    /// stop watching its own fd, or watch it again: the closure running lives until it returns.
    public func watch(fileDescriptor fd: Int32, readable: @escaping () -> Void) {
        stopWatching(fileDescriptor: fd)
        let box = WatchBox(readable, wakeUp: wakeUp)
        if let source = Libwayland.addReadableFD(loop, fd, box) { watches[fd] = (source, box) }
    }

    public func stopWatching(fileDescriptor fd: Int32) {
        guard let watch = watches.removeValue(forKey: fd) else { return }
        Libwayland.removeSource(watch.source)
        // Kept until its call returns if this is that call (UnsafeFoundations.swift).
        watch.box.retire()
    }

    /// A new serial from the display's counter (wl_display_next_serial), the one the seat's
    /// events use: a shell's configures take theirs from it too.
    public func nextSerial() -> UInt32 { Libwayland.nextSerial(display) }
    /// The latest serial handed out (wl_display_get_serial).
    var currentSerial: UInt32 { Libwayland.currentSerial(display) }
}

public enum WaylandError: Error, CustomStringConvertible {
    case displayCreation
    case socket(String)

    public var description: String {
        switch self {
        case .displayCreation: return "wl_display_create failed"
        case .socket(let name): return "cannot listen on \(name) (is XDG_RUNTIME_DIR set and the name free?)"
        }
    }
}

/// The event loop's current wake-up of a watched fd (``WaylandDisplay/watch(fileDescriptor:readable:)``),
/// and the time read first in it: the idle notifier's spy notes that time for every event of
/// the wake-up (all of them read from the kernel together, by a libinput source in one
/// go), where a clock read per event was ~28 instructions and a `clock_gettime` each (issue
/// 26, eleventh round). Outside a wake-up (a client's request, a timer, a test injecting
/// directly) ``now`` reads the clock every time. A wake-up's time is forgotten when it ends,
/// and when a wake-up begins inside it (a callback that dispatches the loop itself).
final class WakeUpTime {
    /// The hot state, exempt from run-time exclusivity checks (the rules are in the core's
    /// UnsafeFoundations.swift: one thread, no access held across a call out).
    struct HotState {
        /// Watched-fd callbacks under way.
        var depth = 0
        /// The time read first in the innermost wake-up under way, in microseconds;
        /// ``WakeUpTime/noTime`` when none was read: cleared with one store, not an
        /// optional's payload and tag (issue 25, eighteenth round, 2 instructions a wake-up).
        var time = WakeUpTime.noTime
    }

    /// No time read: 0, stored with one instruction (`Int64.min` took a register of its
    /// own, saved and restored around the wake-up). `CLOCK_MONOTONIC` reads 0 only at the
    /// instant of boot; were it read then, that time would merely not be kept for the
    /// wake-up (the next ``now`` reads the clock again).
    static let noTime: Int64 = 0
    @exclusivity(unchecked) var unchecked = HotState()

    /// The depth wraps instead of trapping (it nests as deep as the loop's callbacks): no
    /// overflow test per wake-up, as ``WatchBox``'s.
    @inline(__always) func begin() {
        unchecked.depth &+= 1
        unchecked.time = WakeUpTime.noTime
    }

    @inline(__always) func end() {
        unchecked.depth &-= 1
        unchecked.time = WakeUpTime.noTime
    }

    /// `EventLoopClock`'s time: inside a wake-up, the one read first in it.
    @inline(__always) var now: Timestamp {
        if unchecked.time != WakeUpTime.noTime { return Timestamp(microseconds: unchecked.time) }
        let time = EventLoopClock.monotonicNow
        if unchecked.depth > 0 { unchecked.time = time.microseconds }
        return time
    }
}

/// `CLOCK_MONOTONIC` and timers on a `wl_event_loop`: the router's clock in a compositor.
/// Timers fire on the loop's thread, never from inside ``schedule(at:_:)``. libinput's event
/// times are on the same clock.
public final class EventLoopClock: Clock {
    private let loop: OpaquePointer
    private var timers: [TimerToken: (source: OpaquePointer, box: CallbackBox)] = [:]
    private var nextToken: UInt64 = 1

    /// A clock whose timers are sources on `eventLoop` (`struct wl_event_loop *`, which must
    /// outlive the clock). ``WaylandDisplay/clock`` is one on the display's loop.
    public init(eventLoop: OpaquePointer) {
        self.loop = eventLoop
        // The table's storage made now, with room for a few timers: its first growth
        // instantiated the storage type's metadata, ~370,000 instructions inside the first
        // timer (in a kiosk, the first key repeat: ~1,550 per key frame of the keyboard
        // recording, issue 25, tenth round).
        timers.reserveCapacity(4)
    }

    /// Where the clock reports a timer the event loop could not make or arm (that timer
    /// never fires). By default swift-log's `LoggingSystem`, label `SeatKitWayland.EventLoopClock`.
    public var logger = Logger(label: "SeatKitWayland.EventLoopClock")

    deinit { for timer in timers.values { Libwayland.removeSource(timer.source) } }

    public var now: Timestamp { Self.monotonicNow }

    /// What ``now`` reads, without an instance (`IdleActivity.now` reads it per event without
    /// going through the `any Clock` existential).
    @inline(__always) static var monotonicNow: Timestamp { Timestamp(microseconds: MonotonicClock.microseconds()) }

    public func schedule(at deadline: Timestamp, _ action: @escaping () -> Void) -> TimerToken {
        let token = TimerToken(rawValue: nextToken)
        nextToken += 1
        let box = CallbackBox { [weak self] in
            guard let self, let timer = self.timers.removeValue(forKey: token) else { return }
            Libwayland.removeSource(timer.source)
            action()
        }
        guard let source = Libwayland.addTimer(loop, box) else {
            // The action never runs (a long press never begins): say so.
            logger.error("wl_event_loop_add_timer failed; the timer for \(deadline) will not fire")
            return token
        }
        timers[token] = (source, box)
        // A timer of 0 ms is disarmed in libwayland, so "due now" waits 1 ms. Rounded up: a
        // timer must never fire before its deadline (a gesture recognizer's deadline check
        // drops a timer that fires early, and its long press never begins).
        let ms = max(1, ((deadline - now).microseconds + 999) / 1000)
        if !Libwayland.armTimer(source, milliseconds: Int32(clamping: ms)) {
            logger.error("wl_event_source_timer_update failed; the timer for \(deadline) will not fire")
        }
        return token
    }

    public func cancel(_ token: TimerToken) {
        guard let timer = timers.removeValue(forKey: token) else { return }
        Libwayland.removeSource(timer.source)
    }
}
