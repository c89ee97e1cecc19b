import CWaylandServer
import CWaylandShellProtocols
import SeatKit
import SeatKitWayland

// wp_fractional_scale_manager_v1 (version 1): each surface that asks is told the scale it
// should render at (preferred_scale, in 120ths): its output's `Output.scale`, which may be
// fractional where wl_output.scale can only say the next integer up. Sent when the object is
// made (the output the surface is on, else the first output) and whenever the surface enters
// an output of another scale. A client renders at that scale and sizes its surface with
// wp_viewport.set_destination (Viewporter.swift).

extension HeadlessShell {
    func advertiseFractionalScale() {
        let owner = FractionalScaleManagerGlobal()
        owners.append(owner)
        if let g = Libwayland.createGlobal(display.display, wp_fractional_scale_manager_v1_wire()!, version: 1, owner: owner) {
            globals.append(g)
        }
    }

    /// The scale a surface should render at: its output's, else the first output's, else 1.
    func preferredScale(of surface: ShellSurface) -> Double {
        surface.enteredOutput?.output.scale ?? outputs.first?.output.scale ?? 1
    }
}

private final class FractionalScaleManagerGlobal: GlobalOwner {
    package func bind(client: OpaquePointer, version: UInt32, id: UInt32) {
        _ = Libwayland.createResource(client, wp_fractional_scale_manager_v1_wire()!, version: Int32(version), id: id,
                                      implementation: fractionalScaleManagerRequests, object: nil)
    }
}

/// One wl_surface's wp_fractional_scale_v1; inert once the surface is gone.
final class FractionalScale: ResourceObject {
    weak var surface: ShellSurface?
    var resource: OpaquePointer?
    /// The last preferred_scale sent, in 120ths.
    private var sent: UInt32?
    init(surface: ShellSurface) { self.surface = surface }

    /// Sends preferred_scale for `scale` unless the client already has it.
    func prefer(_ scale: Double) {
        guard let resource else { return }
        let value = UInt32(max(1, (scale * 120).rounded()))
        guard value != sent else { return }
        sent = value
        Libwayland.post(resource, WP_FRACTIONAL_SCALE_V1_PREFERRED_SCALE, .uint(value))
    }

    package func resourceDestroyed() {
        resource = nil
        if let surface, surface.fractionalScale === self { surface.fractionalScale = nil }
    }
}

private nonisolated(unsafe) let fractionalScaleManagerRequests = Libwayland.table(wp_fractional_scale_manager_v1_requests(
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } },
    get_fractional_scale: { client, resource, id, surfaceResource in
        guard let client, let resource, let surface = Libwayland.object(surfaceResource, as: ShellSurface.self) else { return }
        if surface.fractionalScale != nil {
            Libwayland.postError(resource, code: WP_FRACTIONAL_SCALE_MANAGER_V1_ERROR_FRACTIONAL_SCALE_EXISTS.rawValue,
                                 "the surface already has a fractional scale object")
            return
        }
        let object = FractionalScale(surface: surface)
        guard let r = Libwayland.createResource(client, wp_fractional_scale_v1_wire()!, version: Libwayland.version(of: resource), id: id,
                                                implementation: fractionalScaleRequests, object: object) else { return }
        object.resource = r
        surface.fractionalScale = object
        object.prefer(surface.shell.preferredScale(of: surface))
    }
))

private nonisolated(unsafe) let fractionalScaleRequests = Libwayland.table(wp_fractional_scale_v1_requests(
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } }
))
