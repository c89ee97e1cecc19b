@_spi(SeatKitInternals) import SeatKit

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
enum Handles {
    private struct Slot {
        var generation: UInt32
        var kind: UInt8
        /// Owns the object.
        var object: HandleObject?
        /// The same object, for lookups that retain nothing (rule 2 of `Unretained`: owned beside it).
        var unretained: Unretained<HandleObject>?
    }

    // One thread (the compositor's event loop) uses the table, and no access to it spans a
    // call that could reach it again: the runtime exclusivity checks (a third of the cost of
    // a lookup) are skipped, as for the router's own state (UnsafeFoundations.swift).
    private struct Table {
        var slots: [Slot] = []
        var freeSlots: [UInt32] = []
    }
    @exclusivity(unchecked) nonisolated(unsafe) private static var unchecked = Table()
    static let slotLimit: UInt32 = 1 << 24

    /// Gives `object` a handle. Nil when 16 million handles are live at once.
    static func insert(_ object: HandleObject, kind: HandleKind) -> OpaquePointer? {
        let index: UInt32
        if let reused = unchecked.freeSlots.popLast() {
            index = reused
        } else {
            guard UInt32(unchecked.slots.count) < slotLimit else { return nil }
            index = UInt32(unchecked.slots.count)
            unchecked.slots.append(Slot(generation: 1, kind: 0, object: nil, unretained: nil))
        }
        unchecked.slots[Int(index)].kind = kind.rawValue
        unchecked.slots[Int(index)].object = object
        unchecked.slots[Int(index)].unretained = Unretained(object)
        let bits = UInt(unchecked.slots[Int(index)].generation) << 32 | UInt(index) << 8 | UInt(kind.rawValue)
        let handle = OpaquePointer(bitPattern: bits)!
        object.handle = handle
        return handle
    }

    /// The live object behind `handle`, if it is one of `kind`.
    @inline(__always)
    static func object(_ handle: OpaquePointer?, _ kind: HandleKind) -> HandleObject? {
        unretained(handle, kind)?.object
    }

    /// The live object behind `handle` without retaining it: for the per-event entry points.
    /// It stays alive until the outermost API call returns even if its handle ends meanwhile
    /// (see ``remove(_:)``).
    @inline(__always)
    static func unretained(_ handle: OpaquePointer?, _ kind: HandleKind) -> Unretained<HandleObject>? {
        let bits = UInt(bitPattern: handle)
        let index = Int((bits >> 8) & 0xFF_FFFF)
        guard UInt8(truncatingIfNeeded: bits) == kind.rawValue, index < unchecked.slots.count,
              unchecked.slots[index].generation == UInt32(truncatingIfNeeded: bits >> 32),
              unchecked.slots[index].kind == kind.rawValue else { return nil }
        return unchecked.slots[index].unretained
    }

    /// Ends a handle. The object is released at the end of the outermost API call under way
    /// (see ``APICall``), so that a router walking through it meanwhile keeps it alive.
    static func remove(_ handle: OpaquePointer) {
        let bits = UInt(bitPattern: handle)
        let index = Int((bits >> 8) & 0xFF_FFFF)
        guard index < unchecked.slots.count, unchecked.slots[index].generation == UInt32(truncatingIfNeeded: bits >> 32) else { return }
        if let object = unchecked.slots[index].object { APICall.keepUntilReturn(object) }
        unchecked.slots[index].object = nil
        unchecked.slots[index].unretained = nil
        unchecked.slots[index].kind = 0
        unchecked.slots[index].generation &+= 1
        if unchecked.slots[index].generation == 0 { unchecked.slots[index].generation = 1 }
        unchecked.freeSlots.append(UInt32(index))
    }

    /// Live handles, for tests.
    static var liveCount: Int { unchecked.slots.count - unchecked.freeSlots.count }

    private static func article(_ kind: HandleKind) -> String { kind == .output ? "an" : "a" }

    /// Describes a refused handle for the log.
    static func describeRefused(_ handle: OpaquePointer?, expected kind: HandleKind) -> String {
        guard let handle else { return "NULL \(kind)" }
        let bits = UInt(bitPattern: handle)
        let actual = HandleKind(rawValue: UInt8(truncatingIfNeeded: bits))
        if let actual, actual != kind { return "\(article(actual)) \(actual) handle where \(article(kind)) \(kind) is expected" }
        return "\(kind) handle 0x\(String(bits, radix: 16)) is not live (destroyed, or never made by SeatKit)"
    }
}

/// Calls from C that reach the router, counted: objects whose handles end meanwhile stay
/// alive until the outermost call returns, because the router may be walking through them
/// (a responder destroying its own surface from inside a callback).
enum APICall {
    private struct Calls {
        var depth = 0
        var kept: [HandleObject] = []
    }
    /// The calls under way and what they keep (unchecked: one thread, no access spans a call).
    @exclusivity(unchecked) nonisolated(unsafe) private static var unchecked = Calls()

    @inline(__always)
    static func run<Result>(_ body: () -> Result) -> Result {
        unchecked.depth += 1
        let result = body()
        unchecked.depth -= 1
        if unchecked.depth == 0, !unchecked.kept.isEmpty { releaseKept() }
        return result
    }

    static func keepUntilReturn(_ object: HandleObject) {
        unchecked.kept.append(object)
        if unchecked.depth == 0 { releaseKept() }
    }

    @inline(never)
    private static func releaseKept() {
        // Releasing may run deinits that end other handles: take the list first.
        while !unchecked.kept.isEmpty {
            let batch = unchecked.kept
            unchecked.kept.removeAll()
            _ = batch
        }
    }
}
