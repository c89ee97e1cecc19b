import SeatKitWayland
import Testing

/// cursor-shape-v1 in the kiosk. No client in Debian 12 speaks it (GTK 4.8, foot 1.13, Qt 6.4
/// and SDL2 predate it: GTK uses it from 4.14): the test's own wire client does, as GTK 4.14
/// does (get_pointer on its wl_pointer, set_shape quoting the enter's serial).
@Suite(.serialized) struct CursorShapeTests {
    @Test func theFocusedClientsNamedCursorShapeReachesTheCompositorUntilASetCursorReplacesIt() throws {
        let (session, wire, seat) = try KioskSession.withSeatClient()
        #expect(wire.globals["wp_cursor_shape_manager_v1"]?.version == 1)
        let pointer = wire.getPointer(seat)
        let manager = try wire.bind("wp_cursor_shape_manager_v1", version: 1)
        let device = wire.newID()
        wire.send(manager, 1, [device, pointer])  // get_pointer
        _ = try wire.mapToplevel(appID: "shapes")
        let frame = try session.waitForWindow("shapes")
        session.send([Script.move(frame.x + 20, frame.y + 20)])
        let enter = try #require(wire.read(until: { $0.object == pointer && $0.opcode == 0 }), "no wl_pointer.enter")
        let serial = enter.uint(at: 0)

        // A serial from before the enter is refused; the enter's is honoured.
        wire.send(device, 1, [serial &- 1, UInt32(4)])  // set_shape(stale, pointer)
        wire.send(device, 1, [serial, UInt32(9)])  // set_shape(text)
        try session.log.require("cursor shape text")
        #expect(!session.log.text.contains("cursor shape pointer"), "a stale serial was honoured")
        wire.send(device, 1, [serial, UInt32(26)])  // ew-resize
        try session.log.require("cursor shape ew-resize")

        // wl_pointer.set_cursor (here: hide) replaces the shape.
        wire.send(pointer, 0, [serial, UInt32(0), UInt32(0), UInt32(0)])
        try session.log.require("cursor shape none")

        // A shape the protocol's version 1 does not list is a protocol error.
        wire.send(device, 1, [serial, UInt32(35)])
        let error = try #require(wire.read(until: { $0.object == 1 && $0.opcode == 0 }), "no wl_display.error")
        #expect(error.uint(at: 0) == device && error.uint(at: 1) == 1, "wp_cursor_shape_device_v1.error.invalid_shape")
    }

    @Test func everyShapeHasItsCSSName() {
        let names = CursorShape.allCases.map(\.cssName)
        #expect(names.count == 34 && names.first == "default" && names.last == "zoom-out")
        #expect(CursorShape(rawValue: 29)?.cssName == "nwse-resize" && CursorShape(rawValue: 2)?.cssName == "context-menu")
    }
}
