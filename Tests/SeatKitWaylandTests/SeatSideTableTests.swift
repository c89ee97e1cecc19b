import CWaylandServer
import Foundation
import SeatKit
import SeatKitWayland
import Testing

/// Whether `object`'s reference count lives in a side table: the object was ever referenced
/// weakly, and from then on each of its retains and releases takes the Swift runtime's slow
/// path (`doDecrementSlow`, `tryIncrementSlow`). On 64-bit platforms the inline count's two
/// top bits (`UseSlowRC`, `SideTableMark`) are both set exactly then (or for an immortal
/// object, which no class instance here is).
func hasSideTable(_ object: AnyObject) -> Bool {
    let bits = Unmanaged.passUnretained(object).toOpaque().load(fromByteOffset: MemoryLayout<UInt>.size, as: UInt64.self)
    return bits >> 62 == 0b11
}

/// Issue 25, goal 5: nothing on the seat's per-event path is referenced weakly, so neither the
/// seat, its router, the output nor a client's surface responder gets a side table, however
/// many clients bind the seat and its devices and whatever focus they get. (Protocol objects
/// refer to the seat through its handle; the seat holds its focused responders strongly and
/// clears them on leave, resign and surface destruction.)
/// In `EmbeddingTests` (serialized): they share its foreign compositor's surface list.
extension EmbeddingTests {
@Suite struct SeatSideTableTests {
    final class Probe {}

    @Test func theSideTableCheckSeesAnObjectThatWasReferencedWeakly() {
        let plain = Probe(), referenced = Probe()
        weak let weakReference = referenced
        #expect(!hasSideTable(plain))
        #expect(hasSideTable(referenced))
        withExtendedLifetime(weakReference) {}
    }

    @Test func clientsBindingTheSeatAndGettingFocusGiveNoSeatObjectASideTable() throws {
        let raw = try #require(wl_display_create())
        defer {
            wl_display_destroy_clients(raw)
            wl_display_destroy(raw)
        }
        var template = Array("/tmp/seatkit-sidetable-XXXXXX".utf8CString)
        let directory = try #require(mkdtemp(&template).map { String(cString: $0) })
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(wl_display_add_socket_fd(raw, try EmbeddingTests.listeningSocket(at: directory + "/wayland-sidetable")) == 0)
        _ = wl_global_create(raw, wl_compositor_wire(), 4, nil) { client, _, version, id in
            let resource = wl_resource_create(client, wl_compositor_wire(), Int32(version), id)!
            wl_resource_set_implementation(resource, EmbeddingTests.compositorTable, nil, nil)
        }
        EmbeddingTests.ForeignCompositor.surfaces = []

        let display = WaylandDisplay(wrapping: raw, socketName: "wayland-sidetable")
        let clock = EventLoopClock(eventLoop: display.eventLoop)
        let router = Router(clock: clock)
        let output = Output(name: "SIDE-1", modeSize: Size(width: 800, height: 600))
        router.addOutput(output)
        let seat = Seat(display: display, router: router)
        for (id, name, capabilities) in [(1, "keyboard", DeviceCapabilities.keyboard), (2, "mouse", .pointer), (3, "touch", .touch)] {
            router.inject(InputEvent(time: clock.now, device: DeviceID(UInt32(id)), .deviceAdded(DeviceInfo(name: name, capabilities: [capabilities]))))
        }
        seat.capabilities = [.keyboard, .pointer, .touch]

        let wire = try WireClient(runtimeDirectory: directory, socket: "wayland-sidetable")
        wire.pump = { display.dispatch(timeout: 0) }
        try wire.roundTripRegistry()
        let wlCompositor = try wire.bind("wl_compositor", version: 4)
        let wlSeat = try wire.bind("wl_seat", version: 8)
        let first = wire.newID(), second = wire.newID()
        wire.send(wlCompositor, 0, [first])
        wire.send(wlCompositor, 0, [second])
        let pointer = wire.newID(), keyboard = wire.newID(), touch = wire.newID()
        wire.send(wlSeat, 0, [pointer])
        wire.send(wlSeat, 1, [keyboard])
        wire.send(wlSeat, 2, [touch])
        #expect(wire.sync())
        let surfaces = EmbeddingTests.ForeignCompositor.surfaces
        try #require(surfaces.count == 2)
        let left = ClientSurfaceResponder(seat: seat, surfaceResource: surfaces[0])
        let right = ClientSurfaceResponder(seat: seat, surfaceResource: surfaces[1])
        let leftNode = Surface(name: "left", frame: SurfaceRect(x: 0, y: 0, width: 400, height: 600), responder: left)
        let rightNode = Surface(name: "right", frame: SurfaceRect(x: 400, y: 0, width: 400, height: 600), responder: right)
        output.root.addChild(leftNode)
        output.root.addChild(rightNode)

        // Focus moves between the two surfaces (enter, leave, become and resign), touches go
        // down on both, keys go to each.
        var t: Int64 = 1_000
        func send(_ device: UInt32, _ kind: InputEvent.Kind) {
            t += 1_000
            router.inject(InputEvent(time: Timestamp(microseconds: t), device: DeviceID(device), kind))
        }
        for round in 0..<3 {
            #expect(router.becomeFirstResponder(round % 2 == 0 ? leftNode : rightNode))
            send(2, .pointerMotionAbsolute(LayoutPoint(x: 100, y: 100)))
            send(2, .pointerMotionAbsolute(LayoutPoint(x: 500, y: 100)))
            send(2, .pointerButton(button: 0x110, state: .pressed))
            send(2, .pointerButton(button: 0x110, state: .released))
            send(3, .touchDown(TouchID(0), LayoutPoint(x: 100, y: 100)))
            send(3, .touchDown(TouchID(1), LayoutPoint(x: 500, y: 100)))
            send(3, .touchFrame)
            send(3, .touchMotion(TouchID(0), LayoutPoint(x: 110, y: 100)))
            send(3, .touchFrame)
            send(3, .touchUp(TouchID(0)))
            send(3, .touchUp(TouchID(1)))
            send(3, .touchFrame)
            send(1, .key(keycode: 30, state: .pressed))
            send(1, .key(keycode: 30, state: .released))
            #expect(wire.sync())
        }
        #expect(seat.keyboardFocusClient != nil)

        #expect(!hasSideTable(seat), "the seat is referenced weakly")
        #expect(!hasSideTable(router), "the router is referenced weakly")
        #expect(!hasSideTable(output), "the output is referenced weakly")
        #expect(!hasSideTable(left), "a surface responder that had focus is referenced weakly")
        #expect(!hasSideTable(right), "a surface responder that had focus is referenced weakly")

        // The seat keeps no responder past its surface: a destroyed wl_surface lets go of both
        // foci it had.
        rightNode.removeFromParent()
        leftNode.removeFromParent()
        weak var gone: ClientSurfaceResponder?
        do {
            let probe = ClientSurfaceResponder(seat: seat, surfaceResource: surfaces[0])
            gone = probe
            let node = Surface(name: "probe", frame: SurfaceRect(x: 0, y: 0, width: 800, height: 600), responder: probe)
            output.root.addChild(node)
            #expect(router.becomeFirstResponder(node))
            send(2, .pointerMotionAbsolute(LayoutPoint(x: 300, y: 300)))
            probe.surfaceDestroyed()
            node.removeFromParent()
        }
        #expect(gone == nil, "the seat kept a focused responder after its surface was destroyed")
        withExtendedLifetime((display, seat, left, right)) {}
    }
}
}
