import CSeatKitSupport

// The C API's unsafe tricks for speed, in one place (the house rule: each is documented
// here, measured, and used only through these functions). The core's are in SeatKit's
// UnsafeFoundations.swift.

/// Calls `body` with the addresses of a C event and its context on this stack frame, without
/// the stack protector.
///
/// Every per-event call into C hands a callback two structs on Swift's stack (the event and
/// its `seatkit_event_context`; both `const` in the header). Swift guards a function that
/// takes a local's address with a stack canary: about six instructions a call (a load from
/// `%fs`, a store, a compare and a branch at the return), which a pointer motion over the
/// benchmark's scene paid five times (`Benchmarks/callgrind-capi.sh`; docs/BENCHMARKS.md, the
/// C API section). The two structs are fixed-size and the header lets the callback only read
/// them, so this frame holds no buffer that the call could overrun without first breaking
/// that contract (a callback that writes through a `const` pointer); the canary would guard
/// nothing the header allows. `_withUnprotectedUnsafePointer` is the standard library's
/// way to take such an address without it.
///
/// The pointers are valid only during `body`, as the header says of every event pointer.
@inline(__always)
func withUnprotectedCArguments<Event, Result>(
    _ event: inout Event, _ context: inout seatkit_event_context,
    _ body: (UnsafePointer<Event>, UnsafePointer<seatkit_event_context>) -> Result
) -> Result {
    _withUnprotectedUnsafePointer(to: &event) { e in
        _withUnprotectedUnsafePointer(to: &context) { c in body(e, c) }
    }
}

/// ``withUnprotectedCArguments(_:_:_:)`` for the event alone, when the context is not on this
/// frame (a responder's own context, made once: `CResponder.ownContext`). The same reasoning:
/// a fixed-size struct, `const` to the callback.
@inline(__always)
func withUnprotectedCEvent<Event, Result>(_ event: inout Event, _ body: (UnsafePointer<Event>) -> Result) -> Result {
    _withUnprotectedUnsafePointer(to: &event, body)
}

/// ``withUnprotectedCArguments(_:_:_:)`` for the context alone (the event is handed to C
/// elsewhere on the frame, or was already).
@inline(__always)
func withUnprotectedCContext<Result>(_ context: inout seatkit_event_context,
                                     _ body: (UnsafePointer<seatkit_event_context>) -> Result) -> Result {
    _withUnprotectedUnsafePointer(to: &context, body)
}

/// Calls `body` with the object behind a C callback's user data (made with
/// `Unmanaged.passUnretained`), without retaining it for the call.
///
/// For an event-loop source's wakeup (a libinput context's fd), which ran a retain and a
/// release of its object per wakeup (`takeUnretainedValue()`). Safe under two conditions the
/// caller keeps: the object outlives the source (its `destroy()` removes the source before
/// the object can be released), and the call runs inside `APICall.run`, so that an object
/// whose handle ends during `body` is released only after that outermost call returns,
/// never while `body` runs.
@inline(__always)
func withUnretainedUserData<Object: AnyObject, Result>(_ data: UnsafeMutableRawPointer, as type: Object.Type,
                                                       _ body: (Object) -> Result) -> Result {
    Unmanaged<Object>.fromOpaque(data)._withUnsafeGuaranteedRef(body)
}
