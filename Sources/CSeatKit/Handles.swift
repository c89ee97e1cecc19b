import CSeatKitSupport
@_spi(SeatKitInternals) import SeatKit
#if canImport(Glibc)
import Glibc
#endif

/// What a handle names. Part of the handle's bits, so that a surface handle passed where a
/// router is expected is refused, not reinterpreted.
enum HandleKind: UInt8, CustomStringConvertible {
    case router = 1, output, surface, keymap, recognizer, filter, spy, replay, libinput, grab, kioskPolicy

    var description: String {
        switch self {
        case .router: "router"
        case .output: "output"
        case .surface: "surface"
        case .keymap: "keymap"
        case .recognizer: "recognizer"
        case .filter: "filter"
        case .spy: "spy"
        case .replay: "replay"
        case .libinput: "libinput"
        case .grab: "grab"
        case .kioskPolicy: "kiosk policy"
        }
    }
}

/// An object behind a C handle.
class HandleObject {
    /// Set once the object is in the table.
    var handle: OpaquePointer!
}

/// The C API's handles: never pointers to objects, but (generation, slot, kind) packed into
/// a pointer-sized value. A destroyed handle's slot gets a new generation, so the old value
/// never matches again (until 2^32 reuses of that slot), and nothing is ever dereferenced
/// before the table says the handle is live.
///
/// Bits: generation << 32 | slot << 8 | kind. Slot numbers have 24 bits; kind is never 0, so
/// no handle is NULL.
///
/// Threads: one table for the process, behind a lock, so that routers may live on different
/// threads. Each handle belongs to the thread that made it (a router's objects are made on
/// its thread, which the call that makes them checks): a lookup from another thread finds
/// nothing, and the call is refused and logged like a stale handle. Keymaps, which are
/// immutable and shared by reference, belong to no thread.
enum Handles {
    private struct Slot {
        var generation: UInt32
        var kind: UInt8
        /// The thread that may use it; nil: any.
        var thread: UInt64?
        /// Owns the object.
        var object: HandleObject?
        /// The same object, for lookups that retain nothing (rule 2 of `Unretained`: owned beside it).
        var unretained: Unretained<HandleObject>?
    }

    private struct Table {
        var slots: [Slot] = []
        var freeSlots: [UInt32] = []
    }
    // Every access holds `mutex`, and no access spans a call that could reach the table again:
    // the run-time exclusivity checks are skipped, as for the router's own state
    // (UnsafeFoundations.swift).
    @exclusivity(unchecked) nonisolated(unsafe) private static var unchecked = Table()
    nonisolated(unsafe) private static let mutex = CCalls.makeMutex()

    /// Runs `body` on the table with the lock held.
    @inline(__always)
    private static func locked<Result>(_ body: (inout Table) -> Result) -> Result {
        CCalls.lock(mutex)
        defer { CCalls.unlock(mutex) }
        return body(&unchecked)
    }
    static let slotLimit: UInt32 = 1 << 24

    /// Gives `object` a handle, owned by this thread (any thread for a keymap). Nil when 16
    /// million handles are live at once.
    static func insert(_ object: HandleObject, kind: HandleKind) -> OpaquePointer? {
        let thread: UInt64? = kind == .keymap ? nil : CCalls.currentThread()
        let bits: UInt? = locked { t in
            let index: UInt32
            if let reused = t.freeSlots.popLast() {
                index = reused
            } else {
                guard UInt32(t.slots.count) < slotLimit else { return nil }
                index = UInt32(t.slots.count)
                t.slots.append(Slot(generation: 1, kind: 0, thread: nil, object: nil, unretained: nil))
            }
            t.slots[Int(index)].kind = kind.rawValue
            t.slots[Int(index)].thread = thread
            t.slots[Int(index)].object = object
            t.slots[Int(index)].unretained = Unretained(object)
            return UInt(t.slots[Int(index)].generation) << 32 | UInt(index) << 8 | UInt(kind.rawValue)
        }
        guard let bits else { return nil }
        let handle = OpaquePointer(bitPattern: bits)!
        object.handle = handle
        return handle
    }

    /// The live object behind `handle`, if it is one of `kind` and this thread may use it.
    @inline(__always)
    static func object(_ handle: OpaquePointer?, _ kind: HandleKind) -> HandleObject? {
        unretained(handle, kind)?.object
    }

    /// The live object behind `handle` without retaining it: for the per-event entry points.
    /// It stays alive until the outermost API call returns even if its handle ends meanwhile
    /// (see ``remove(_:)``). Nil on another thread than the handle's.
    ///
    /// The last handle a thread looked up is remembered by that thread (`ThreadState`), so
    /// that the per-event calls on one router take no lock: a handle that belongs to a thread
    /// is removed only on that thread (its destroy call is checked like any other), which
    /// forgets it there (``remove(_:)``), so a remembered handle is live. Keymaps, which any
    /// thread may destroy, are never remembered.
    @inline(__always)
    static func unretained(_ handle: OpaquePointer?, _ kind: HandleKind) -> Unretained<HandleObject>? {
        unretained(handle, kind, ThreadState.current)
    }

    /// ``unretained(_:_:)`` with this thread's state already at hand (`ThreadState.current`,
    /// read once per API call: see ``APICall/run(_:_:)``).
    @inline(__always)
    static func unretained(_ handle: OpaquePointer?, _ kind: HandleKind,
                           _ state: UnsafeMutablePointer<ThreadState>) -> Unretained<HandleObject>? {
        let bits = UInt(bitPattern: handle)
        guard UInt8(truncatingIfNeeded: bits) == kind.rawValue else { return nil }
        // A remembered handle (never 0: a handle's kind bits are not) always has its object.
        if state.pointee.lastHandle == bits { return state.pointee.lastObject.unsafelyUnwrapped }
        return lookUp(bits, kind, state)
    }

    @inline(never)
    private static func lookUp(_ bits: UInt, _ kind: HandleKind, _ state: UnsafeMutablePointer<ThreadState>) -> Unretained<HandleObject>? {
        let index = Int((bits >> 8) & 0xFF_FFFF)
        let me = CCalls.currentThread()
        let found: (Unretained<HandleObject>, owned: Bool)? = locked { t in
            guard index < t.slots.count,
                  t.slots[index].generation == UInt32(truncatingIfNeeded: bits >> 32),
                  t.slots[index].kind == kind.rawValue, let object = t.slots[index].unretained else { return nil }
            if let thread = t.slots[index].thread, thread != me { return nil }
            return (object, t.slots[index].thread != nil)
        }
        guard let found else { return nil }
        if found.owned {
            state.pointee.lastHandle = bits
            state.pointee.lastObject = found.0
        }
        return found.0
    }

    /// Ends a handle. The object is released at the end of the outermost API call under way
    /// on this thread (see ``APICall``), so that a router walking through it meanwhile keeps it alive.
    static func remove(_ handle: OpaquePointer) {
        let bits = UInt(bitPattern: handle)
        let index = Int((bits >> 8) & 0xFF_FFFF)
        let state = ThreadState.current
        if state.pointee.lastHandle == bits {
            state.pointee.lastHandle = 0
            state.pointee.lastObject = nil
        }
        let object: HandleObject? = locked { t in
            guard index < t.slots.count, t.slots[index].generation == UInt32(truncatingIfNeeded: bits >> 32) else { return nil }
            let object = t.slots[index].object
            t.slots[index].object = nil
            t.slots[index].unretained = nil
            t.slots[index].kind = 0
            t.slots[index].thread = nil
            t.slots[index].generation &+= 1
            if t.slots[index].generation == 0 { t.slots[index].generation = 1 }
            t.freeSlots.append(UInt32(index))
            return object
        }
        if let object { APICall.keepUntilReturn(object) }
    }

    /// Live handles, for tests.
    static var liveCount: Int { locked { $0.slots.count - $0.freeSlots.count } }

    private static func article(_ kind: HandleKind) -> String { kind == .output ? "an" : "a" }

    /// Whether `handle` is live but belongs to another thread than this one.
    static func isLiveOnAnotherThread(_ handle: OpaquePointer?) -> Bool {
        let bits = UInt(bitPattern: handle)
        let index = Int((bits >> 8) & 0xFF_FFFF)
        let me = CCalls.currentThread()
        return locked { t in
            guard index < t.slots.count, t.slots[index].kind != 0,
                  t.slots[index].generation == UInt32(truncatingIfNeeded: bits >> 32),
                  let thread = t.slots[index].thread else { return false }
            return thread != me
        }
    }

    /// Describes a refused handle for the log.
    static func describeRefused(_ handle: OpaquePointer?, expected kind: HandleKind) -> String {
        guard let handle else { return "NULL \(kind)" }
        let bits = UInt(bitPattern: handle)
        let actual = HandleKind(rawValue: UInt8(truncatingIfNeeded: bits))
        if let actual, actual != kind { return "\(article(actual)) \(actual) handle where \(article(kind)) \(kind) is expected" }
        if isLiveOnAnotherThread(handle) {
            return "\(kind) handle 0x\(String(bits, radix: 16)) from another thread: it belongs to the thread that made it (its router's)"
        }
        return "\(kind) handle 0x\(String(bits, radix: 16)) is not live (destroyed, or never made by SeatKit)"
    }
}

/// What the C API keeps per thread: the nesting of API calls (``APICall``) and the last handle
/// looked up. Made on a thread's first call, freed when the thread exits. (The buffers of
/// strings handed to C are each router's: `CText`.)
struct ThreadState {
    /// The last handle this thread looked up, and its object (see `Handles.unretained`).
    var lastHandle: UInt = 0
    var lastObject: Unretained<HandleObject>?
    var depth = 0
    var kept: [HandleObject] = []

    /// This thread's.
    @inline(__always)
    static var current: UnsafeMutablePointer<ThreadState> {
        if let raw = CCalls.threadState() { return raw.assumingMemoryBound(to: ThreadState.self) }
        return makeCurrent()
    }

    @inline(never)
    private static func makeCurrent() -> UnsafeMutablePointer<ThreadState> {
        let state = UnsafeMutablePointer<ThreadState>.allocate(capacity: 1)
        state.initialize(to: ThreadState())
        CCalls.setThreadState(state) { raw in
            guard let state = raw?.assumingMemoryBound(to: ThreadState.self) else { return }
            state.deinitialize(count: 1)
            state.deallocate()
        }
        return state
    }
}

/// Calls from C that reach the router, counted: objects whose handles end meanwhile stay
/// alive until the outermost call returns, because the router may be walking through them
/// (a responder destroying its own surface from inside a callback).
enum APICall {
    @inline(__always)
    static func run<Result>(_ body: () -> Result) -> Result {
        run(ThreadState.current, body)
    }

    /// ``run(_:)`` with this thread's state already at hand: a per-event entry point reads
    /// it once, for the handle's lookup and for this.
    @inline(__always)
    static func run<Result>(_ state: UnsafeMutablePointer<ThreadState>, _ body: () -> Result) -> Result {
        // Nesting cannot reach Int.max: no overflow check.
        state.pointee.depth &+= 1
        let result = body()
        state.pointee.depth &-= 1
        if state.pointee.depth == 0, !state.pointee.kept.isEmpty { releaseKept(state) }
        return result
    }

    static func keepUntilReturn(_ object: HandleObject) {
        let state = ThreadState.current
        state.pointee.kept.append(object)
        if state.pointee.depth == 0 { releaseKept(state) }
    }

    @inline(never)
    private static func releaseKept(_ state: UnsafeMutablePointer<ThreadState>) {
        // Releasing may run deinits that end other handles: take the list first.
        while !state.pointee.kept.isEmpty {
            let batch = state.pointee.kept
            state.pointee.kept.removeAll()
            _ = batch
        }
    }
}
