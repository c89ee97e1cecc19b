import CWaylandServer
import Foundation
import Logging
import SeatKit
import SeatKitWayland
import Testing

/// What a compositor with its own wl_compositor and wl_outputs (no headless shell) gets from
/// SeatKitWayland: the seat keeps the surface-roles provider it was given, tells the cursor
/// surface which output it is on, and a data device of SeatKitWayland's stands beside it.
@Suite(.serialized) struct EmbeddedSeatTests {
    /// The compositor's display, socket, wl_compositor (EmbeddingTests' foreign one) and a
    /// wl_output global per output, SeatKit's seat on it, and a wire client that read the
    /// registry. Released in order: SeatKit's objects before the display.
    final class ForeignSession {
        let raw: OpaquePointer
        let directory: String
        var display: WaylandDisplay!
        var router: Router!
        var seat: Seat!
        var wire: WireClient!
        var extra: [AnyObject] = []

        init(outputs: [Output]) throws {
            raw = try #require(wl_display_create())
            var template = Array("/tmp/seatkit-embed-XXXXXX".utf8CString)
            directory = try #require(mkdtemp(&template).map { String(cString: $0) })
            let listener = try EmbeddingTests.listeningSocket(at: directory + "/wayland-embed")
            #expect(wl_display_add_socket_fd(raw, listener) == 0)
            _ = wl_global_create(raw, wl_compositor_wire(), 4, nil) { client, _, version, id in
                let resource = wl_resource_create(client, wl_compositor_wire(), Int32(version), id)!
                wl_resource_set_implementation(resource, EmbeddedSeatTests.compositorTable, nil, nil)
            }
            // This suite's own records (EmbeddingTests and SendAllocationTests, which may run
            // at the same time, keep theirs).
            EmbeddedSeatTests.surfaces = []
            EmbeddedSeatTests.outputResources = [:]
            display = WaylandDisplay(wrapping: raw, socketName: "wayland-embed")
            router = Router(clock: display.clock)
            for output in outputs {
                router.addOutput(output)
                // The compositor's wl_output: it records who bound it, per output.
                _ = wl_global_create(raw, wl_output_wire(), 3, Unmanaged.passUnretained(output).toOpaque()) { client, data, version, id in
                    let output = Unmanaged<Output>.fromOpaque(data!).takeUnretainedValue()
                    let resource = wl_resource_create(client, wl_output_wire(), Int32(min(version, 3)), id)!
                    wl_resource_set_implementation(resource, EmbeddedSeatTests.outputTable, data) { resource in
                        for key in EmbeddedSeatTests.outputResources.keys {
                            EmbeddedSeatTests.outputResources[key]?.removeAll { $0 == resource }
                        }
                    }
                    EmbeddedSeatTests.outputResources[ObjectIdentifier(output), default: []].append(resource)
                }
            }
            seat = Seat(display: display, router: router)
            router.inject(InputEvent(time: router.clock.now, device: DeviceID(2),
                                     .deviceAdded(DeviceInfo(name: "mouse", capabilities: [.pointer, .keyboard]))))
            seat.capabilities = [.pointer, .keyboard]
        }

        /// Connects the wire client (after the caller added its globals) and reads the registry.
        func connect() throws -> WireClient {
            let wire = try WireClient(runtimeDirectory: directory, socket: "wayland-embed")
            let display = self.display!
            wire.pump = { display.dispatch(timeout: 0) }
            try wire.roundTripRegistry()
            self.wire = wire
            return wire
        }

        /// A client surface put in the tree under `output`'s root with SeatKit's responder.
        func show(_ surface: OpaquePointer, on output: Output, frame: SurfaceRect) -> Surface {
            let node = Surface(name: "window", frame: frame, responder: ClientSurfaceResponder(seat: seat, surfaceResource: surface))
            output.root.addChild(node)
            extra.append(node)
            return node
        }

        func move(to point: LayoutPoint) {
            seat.router.inject(InputEvent(time: router.clock.now, device: DeviceID(2), .pointerMotionAbsolute(point)))
        }

        deinit {
            wire = nil
            extra = []
            seat = nil
            router = nil
            display = nil
            wl_display_destroy_clients(raw)
            wl_display_destroy(raw)
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    nonisolated(unsafe) static let outputTable = EmbeddingTests.table(wl_output_requests(
        release: { _, resource in wl_resource_destroy(resource) }))

    /// The wl_surfaces clients made, oldest first, and the wl_outputs they bound, per output.
    nonisolated(unsafe) static var surfaces: [OpaquePointer] = []
    nonisolated(unsafe) static var outputResources: [ObjectIdentifier: [OpaquePointer]] = [:]

    /// The compositor's wl_compositor: surfaces (EmbeddingTests' foreign implementation,
    /// user data not a Swift object), recorded here; no regions.
    nonisolated(unsafe) static let compositorTable = EmbeddingTests.table(wl_compositor_requests(
        create_surface: { client, resource, id in
            let surface = wl_resource_create(client, wl_surface_wire(), wl_resource_get_version(resource), id)!
            wl_resource_set_implementation(surface, EmbeddingTests.surfaceTable, EmbeddingTests.ForeignCompositor.tag, nil)
            EmbeddedSeatTests.surfaces.append(surface)
        },
        create_region: { client, _, _ in wl_client_post_no_memory(client) }))

    /// Gives any surface the cursor role; answers with the wl_outputs clients bound.
    final class Roles: WaylandSurfaceRoles {
        func assignCursorRole(to surface: OpaquePointer) -> Bool { true }
        func rectangles(of region: OpaquePointer) -> [SurfaceRect]? { nil }
        func outputResources(for output: Output, client: OpaquePointer) -> [OpaquePointer] {
            (EmbeddedSeatTests.outputResources[ObjectIdentifier(output)] ?? []).filter { wl_resource_get_client($0) == client }
        }
    }

    /// A provider that gives no surface the cursor role: every set_cursor is a role error.
    final class RefusesEveryCursor: WaylandSurfaceRoles {
        func assignCursorRole(to surface: OpaquePointer) -> Bool { false }
        func rectangles(of region: OpaquePointer) -> [SurfaceRect]? { nil }
        func outputResources(for output: Output, client: OpaquePointer) -> [OpaquePointer] { [] }
    }

    /// Written as a compositor naturally would, `seat.surfaceRoles = MyShell()` (nobody else
    /// keeps the provider): the seat keeps it, and still asks it. A weak reference would
    /// drop it at once and accept a surface with another role as the cursor.
    @Test func aSurfaceRolesProviderNobodyElseKeepsStillAnswersForCursorRoles() throws {
        let output = Output(name: "EMBED-1", modeSize: Size(width: 800, height: 600))
        let session = try ForeignSession(outputs: [output])
        session.seat.surfaceRoles = RefusesEveryCursor()
        #expect(session.seat.surfaceRoles != nil)
        let wire = try session.connect()
        let wlCompositor = try wire.bind("wl_compositor", version: 4)
        let wlSeat = try wire.bind("wl_seat", version: 8)
        let window = wire.newID()
        wire.send(wlCompositor, 0, [window])  // create_surface
        let pointer = wire.getPointer(wlSeat)
        #expect(wire.sync())
        _ = session.show(EmbeddedSeatTests.surfaces[0], on: output, frame: SurfaceRect(x: 0, y: 0, width: 100, height: 100))
        session.move(to: LayoutPoint(x: 20, y: 30))
        let enter = try #require(wire.read(until: { $0.object == pointer && $0.opcode == 0 }), "no wl_pointer.enter")
        wire.send(pointer, 0, [enter.uint(at: 0), window, UInt32(0), UInt32(0)])  // set_cursor: the window itself
        let error = try #require(wire.read(until: { $0.object == 1 && $0.opcode == 0 }), "no wl_display.error: the role went unchecked")
        #expect(error.uint(at: 0) == pointer && error.uint(at: 1) == 0, "wl_pointer.error.role")
    }

    /// A seat nobody gave surface roles cannot check set_cursor: it says so, once, as a
    /// warning in its log, and still takes the cursor (it has nothing to refuse it with).
    @Test func aSeatWithoutSurfaceRolesWarnsOnceWhenACursorIsSet() throws {
        let output = Output(name: "EMBED-1", modeSize: Size(width: 800, height: 600))
        let session = try ForeignSession(outputs: [output])
        let captured = EnvironmentFailureLogTests.Captured()
        session.seat.logger = Logger(label: "test") { _ in EnvironmentFailureLogTests.CapturingHandler(captured: captured) }
        let wire = try session.connect()
        let wlCompositor = try wire.bind("wl_compositor", version: 4)
        let wlSeat = try wire.bind("wl_seat", version: 8)
        let window = wire.newID()
        wire.send(wlCompositor, 0, [window])
        let cursorSurface = wire.newID()
        wire.send(wlCompositor, 0, [cursorSurface])
        let pointer = wire.getPointer(wlSeat)
        #expect(wire.sync())
        _ = session.show(EmbeddedSeatTests.surfaces[0], on: output, frame: SurfaceRect(x: 0, y: 0, width: 100, height: 100))
        session.move(to: LayoutPoint(x: 20, y: 30))
        let enter = try #require(wire.read(until: { $0.object == pointer && $0.opcode == 0 }), "no wl_pointer.enter")
        wire.send(pointer, 0, [enter.uint(at: 0), cursorSurface, UInt32(0), UInt32(0)])
        wire.send(pointer, 0, [enter.uint(at: 0), cursorSurface, UInt32(1), UInt32(1)])
        #expect(wire.sync())
        #expect(session.seat.cursor?.hotspotX == 1)
        let warnings = captured.all.filter { $0.0 == .warning }.map(\.1)
        #expect(warnings.count == 1 && warnings.first?.contains("no surfaceRoles") == true, "\(warnings)")
    }

    /// The cursor surface gets wl_surface.enter for the wl_output (as the client bound it)
    /// of the output the pointer is on, and leave for it when the pointer moves onto
    /// another output, which it then enters: at scale 2 a client draws its cursor at scale 2.
    @Test func theCursorSurfaceEntersTheOutputUnderThePointerAndLeavesItWhenThePointerMovesOff() throws {
        let left = Output(name: "LEFT", modeSize: Size(width: 800, height: 600))
        let right = Output(name: "RIGHT", position: LayoutPoint(x: 800, y: 0), modeSize: Size(width: 1600, height: 1200), scale: 2)
        let session = try ForeignSession(outputs: [left, right])
        let roles = Roles()
        session.seat.surfaceRoles = roles
        let wire = try session.connect()
        let outputNames = wire.announced.filter { $0.interface == "wl_output" }.map(\.name)
        try #require(outputNames.count == 2)
        let leftOutput = wire.bind(name: outputNames[0], "wl_output", version: 3)
        let rightOutput = wire.bind(name: outputNames[1], "wl_output", version: 3)
        let wlCompositor = try wire.bind("wl_compositor", version: 4)
        let wlSeat = try wire.bind("wl_seat", version: 8)
        let leftWindow = wire.newID()
        wire.send(wlCompositor, 0, [leftWindow])
        let rightWindow = wire.newID()
        wire.send(wlCompositor, 0, [rightWindow])
        let cursorSurface = wire.newID()
        wire.send(wlCompositor, 0, [cursorSurface])
        let pointer = wire.getPointer(wlSeat)
        #expect(wire.sync())
        let surfaces = EmbeddedSeatTests.surfaces
        try #require(surfaces.count == 3)
        _ = session.show(surfaces[0], on: left, frame: SurfaceRect(x: 0, y: 0, width: 800, height: 600))
        _ = session.show(surfaces[1], on: right, frame: SurfaceRect(x: 0, y: 0, width: 800, height: 600))

        session.move(to: LayoutPoint(x: 20, y: 30))
        let enter = try #require(wire.read(until: { $0.object == pointer && $0.opcode == 0 }), "no wl_pointer.enter")
        #expect(enter.uint(at: 1) == leftWindow)
        wire.send(pointer, 0, [enter.uint(at: 0), cursorSurface, UInt32(4), UInt32(4)])  // set_cursor
        let entered = try #require(wire.read(until: { $0.object == cursorSurface }), "the cursor surface was told of no output")
        #expect(entered.opcode == 0 && entered.uint(at: 0) == leftOutput, "wl_surface.enter(left output)")

        // Moving within the left output tells the cursor surface nothing new.
        session.move(to: LayoutPoint(x: 400, y: 300))
        // Onto the right output (the client's other window there): leave left, enter right.
        session.move(to: LayoutPoint(x: 900, y: 30))
        let enterRight = try #require(wire.read(until: { $0.object == pointer && $0.opcode == 0 }))
        #expect(enterRight.uint(at: 1) == rightWindow)
        let first = try #require(wire.read(until: { $0.object == cursorSurface }), "no leave when the pointer moved off")
        #expect(first.opcode == 1 && first.uint(at: 0) == leftOutput, "wl_surface.leave(left output)")
        let second = try #require(wire.read(until: { $0.object == cursorSurface }), "no enter of the right output")
        #expect(second.opcode == 0 && second.uint(at: 0) == rightOutput, "wl_surface.enter(right output)")

        // A hidden cursor (set_cursor with no surface): the surface leaves the output.
        wire.send(pointer, 0, [enterRight.uint(at: 0), UInt32(0), UInt32(0), UInt32(0)])
        let left2 = try #require(wire.read(until: { $0.object == cursorSurface }), "no leave when the cursor was hidden")
        #expect(left2.opcode == 1 && left2.uint(at: 0) == rightOutput)
        #expect(session.seat.cursor == nil)
        withExtendedLifetime(roles) {}
    }

    /// SeatKitWayland's data device on a compositor of its own (no headless shell): the
    /// focused client sets the clipboard and is offered it back, with its MIME type.
    @Test
    func aDataDeviceBesideTheSeatOffersTheClipboardToTheFocusedClient() throws {
        let output = Output(name: "EMBED-1", modeSize: Size(width: 800, height: 600))
        let session = try ForeignSession(outputs: [output])
        session.seat.surfaceRoles = Roles()
        // Kept by the session, whose deinit lets go of it before destroying the display, as a
        // compositor keeps it. (It used to be a local `var` emptied in a `defer` that also
        // extended the session's lifetime; in optimized builds the session, and
        // wl_display_destroy with it, still went first, as gdb shows: the client's binding
        // failed on the gone display, and the data device's deinit then destroyed globals of
        // a freed display, crashing in wl_global_remove.)
        session.extra.append(DataDevice(seat: session.seat))
        let wire = try session.connect()
        #expect(wire.globals["wl_data_device_manager"]?.version == 3)
        #expect(wire.globals["zwp_primary_selection_device_manager_v1"] != nil)
        let wlCompositor = try wire.bind("wl_compositor", version: 4)
        let wlSeat = try wire.bind("wl_seat", version: 8)
        let manager = try wire.bind("wl_data_device_manager", version: 3)
        let window = wire.newID()
        wire.send(wlCompositor, 0, [window])
        let keyboard = wire.getKeyboard(wlSeat)
        #expect(wire.sync())
        let node = session.show(EmbeddedSeatTests.surfaces[0], on: output, frame: SurfaceRect(x: 0, y: 0, width: 100, height: 100))
        session.router.becomeFirstResponder(node)
        let keyboardEnter = try #require(wire.read(until: { $0.object == keyboard && $0.opcode == 1 }), "no wl_keyboard.enter")

        let device = wire.newID()
        wire.send(manager, 1, [device, wlSeat])  // get_data_device
        let empty = try #require(wire.read(until: { $0.object == device }), "the focused client's device learned no selection")
        #expect(empty.opcode == 5 && empty.uint(at: 0) == 0, "selection(null)")
        let source = wire.newID()
        wire.send(manager, 0, [source])  // create_data_source
        wire.send(source, 0, ["text/plain;charset=utf-8"])  // offer
        wire.send(device, 1, [source, keyboardEnter.uint(at: 0)])  // set_selection
        let offer = try #require(wire.read(until: { $0.object == device }), "no data_offer")
        #expect(offer.opcode == 0)
        let offerID = offer.uint(at: 0)
        let mime = try #require(wire.read(until: { $0.object == offerID }), "the offer listed no MIME type")
        #expect(mime.opcode == 0 && mime.string(at: 0) == "text/plain;charset=utf-8")
        let selection = try #require(wire.read(until: { $0.object == device }), "no selection")
        #expect(selection.opcode == 5 && selection.uint(at: 0) == offerID)
    }
}
