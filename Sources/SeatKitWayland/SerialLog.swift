@_spi(SeatKitInternals) import SeatKit

/// A connected client, identified by its `struct wl_client *` for the life of the connection.
///
/// A compositor makes one from the `wl_client *` libwayland hands its request handlers
/// (`ClientID(wlClient)`, or ``init(owning:)`` for a resource's client), to check a serial a client
/// quotes against ``Seat/serials`` (xdg_popup.grab, xdg_toplevel.move, set_selection) or to
/// compare with ``Seat/keyboardFocusClient``.
public struct ClientID: Hashable, CustomStringConvertible {
    let pointer: OpaquePointer
    /// The client behind `wlClient`, a `struct wl_client *`.
    public init(_ wlClient: OpaquePointer) { self.pointer = wlClient }
    /// The client that owns `resource`, a `struct wl_resource *` (`wl_resource_get_client`).
    public init(owning resource: OpaquePointer) { self.pointer = Libwayland.client(of: resource) }
    /// The `struct wl_client *` this identifies.
    public var wlClient: OpaquePointer { pointer }
    /// The client's address bits, never 0 (for ``SerialLog``'s one-word compare).
    @inline(__always) var bits: UInt { UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(pointer))) }
    public var description: String { "client@\(bits)" }
    /// The client's process id, as the kernel reported it when it connected.
    public var pid: Int32 { Libwayland.pid(of: pointer) }
}

/// What a serial was sent with.
public enum SerialKind: Sendable, Hashable {
    case pointerEnter, pointerLeave, button
    case keyboardEnter, keyboardLeave, key, modifiers
    case touchDown, touchUp
    case gesture
}

/// The serials each client was sent, newest last, so that requests carrying a serial
/// (wl_pointer.set_cursor, xdg_toplevel.move, popups' grabs) can be checked against what
/// that client really received. Serials come from the display's counter; a client can only
/// quote serials of its own events.
public final class SerialLog {
    public struct Entry: Sendable, Hashable {
        public var serial: UInt32
        public var kind: SerialKind
    }

    /// How many serials are kept per client: enough for any request that quotes a recent one.
    public let depth: Int
    /// The hot state, exempt from run-time exclusivity checks (the rules are in
    /// UnsafeFoundations.swift).
    private struct HotState {
        var entries: [ClientID: Ring] = [:]
        /// The client recorded last and its ring: a serial goes to the same client as the
        /// one before it almost always (the focused one), and hashing the client for the
        /// dictionary cost ~200 instructions a serial (issue 25, tenth round). The ring is
        /// unretained (the core's `Unretained`, rule 2, owned beside it: `entries` keeps it,
        /// and `forget(_:)` clears the two together): loading it owned cost a retain and a
        /// release per serial, ~150 instructions a key frame (issue 25, eleventh round).
        /// `lastClient` is the `wl_client *`'s address bits, 0 with none (no client is at 0):
        /// compared in one instruction, not an optional's tag and payload (issue 25,
        /// eighteenth round, ~5 instructions a serial).
        var lastClient: UInt = 0
        var lastRing: Unretained<Ring>?
    }

    @exclusivity(unchecked) private var unchecked = HotState()

    /// One client's newest serials, oldest overwritten first: a class, so that recording a
    /// serial changes it in place. Its room for `depth` entries is allocated once, with the
    /// ring: a write is a store, without an array's uniqueness check.
    private final class Ring {
        /// Room for `depth` entries; the first ``count`` are set.
        private let slots: UnsafeMutablePointer<Entry>
        private let depth: Int
        struct HotState {
            /// Whether `next` has wrapped once: all `depth` entries are set. A flag set on the
            /// wrap, not a count raised per entry, whose compare and store cost ~5
            /// instructions a serial (issue 25, nineteenth round).
            var isFull = false
            /// Where the next entry goes (``count`` until all `depth` are set).
            var next = 0
        }
        /// How many entries are set: `next` until the ring is full, then `depth`.
        var count: Int { unchecked.isFull ? depth : unchecked.next }
        @exclusivity(unchecked) var unchecked = HotState()

        init(depth: Int) {
            self.depth = depth
            slots = .allocate(capacity: depth)
        }

        deinit {
            slots.deinitialize(count: count)
            slots.deallocate()
        }

        /// The entries set, in slot order (the oldest at `next` once full).
        var entries: UnsafeBufferPointer<Entry> { UnsafeBufferPointer(start: slots, count: count) }

        /// Writes `entry` at `next` and moves `next` on (the index wraps by a compare, not a
        /// division): one path for a ring filling and a full one. While filling, `next` is
        /// `count`, so ``entries`` read from `next` on are none and the oldest is at 0, as
        /// when full the oldest is at `next`. `Entry` is trivial: initialising a slot set
        /// before overwrites it.
        @inline(__always)
        func record(_ entry: Entry) {
            let i = unchecked.next
            (slots + i).initialize(to: entry)
            // `i` is below `depth`, an `Int`: the add cannot overflow, so no test for it.
            if i &+ 1 == depth {
                unchecked.next = 0
                unchecked.isFull = true
            } else {
                unchecked.next = i &+ 1
            }
        }
    }

    public init(depth: Int = 32) { self.depth = depth }

    /// Inlined into ``Seat/nextSerial(_:for:)``: the usual serial, to the client recorded
    /// last, is a compare and a store in the caller (a call of its own cost ~46 instructions
    /// a serial, ~105 a key frame in the kiosk; issue 25, eleventh round, `i26m`). Another
    /// client's goes through ``recordSwitchingClient(_:for:in:)``.
    @inline(__always)
    func record(_ serial: UInt32, _ kind: SerialKind, for client: ClientID) {
        let entry = Entry(serial: serial, kind: kind)
        if unchecked.lastClient == client.bits, let last = unchecked.lastRing {
            last.with { $0.record(entry) }
            return
        }
        SerialLog.recordSwitchingClient(entry, for: client, in: self)
    }

    /// ``record(_:_:for:)`` for a client other than the last one (or with `depth` 0): its
    /// ring looked up or made, and kept as the last. Static, the log a parameter: as a method,
    /// the log went in the register of `self`, so each sender that inlines ``record(_:_:for:)``
    /// saved and restored its own `self` around the call (issue 25, eighteenth round).
    @inline(never)
    private static func recordSwitchingClient(_ entry: Entry, for client: ClientID, in log: SerialLog) {
        log.recordSwitchingClient(entry, for: client)
    }

    @inline(__always)
    private func recordSwitchingClient(_ entry: Entry, for client: ClientID) {
        guard depth > 0 else { return }
        let ring: Ring
        if let existing = unchecked.entries[client] {
            ring = existing
        } else {
            ring = Ring(depth: depth)
            unchecked.entries[client] = ring
        }
        unchecked.lastClient = client.bits
        unchecked.lastRing = Unretained(ring)
        ring.record(entry)
    }

    /// The client's entries, oldest first.
    private func ordered(_ client: ClientID) -> [Entry] {
        guard let ring = unchecked.entries[client] else { return [] }
        let slots = ring.entries, next = ring.unchecked.next
        return Array(slots[next...]) + Array(slots[..<next])
    }

    /// The newest serial of `kind` sent to `client`.
    public func latest(_ kind: SerialKind, for client: ClientID) -> UInt32? {
        ordered(client).last { $0.kind == kind }?.serial
    }

    /// True when `serial` was sent to `client` with one of `kinds` and is among the last
    /// ``depth`` serials it got.
    public func contains(_ serial: UInt32, for client: ClientID, kinds: Set<SerialKind>) -> Bool {
        guard let ring = unchecked.entries[client] else { return false }
        return ring.entries.contains { $0.serial == serial && kinds.contains($0.kind) }
    }

    func forget(_ client: ClientID) {
        // The unretained link first, then the ring that keeps it.
        if unchecked.lastClient == client.bits {
            unchecked.lastClient = 0
            unchecked.lastRing = nil
        }
        unchecked.entries[client] = nil
    }
}
