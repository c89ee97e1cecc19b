import CWaylandServer
import SeatKit

// zwp_tablet_pad_v2 (tablet-unstable-v2, version 1): a tablet's pad for clients with a tablet
// seat, and the removal of tablets, tools and pads when their device goes.
//
// The seat hears of pads from the router as a spy (TabletDeviceSpy): a pad announced with
// the device (DeviceInfo.pad) is offered to every tablet seat (pad_added, then per mode group
// its buttons, rings, strips and modes, then the pad's button count and done), and to tablet
// seats made later. Pad focus follows the tablet's: when a tool's proximity_in goes to a
// surface, every pad leaves the surface it was on and enters that one (quoting that tool's
// tablet), and stays there after the tool leaves proximity, so its buttons still reach the
// surface the pen last visited. Pad buttons, rings and strips go to the pad's
// focus surface's client, a ring or strip event closed by its frame; a mode the pad reports
// changed is told first with its group's mode_switch. A pad event a filter took reaches no
// client. Pad keys (libinput's tablet-pad keys) have no tablet-v2 event and stay with the
// compositor delegate.
//
// After each enter, every group's mode_switch tells the client its current mode (as
// tablet-v2 asks). A client's set_feedback (the pad's for a button, a ring's or a strip's)
// is kept for that button, ring or strip when it quotes the serial of the last mode_switch
// of its group sent to that client (a stale one is ignored, as tablet-v2 says), and told to
// the compositor (Seat.padFeedbackChanged; Seat.padFeedback(for:) lists what is set, until
// the pad leaves that client).
//
// When a device is removed, every tablet seat hears removed for its tablet, for the tools
// last seen on it and for its pad; the objects are forgotten (a tool coming back is
// announced anew).

/// A pad the seat knows: its layout (at least one mode group), each group's current mode,
/// and the surface it is focused on.
final class PadRecord {
    let device: DeviceID
    let layout: PadLayout
    var modes: [UInt32]
    /// Strong, not weak (a weak reference gave the responder a side table, and its retains on
    /// every later event the runtime's slow path): cleared when the tool that brought it
    /// leaves proximity; a destroyed wl_surface's responder is sent nothing (its
    /// `surfaceResource` is nil).
    var focus: ClientSurfaceResponder?
    /// The tablet whose tool brought the pad to its focus.
    var focusTablet: DeviceID?
    /// What clients asked to show per button, ring and strip (set_feedback).
    var feedback: [PadControl: String] = [:]

    init(device: DeviceID, layout: PadLayout) {
        self.device = device
        // A pad with no mode groups (a backend that reports none) has one with everything.
        var layout = layout
        if layout.groups.isEmpty {
            layout.groups = [PadLayout.Group(modes: 1, buttons: Array(0..<layout.buttons), rings: Array(0..<layout.rings),
                                             strips: Array(0..<layout.strips))]
        }
        self.layout = layout
        modes = Array(repeating: 0, count: layout.groups.count)
    }

    /// The mode group `control` belongs to (nil: none has it).
    func group(of control: PadControl) -> Int? {
        layout.groups.firstIndex { g in
            switch control {
            case .button(let i): g.buttons.contains(i)
            case .ring(let i): g.rings.contains(i)
            case .strip(let i): g.strips.contains(i)
            }
        }
    }
}

/// A button, ring or strip of a tablet pad, by its index on the pad.
public enum PadControl: Hashable, Sendable {
    /// A button, by its index (libinput's button number on the pad).
    case button(Int)
    /// A ring (a touch ring), by its index.
    case ring(Int)
    /// A strip (a touch strip), by its index.
    case strip(Int)
}

/// What a client asked the compositor to show for a pad's button, ring or strip
/// (`zwp_tablet_pad_v2.set_feedback`, `zwp_tablet_pad_ring_v2.set_feedback`,
/// `zwp_tablet_pad_strip_v2.set_feedback`): a user-visible description of its action in the
/// group's current mode, for an on-screen display of the pad.
public struct PadFeedback: Hashable, Sendable {
    /// The pad (its device).
    public var device: DeviceID
    /// The button, ring or strip.
    public var control: PadControl
    /// The client's description (UTF-8, user-visible).
    public var description: String
}

extension Seat {
    /// Called when the client a pad is on describes one of its buttons, rings or strips
    /// (set_feedback quoting the serial of the latest mode_switch of its group; stale ones
    /// are not told). The description replaces the one before.
    public var padFeedbackChanged: ((PadFeedback) -> Void)? {
        get { tabletV2.feedbackChanged }
        set { tabletV2.feedbackChanged = newValue }
    }

    /// What the client the pad `device` is on described for its buttons, rings and strips
    /// (buttons first, then rings, then strips, each by index); empty for an unknown pad, and
    /// emptied when the pad leaves that client.
    public func padFeedback(for device: DeviceID) -> [PadFeedback] {
        guard let pad = tabletV2.pads.first(where: { $0.device == device }) else { return [] }
        func rank(_ c: PadControl) -> (Int, Int) {
            switch c {
            case .button(let i): (0, i)
            case .ring(let i): (1, i)
            case .strip(let i): (2, i)
            }
        }
        return pad.feedback.sorted { rank($0.key) < rank($1.key) }.map { PadFeedback(device: device, control: $0.key, description: $0.value) }
    }
}

/// One client's objects for one pad.
struct PadObjects {
    var device: DeviceID
    var resource: OpaquePointer
    var groups: [Int: OpaquePointer] = [:]
    var rings: [Int: OpaquePointer] = [:]
    var strips: [Int: OpaquePointer] = [:]
    /// The surface this client's pad was told it entered.
    var entered: OpaquePointer?
    /// Per mode group: the serial of the last mode_switch this client was sent (what its
    /// set_feedback must quote).
    var modeSerials: [Int: UInt32] = [:]
}

/// Hears pads, device removal and pad events from the router (after its filters).
final class TabletDeviceSpy: InputSpy {
    /// The seat, without a weak reference (``SeatHandle``): nil once the seat is gone.
    var seat: Seat? { seatHandle.seat }
    private let seatHandle: SeatHandle
    init(seat: Seat) { self.seatHandle = seat.handle }

    /// Device announcements, removals and tablet events: the router calls it for no other
    /// (all of a kiosk's frequent ones).
    var observedKinds: InputEventKinds { Self.kinds }
    static let kinds: InputEventKinds = [.deviceAdded, .deviceRemoved, .tablet]

    /// Called for its ``observedKinds`` only (the router tells a spy no other kind), so the
    /// seat is loaded for those alone.
    func observe(_ event: InputEvent, consumed: Bool, router: Router) {
        switch event.kind {
        case .deviceAdded(let info):
            guard info.capabilities.contains(.tabletPad), let seat else { return }
            seat.tabletV2.padAdded(event.device, info: info, seat: seat)
        case .deviceRemoved:
            guard let seat else { return }
            seat.tabletV2.deviceRemoved(event.device)
        case .tablet(let t) where !t.isToolEvent && !consumed:
            guard let seat else { return }
            seat.tabletV2.padEvent(t, device: event.device, time: event.time, seat: seat)
        default:
            break
        }
    }
}

extension Seat {
    /// Listens to the router for pads, removed devices and pad events; takes the pads present.
    func watchTabletDevices() {
        router.addSpy(TabletDeviceSpy(seat: self))
        for (device, info) in router.devices.sorted(by: { $0.key.rawValue < $1.key.rawValue }) where info.capabilities.contains(.tabletPad) {
            tabletV2.padAdded(device, info: info, seat: self)
        }
    }
}

extension TabletV2State {
    /// A pad appeared: every tablet seat hears of it.
    func padAdded(_ device: DeviceID, info: DeviceInfo, seat: Seat) {
        pads.removeAll { $0.device == device }
        let record = PadRecord(device: device, layout: info.pad ?? PadLayout())
        pads.append(record)
        for b in bindings where b.resource != nil { _ = b.pad(record) }
    }

    /// A device went away: its tablet, the tools last seen on it and its pad are removed for
    /// every client.
    func deviceRemoved(_ device: DeviceID) {
        let gone = knownTools.filter { $0.device == device }
        let goneTools = gone.map(\.key)
        knownTools.removeAll { $0.device == device }
        for known in gone {
            toolFocus[known.key] = nil
            if cursors.removeValue(forKey: known.key) != nil { cursorChanged?(PenCursor(tool: known.tool, device: device, image: nil)) }
        }
        pads.removeAll { $0.device == device }
        for b in bindings {
            for (i, t) in b.tools.enumerated().reversed() where goneTools.contains(t.key) {
                Libwayland.post(t.resource, ZWP_TABLET_TOOL_V2_REMOVED)
                b.tools.remove(at: i)
            }
            for (i, t) in b.tablets.enumerated().reversed() where t.device == device {
                Libwayland.post(t.resource, ZWP_TABLET_V2_REMOVED)
                b.tablets.remove(at: i)
            }
            for (i, p) in b.pads.enumerated().reversed() where p.device == device {
                Libwayland.post(p.resource, ZWP_TABLET_PAD_V2_REMOVED)
                b.pads.remove(at: i)
            }
        }
    }

    /// A tool's proximity_in went to `surface`: the pads leave their surface and enter it.
    func padsFollow(_ surface: ClientSurfaceResponder, tablet: DeviceID, seat: Seat) {
        for pad in pads {
            guard pad.focus !== surface || pad.focusTablet != tablet else { continue }
            leave(pad, seat: seat)
            pad.focus = surface
            pad.focusTablet = tablet
            for b in bindings where b.client == surface.client && b.resource != nil { b.enterPad(pad) }
        }
    }

    /// The pad leaves the surface it was on, for the client that had it.
    private func leave(_ pad: PadRecord, seat: Seat) {
        guard let old = pad.focus else { return }
        pad.focus = nil
        pad.focusTablet = nil
        // Descriptions were the departed client's actions.
        pad.feedback.removeAll()
        for b in bindings where b.client == old.client {
            guard let i = b.pads.firstIndex(where: { $0.device == pad.device }), let entered = b.pads[i].entered else { continue }
            b.pads[i].entered = nil
            let serial = seat.nextSerial(.pointerLeave, for: b.client)
            Libwayland.post(b.pads[i].resource, ZWP_TABLET_PAD_V2_LEAVE, .uint(serial), .object(entered))
        }
    }

    /// A pad button, ring or strip: to the focused client's pad objects.
    func padEvent(_ t: TabletEvent, device: DeviceID, time: Timestamp, seat: Seat) {
        guard let pad = pads.first(where: { $0.device == device }) else { return }
        let group = Int(t.padMode.group)
        let modeChanged = group < pad.modes.count && pad.modes[group] != t.padMode.mode
        if modeChanged { pad.modes[group] = t.padMode.mode }
        guard let focus = pad.focus, focus.surfaceResource != nil else { return }
        let ms = time.wireMilliseconds
        for b in bindings where b.client == focus.client {
            guard let pi = b.pads.firstIndex(where: { $0.device == device }), b.pads[pi].entered != nil else { continue }
            let objects = b.pads[pi]
            if modeChanged, let g = objects.groups[group] {
                let serial = seat.nextSerial(.button, for: b.client)
                Libwayland.post(g, ZWP_TABLET_PAD_GROUP_V2_MODE_SWITCH, .uint(ms), .uint(serial), .uint(t.padMode.mode))
                b.pads[pi].modeSerials[group] = serial
            }
            let index = Int(t.code)
            switch t.kind {
            case .padButton:
                let state = t.value == 1 ? ZWP_TABLET_PAD_V2_BUTTON_STATE_PRESSED : ZWP_TABLET_PAD_V2_BUTTON_STATE_RELEASED
                Libwayland.post(objects.resource, ZWP_TABLET_PAD_V2_BUTTON, .uint(ms), .uint(t.code), .uint(state.rawValue))
            case .padRing:
                guard let r = objects.rings[index] else { continue }
                if t.fromFinger { Libwayland.post(r, ZWP_TABLET_PAD_RING_V2_SOURCE, .uint(ZWP_TABLET_PAD_RING_V2_SOURCE_FINGER.rawValue)) }
                if t.value < 0 {
                    Libwayland.post(r, ZWP_TABLET_PAD_RING_V2_STOP)
                } else {
                    Libwayland.post(r, ZWP_TABLET_PAD_RING_V2_ANGLE, .fixed(t.value))
                }
                Libwayland.post(r, ZWP_TABLET_PAD_RING_V2_FRAME, .uint(ms))
            case .padStrip:
                guard let s = objects.strips[index] else { continue }
                if t.fromFinger {
                    Libwayland.post(s, ZWP_TABLET_PAD_STRIP_V2_SOURCE, .uint(ZWP_TABLET_PAD_STRIP_V2_SOURCE_FINGER.rawValue))
                }
                if t.value < 0 {
                    Libwayland.post(s, ZWP_TABLET_PAD_STRIP_V2_STOP)
                } else {
                    Libwayland.post(s, ZWP_TABLET_PAD_STRIP_V2_POSITION, .uint(ClientSurfaceResponder.wire65535(t.value)))
                }
                Libwayland.post(s, ZWP_TABLET_PAD_STRIP_V2_FRAME, .uint(ms))
            default:
                break
            }
        }
    }
}

extension TabletSeatBinding {
    /// The client's objects for `pad`, announced now if they were not.
    func pad(_ pad: PadRecord) -> PadObjects? {
        if let found = pads.first(where: { $0.device == pad.device }) { return found }
        guard let seatResource = resource else { return nil }
        let version = Libwayland.version(of: seatResource)
        func make(_ interface: UnsafePointer<wl_interface>, _ requests: UnsafeRawPointer) -> OpaquePointer? {
            let object = TabletChild(binding: self)
            guard let r = Libwayland.createResource(wlClient, interface, version: version, id: 0, implementation: requests,
                                                    object: object) else { return nil }
            object.resource = r
            return r
        }
        guard let r = make(zwp_tablet_pad_v2_wire()!, tabletPadRequests) else { return nil }
        var objects = PadObjects(device: pad.device, resource: r)
        Libwayland.post(seatResource, ZWP_TABLET_SEAT_V2_PAD_ADDED, .object(r))
        for (gi, g) in pad.layout.groups.enumerated() {
            guard let group = make(zwp_tablet_pad_group_v2_wire()!, tabletPadGroupRequests) else { continue }
            objects.groups[gi] = group
            Libwayland.post(r, ZWP_TABLET_PAD_V2_GROUP, .object(group))
            Libwayland.post(group, ZWP_TABLET_PAD_GROUP_V2_BUTTONS, .array(g.buttons.map { UInt32(clamping: $0) }))
            for ring in g.rings {
                guard let rr = make(zwp_tablet_pad_ring_v2_wire()!, tabletPadRingRequests) else { continue }
                objects.rings[ring] = rr
                Libwayland.post(group, ZWP_TABLET_PAD_GROUP_V2_RING, .object(rr))
            }
            for strip in g.strips {
                guard let sr = make(zwp_tablet_pad_strip_v2_wire()!, tabletPadStripRequests) else { continue }
                objects.strips[strip] = sr
                Libwayland.post(group, ZWP_TABLET_PAD_GROUP_V2_STRIP, .object(sr))
            }
            Libwayland.post(group, ZWP_TABLET_PAD_GROUP_V2_MODES, .uint(UInt32(clamping: max(1, g.modes))))
            Libwayland.post(group, ZWP_TABLET_PAD_GROUP_V2_DONE)
        }
        Libwayland.post(r, ZWP_TABLET_PAD_V2_BUTTONS, .uint(UInt32(clamping: pad.layout.buttons)))
        Libwayland.post(r, ZWP_TABLET_PAD_V2_DONE)
        pads.append(objects)
        // The pad is already on one of this client's surfaces.
        if let focus = pad.focus, focus.client == client { enterPad(pad) }
        return pads.first { $0.device == pad.device }
    }

    /// Tells the client's pad it entered its focus surface (quoting the tablet that brought it).
    func enterPad(_ pad: PadRecord) {
        guard let focus = pad.focus, let surface = focus.surfaceResource, let tabletDevice = pad.focusTablet,
              let seat, self.pad(pad) != nil, let tablet = tablet(tabletDevice),
              let i = pads.firstIndex(where: { $0.device == pad.device }), pads[i].entered != surface else { return }
        pads[i].entered = surface
        let serial = seat.nextSerial(.pointerEnter, for: client)
        Libwayland.post(pads[i].resource, ZWP_TABLET_PAD_V2_ENTER, .uint(serial), .object(tablet), .object(surface))
        // Each group's current mode, as tablet-v2 asks after an enter (the enter's serial).
        let ms = seat.router.clock.now.wireMilliseconds
        for (gi, group) in pads[i].groups.sorted(by: { $0.key < $1.key }) {
            let mode = gi < pad.modes.count ? pad.modes[gi] : 0
            Libwayland.post(group, ZWP_TABLET_PAD_GROUP_V2_MODE_SWITCH, .uint(ms), .uint(serial), .uint(mode))
            pads[i].modeSerials[gi] = serial
        }
    }

    /// A client's set_feedback for `control` of the pad whose object (or ring or strip
    /// object) is `resource`: kept and told if `serial` is its group's last mode_switch's.
    func setFeedback(_ resource: OpaquePointer, control: (PadObjects) -> PadControl?, description: String, serial: UInt32) {
        guard let seat, let objects = pads.first(where: { control($0) != nil }), let c = control(objects),
              let pad = seat.tabletV2.pads.first(where: { $0.device == objects.device }),
              let group = pad.group(of: c), objects.modeSerials[group] == serial else { return }
        pad.feedback[c] = description
        seat.tabletV2.feedbackChanged?(PadFeedback(device: pad.device, control: c, description: description))
    }

    /// Forgets a pad object (or one of its groups, rings, strips) the client destroyed.
    func forgetPadObject(_ r: OpaquePointer) {
        pads.removeAll { $0.resource == r }
        for i in pads.indices {
            pads[i].groups = pads[i].groups.filter { $0.value != r }
            pads[i].rings = pads[i].rings.filter { $0.value != r }
            pads[i].strips = pads[i].strips.filter { $0.value != r }
        }
    }
}

/// The tablet seat binding of a pad object (or its ring or strip), and the description.
private func feedbackRequest(_ resource: OpaquePointer?, _ description: UnsafePointer<CChar>?) -> (TabletSeatBinding, OpaquePointer, String)? {
    guard let resource, let child = Libwayland.object(resource, as: TabletChild.self), let binding = child.binding else { return nil }
    return (binding, resource, description.map { String(cString: $0) } ?? "")
}

nonisolated(unsafe) let tabletPadRequests = Libwayland.table(zwp_tablet_pad_v2_requests(
    set_feedback: { _, resource, button, description, serial in
        guard let (binding, r, text) = feedbackRequest(resource, description) else { return }
        binding.setFeedback(r, control: { $0.resource == r ? .button(Int(button)) : nil }, description: text, serial: serial)
    },
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } }
))

nonisolated(unsafe) let tabletPadGroupRequests = Libwayland.table(zwp_tablet_pad_group_v2_requests(
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } }
))

nonisolated(unsafe) let tabletPadRingRequests = Libwayland.table(zwp_tablet_pad_ring_v2_requests(
    set_feedback: { _, resource, description, serial in
        guard let (binding, r, text) = feedbackRequest(resource, description) else { return }
        binding.setFeedback(r, control: { o in o.rings.first { $0.value == r }.map { .ring($0.key) } }, description: text, serial: serial)
    },
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } }
))

nonisolated(unsafe) let tabletPadStripRequests = Libwayland.table(zwp_tablet_pad_strip_v2_requests(
    set_feedback: { _, resource, description, serial in
        guard let (binding, r, text) = feedbackRequest(resource, description) else { return }
        binding.setFeedback(r, control: { o in o.strips.first { $0.value == r }.map { .strip($0.key) } }, description: text, serial: serial)
    },
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } }
))
