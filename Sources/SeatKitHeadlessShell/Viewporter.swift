import CWaylandServer
import CWaylandShellProtocols
import SeatKit
import SeatKitWayland

// wp_viewporter (version 1): a client crops its buffer (set_source) and scales it to a size of
// its choosing (set_destination). Nothing is drawn here, so only the size matters: the
// destination (or, without one, the source rectangle's size) becomes the surface's size in
// SeatKit's tree, so hit-testing, the input region's bounds and the surface-local points
// the client is sent follow it. Both are double-buffered wl_surface state.

extension HeadlessShell {
    func advertiseViewporter() {
        let owner = ViewporterGlobal()
        owners.append(owner)
        if let g = Libwayland.createGlobal(display.display, wp_viewporter_wire()!, version: 1, owner: owner) { globals.append(g) }
    }
}

/// A surface's viewport state: nil for what is not set (set_source or set_destination with
/// all -1).
struct ViewportState {
    /// x, y, width, height in surface-local coordinates of the buffer (after its scale).
    var source: (x: Double, y: Double, width: Double, height: Double)?
    var destination: (width: Int32, height: Int32)?
}

private final class ViewporterGlobal: GlobalOwner {
    package func bind(client: OpaquePointer, version: UInt32, id: UInt32) {
        _ = Libwayland.createResource(client, wp_viewporter_wire()!, version: Int32(version), id: id,
                                      implementation: viewporterRequests, object: nil)
    }
}

/// One wl_surface's wp_viewport. Its requests set the surface's pending state; once the
/// surface is destroyed every request but destroy is the error no_surface. Destroying it
/// unsets both at the surface's next commit.
final class Viewport: ResourceObject {
    weak var surface: ShellSurface?
    var resource: OpaquePointer?
    private var state = ViewportState()
    init(surface: ShellSurface) { self.surface = surface }

    /// The surface, or the error no_surface when it is gone.
    private func liveSurface() -> ShellSurface? {
        if let surface { return surface }
        if let resource { Libwayland.postError(resource, code: WP_VIEWPORT_ERROR_NO_SURFACE.rawValue, "the wl_surface was destroyed") }
        return nil
    }

    func setSource(x: Double, y: Double, width: Double, height: Double) {
        guard let surface = liveSurface(), let resource else { return }
        if x == -1 && y == -1 && width == -1 && height == -1 {
            state.source = nil
        } else if x < 0 || y < 0 || width <= 0 || height <= 0 {
            Libwayland.postError(resource, code: WP_VIEWPORT_ERROR_BAD_VALUE.rawValue, "negative position or non-positive size in set_source")
            return
        } else {
            state.source = (x, y, width, height)
        }
        surface.pending.viewport = state
    }

    func setDestination(width: Int32, height: Int32) {
        guard let surface = liveSurface(), let resource else { return }
        if width == -1 && height == -1 {
            state.destination = nil
        } else if width <= 0 || height <= 0 {
            Libwayland.postError(resource, code: WP_VIEWPORT_ERROR_BAD_VALUE.rawValue, "non-positive size in set_destination")
            return
        } else {
            state.destination = (width, height)
        }
        surface.pending.viewport = state
    }

    package func resourceDestroyed() {
        resource = nil
        guard let surface, surface.viewport === self else { return }
        surface.viewport = nil
        surface.pending.viewport = ViewportState()
    }
}

extension ShellSurface {
    /// The surface's size in surface-local coordinates for a `bufferSize` buffer (already
    /// divided by its scale) under `viewport`, or the error the state is when applied:
    /// bad_size for a source of a fractional size without a destination, out_of_buffer for
    /// a source reaching outside the buffer.
    static func viewportSize(buffer: Size, _ viewport: ViewportState) -> Result<Size, ViewportError> {
        if let source = viewport.source {
            if source.x + source.width > buffer.width || source.y + source.height > buffer.height {
                return .failure(.outOfBuffer)
            }
        }
        if let destination = viewport.destination {
            return .success(Size(width: Double(destination.width), height: Double(destination.height)))
        }
        if let source = viewport.source {
            guard source.width == source.width.rounded(), source.height == source.height.rounded() else { return .failure(.badSize) }
            return .success(Size(width: source.width, height: source.height))
        }
        return .success(buffer)
    }
}

enum ViewportError: Error {
    case badSize, outOfBuffer

    var code: UInt32 {
        switch self {
        case .badSize: WP_VIEWPORT_ERROR_BAD_SIZE.rawValue
        case .outOfBuffer: WP_VIEWPORT_ERROR_OUT_OF_BUFFER.rawValue
        }
    }

    var message: String {
        switch self {
        case .badSize: "the source size is not an integer and no destination is set"
        case .outOfBuffer: "the source rectangle reaches outside the buffer"
        }
    }
}

private func fixed(_ v: Int32) -> Double { Double(v) / 256 }

private nonisolated(unsafe) let viewporterRequests = Libwayland.table(wp_viewporter_requests(
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } },
    get_viewport: { client, resource, id, surfaceResource in
        guard let client, let resource, let surface = Libwayland.object(surfaceResource, as: ShellSurface.self) else { return }
        if surface.viewport != nil {
            Libwayland.postError(resource, code: WP_VIEWPORTER_ERROR_VIEWPORT_EXISTS.rawValue, "the surface already has a viewport")
            return
        }
        let viewport = Viewport(surface: surface)
        guard let r = Libwayland.createResource(client, wp_viewport_wire()!, version: Libwayland.version(of: resource), id: id,
                                                implementation: viewportRequests, object: viewport) else { return }
        viewport.resource = r
        surface.viewport = viewport
    }
))

private nonisolated(unsafe) let viewportRequests = Libwayland.table(wp_viewport_requests(
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } },
    set_source: { _, resource, x, y, w, h in
        Libwayland.object(resource, as: Viewport.self)?.setSource(x: fixed(x), y: fixed(y), width: fixed(w), height: fixed(h))
    },
    set_destination: { _, resource, w, h in Libwayland.object(resource, as: Viewport.self)?.setDestination(width: w, height: h) }
))
