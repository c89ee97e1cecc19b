import CWaylandServer

// SeatKitWayland's unretained references, in one place (the core's rules are in
// Sources/SeatKit/UnsafeFoundations.swift): each is an `unowned(unsafe)` reference that its
// object clears in the first line of its deinit, in place of a weak or `unowned` one on the
// per-event path (issue 25, seventh round, in docs/BENCHMARKS.md).

/// A reference to a seat that does not keep it alive, for the seat's protocol objects, its
/// surface responders and its teardown callbacks, in place of `weak var seat: Seat?` (as the
/// core's `RouterHandle` for the router).
///
/// Why: a weak reference gives the object it refers to a side table, and from then on every
/// retain and release of that object takes the runtime's slow path (`doDecrementSlow`,
/// `tryIncrementSlow`). Every client's wl_seat and device resources held the seat weakly, so
/// every kiosk had a seat with a side table, and the seat is loaded on each event's path.
///
/// Safe by construction: the seat owns its handle (`Seat.handle`), attaches itself in its
/// init before anything can refer to it and detaches in the first line of its deinit, so
/// ``seat`` is the seat while it lives and nil from its deinit on (as a weak load). Holders
/// keep the handle strongly; the handle never keeps the seat. Used on the display's thread
/// only, like the seat.
final class SeatHandle {
    unowned(unsafe) private(set) var seat: Seat?
    /// `seat` again, as the bits ``withSeat(_:)`` lends without making an owned reference
    /// (an owned load of `seat` is a retain); set and cleared with it.
    private struct HotState {
        var link: Unmanaged<Seat>?
    }
    @exclusivity(unchecked) private var unchecked = HotState()

    @inline(__always) func attach(_ seat: Seat) {
        self.seat = seat
        unchecked.link = Unmanaged.passUnretained(seat)
    }
    @inline(__always) func detach() {
        seat = nil
        unchecked.link = nil
    }

    /// Calls `body` with the seat lent without a retain (issue 25, eleventh round: a
    /// retain and a release per key, ~70 instructions a key frame in the kiosk). For a
    /// surface responder's sending of one event, which calls nothing of the compositor's (the
    /// seat's only owner): the seat cannot go during the call, as with the core's
    /// `Unretained` rule 4, borrowed for one call. Reading it after the seat is gone is a
    /// fatal error, as with `ClientSurfaceResponder.seat`.
    @inline(__always) func withSeat<Result>(_ body: (Seat) -> Result) -> Result {
        unchecked.link!._withUnsafeGuaranteedRef(body)
    }

    /// As ``withSeat(_:)``, for a holder that may outlive the seat (a filter the router
    /// keeps): nil, and `body` not called, once the seat is gone.
    @inline(__always) func withSeatIfPresent<Result>(_ body: (Seat) -> Result) -> Result? {
        guard let link = unchecked.link else { return nil }
        return link._withUnsafeGuaranteedRef(body)
    }
}

/// The idle notifier as its spy reaches it on every input event (IdleNotifier.swift): an
/// `unowned` load there was a `swift_unownedRetainStrong` per event. Safe by construction as
/// ``SeatHandle``: the notifier owns its spy and clears this in the first line of its deinit,
/// before taking the spy off the router.
final class IdleNotifierHandle {
    unowned(unsafe) private(set) var notifier: IdleNotifier?

    init(_ notifier: IdleNotifier) { self.notifier = notifier }
    @inline(__always) func detach() { notifier = nil }
}

/// The event loop's readable-fd callbacks, called without a retain of their box (issue 25,
/// eleventh round): `takeUnretainedValue().action()` retained and released the box around
/// every wake-up of the event loop (~40 instructions a wake-up in the kiosk, issue 25, tenth
/// round).
///
/// Safe by construction: the box is owned by whoever added the source (``WaylandDisplay``'s
/// watches), who calls ``WatchBox/retire()`` before letting go of it, in
/// `stopWatching(fileDescriptor:)`, in `watch(fileDescriptor:readable:)` replacing a watch, and
/// in the display's deinit. A box retired while it is being called (a callback that stops
/// watching its own fd, or watches it again) takes one retain of its own, released here when
/// the outermost call returns; so the box, its closure and what the closure captured live
/// until then, and no longer (`WatchCallbackTests`). Used on the event loop's thread only.
extension WatchBox {
    @inline(__always)
    static func callUnretained(_ data: UnsafeMutableRawPointer) {
        let box = Unmanaged<WatchBox>.fromOpaque(data)
        if box._withUnsafeGuaranteedRef({ $0.runCounted() }) { box.release() }
    }
}

/// A message's arguments (a tuple of `wl_argument`s on the sender's stack) lent to libwayland
/// without the stack protector: `withUnsafeMutableBytes(of:)` on a local made the compiler
/// guard every function that sends (a canary stored at entry and compared at exit, 5
/// instructions a touch motion, down or up, a pointer motion, a key, issue 25, fourteenth
/// round).
///
/// Safe by construction: the pointer goes only to `Libwayland.send`, which hands it to the
/// trace (reading `count` arguments) and to `wl_resource_post_event_array`, which reads as
/// many arguments as the message's signature has; the senders (`send1` to `send6`) pass a
/// tuple of exactly that many, and nothing writes through the pointer. Used on the display's
/// thread, inside one call.
@inline(__always)
func withUnprotectedArguments<Arguments>(_ arguments: inout Arguments, _ body: (UnsafeMutablePointer<wl_argument>) -> Void) {
    _withUnprotectedUnsafeMutableBytes(of: &arguments) { body($0.baseAddress!.assumingMemoryBound(to: wl_argument.self)) }
}

/// A message's arguments written into memory of the sender's owner, not onto the sender's
/// stack (``Libwayland/touchMotionUntraced(_:time:id:x:y:into:)``): with the arguments on the
/// stack, the stack frame had to outlive the post, so the touch motion's sender kept a frame
/// and saved registers around it (issue 25, seventeenth round); with them here, the post is
/// the sender's last act, a jump into libwayland (the kiosk's touch motion 91 → ~55
/// instructions with its witness, ~27 a touchscreen frame; docs/BENCHMARKS.md, branch
/// `i33w`). Pinned on the wire by `TouchMotionWireTests` and the wev and weston-simple-touch
/// end-to-end tests.
///
/// Safe by construction: the owner (the seat's `TouchFrameQueue`) allocates the buffer once
/// and frees it in its deinit; it lives as long as any responder that sends with it (each
/// holds the queue strongly). One message's arguments at a time: a sender writes them and
/// posts at once, and `wl_resource_post_event_array` copies them (`wl_closure_marshal`)
/// before it does anything else, so a post made from inside another (a destroy listener run
/// by a failed send) cannot overwrite arguments still to be read. Holds ``capacity``
/// arguments; each sender writes at most that many (wl_touch.down's six). A touch down or up
/// writes its arguments before it asks the display for the serial and records it
/// (``ClientSurfaceResponder``'s `beginOneTouch` and `endOneTouch`): neither posts nor calls
/// anything that does, so the arguments are still the down's or up's when it posts them.
/// Used on the display's thread only.
struct WireArguments {
    static let capacity = 6
    let base: UnsafeMutablePointer<wl_argument>

    static func allocate() -> WireArguments {
        let base = UnsafeMutablePointer<wl_argument>.allocate(capacity: capacity)
        base.initialize(repeating: wl_argument(u: 0), count: capacity)
        return WireArguments(base: base)
    }

    /// Its owner's deinit: the memory goes.
    func deallocate() { base.deallocate() }
}
