import CWaylandServer
import SeatKitWayland

/// wl_data_device_manager (3) with no clipboard and no drag and drop: many clients (wev
/// among them) need the global to exist. Sources are accepted and never used; drags are
/// refused by never starting; selections are ignored.
final class DataDeviceManagerGlobal: GlobalOwner {
    package func bind(client: OpaquePointer, version: UInt32, id: UInt32) {
        _ = Libwayland.createResource(client, wl_data_device_manager_wire()!, version: Int32(version), id: id,
                                      implementation: dataDeviceManagerRequests, object: nil)
    }
}

private nonisolated(unsafe) let dataDeviceManagerRequests = Libwayland.table(wl_data_device_manager_requests(
    create_data_source: { client, resource, id in
        guard let client, let resource else { return }
        _ = Libwayland.createResource(client, wl_data_source_wire()!, version: Libwayland.version(of: resource), id: id,
                                      implementation: dataSourceRequests, object: nil)
    },
    get_data_device: { client, resource, id, _ in
        guard let client, let resource else { return }
        _ = Libwayland.createResource(client, wl_data_device_wire()!, version: Libwayland.version(of: resource), id: id,
                                      implementation: dataDeviceRequests, object: nil)
    }
))

private nonisolated(unsafe) let dataSourceRequests = Libwayland.table(wl_data_source_requests(
    offer: { _, _, _ in },
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } },
    set_actions: { _, _, _ in }
))

private nonisolated(unsafe) let dataDeviceRequests = Libwayland.table(wl_data_device_requests(
    start_drag: { _, _, _, _, _, _ in },
    set_selection: { _, _, _, _ in },
    release: { _, resource in if let resource { Libwayland.destroyResource(resource) } }
))
