import CWaylandServer
import Foundation
import SeatKit
import SeatKitWayland
import Testing

/// SeatKitWayland inside a compositor that owns the display, its socket, its event loop and
/// wl_compositor: the seat runs on the compositor's display, its router on the loop's clock,
/// and it learns surface roles and region contents only through the compositor's
/// ``WaylandSurfaceRoles``. The compositor's wl_surface and wl_region resources carry user
/// data that is not a Swift object: a seat that cast it would crash this test.
@Suite(.serialized) struct EmbeddingTests {
    /// The compositor's side, in plain libwayland calls.
    final class ForeignCompositor: WaylandSurfaceRoles {
        nonisolated(unsafe) static var surfaces: [OpaquePointer] = []
        nonisolated(unsafe) static var regions: [OpaquePointer: [SurfaceRect]] = [:]
        /// What every foreign resource carries as user data: not a Swift object.
        nonisolated(unsafe) static let tag: UnsafeMutableRawPointer = {
            let p = UnsafeMutableRawPointer.allocate(byteCount: 16, alignment: 8)
            p.initializeMemory(as: UInt8.self, repeating: 0xa5, count: 16)
            return p
        }()
        var cursorRoleRequests: [OpaquePointer] = []
        var regionRequests: [OpaquePointer] = []
        /// Surfaces that already have another role.
        var roleTaken: Set<OpaquePointer> = []

        func assignCursorRole(to surface: OpaquePointer) -> Bool {
            cursorRoleRequests.append(surface)
            return !roleTaken.contains(surface)
        }

        func rectangles(of region: OpaquePointer) -> [SurfaceRect]? {
            regionRequests.append(region)
            return Self.regions[region]
        }

        /// This compositor advertises no wl_output.
        func outputResources(for output: Output, client: OpaquePointer) -> [OpaquePointer] { [] }
    }

    static func table<T>(_ value: T) -> UnsafeRawPointer {
        let pointer = UnsafeMutablePointer<T>.allocate(capacity: 1)
        pointer.initialize(to: value)
        return UnsafeRawPointer(pointer)
    }

    nonisolated(unsafe) static let surfaceTable = table(wl_surface_requests(
        destroy: { _, resource in wl_resource_destroy(resource) },
        attach: { _, _, _, _, _ in }, damage: { _, _, _, _, _, _ in }, frame: { _, _, _ in },
        set_opaque_region: { _, _, _ in }, set_input_region: { _, _, _ in }, commit: { _, _ in },
        set_buffer_transform: { _, _, _ in }, set_buffer_scale: { _, _, _ in }, damage_buffer: { _, _, _, _, _, _ in },
        offset: { _, _, _, _ in }))

    nonisolated(unsafe) static let regionTable = table(wl_region_requests(
        destroy: { _, resource in wl_resource_destroy(resource) },
        add: { _, resource, x, y, w, h in
            ForeignCompositor.regions[resource!, default: []].append(SurfaceRect(x: Double(x), y: Double(y), width: Double(w), height: Double(h)))
        },
        subtract: { _, _, _, _, _, _ in }))

    nonisolated(unsafe) static let compositorTable = table(wl_compositor_requests(
        create_surface: { client, resource, id in
            let surface = wl_resource_create(client, wl_surface_wire(), wl_resource_get_version(resource), id)!
            wl_resource_set_implementation(surface, EmbeddingTests.surfaceTable, ForeignCompositor.tag, nil)
            ForeignCompositor.surfaces.append(surface)
        },
        create_region: { client, _, id in
            let region = wl_resource_create(client, wl_region_wire(), 1, id)!
            wl_resource_set_implementation(region, EmbeddingTests.regionTable, ForeignCompositor.tag, nil)
        }))

    @Test func aSeatOnTheCompositorsDisplayAsksItsSurfaceRolesAndNeverReadsItsResources() throws {
        // The compositor: its display, its socket (bound by itself), its wl_compositor.
        let raw = try #require(wl_display_create())
        defer {
            wl_display_destroy_clients(raw)
            wl_display_destroy(raw)
        }
        var template = Array("/tmp/seatkit-embed-XXXXXX".utf8CString)
        let directory = try #require(mkdtemp(&template).map { String(cString: $0) })
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let listener = try Self.listeningSocket(at: directory + "/wayland-embed")
        #expect(wl_display_add_socket_fd(raw, listener) == 0)
        _ = wl_global_create(raw, wl_compositor_wire(), 4, nil) { client, _, version, id in
            let resource = wl_resource_create(client, wl_compositor_wire(), Int32(version), id)!
            wl_resource_set_implementation(resource, EmbeddingTests.compositorTable, nil, nil)
        }
        ForeignCompositor.surfaces = []
        ForeignCompositor.regions = [:]
        let compositor = ForeignCompositor()

        // SeatKit on it: the display wrapped, the router on the loop's public clock.
        let display = WaylandDisplay(wrapping: raw, socketName: "wayland-embed")
        let clock = EventLoopClock(eventLoop: display.eventLoop)
        let router = Router(clock: clock)
        let output = Output(name: "EMBED-1", modeSize: Size(width: 800, height: 600))
        router.addOutput(output)
        let seat = Seat(display: display, router: router)
        seat.surfaceRoles = compositor
        var cursors: [CursorImage?] = []
        seat.cursorChanged = { cursors.append($0) }
        router.inject(InputEvent(time: clock.now, device: DeviceID(2), .deviceAdded(DeviceInfo(name: "mouse", capabilities: [.pointer]))))
        seat.capabilities = [.pointer]

        let wire = try WireClient(runtimeDirectory: directory, socket: "wayland-embed")
        wire.pump = { display.dispatch(timeout: 0) }
        try wire.roundTripRegistry()
        let wlCompositor = try wire.bind("wl_compositor", version: 4)
        let wlSeat = try wire.bind("wl_seat", version: 8)
        let constraints = try wire.bind("zwp_pointer_constraints_v1", version: 1)
        let window = wire.newID()
        wire.send(wlCompositor, 0, [window])  // create_surface
        let cursorSurface = wire.newID()
        wire.send(wlCompositor, 0, [cursorSurface])
        let region = wire.newID()
        wire.send(wlCompositor, 1, [region])  // create_region
        wire.send(region, 1, [UInt32(0), UInt32(0), UInt32(10), UInt32(10)])  // add 0,0 10x10
        let pointer = wire.newID()
        wire.send(wlSeat, 0, [pointer])  // get_pointer
        #expect(wire.sync())
        try #require(ForeignCompositor.surfaces.count == 2)
        let (windowResource, cursorResource) = (ForeignCompositor.surfaces[0], ForeignCompositor.surfaces[1])

        // The compositor puts the client's window in the tree with SeatKit's responder.
        let node = Surface(name: "window", frame: SurfaceRect(x: 0, y: 0, width: 100, height: 100),
                           responder: ClientSurfaceResponder(seat: seat, surfaceResource: windowResource))
        output.root.addChild(node)
        seat.router.inject(InputEvent(time: clock.now, device: DeviceID(2), .pointerMotionAbsolute(LayoutPoint(x: 20, y: 30))))
        let enter = try #require(wire.read(until: { $0.object == pointer && $0.opcode == 0 }), "no wl_pointer.enter")
        #expect(enter.uint(at: 1) == window)

        // set_cursor: the seat asks the compositor for the role.
        wire.send(pointer, 0, [enter.uint(at: 0), cursorSurface, UInt32(3), UInt32(4)])
        #expect(wire.sync())
        #expect(compositor.cursorRoleRequests == [cursorResource])
        #expect(cursors.count == 1 && cursors.last??.surfaceResource == cursorResource && cursors.last??.hotspotX == 3)

        // A confinement with the compositor's region: the seat asks for its rectangles and
        // confines once the pointer is inside them.
        let confined = wire.newID()
        wire.send(constraints, 2, [confined, window, pointer, region, UInt32(2)])  // confine_pointer, persistent
        #expect(wire.sync())
        #expect(compositor.regionRequests.count == 1)
        seat.router.inject(InputEvent(time: clock.now, device: DeviceID(2), .pointerMotionAbsolute(LayoutPoint(x: 5, y: 5))))
        #expect(wire.read(until: { $0.object == confined && $0.opcode == 0 }) != nil, "not confined inside the region")

        // The cursor surface destroyed: the seat hears it through a destroy listener.
        wire.send(cursorSurface, 0, [])  // wl_surface.destroy
        #expect(wire.sync())
        #expect(cursors.count == 2 && cursors.last! == nil)

        // A surface with another role: wl_pointer.error.role, from the compositor's answer.
        compositor.roleTaken.insert(windowResource)
        wire.send(pointer, 0, [enter.uint(at: 0), window, UInt32(0), UInt32(0)])
        let error = try #require(wire.read(until: { $0.object == 1 && $0.opcode == 0 }), "no wl_display.error")
        #expect(error.uint(at: 0) == pointer && error.uint(at: 1) == 0)
        withExtendedLifetime((display, seat, node)) {}
    }

    /// A listening Unix socket at `path`, as a compositor that binds its own would have.
    static func listeningSocket(at path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8CString)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, c) in bytes.enumerated() where i < raw.count { raw[i] = UInt8(bitPattern: c) }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(fd, 8) == 0 else { throw SessionError("cannot listen on \(path)") }
        return fd
    }
}
