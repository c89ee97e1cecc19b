import CWaylandServer
import SeatKit

// zwp_tablet_manager_v2 (tablet-unstable-v2, version 1): pens for clients that bound it; the
// pen as the pointer for clients that did not.
//
// A client's tablet seat hears of a tablet (zwp_tablet_v2: name, done) and of a tool
// (zwp_tablet_tool_v2: type, hardware serial and id, capabilities, done) before the first
// event that needs it: at get_tablet_seat for the tablets and tools the seat already knows,
// else just before the tool's first proximity_in on one of its surfaces (libinput itself
// learns of a tool only when it comes into proximity). Focus follows the pen, as the router
// routes it: proximity_in to the surface hovered, proximity_out when the pen hovers off it,
// the stroke's events (down, motion, pressure, tilt, …, up) to the surface the tip touched,
// each group closed by a frame. Tool buttons go as zwp_tablet_tool_v2.button.
//
// A client that bound no tablet manager gets the pen as its pointer, as sway and labwc do:
// wl_pointer enter and motion to the pen, the tip as BTN_LEFT, the pen's first and second
// buttons as BTN_RIGHT and BTN_MIDDLE, leave when the pen goes (unless the pointer's own
// focus is that surface, which keeps its enter).
//
// A tool's set_cursor is honoured for the client the tool is in proximity of, quoting a
// serial from that proximity_in on, as wl_pointer.set_cursor is: the compositor hears it
// through Seat.penCursorChanged (and hears nil when the tool leaves that client's surface,
// its surface is destroyed or its tablet goes). Pads and removal: TabletPadV2.swift.

extension SeatExtensions {
    /// zwp_tablet_manager_v2 (1): tablets and their tools (pens, erasers) for clients that
    /// bind it; every other client gets the pen as its pointer.
    public static let tablet = SeatExtensions(rawValue: 1 << 8)
}

/// Identifies a tool across tablets: a tool with a serial is the same on every tablet, one
/// without is told apart by kind within its tablet.
struct PenToolKey: Hashable {
    var kind: PenToolKind
    var serial: UInt64
    var device: DeviceID?

    init(_ tool: PenTool, device: DeviceID) {
        kind = tool.kind
        serial = tool.serial
        self.device = tool.serial == 0 ? device : nil
    }
}

/// The tablets and tools of the seat, and every client's tablet seats.
final class TabletV2State {
    /// Every zwp_tablet_seat_v2 of every client.
    var bindings: [TabletSeatBinding] = []
    /// Tools seen in proximity so far, announced to tablet seats made later.
    var knownTools: [(key: PenToolKey, tool: PenTool, device: DeviceID)] = []

    /// Pads present (TabletPadV2.swift).
    var pads: [PadRecord] = []
    /// The client each tool in proximity was sent proximity_in by, and that event's serial.
    var toolFocus: [PenToolKey: (client: ClientID, serial: UInt32, tool: PenTool, device: DeviceID)] = [:]
    /// The cursor each tool's client set (set_cursor).
    var cursors: [PenToolKey: CursorImage] = [:]
    /// Cursor surfaces the seat listens to the destruction of.
    var watchedCursorSurfaces: Set<OpaquePointer> = []
    /// Seat.penCursorChanged.
    var cursorChanged: ((PenCursor) -> Void)?
    /// Seat.padFeedbackChanged.
    var feedbackChanged: ((PadFeedback) -> Void)?

    func rememberTool(_ tool: PenTool, device: DeviceID) {
        let key = PenToolKey(tool, device: device)
        if let i = knownTools.firstIndex(where: { $0.key == key }) {
            // A tool with a serial moved to another tablet: it is now that tablet's.
            knownTools[i].device = device
        } else {
            knownTools.append((key, tool, device))
        }
    }

    /// set_cursor from `client` for the tool `key`.
    func setCursor(seat: Seat, toolResource: OpaquePointer, key: PenToolKey, client: ClientID, serial: UInt32,
                   surface: OpaquePointer?, hotspot: (Int32, Int32)) {
        guard let focus = toolFocus[key], focus.client == client,
              serial &- focus.serial <= seat.display.currentSerial &- focus.serial else { return }
        if let surface {
            if let roles = seat.surfaceRolesOrWarn("cursor roles"), !roles.assignCursorRole(to: surface) {
                Libwayland.postError(toolResource, code: ZWP_TABLET_TOOL_V2_ERROR_ROLE.rawValue, "the surface already has another role")
                return
            }
            if watchedCursorSurfaces.insert(surface).inserted {
                Libwayland.onResourceDestroyed(surface) { [weak self] in
                    guard let self else { return }
                    self.watchedCursorSurfaces.remove(surface)
                    for (k, image) in self.cursors where image.surfaceResource == surface {
                        self.cursors[k] = nil
                        if let f = self.toolFocus[k] { self.cursorChanged?(PenCursor(tool: f.tool, device: f.device, image: nil)) }
                    }
                }
            }
        }
        let image = surface.map { CursorImage(surfaceResource: $0, hotspotX: hotspot.0, hotspotY: hotspot.1) }
        cursors[key] = image
        cursorChanged?(PenCursor(tool: focus.tool, device: focus.device, image: image))
    }

    /// The tool left `client`'s surface: it forgets its proximity and cursor there.
    func toolLeft(_ tool: PenTool, device: DeviceID, client: ClientID) {
        let key = PenToolKey(tool, device: device)
        guard let focus = toolFocus[key], focus.client == client else { return }
        toolFocus[key] = nil
        if cursors.removeValue(forKey: key) != nil { cursorChanged?(PenCursor(tool: tool, device: device, image: nil)) }
    }
}

/// The cursor a client set for a tablet tool (`zwp_tablet_tool_v2.set_cursor`), for the
/// compositor to draw at the tool's position while it is in proximity; `image` nil: draw
/// none (the client hid it, or the tool left that client, or its surface or tablet went).
public struct PenCursor: Hashable {
    /// The tool.
    public var tool: PenTool
    /// The tablet it is on.
    public var device: DeviceID
    /// The client's cursor surface and hotspot, or nil.
    public var image: CursorImage?
}

extension Seat {
    /// Called when a client sets a tablet tool's cursor (zwp_tablet_tool_v2.set_cursor), and
    /// with a nil image when that cursor no longer applies. Only the client the tool is in
    /// proximity of can set it, quoting a serial from that proximity_in on.
    public var penCursorChanged: ((PenCursor) -> Void)? {
        get { tabletV2.cursorChanged }
        set { tabletV2.cursorChanged = newValue }
    }

    /// The cursor the client under `tool` set for it, if any (tablet-v2 clients only; a
    /// client getting the pen as its pointer sets ``cursor``).
    public func penCursor(for tool: PenTool, device: DeviceID) -> CursorImage? {
        tabletV2.cursors[PenToolKey(tool, device: device)]
    }
}

/// One client's zwp_tablet_seat_v2 and the tablet and tool objects made for it.
final class TabletSeatBinding: ResourceObject {
    /// The seat, without a weak reference (``SeatHandle``): nil once the seat is gone.
    var seat: Seat? { seatHandle.seat }
    private let seatHandle: SeatHandle
    let client: ClientID
    let wlClient: OpaquePointer
    var resource: OpaquePointer?
    var tablets: [(device: DeviceID, resource: OpaquePointer)] = []
    var tools: [(key: PenToolKey, resource: OpaquePointer)] = []
    var pads: [PadObjects] = []

    init(seat: Seat, client: OpaquePointer) {
        self.seatHandle = seat.handle
        self.wlClient = client
        self.client = ClientID(client)
    }

    func resourceDestroyed() {
        seat?.tabletV2.bindings.removeAll { $0 === self }
        resource = nil
    }

    /// The zwp_tablet_v2 of `device`, announced now if it was not.
    func tablet(_ device: DeviceID) -> OpaquePointer? {
        if let found = tablets.first(where: { $0.device == device }) { return found.resource }
        guard let seatResource = resource else { return nil }
        let object = TabletChild(binding: self)
        guard let r = Libwayland.createResource(wlClient, zwp_tablet_v2_wire()!, version: Libwayland.version(of: seatResource), id: 0,
                                                implementation: tabletRequests, object: object) else { return nil }
        object.resource = r
        tablets.append((device, r))
        Libwayland.post(seatResource, ZWP_TABLET_SEAT_V2_TABLET_ADDED, .object(r))
        Libwayland.post(r, ZWP_TABLET_V2_NAME, .string(seat?.router.devices[device]?.name ?? "tablet"))
        Libwayland.post(r, ZWP_TABLET_V2_DONE)
        return r
    }

    /// The zwp_tablet_tool_v2 of `tool`, announced now if it was not.
    func tool(_ tool: PenTool, device: DeviceID) -> OpaquePointer? {
        let key = PenToolKey(tool, device: device)
        if let found = tools.first(where: { $0.key == key }) { return found.resource }
        guard let seatResource = resource else { return nil }
        let object = TabletChild(binding: self)
        guard let r = Libwayland.createResource(wlClient, zwp_tablet_tool_v2_wire()!, version: Libwayland.version(of: seatResource), id: 0,
                                                implementation: tabletToolRequests, object: object) else { return nil }
        object.resource = r
        tools.append((key, r))
        Libwayland.post(seatResource, ZWP_TABLET_SEAT_V2_TOOL_ADDED, .object(r))
        Libwayland.post(r, ZWP_TABLET_TOOL_V2_TYPE, .uint(Self.wireType(tool.kind)))
        Libwayland.post(r, ZWP_TABLET_TOOL_V2_HARDWARE_SERIAL, .uint(UInt32(tool.serial >> 32)), .uint(UInt32(tool.serial & 0xffff_ffff)))
        if tool.hardwareID != 0 {
            Libwayland.post(r, ZWP_TABLET_TOOL_V2_HARDWARE_ID_WACOM, .uint(UInt32(tool.hardwareID >> 32)),
                            .uint(UInt32(tool.hardwareID & 0xffff_ffff)))
        }
        let capabilities: [(PenAxisSet, zwp_tablet_tool_v2_capability)] = [
            (.tilt, ZWP_TABLET_TOOL_V2_CAPABILITY_TILT), (.pressure, ZWP_TABLET_TOOL_V2_CAPABILITY_PRESSURE),
            (.distance, ZWP_TABLET_TOOL_V2_CAPABILITY_DISTANCE), (.rotation, ZWP_TABLET_TOOL_V2_CAPABILITY_ROTATION),
            (.slider, ZWP_TABLET_TOOL_V2_CAPABILITY_SLIDER), (.wheel, ZWP_TABLET_TOOL_V2_CAPABILITY_WHEEL),
        ]
        for (axis, wire) in capabilities where tool.capabilities.contains(axis) {
            Libwayland.post(r, ZWP_TABLET_TOOL_V2_CAPABILITY, .uint(wire.rawValue))
        }
        Libwayland.post(r, ZWP_TABLET_TOOL_V2_DONE)
        return r
    }

    /// tablet-v2's tool type: evdev's BTN_TOOL_* codes.
    static func wireType(_ kind: PenToolKind) -> UInt32 {
        switch kind {
        case .pen, .totem: ZWP_TABLET_TOOL_V2_TYPE_PEN.rawValue
        case .eraser: ZWP_TABLET_TOOL_V2_TYPE_ERASER.rawValue
        case .brush: ZWP_TABLET_TOOL_V2_TYPE_BRUSH.rawValue
        case .pencil: ZWP_TABLET_TOOL_V2_TYPE_PENCIL.rawValue
        case .airbrush: ZWP_TABLET_TOOL_V2_TYPE_AIRBRUSH.rawValue
        case .mouse: ZWP_TABLET_TOOL_V2_TYPE_MOUSE.rawValue
        case .lens: ZWP_TABLET_TOOL_V2_TYPE_LENS.rawValue
        }
    }

    /// Forgets a tablet or tool object the client destroyed.
    func forget(_ r: OpaquePointer) {
        tablets.removeAll { $0.resource == r }
        tools.removeAll { $0.resource == r }
        forgetPadObject(r)
    }
}

/// A zwp_tablet_v2 or zwp_tablet_tool_v2: forgotten by its tablet seat when destroyed.
final class TabletChild: ResourceObject {
    weak var binding: TabletSeatBinding?
    var resource: OpaquePointer?
    init(binding: TabletSeatBinding) { self.binding = binding }
    func resourceDestroyed() {
        if let resource { binding?.forget(resource) }
        resource = nil
    }
}

nonisolated(unsafe) let tabletManagerRequests = Libwayland.table(zwp_tablet_manager_v2_requests(
    get_tablet_seat: { client, resource, id, _ in
        guard let client, let resource, let binding = Libwayland.object(resource, as: ExtensionBinding.self),
              let seat = binding.seat else { return }
        let tabletSeat = TabletSeatBinding(seat: seat, client: client)
        guard let r = Libwayland.createResource(client, zwp_tablet_seat_v2_wire()!, version: Libwayland.version(of: resource), id: id,
                                                implementation: destroyOnlyRequests, object: tabletSeat) else { return }
        tabletSeat.resource = r
        seat.tabletV2.bindings.append(tabletSeat)
        // The tablets present and the tools seen so far.
        for (device, info) in seat.router.devices.sorted(by: { $0.key.rawValue < $1.key.rawValue })
            where info.capabilities.contains(.tabletTool) {
            _ = tabletSeat.tablet(device)
        }
        for known in seat.tabletV2.knownTools { _ = tabletSeat.tool(known.tool, device: known.device) }
        for pad in seat.tabletV2.pads { _ = tabletSeat.pad(pad) }
    },
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } }
))

nonisolated(unsafe) let tabletRequests = Libwayland.table(zwp_tablet_v2_requests(
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } }
))

nonisolated(unsafe) let tabletToolRequests = Libwayland.table(zwp_tablet_tool_v2_requests(
    set_cursor: { _, resource, serial, surface, x, y in
        guard let resource, let child = Libwayland.object(resource, as: TabletChild.self), let binding = child.binding,
              let seat = binding.seat, let key = binding.tools.first(where: { $0.resource == resource })?.key else { return }
        seat.tabletV2.setCursor(seat: seat, toolResource: resource, key: key, client: binding.client, serial: serial,
                                surface: surface, hotspot: (x, y))
    },
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } }
))

/// What a client surface's responder keeps about pens.
struct PenClientState {
    /// The pen is this surface's pointer (the client has no tablet seat): an enter was sent.
    var emulating = false
    /// Emulated buttons held (BTN_LEFT for the tip, others for pen buttons).
    var emulatedButtons: [UInt32] = []
}

extension ClientSurfaceResponder {
    /// The client's tablet seats (usually one).
    private func tabletSeats(_ body: (TabletSeatBinding) -> Void) -> Bool {
        var any = false
        for b in seat.tabletV2.bindings where b.client == client && b.resource != nil {
            any = true
            body(b)
        }
        return any
    }

    /// Sends `body`'s events to each of the client's tablet-tool objects for the pen, then a
    /// frame; false when the client has no tablet seat.
    private func sendTool(_ tool: PenTool, device: DeviceID, time: Timestamp, _ body: (OpaquePointer, TabletSeatBinding) -> Void) -> Bool {
        tabletSeats { b in
            guard let r = b.tool(tool, device: device) else { return }
            body(r, b)
            Libwayland.post(r, ZWP_TABLET_TOOL_V2_FRAME, .uint(time.wireMilliseconds))
        }
    }

    /// The axes, then the motion: GTK takes the axes of a motion, down or button event from
    /// what the frame told it before that event, so they come first.
    private func sendAxes(_ r: OpaquePointer, _ event: PenEvent, all: Bool) {
        let changed = all ? event.tool.capabilities.union(.position) : event.changedAxes
        let a = event.axes
        if changed.contains(.pressure) { Libwayland.post(r, ZWP_TABLET_TOOL_V2_PRESSURE, .uint(Self.wire65535(a.pressure))) }
        if changed.contains(.distance) { Libwayland.post(r, ZWP_TABLET_TOOL_V2_DISTANCE, .uint(Self.wire65535(a.distance))) }
        if changed.contains(.tilt) { Libwayland.post(r, ZWP_TABLET_TOOL_V2_TILT, .fixed(a.tiltX), .fixed(a.tiltY)) }
        if changed.contains(.rotation) { Libwayland.post(r, ZWP_TABLET_TOOL_V2_ROTATION, .fixed(a.rotation)) }
        if changed.contains(.slider) {
            Libwayland.post(r, ZWP_TABLET_TOOL_V2_SLIDER, .int(Int32((max(-1, min(1, a.slider)) * 65535).rounded())))
        }
        if changed.contains(.wheel), !all { Libwayland.post(r, ZWP_TABLET_TOOL_V2_WHEEL, .fixed(a.wheelDelta), .int(a.wheelDiscrete)) }
        if changed.contains(.position) {
            Libwayland.post(r, ZWP_TABLET_TOOL_V2_MOTION, .fixed(event.surfaceLocation.x), .fixed(event.surfaceLocation.y))
        }
    }

    /// 0...1 as tablet-v2's 0...65535.
    static func wire65535(_ v: Double) -> UInt32 { UInt32((max(0, min(1, v.isFinite ? v : 0)) * 65535).rounded()) }

    public func penEntered(_ event: PenEvent, context: ResponderContext) {
        guard let surface = surfaceResource else { return }
        seat.tabletV2.rememberTool(event.tool, device: event.device)
        let serial = seat.nextSerial(.pointerEnter, for: client)
        let sent = sendTool(event.tool, device: event.device, time: event.time) { r, b in
            guard let tablet = b.tablet(event.device) else { return }
            Libwayland.post(r, ZWP_TABLET_TOOL_V2_PROXIMITY_IN, .uint(serial), .object(tablet), .object(surface))
            sendAxes(r, event, all: true)
        }
        if sent {
            seat.tabletV2.toolFocus[PenToolKey(event.tool, device: event.device)] = (client, serial, event.tool, event.device)
            seat.tabletV2.padsFollow(self, tablet: event.device, seat: seat)
        } else {
            emulatePointerEnter(event)
        }
    }

    public func penLeft(_ event: PenEvent, context: ResponderContext) {
        guard surfaceResource != nil else { return }
        let sent = sendTool(event.tool, device: event.device, time: event.time) { r, _ in
            Libwayland.post(r, ZWP_TABLET_TOOL_V2_PROXIMITY_OUT)
        }
        if sent { seat.tabletV2.toolLeft(event.tool, device: event.device, client: client) } else { emulatePointerLeave(event) }
    }

    public func penMoved(_ event: PenEvent, context: ResponderContext) -> ResponderResult {
        guard surfaceResource != nil else { return .handled }
        let sent = sendTool(event.tool, device: event.device, time: event.time) { r, _ in sendAxes(r, event, all: false) }
        if !sent, unchecked.pen.emulating { emulatePointerMotion(event) }
        return .handled
    }

    public func penDown(_ event: PenEvent, context: ResponderContext) -> ResponderResult {
        guard surfaceResource != nil else { return .handled }
        let serial = seat.nextSerial(.button, for: client)
        let sent = sendTool(event.tool, device: event.device, time: event.time) { r, _ in
            sendAxes(r, event, all: false)
            Libwayland.post(r, ZWP_TABLET_TOOL_V2_DOWN, .uint(serial))
        }
        if !sent {
            if !unchecked.pen.emulating { emulatePointerEnter(event) }
            emulateButton(0x110, pressed: true, time: event.time)
        }
        return .handled
    }

    public func penUp(_ event: PenEvent, context: ResponderContext) -> ResponderResult {
        guard surfaceResource != nil else { return .handled }
        let sent = sendTool(event.tool, device: event.device, time: event.time) { r, _ in
            Libwayland.post(r, ZWP_TABLET_TOOL_V2_UP)
        }
        if !sent { emulateButton(0x110, pressed: false, time: event.time) }
        return .handled
    }

    public func penButton(_ event: PenButtonEvent, context: ResponderContext) -> ResponderResult {
        guard surfaceResource != nil else { return .handled }
        let serial = seat.nextSerial(.button, for: client)
        let state = event.state == .pressed ? ZWP_TABLET_TOOL_V2_BUTTON_STATE_PRESSED : ZWP_TABLET_TOOL_V2_BUTTON_STATE_RELEASED
        let sent = sendTool(event.tool, device: event.device, time: event.time) { r, _ in
            Libwayland.post(r, ZWP_TABLET_TOOL_V2_BUTTON, .uint(serial), .uint(event.button), .uint(state.rawValue))
        }
        if !sent {
            // BTN_STYLUS (0x14b) as BTN_RIGHT, BTN_STYLUS2 (0x14c) as BTN_MIDDLE; a puck's own
            // buttons as they are.
            let button: UInt32 = event.button == 0x14b ? 0x111 : event.button == 0x14c ? 0x112 : event.button
            emulateButton(button, pressed: event.state == .pressed, time: event.time)
        }
        return .handled
    }

    // MARK: The pen as the pointer

    private func emulatePointerEnter(_ event: PenEvent) {
        unchecked.pen.emulating = true
        guard let surface = surfaceResource, let devices = seat.client(client) else { return }
        // The pointer's own focus already entered this surface: the pen just moves it.
        if seat.pointerFocus === self { return emulatePointerMotion(event) }
        let serial = seat.nextSerial(.pointerEnter, for: client)
        devices.unchecked.pointers.scanEach { resource in
            Libwayland.post(resource, WL_POINTER_ENTER, .uint(serial), .object(surface),
                            .fixed(event.surfaceLocation.x), .fixed(event.surfaceLocation.y))
            frame(resource)
        }
    }

    private func emulatePointerMotion(_ event: PenEvent) {
        guard let devices = seat.client(client) else { return }
        let x = Libwayland.fixed(event.surfaceLocation.x), y = Libwayland.fixed(event.surfaceLocation.y)
        devices.unchecked.pointers.scanEach { resource in
            Libwayland.pointerMotion(resource, time: event.time.wireMilliseconds, x: x, y: y)
            frame(resource)
        }
    }

    private func emulateButton(_ button: UInt32, pressed: Bool, time: Timestamp) {
        if pressed {
            guard !unchecked.pen.emulatedButtons.contains(button) else { return }
            unchecked.pen.emulatedButtons.append(button)
        } else {
            guard let i = unchecked.pen.emulatedButtons.firstIndex(of: button) else { return }
            unchecked.pen.emulatedButtons.remove(at: i)
        }
        guard let devices = seat.client(client) else { return }
        let serial = seat.nextSerial(.button, for: client)
        let state = pressed ? WL_POINTER_BUTTON_STATE_PRESSED : WL_POINTER_BUTTON_STATE_RELEASED
        devices.unchecked.pointers.scanEach { resource in
            Libwayland.pointerButton(resource, serial: serial, time: time.wireMilliseconds, button: button, state: state.rawValue)
            frame(resource)
        }
    }

    private func emulatePointerLeave(_ event: PenEvent) {
        guard unchecked.pen.emulating else { return }
        unchecked.pen.emulating = false
        // Buttons still down are released first (a leave also tells the client, but not
        // every toolkit ends a press on leave).
        for button in unchecked.pen.emulatedButtons.reversed() { emulateButton(button, pressed: false, time: event.time) }
        guard seat.pointerFocus !== self, let surface = surfaceResource, let devices = seat.client(client) else { return }
        let serial = seat.nextSerial(.pointerLeave, for: client)
        devices.unchecked.pointers.scanEach { resource in
            Libwayland.post(resource, WL_POINTER_LEAVE, .uint(serial), .object(surface))
            frame(resource)
        }
    }
}
