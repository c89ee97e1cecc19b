import CWaylandServer
import CWaylandShellProtocols
import SeatKitWayland

// zxdg_decoration_manager_v1 (version 1): every toplevel is decorated server-side, which in
// a kiosk means not at all. Clients that ask (GTK4, Qt, foot, Chromium) then draw no title
// bar, so their first click cannot land on one.

final class DecorationManagerGlobal: GlobalOwner {
    package func bind(client: OpaquePointer, version: UInt32, id: UInt32) {
        _ = Libwayland.createResource(client, zxdg_decoration_manager_v1_wire()!, version: Int32(version), id: id,
                                      implementation: decorationManagerRequests, object: nil)
    }
}

/// One toplevel's decoration object: answers every mode request with server-side.
private final class ToplevelDecoration: ResourceObject {
    weak var xdgSurface: XDGSurface?
    var resource: OpaquePointer?
    init(xdgSurface: XDGSurface) { self.xdgSurface = xdgSurface }

    /// configure(server_side), then an xdg_surface.configure to make it take effect; before
    /// the initial commit that configure comes with the first one.
    func configure() {
        guard let resource else { return }
        Libwayland.post(resource, ZXDG_TOPLEVEL_DECORATION_V1_CONFIGURE,
                        .uint(ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE.rawValue))
        if let xdgSurface, xdgSurface.initialCommitDone { xdgSurface.sendConfigure() }
    }

    package func resourceDestroyed() {
        if xdgSurface?.decoration == resource { xdgSurface?.decoration = nil }
        resource = nil
    }
}

private nonisolated(unsafe) let decorationManagerRequests = Libwayland.table(zxdg_decoration_manager_v1_requests(
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } },
    get_toplevel_decoration: { client, resource, id, toplevelResource in
        guard let client, let resource, let toplevelResource,
              let xdg = Libwayland.object(toplevelResource, as: ToplevelResource.self)?.xdgSurface else { return }
        if xdg.decoration != nil {
            Libwayland.postError(resource, code: ZXDG_TOPLEVEL_DECORATION_V1_ERROR_ALREADY_CONSTRUCTED.rawValue,
                                 "the toplevel already has a decoration object")
            return
        }
        if xdg.surface?.hasBuffer == true {
            Libwayland.postError(resource, code: ZXDG_TOPLEVEL_DECORATION_V1_ERROR_UNCONFIGURED_BUFFER.rawValue,
                                 "the toplevel already has a buffer")
            return
        }
        let decoration = ToplevelDecoration(xdgSurface: xdg)
        guard let r = Libwayland.createResource(client, zxdg_toplevel_decoration_v1_wire()!, version: Libwayland.version(of: resource),
                                                id: id, implementation: toplevelDecorationRequests, object: decoration) else { return }
        decoration.resource = r
        xdg.decoration = r
        decoration.configure()
    }
))

private nonisolated(unsafe) let toplevelDecorationRequests = Libwayland.table(zxdg_toplevel_decoration_v1_requests(
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } },
    set_mode: { _, resource, _ in Libwayland.object(resource, as: ToplevelDecoration.self)?.configure() },
    unset_mode: { _, resource in Libwayland.object(resource, as: ToplevelDecoration.self)?.configure() }
))
