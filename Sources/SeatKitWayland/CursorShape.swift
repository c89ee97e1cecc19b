import CWaylandServer

// cursor-shape-v1 (wp_cursor_shape_manager_v1, version 1): a client names its pointer's
// cursor ("text", "pointer", "ew-resize") instead of drawing it; the compositor draws it from
// its own theme. The XML is in protocols/ (wayland-protocols 1.32; Debian 12 has 1.31).

/// A cursor named by cursor-shape-v1 (`wp_cursor_shape_device_v1.shape`, version 1): the CSS
/// cursor names, which ``cssName`` gives for looking one up in a cursor theme.
public enum CursorShape: UInt32, Sendable, CaseIterable {
    case `default` = 1, contextMenu, help, pointer, progress, wait, cell, crosshair, text, verticalText, alias, copy, move,
         noDrop, notAllowed, grab, grabbing, eResize, nResize, neResize, nwResize, sResize, seResize, swResize, wResize,
         ewResize, nsResize, neswResize, nwseResize, colResize, rowResize, allScroll, zoomIn, zoomOut

    /// The CSS name ("default", "context-menu", "ew-resize"…), as cursor themes name them.
    public var cssName: String {
        var name = ""
        for c in String(describing: self) {
            if c.isUppercase {
                name += "-" + c.lowercased()
            } else {
                name.append(c)
            }
        }
        return name
    }
}

/// `wp_cursor_shape_manager_v1` (version 1) for one ``Seat``: the client with pointer focus
/// sets ``Seat/cursorShape`` by name, quoting its current pointer enter's serial (or any later
/// one, as with wl_pointer.set_cursor); ``Seat/cursorShapeChanged`` tells the compositor,
/// which draws that shape from its own cursor theme. Tablet tools get a device that changes
/// nothing (the seat offers no tablets). A shape outside the protocol's list is the protocol
/// error `invalid_shape`.
public final class CursorShapeManager: GlobalOwner {
    /// The seat whose pointer the shapes are for. Not kept: let go of the manager first.
    public unowned let seat: Seat
    private var global: OpaquePointer?

    /// Advertises `wp_cursor_shape_manager_v1` on the seat's display.
    /// Kept, so that the display outlives the globals this object destroys when it goes,
    /// whatever order the compositor lets go of its objects in (an optimized build ends a
    /// local's lifetime at its last use).
    private let displayKeptAlive: WaylandDisplay

    public init(seat: Seat) {
        self.seat = seat
        displayKeptAlive = seat.display
        global = Libwayland.createGlobal(seat.display.display, wp_cursor_shape_manager_v1_wire()!, version: 1, owner: self)
    }

    deinit { if let global { Libwayland.destroyGlobal(global) } }

    package func bind(client: OpaquePointer, version: UInt32, id: UInt32) {
        _ = Libwayland.createResource(client, wp_cursor_shape_manager_v1_wire()!, version: Int32(version), id: id,
                                      implementation: cursorShapeManagerRequests, object: self)
    }

    /// set_shape from `client`'s device of a wl_pointer: honoured as set_cursor is, for the
    /// client with pointer focus quoting a serial from its current enter on.
    func setShape(_ raw: UInt32, serial: UInt32, client: OpaquePointer, device: OpaquePointer) {
        guard let shape = CursorShape(rawValue: raw) else {
            Libwayland.postError(device, code: WP_CURSOR_SHAPE_DEVICE_V1_ERROR_INVALID_SHAPE.rawValue, "no cursor shape \(raw)")
            return
        }
        guard let focus = seat.pointerFocus, focus.client == ClientID(client), let enter = seat.pointerEnterSerial,
              serial &- enter <= seat.display.currentSerial &- enter else { return }
        seat.cursorShape = shape
        seat.cursorShapeChanged?(shape)
    }
}

/// A client's wp_cursor_shape_device_v1: of a wl_pointer (`forPointer`), or of a tablet tool.
final class CursorShapeDevice {
    weak var manager: CursorShapeManager?
    let forPointer: Bool
    init(manager: CursorShapeManager, forPointer: Bool) {
        self.manager = manager
        self.forPointer = forPointer
    }
}

private func makeDevice(_ client: OpaquePointer?, _ resource: OpaquePointer?, _ id: UInt32, forPointer: Bool) {
    guard let client, let resource, let manager = Libwayland.object(resource, as: CursorShapeManager.self) else { return }
    _ = Libwayland.createResource(client, wp_cursor_shape_device_v1_wire()!, version: Libwayland.version(of: resource), id: id,
                                  implementation: cursorShapeDeviceRequests,
                                  object: CursorShapeDevice(manager: manager, forPointer: forPointer))
}

private nonisolated(unsafe) let cursorShapeManagerRequests = Libwayland.table(wp_cursor_shape_manager_v1_requests(
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } },
    get_pointer: { client, resource, id, _ in makeDevice(client, resource, id, forPointer: true) },
    get_tablet_tool_v2: { client, resource, id, _ in makeDevice(client, resource, id, forPointer: false) }
))

private nonisolated(unsafe) let cursorShapeDeviceRequests = Libwayland.table(wp_cursor_shape_device_v1_requests(
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } },
    set_shape: { client, resource, serial, shape in
        guard let client, let resource, let device = Libwayland.object(resource, as: CursorShapeDevice.self), device.forPointer else { return }
        device.manager?.setShape(shape, serial: serial, client: client, device: resource)
    }
))
