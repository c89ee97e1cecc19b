import Testing

extension EndToEndTests {
    /// weston-clickdot answers wl_pointer.enter with set_cursor quoting the enter's serial;
    /// the seat honours it (the kiosk logs every accepted cursor), and the cursor surface the
    /// kiosk reports is the one the client named.
    @Test func setCursorFromTheFocusedClientWithTheEnterSerialIsHonoured() throws {
        let session = try KioskSession()
        try session.addDevices()
        let client = try session.launch("weston-clickdot", debug: true)
        let window = try session.waitForWindow("org.freedesktop.weston.wayland-clickdot")
        #expect(!session.log.text.contains("cursor wl_surface@"), "no cursor before the pointer enters")
        session.send([Script.move(window.x + 100, window.y + 50), Script.move(window.x + 110, window.y + 60)])
        try client.output.require("set_cursor(")
        try session.log.require({ $0.contains("cursor wl_surface@") }, "the seat refused the cursor")

        // The request the client made, as libwayland-client logged it: set_cursor(serial, wl_surface@N, x, y).
        let lines = client.output.text.split(separator: "\n")
        let enter = try #require(lines.first { $0.contains("wl_pointer@") && $0.contains(".enter(") })
        let enterSerial = enter.split(separator: "(")[1].split(separator: ",")[0]
        let request = try #require(lines.first { $0.contains(".set_cursor(") && $0.contains("wl_surface@") })
        let arguments = request.split(separator: "(")[1].dropLast().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(arguments[0] == String(enterSerial))
        #expect(session.log.text.contains("cursor \(arguments[1]) hotspot \(arguments[2]),\(arguments[3])"))
    }
}
