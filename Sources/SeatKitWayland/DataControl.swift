import CWaylandServer
import Glibc

// wlr-data-control-unstable-v1 (version 2; XML from wlr-protocols in protocols/): clipboard
// managers and wl-copy/wl-paste read and set the clipboard and the primary selection without
// keyboard focus and without a window. Built on DataDevice's selections: a data-control source
// set as the selection is what every focused client is offered, and every change of either
// selection, whoever made it, is offered to every data-control device.

/// `zwlr_data_control_manager_v1` (version 2) beside a ``DataDevice``, for any compositor:
/// privileged clients (clipboard managers, `wl-copy`, `wl-paste`) see every change of the
/// clipboard and the primary selection and may set either, with no keyboard focus and no
/// serial. Any client that binds it can read what others copy: a compositor offers it
/// knowingly (the kiosk does, for its tests).
public final class DataControl: GlobalOwner {
    /// The data device whose selections are read and set. Not kept: let go of the data
    /// control before it.
    public unowned let dataDevice: DataDevice
    private var global: OpaquePointer?
    var devices: [DataControlDevice] = []

    /// Advertises `zwlr_data_control_manager_v1` on the data device's display.
    /// Kept, so that the display outlives the globals this object destroys when it goes,
    /// whatever order the compositor lets go of its objects in (an optimized build ends a
    /// local's lifetime at its last use).
    private let displayKeptAlive: WaylandDisplay

    public init(dataDevice: DataDevice) {
        self.dataDevice = dataDevice
        displayKeptAlive = dataDevice.seat.display
        global = Libwayland.createGlobal(dataDevice.seat.display.display, zwlr_data_control_manager_v1_wire()!, version: 2, owner: self)
        dataDevice.clipboard.changed.append { [weak self] in self?.selectionChanged(primary: false) }
        dataDevice.primary?.changed.append { [weak self] in self?.selectionChanged(primary: true) }
    }

    deinit { if let global { Libwayland.destroyGlobal(global) } }

    package func bind(client: OpaquePointer, version: UInt32, id: UInt32) {
        _ = Libwayland.createResource(client, zwlr_data_control_manager_v1_wire()!, version: Int32(version), id: id,
                                      implementation: dataControlManagerRequests, object: self)
    }

    func selection(primary: Bool) -> Selection? { primary ? dataDevice.primary : dataDevice.clipboard }

    private func selectionChanged(primary: Bool) {
        for device in devices { offer(primary: primary, to: device) }
    }

    func deviceAdded(_ device: DataControlDevice) {
        devices.append(device)
        offer(primary: false, to: device)
        offer(primary: true, to: device)
    }

    /// Tells `device` the selection's current source: a new offer with its MIME types, then
    /// `selection` (or `primary_selection`, version 2), or that there is none.
    private func offer(primary: Bool, to device: DataControlDevice) {
        guard let resource = device.resource else { return }
        let version = Libwayland.version(of: resource)
        if primary && version < 2 { return }
        let event = primary ? ZWLR_DATA_CONTROL_DEVICE_V1_PRIMARY_SELECTION : ZWLR_DATA_CONTROL_DEVICE_V1_SELECTION
        guard let selection = selection(primary: primary), let source = selection.source, !source.cancelled else {
            Libwayland.post(resource, event, .object(nil))
            return
        }
        let offer = SelectionOffer(source: source, kind: dataControlKind)
        guard let r = Libwayland.createResource(device.client, zwlr_data_control_offer_v1_wire()!, version: 1, id: 0,
                                                implementation: dataControlOfferRequests, object: offer) else { return }
        offer.resource = r
        Libwayland.post(resource, ZWLR_DATA_CONTROL_DEVICE_V1_DATA_OFFER, .object(r))
        for mime in source.mimeTypes { Libwayland.post(r, ZWLR_DATA_CONTROL_OFFER_V1_OFFER, .string(mime)) }
        Libwayland.post(resource, event, .object(r))
    }

    /// set_selection or set_primary_selection: no focus or serial asked.
    func set(_ source: SelectionSource?, primary: Bool, device: OpaquePointer) {
        if let source, source.used {
            Libwayland.postError(device, code: ZWLR_DATA_CONTROL_DEVICE_V1_ERROR_USED_SOURCE.rawValue, "the source was already used")
            return
        }
        guard let selection = selection(primary: primary) else {
            source?.cancel()  // The data device offers no primary selection.
            return
        }
        selection.replace(with: source)
    }
}

/// A data-control source's events and offers' interface, in the shape of the other selections'.
nonisolated(unsafe) let dataControlKind = SelectionProtocol(
    name: "data-control", offerInterface: zwlr_data_control_offer_v1_wire()!, offerRequests: dataControlOfferRequests,
    deviceDataOffer: ZWLR_DATA_CONTROL_DEVICE_V1_DATA_OFFER, deviceSelection: ZWLR_DATA_CONTROL_DEVICE_V1_SELECTION,
    offerOffer: ZWLR_DATA_CONTROL_OFFER_V1_OFFER, sourceSend: ZWLR_DATA_CONTROL_SOURCE_V1_SEND,
    sourceCancelled: ZWLR_DATA_CONTROL_SOURCE_V1_CANCELLED)

/// One client's `zwlr_data_control_device_v1`.
final class DataControlDevice: ResourceObject {
    weak var control: DataControl?
    let client: OpaquePointer
    var resource: OpaquePointer?
    init(control: DataControl, client: OpaquePointer) {
        self.control = control
        self.client = client
    }
    package func resourceDestroyed() {
        resource = nil
        control?.devices.removeAll { $0 === self }
    }
}

private func mimeString(_ pointer: UnsafePointer<CChar>?) -> String { pointer.map { String(cString: $0) } ?? "" }

private nonisolated(unsafe) let dataControlManagerRequests = Libwayland.table(zwlr_data_control_manager_v1_requests(
    create_data_source: { client, resource, id in
        guard let client, let resource else { return }
        let source = SelectionSource(kind: dataControlKind)
        source.resource = Libwayland.createResource(client, zwlr_data_control_source_v1_wire()!, version: 1, id: id,
                                                    implementation: dataControlSourceRequests, object: source)
    },
    get_data_device: { client, resource, id, _ in
        guard let client, let resource, let control = Libwayland.object(resource, as: DataControl.self) else { return }
        let device = DataControlDevice(control: control, client: client)
        guard let r = Libwayland.createResource(client, zwlr_data_control_device_v1_wire()!, version: Libwayland.version(of: resource),
                                                id: id, implementation: dataControlDeviceRequests, object: device) else { return }
        device.resource = r
        control.deviceAdded(device)
    },
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } }
))

private nonisolated(unsafe) let dataControlDeviceRequests = Libwayland.table(zwlr_data_control_device_v1_requests(
    set_selection: { _, resource, sourceResource in
        guard let resource, let device = Libwayland.object(resource, as: DataControlDevice.self) else { return }
        device.control?.set(sourceResource.flatMap { Libwayland.object($0, as: SelectionSource.self) }, primary: false, device: resource)
    },
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } },
    set_primary_selection: { _, resource, sourceResource in
        guard let resource, let device = Libwayland.object(resource, as: DataControlDevice.self) else { return }
        device.control?.set(sourceResource.flatMap { Libwayland.object($0, as: SelectionSource.self) }, primary: true, device: resource)
    }
))

private nonisolated(unsafe) let dataControlSourceRequests = Libwayland.table(zwlr_data_control_source_v1_requests(
    offer: { _, resource, mime in Libwayland.object(resource, as: SelectionSource.self)?.mimeTypes.append(mimeString(mime)) },
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } }
))

private nonisolated(unsafe) let dataControlOfferRequests = Libwayland.table(zwlr_data_control_offer_v1_requests(
    receive: { _, resource, mime, fd in
        guard let offer = Libwayland.object(resource, as: SelectionOffer.self) else {
            close(fd)
            return
        }
        offer.receive(mimeString(mime), fd)
    },
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } }
))
