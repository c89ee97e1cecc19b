import CWaylandServer
import SeatKit

/// The protocol extensions a seat offers next to wl_seat.
public struct SeatExtensions: OptionSet, Sendable {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// zwp_relative_pointer_manager_v1 (1): unaccelerated and accelerated motion deltas.
    public static let relativePointer = SeatExtensions(rawValue: 1 << 0)
    /// zwp_pointer_gestures_v1 (3): touchpad swipe, pinch and hold.
    public static let pointerGestures = SeatExtensions(rawValue: 1 << 1)
    /// zwp_pointer_constraints_v1 (1): lock and confine, one-shot and persistent.
    public static let pointerConstraints = SeatExtensions(rawValue: 1 << 2)
    /// zwp_keyboard_shortcuts_inhibit_manager_v1 (1): a focused client asks for all keys.
    public static let keyboardShortcutsInhibit = SeatExtensions(rawValue: 1 << 3)

    /// zwp_virtual_keyboard_manager_v1 (1): a client types, with a keymap of its own, into
    /// the client with keyboard focus (wtype, on-screen keyboards). Not in ``all``: any
    /// client that binds it can type into any other, so a compositor offers it knowingly.
    public static let virtualKeyboard = SeatExtensions(rawValue: 1 << 4)

    /// zwp_text_input_manager_v3 (1): text fields tell the seat they take text; focus follows
    /// keyboard focus.
    public static let textInput = SeatExtensions(rawValue: 1 << 5)
    /// zwp_input_method_manager_v2 (1): one client (an on-screen keyboard, a composer)
    /// writes into the focused text field. Its keyboard grab takes the keys the compositor's
    /// filters pass (a keyboard grab of the router that keeps focus; never displacing the
    /// compositor's own), and it types back what it does not take through a virtual keyboard
    /// of its own; its popups are shown below the text cursor when the surface roles provider
    /// gives their nodes (``WaylandSurfaceRoles/node(forSurface:)``). Not in ``all``, for
    /// the reason of ``virtualKeyboard``.
    public static let inputMethod = SeatExtensions(rawValue: 1 << 6)

    /// Every extension but ``virtualKeyboard``, ``inputMethod`` and ``virtualPointer``
    /// (``tablet`` included).
    public static let all: SeatExtensions = [.relativePointer, .pointerGestures, .pointerConstraints, .keyboardShortcutsInhibit,
                                             .textInput, .tablet]
}

/// A global whose every bound resource is served by one request table, with the seat's
/// record of the binding client as user data.
final class SeatExtensionGlobal: GlobalOwner {
    unowned let seat: Seat
    let interface: UnsafePointer<wl_interface>
    let requests: UnsafeRawPointer

    init(seat: Seat, interface: UnsafePointer<wl_interface>, requests: UnsafeRawPointer) {
        self.seat = seat
        self.interface = interface
        self.requests = requests
    }

    package func bind(client: OpaquePointer, version: UInt32, id: UInt32) {
        let binding = ExtensionBinding(seat: seat, client: seat.clientRecord(client))
        _ = Libwayland.createResource(client, interface, version: Int32(version), id: id, implementation: requests, object: binding)
    }
}

/// A client's binding of an extension manager global.
final class ExtensionBinding {
    /// The seat, without a weak reference (``SeatHandle``): nil once the seat is gone.
    var seat: Seat? { seatHandle.seat }
    private let seatHandle: SeatHandle
    let client: SeatClient
    init(seat: Seat, client: SeatClient) {
        self.seatHandle = seat.handle
        self.client = client
    }
}

/// An extension object listed in a ``SeatClient`` array, removed from it when destroyed.
final class ListedResource: ResourceObject {
    let client: SeatClient
    let list: WritableKeyPath<SeatClient, [OpaquePointer]>
    var resource: OpaquePointer?

    init(client: SeatClient, list: WritableKeyPath<SeatClient, [OpaquePointer]>) {
        self.client = client
        self.list = list
    }

    package func resourceDestroyed() {
        var c = client
        c[keyPath: list].removeAll { $0 == resource }
    }

    /// Creates the resource and lists it in `list` of `client`.
    @discardableResult
    static func create(_ wlClient: OpaquePointer?, _ interface: UnsafePointer<wl_interface>, version: Int32, id: UInt32,
                       requests: UnsafeRawPointer, client: SeatClient,
                       list: WritableKeyPath<SeatClient, [OpaquePointer]>) -> OpaquePointer? {
        guard let wlClient else { return nil }
        let object = ListedResource(client: client, list: list)
        guard let r = Libwayland.createResource(wlClient, interface, version: version, id: id, implementation: requests,
                                                object: object) else { return nil }
        object.resource = r
        var c = client
        c[keyPath: list].append(r)
        return r
    }
}

/// `destroy` for resources whose only request is their destructor (every such table has
/// the same layout: one function pointer).
nonisolated(unsafe) let destroyOnlyRequests = Libwayland.table(zwp_relative_pointer_v1_requests(
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } }
))

// MARK: - Relative pointer

extension ClientSurfaceResponder {
    /// zwp_relative_pointer_v1.relative_motion for relative devices (those reporting an
    /// unaccelerated delta; absolute motion has none), before wl_pointer.motion, in the
    /// same frame.
    /// Returns whether anything was sent (then a wl_pointer.frame must follow).
    @discardableResult
    func sendRelativeMotion(time: Timestamp, delta: Vector, unaccelerated: Vector, to devices: SeatClient) -> Bool {
        guard !devices.unchecked.relativePointers.isEmpty, unaccelerated != .zero else { return false }
        let us = UInt64(bitPattern: time.microseconds)
        for r in devices.unchecked.relativePointers {
            Libwayland.post(r, ZWP_RELATIVE_POINTER_V1_RELATIVE_MOTION, .uint(UInt32(us >> 32)), .uint(UInt32(us & 0xffff_ffff)),
                            .fixed(delta.dx), .fixed(delta.dy), .fixed(unaccelerated.dx), .fixed(unaccelerated.dy))
        }
        return true
    }
}

nonisolated(unsafe) let relativePointerManagerRequests = Libwayland.table(zwp_relative_pointer_manager_v1_requests(
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } },
    get_relative_pointer: { client, resource, id, _ in
        guard let resource, let binding = Libwayland.object(resource, as: ExtensionBinding.self) else { return }
        ListedResource.create(client, zwp_relative_pointer_v1_wire()!, version: Libwayland.version(of: resource), id: id,
                              requests: destroyOnlyRequests, client: binding.client, list: \.unchecked.relativePointers)
    }
))

// MARK: - Pointer gestures

extension ClientSurfaceResponder {
    /// Touchpad gestures go to the gesture objects of the client with pointer focus: begin
    /// names the surface, update and end follow (hold has no update).
    func sendGesture(_ event: TouchpadGestureEvent, surface: OpaquePointer, to devices: SeatClient) {
        let g = event.gesture
        let time = event.time.wireMilliseconds
        let resources: [OpaquePointer]
        switch g.kind {
        case .swipe: resources = devices.swipeGestures
        case .pinch: resources = devices.pinchGestures
        case .hold: resources = devices.holdGestures
        }
        guard !resources.isEmpty else { return }
        // Opcodes: begin 0, update 1, end 2 for swipe and pinch; begin 0, end 1 for hold.
        switch g.phase {
        case .begin:
            let serial = seat.nextSerial(.gesture, for: client)
            for r in resources { Libwayland.post(r, 0, .uint(serial), .uint(time), .object(surface), .uint(UInt32(g.fingers))) }
        case .update:
            for r in resources {
                switch g.kind {
                case .swipe: Libwayland.post(r, ZWP_POINTER_GESTURE_SWIPE_V1_UPDATE, .uint(time), .fixed(g.delta.dx), .fixed(g.delta.dy))
                case .pinch:
                    Libwayland.post(r, ZWP_POINTER_GESTURE_PINCH_V1_UPDATE, .uint(time), .fixed(g.delta.dx), .fixed(g.delta.dy),
                                    .fixed(g.scale), .fixed(g.rotation))
                case .hold: break
                }
            }
        case .end(let cancelled):
            let serial = seat.nextSerial(.gesture, for: client)
            let opcode = g.kind == .hold ? ZWP_POINTER_GESTURE_HOLD_V1_END : ZWP_POINTER_GESTURE_SWIPE_V1_END
            for r in resources { Libwayland.post(r, opcode, .uint(serial), .uint(time), .int(cancelled ? 1 : 0)) }
        }
    }
}

nonisolated(unsafe) let pointerGesturesRequests = Libwayland.table(zwp_pointer_gestures_v1_requests(
    get_swipe_gesture: { client, resource, id, _ in
        guard let resource, let binding = Libwayland.object(resource, as: ExtensionBinding.self) else { return }
        ListedResource.create(client, zwp_pointer_gesture_swipe_v1_wire()!, version: Libwayland.version(of: resource), id: id,
                              requests: destroyOnlyRequests, client: binding.client, list: \.swipeGestures)
    },
    get_pinch_gesture: { client, resource, id, _ in
        guard let resource, let binding = Libwayland.object(resource, as: ExtensionBinding.self) else { return }
        ListedResource.create(client, zwp_pointer_gesture_pinch_v1_wire()!, version: Libwayland.version(of: resource), id: id,
                              requests: destroyOnlyRequests, client: binding.client, list: \.pinchGestures)
    },
    release: { _, resource in if let resource { Libwayland.destroyResource(resource) } },
    get_hold_gesture: { client, resource, id, _ in
        guard let resource, let binding = Libwayland.object(resource, as: ExtensionBinding.self) else { return }
        ListedResource.create(client, zwp_pointer_gesture_hold_v1_wire()!, version: Libwayland.version(of: resource), id: id,
                              requests: destroyOnlyRequests, client: binding.client, list: \.holdGestures)
    }
))

// MARK: - Keyboard shortcuts inhibition

/// A client's request that compositor shortcuts be off while one of its surfaces has
/// keyboard focus. The compositor decides whether to honour it: its shortcut filters ask
/// ``Seat/shortcutsInhibited``.
final class ShortcutsInhibitor: ResourceObject {
    /// The seat, without a weak reference (``SeatHandle``): nil once the seat is gone.
    var seat: Seat? { seatHandle.seat }
    private let seatHandle: SeatHandle
    let surface: OpaquePointer
    var resource: OpaquePointer?
    var active = false

    init(seat: Seat, surface: OpaquePointer) {
        self.seatHandle = seat.handle
        self.surface = surface
    }

    func setActive(_ on: Bool) {
        guard on != active, let resource else { return }
        active = on
        Libwayland.post(resource, on ? ZWP_KEYBOARD_SHORTCUTS_INHIBITOR_V1_ACTIVE : ZWP_KEYBOARD_SHORTCUTS_INHIBITOR_V1_INACTIVE)
    }

    package func resourceDestroyed() {
        seat?.inhibitors.removeAll { $0 === self }
        resource = nil
    }
}

extension Seat {
    /// True while the surface with keyboard focus has an active shortcuts inhibitor: a
    /// compositor's global-shortcut filter should then let keys through to the client.
    public var shortcutsInhibited: Bool { inhibitors.contains { $0.active } }

    /// Keyboard focus moved: inhibitors of the focused surface become active, others not.
    func updateInhibitors() {
        let focused = keyboardFocus?.surfaceResource
        for inhibitor in inhibitors { inhibitor.setActive(inhibitor.surface == focused) }
    }
}

nonisolated(unsafe) let shortcutsInhibitManagerRequests = Libwayland.table(zwp_keyboard_shortcuts_inhibit_manager_v1_requests(
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } },
    inhibit_shortcuts: { client, resource, id, surface, seatResource in
        guard let client, let resource, let surface, let binding = Libwayland.object(resource, as: ExtensionBinding.self),
              let seat = binding.seat else { return }
        if seat.inhibitors.contains(where: { $0.surface == surface }) {
            Libwayland.postError(resource, code: ZWP_KEYBOARD_SHORTCUTS_INHIBIT_MANAGER_V1_ERROR_ALREADY_INHIBITED.rawValue,
                                 "the surface already inhibits shortcuts on this seat")
            return
        }
        let inhibitor = ShortcutsInhibitor(seat: seat, surface: surface)
        guard let r = Libwayland.createResource(client, zwp_keyboard_shortcuts_inhibitor_v1_wire()!, version: 1, id: id,
                                                implementation: destroyOnlyRequests, object: inhibitor) else { return }
        inhibitor.resource = r
        seat.inhibitors.append(inhibitor)
        seat.updateInhibitors()
    }
))
