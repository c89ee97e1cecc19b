import CWaylandServer
import Glibc
import SeatKit
import SeatKitWayland
import Testing

/// EmbeddingInASwiftCompositor.md's `MyCompositor`, on a `wl_display` the test owns (as a
/// compositor would): the seat's globals appear on it, a mapped window takes focus, a touch
/// reaches its responder, and unmapping hands focus on.
@Suite struct SwiftCompositorGuideTests {
    final class NoRoles: WaylandSurfaceRoles {
        func assignCursorRole(to surface: OpaquePointer) -> Bool { false }
        func rectangles(of region: OpaquePointer) -> [SurfaceRect]? { nil }
        func outputResources(for output: Output, client: OpaquePointer) -> [OpaquePointer] { [] }
    }

    @Test func theGuidesCompositorRunsOnItsOwnDisplay() throws {
        let raw = try #require(wl_display_create())
        defer { wl_display_destroy(raw) }
        let roles = NoRoles()
        let compositor = try MyCompositor(wlDisplay: raw, shell: roles)
        #expect(compositor.router.delegate === compositor)
        #expect(compositor.seat.surfaceRoles === roles)
        // A client on one end of a socket pair, and its wl_surface (made by the server here,
        // as the compositor's wl_compositor would on create_surface).
        var fds: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0)
        defer { close(fds[1]) }
        let client = try #require(wl_client_create(raw, fds[0]))
        defer { wl_client_destroy(client) }
        let wlSurface = try #require(wl_resource_create(client, wl_surface_wire(), 4, 0))
        let window = compositor.map(wlSurface: wlSurface, appID: "app")
        #expect(compositor.router.firstResponder === window)
        #expect(compositor.router.surface(at: LayoutPoint(x: 640, y: 400)) === window)
        compositor.router.inject(InputEvent(time: compositor.router.clock.now, device: DeviceID(7),
                                            .deviceAdded(DeviceInfo(name: "panel", capabilities: .touch))))
        #expect(compositor.seat.capabilities.contains(.touch))
        compositor.unmap(window)
        #expect(window.parent == nil && compositor.router.firstResponder == nil)
    }

    /// The guide's provider, made in place as the guide writes it (`shell: MyShellRoles(shell:)`),
    /// is kept by the seat and answers from the shell's state: a surface with another role
    /// is refused the cursor, a fresh one gets it (and keeps it when asked again).
    @Test func theGuidesRolesProviderMadeInPlaceIsKeptByTheSeatAndAnswersFromTheShell() throws {
        let raw = try #require(wl_display_create())
        defer { wl_display_destroy(raw) }
        let shell = MyShell()
        let compositor = try MyCompositor(wlDisplay: raw, shell: MyShellRoles(shell: shell))
        let roles = try #require(compositor.seat.surfaceRoles as? MyShellRoles, "the seat dropped its provider")
        let toplevel = try #require(OpaquePointer(bitPattern: 0x1000))
        shell.surfacesWithRoles.insert(toplevel)
        #expect(!roles.assignCursorRole(to: toplevel))
        let fresh = try #require(OpaquePointer(bitPattern: 0x2000))
        #expect(roles.assignCursorRole(to: fresh) && roles.assignCursorRole(to: fresh))
        #expect(compositor.dataDevice.seat === compositor.seat)
    }
}
