import Testing

extension EndToEndTests {
    /// wl_seat.get_pointer on a seat that never had a pointer is a protocol error
    /// (missing_capability); the client gets wl_display.error and the kiosk serves on.
    @Test func askingForADeviceTheSeatNeverHadIsAProtocolErrorAndTheKioskServesOn() throws {
        let session = try KioskSession()
        let wire = try WireClient(runtimeDirectory: session.runtimeDirectory, socket: session.socket)
        try wire.roundTripRegistry()
        #expect(wire.globals["wl_seat"]?.version == 8)
        let seat = try wire.bind("wl_seat", version: 8)
        wire.send(seat, 0, [wire.newID()])  // wl_seat.get_pointer
        let error = try #require(wire.read(until: { $0.object == 1 && $0.opcode == 0 }), "no wl_display.error")
        #expect(error.uint(at: 0) == seat)
        #expect(error.uint(at: 1) == 0, "wl_seat.error.missing_capability")

        // The compositor is unharmed: a real client maps and gets input.
        try session.addDevices()
        let wev = try session.launch("wev")
        _ = try session.waitForWindow("wev")
        session.send(Script.type([30]))
        try wev.output.require("sym: a")
        #expect(session.kioskIsRunning)
    }
}
