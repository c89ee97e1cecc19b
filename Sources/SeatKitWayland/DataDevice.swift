import CWaylandServer
import Glibc

// The clipboard (wl_data_device_manager 3) and the primary selection
// (zwp_primary_selection_device_manager_v1 1): copy in one client, paste in another.
//
// A client sets a selection with a source that lists MIME types; the client with keyboard
// focus (now, and each client as it gets focus) is offered it: a new offer object, its MIME
// types, then `selection`. A paste (offer.receive with a pipe) is passed to the source's
// client as `send` with the same descriptor; the data flows between the two clients, never
// through the compositor. A new selection cancels the old source; a destroyed source clears
// the selection. Only the client with keyboard focus, or one quoting a serial of an input
// event it got, may set the selection. Drag and drop is not offered: start_drag is ignored.

/// The clipboard (`wl_data_device_manager`, version 3) and, unless turned off, the primary
/// selection (`zwp_primary_selection_device_manager_v1`, version 1) of one ``Seat``, for any
/// compositor: copy in one client, paste in another.
///
/// Clients need it even when nothing is ever copied: GTK4 (4.8) creates its seat only once
/// the display has a `wl_data_device_manager`, so without one a GTK4 app gets no input at
/// all, and wev crashes. `SeatKitHeadlessShell`'s `HeadlessShell` makes one; a compositor
/// with a shell of its own makes one beside its ``Seat`` and keeps it as long as the display:
/// its globals are withdrawn when it is released.
///
/// The selection is offered to the client with keyboard focus (the seat's
/// ``Seat/keyboardFocusClient``) whenever focus moves to another client; a client may set it
/// while it has keyboard focus, or quoting the serial of a key, button or touch down it was
/// sent (``Seat/serials``). The data goes from client to client through a pipe, never through
/// the compositor. Drag and drop is not offered: `start_drag` is ignored.
public final class DataDevice {
    /// The seat whose keyboard focus decides who is offered the selection. Not kept (the
    /// headless shell keeps both, and the seat keeps the shell): let go of the data device
    /// before the seat. Clients' sources and devices that go away after the seat (when the
    /// display destroys its clients) change nothing and offer nothing.
    public unowned let seat: Seat
    private var globals: [OpaquePointer] = []
    private var owners: [SelectionManagerGlobal] = []
    /// The clipboard, and the primary selection unless turned off (data control sets them too).
    let clipboard: Selection
    let primary: Selection?

    /// Advertises `wl_data_device_manager` (and `zwp_primary_selection_device_manager_v1` when
    /// `primarySelection`) on `seat`'s display.
    /// Kept, so that the display outlives the globals this object destroys when it goes,
    /// whatever order the compositor lets go of its objects in (an optimized build ends a
    /// local's lifetime at its last use).
    private let displayKeptAlive: WaylandDisplay

    public init(seat: Seat, primarySelection: Bool = true) {
        self.seat = seat
        displayKeptAlive = seat.display
        let clipboard = Selection(kind: SelectionProtocol(
            name: "clipboard", offerInterface: wl_data_offer_wire()!, offerRequests: dataOfferRequests,
            deviceDataOffer: WL_DATA_DEVICE_DATA_OFFER, deviceSelection: WL_DATA_DEVICE_SELECTION, offerOffer: WL_DATA_OFFER_OFFER,
            sourceSend: WL_DATA_SOURCE_SEND, sourceCancelled: WL_DATA_SOURCE_CANCELLED), seat: seat)
        self.clipboard = clipboard
        var offered = [(SelectionManagerGlobal(selection: clipboard, interface: wl_data_device_manager_wire()!,
                                               requests: dataDeviceManagerRequests), wl_data_device_manager_wire()!, Int32(3))]
        if primarySelection {
            let primary = Selection(kind: SelectionProtocol(
                name: "primary", offerInterface: zwp_primary_selection_offer_v1_wire()!, offerRequests: primaryOfferRequests,
                deviceDataOffer: ZWP_PRIMARY_SELECTION_DEVICE_V1_DATA_OFFER, deviceSelection: ZWP_PRIMARY_SELECTION_DEVICE_V1_SELECTION,
                offerOffer: ZWP_PRIMARY_SELECTION_OFFER_V1_OFFER, sourceSend: ZWP_PRIMARY_SELECTION_SOURCE_V1_SEND,
                sourceCancelled: ZWP_PRIMARY_SELECTION_SOURCE_V1_CANCELLED), seat: seat)
            offered.append((SelectionManagerGlobal(selection: primary, interface: zwp_primary_selection_device_manager_v1_wire()!,
                                                   requests: primaryManagerRequests),
                            zwp_primary_selection_device_manager_v1_wire()!, 1))
            self.primary = primary
        } else {
            self.primary = nil
        }
        for (owner, interface, version) in offered {
            owners.append(owner)
            if let g = Libwayland.createGlobal(seat.display.display, interface, version: version, owner: owner) { globals.append(g) }
        }
    }

    deinit {
        for g in globals { Libwayland.destroyGlobal(g) }
    }
}

/// What differs between the clipboard and the primary selection: interfaces and opcodes.
struct SelectionProtocol {
    let name: String
    let offerInterface: UnsafePointer<wl_interface>
    let offerRequests: UnsafeRawPointer
    let deviceDataOffer: Int32
    let deviceSelection: Int32
    let offerOffer: Int32
    let sourceSend: Int32
    let sourceCancelled: Int32
}

/// One selection (clipboard or primary): its current source and every client's devices.
final class Selection {
    let kind: SelectionProtocol
    /// Weak: a client's source or device may outlive the seat (its resources go when the
    /// display destroys its clients, after the compositor let go of the seat); then the
    /// selection offers nothing and accepts nothing.
    /// The seat, without a weak reference (``SeatHandle``): nil once the seat is gone.
    var seat: Seat? { seatHandle.seat }
    private let seatHandle: SeatHandle
    private(set) var source: SelectionSource?
    var devices: [SelectionDevice] = []
    /// The client the selection was last offered to.
    private var offeredTo: OpaquePointer?
    /// Told after every change of the source (set, replaced, cleared, destroyed): data control.
    var changed: [() -> Void] = []

    init(kind: SelectionProtocol, seat: Seat) {
        self.kind = kind
        self.seatHandle = seat.handle
        seat.addKeyboardFocusObserver { [weak self] in self?.offerToFocusedClient(force: false) }
    }

    func set(_ newSource: SelectionSource?, by client: OpaquePointer, serial: UInt32, device: OpaquePointer) {
        let id = ClientID(client)
        guard let seat else {
            newSource?.cancel()
            return
        }
        let allowed = seat.keyboardFocusClient == id || seat.serials.contains(serial, for: id, kinds: [.key, .button, .touchDown])
        guard allowed else {
            // Refused: the source is cancelled, as a replaced one would be.
            newSource?.cancel()
            return
        }
        if let newSource, newSource.used {
            Libwayland.postError(device, code: 0, "the source was already used")  // wl_data_device.error.role is 0
            return
        }
        replace(with: newSource)
    }

    /// Makes `newSource` (or none) the selection, with no focus or serial check: what a
    /// client that asked with focus or a serial, or a data-control client (clipboard
    /// managers, wl-copy), gets. A source already used is the caller's to refuse.
    func replace(with newSource: SelectionSource?) {
        newSource?.used = true
        if let old = source, old !== newSource { old.cancel() }
        source = newSource
        newSource?.selection = self
        offerToFocusedClient(force: true)
        for observer in changed { observer() }
    }

    func sourceDestroyed(_ gone: SelectionSource) {
        guard source === gone else { return }
        source = nil
        offerToFocusedClient(force: true)
        for observer in changed { observer() }
    }

    /// Offers the current selection (or none) to the focused client's devices.
    func offerToFocusedClient(force: Bool) {
        guard let focused = seat?.keyboardFocusClient else {
            offeredTo = nil
            return
        }
        let client = devices.first { ClientID($0.client) == focused }?.client
        guard let client, force || client != offeredTo else { return }
        offeredTo = client
        for device in devices where device.client == client { offer(to: device) }
    }

    /// A client's new device learns the selection at once if it has focus.
    func deviceAdded(_ device: SelectionDevice) {
        devices.append(device)
        if let seat, seat.keyboardFocusClient == ClientID(device.client) { offer(to: device) }
    }

    private func offer(to device: SelectionDevice) {
        guard let resource = device.resource else { return }
        guard let source, !source.cancelled else {
            Libwayland.post(resource, kind.deviceSelection, .object(nil))
            return
        }
        let offer = SelectionOffer(source: source, kind: kind)
        guard let r = Libwayland.createResource(device.client, kind.offerInterface, version: Libwayland.version(of: resource), id: 0,
                                                implementation: kind.offerRequests, object: offer) else { return }
        offer.resource = r
        Libwayland.post(resource, kind.deviceDataOffer, .object(r))
        for mime in source.mimeTypes { Libwayland.post(r, kind.offerOffer, .string(mime)) }
        Libwayland.post(resource, kind.deviceSelection, .object(r))
    }
}

final class SelectionSource: ResourceObject {
    let kind: SelectionProtocol
    var resource: OpaquePointer?
    var mimeTypes: [String] = []
    weak var selection: Selection?
    var used = false
    private(set) var cancelled = false

    init(kind: SelectionProtocol) { self.kind = kind }

    func cancel() {
        guard !cancelled, let resource else { return }
        cancelled = true
        Libwayland.post(resource, kind.sourceCancelled)
    }

    /// Asks the source's client to write `mime` into `fd` (libwayland duplicates it).
    func send(_ mime: String, _ fd: Int32) {
        guard !cancelled, let resource else { return }
        Libwayland.post(resource, kind.sourceSend, .string(mime), .fd(fd))
    }

    package func resourceDestroyed() {
        resource = nil
        selection?.sourceDestroyed(self)
    }
}

final class SelectionOffer: ResourceObject {
    weak var source: SelectionSource?
    let kind: SelectionProtocol
    var resource: OpaquePointer?
    init(source: SelectionSource, kind: SelectionProtocol) {
        self.source = source
        self.kind = kind
    }

    func receive(_ mime: String, _ fd: Int32) {
        // The offer may be stale (a newer selection, a gone source): then nothing is written
        // and the reader sees end of file when the descriptor is closed.
        if let source, source.selection?.source === source, source.mimeTypes.contains(mime) { source.send(mime, fd) }
        close(fd)
    }

    package func resourceDestroyed() { resource = nil }
}

final class SelectionDevice: ResourceObject {
    let client: OpaquePointer
    var resource: OpaquePointer?
    weak var selection: Selection?
    init(client: OpaquePointer, selection: Selection) {
        self.client = client
        self.selection = selection
    }
    package func resourceDestroyed() {
        selection?.devices.removeAll { $0 === self }
        resource = nil
    }
}

/// The manager global of one selection kind.
final class SelectionManagerGlobal: GlobalOwner {
    let selection: Selection
    let interface: UnsafePointer<wl_interface>
    let requests: UnsafeRawPointer
    init(selection: Selection, interface: UnsafePointer<wl_interface>, requests: UnsafeRawPointer) {
        self.selection = selection
        self.interface = interface
        self.requests = requests
    }

    package func bind(client: OpaquePointer, version: UInt32, id: UInt32) {
        _ = Libwayland.createResource(client, interface, version: Int32(version), id: id, implementation: requests, object: self)
    }

    func createSource(_ client: OpaquePointer, _ manager: OpaquePointer, id: UInt32, interface: UnsafePointer<wl_interface>,
                      requests: UnsafeRawPointer) {
        let source = SelectionSource(kind: selection.kind)
        source.resource = Libwayland.createResource(client, interface, version: Libwayland.version(of: manager), id: id,
                                                    implementation: requests, object: source)
    }

    func getDevice(_ client: OpaquePointer, _ manager: OpaquePointer, id: UInt32, interface: UnsafePointer<wl_interface>,
                   requests: UnsafeRawPointer) {
        let device = SelectionDevice(client: client, selection: selection)
        guard let r = Libwayland.createResource(client, interface, version: Libwayland.version(of: manager), id: id,
                                                implementation: requests, object: device) else { return }
        device.resource = r
        selection.deviceAdded(device)
    }
}

private func string(_ pointer: UnsafePointer<CChar>?) -> String { pointer.map { String(cString: $0) } ?? "" }

// MARK: wl_data_device_manager

private nonisolated(unsafe) let dataDeviceManagerRequests = Libwayland.table(wl_data_device_manager_requests(
    create_data_source: { client, resource, id in
        guard let client, let resource, let manager = Libwayland.object(resource, as: SelectionManagerGlobal.self) else { return }
        manager.createSource(client, resource, id: id, interface: wl_data_source_wire()!, requests: dataSourceRequests)
    },
    get_data_device: { client, resource, id, _ in
        guard let client, let resource, let manager = Libwayland.object(resource, as: SelectionManagerGlobal.self) else { return }
        manager.getDevice(client, resource, id: id, interface: wl_data_device_wire()!, requests: dataDeviceRequests)
    }
))

private nonisolated(unsafe) let dataSourceRequests = Libwayland.table(wl_data_source_requests(
    offer: { _, resource, mime in Libwayland.object(resource, as: SelectionSource.self)?.mimeTypes.append(string(mime)) },
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } },
    set_actions: { _, _, _ in }
))

private nonisolated(unsafe) let dataDeviceRequests = Libwayland.table(wl_data_device_requests(
    start_drag: { _, _, _, _, _, _ in },
    set_selection: { client, resource, sourceResource, serial in
        guard let client, let resource, let device = Libwayland.object(resource, as: SelectionDevice.self) else { return }
        let source = sourceResource.flatMap { Libwayland.object($0, as: SelectionSource.self) }
        device.selection?.set(source, by: client, serial: serial, device: resource)
    },
    release: { _, resource in if let resource { Libwayland.destroyResource(resource) } }
))

private nonisolated(unsafe) let dataOfferRequests = Libwayland.table(wl_data_offer_requests(
    accept: { _, _, _, _ in },
    receive: { _, resource, mime, fd in
        guard let offer = Libwayland.object(resource, as: SelectionOffer.self) else {
            close(fd)
            return
        }
        offer.receive(string(mime), fd)
    },
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } },
    finish: { _, _ in },
    set_actions: { _, _, _, _ in }
))

// MARK: zwp_primary_selection_device_manager_v1

private nonisolated(unsafe) let primaryManagerRequests = Libwayland.table(zwp_primary_selection_device_manager_v1_requests(
    create_source: { client, resource, id in
        guard let client, let resource, let manager = Libwayland.object(resource, as: SelectionManagerGlobal.self) else { return }
        manager.createSource(client, resource, id: id, interface: zwp_primary_selection_source_v1_wire()!, requests: primarySourceRequests)
    },
    get_device: { client, resource, id, _ in
        guard let client, let resource, let manager = Libwayland.object(resource, as: SelectionManagerGlobal.self) else { return }
        manager.getDevice(client, resource, id: id, interface: zwp_primary_selection_device_v1_wire()!, requests: primaryDeviceRequests)
    },
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } }
))

private nonisolated(unsafe) let primarySourceRequests = Libwayland.table(zwp_primary_selection_source_v1_requests(
    offer: { _, resource, mime in Libwayland.object(resource, as: SelectionSource.self)?.mimeTypes.append(string(mime)) },
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } }
))

private nonisolated(unsafe) let primaryDeviceRequests = Libwayland.table(zwp_primary_selection_device_v1_requests(
    set_selection: { client, resource, sourceResource, serial in
        guard let client, let resource, let device = Libwayland.object(resource, as: SelectionDevice.self) else { return }
        let source = sourceResource.flatMap { Libwayland.object($0, as: SelectionSource.self) }
        device.selection?.set(source, by: client, serial: serial, device: resource)
    },
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } }
))

private nonisolated(unsafe) let primaryOfferRequests = Libwayland.table(zwp_primary_selection_offer_v1_requests(
    receive: { _, resource, mime, fd in
        guard let offer = Libwayland.object(resource, as: SelectionOffer.self) else {
            close(fd)
            return
        }
        offer.receive(string(mime), fd)
    },
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } }
))
