import Testing

extension EndToEndTests {
    /// weston-confine asks, on a click, to confine the pointer to a rectangle of its window
    /// (one-shot). Once told `confined`, relative motion far to the right stops on the last
    /// whole pixel inside the rectangle's right edge, and the client keeps pointer focus.
    @Test func westonConfineKeepsThePointerInsideItsRegion() throws {
        let session = try KioskSession()
        try session.addDevices()
        let client = try session.launch("weston-confine", debug: true)
        let window = try session.waitForWindow("org.freedesktop.weston.wayland-confine")
        session.send([Script.move(window.x + 200, window.y + 200)] + Script.click())
        try client.output.require(".confined()")

        // The region the client asked for: wl_region.add(x, y, width, height) just before confine_pointer.
        let lines = client.output.text.split(separator: "\n")
        let confine = try #require(lines.firstIndex { $0.contains(".confine_pointer(") })
        let add = try #require(lines[..<confine].last { $0.contains("wl_region@") && $0.contains(".add(") })
        let rect = add.split(separator: "(")[1].dropLast().split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        let right = rect[0] + rect[2]

        // Far to the right, then a push that goes nowhere (no wl_pointer.motion: the point
        // the client reads does not move), then one step down, which moves it.
        let start = client.output.mark
        session.send([#"{"type": "pointer-motion", "device": 2, "dx": 2000, "dy": 0}"#,
                      #"{"type": "pointer-motion", "device": 2, "dx": 5, "dy": 0}"#,
                      #"{"type": "pointer-motion", "device": 2, "dx": 0, "dy": 1}"#])
        func motions(_ text: Substring) -> [Substring] {
            text.split(separator: "\n").filter { $0.contains("wl_pointer@") && !$0.contains(" -> ") && $0.contains(".motion(") }
        }
        try client.output.require({ motions($0[start...]).count >= 2 }, "no motion after confining")
        let after = client.output.text[start...].split(separator: "\n").filter { $0.contains("wl_pointer@") && !$0.contains(" -> ") }
        let motions = motions(client.output.text[start...])
        #expect(motions.count == 2)
        for motion in motions {
            let x = try #require(Double(motion.split(separator: ",")[1].trimmingCharacters(in: .whitespaces)))
            #expect(x == right - 1, "pointer at x=\(x), region ends at \(right): the last whole pixel inside")
        }
        #expect(!after.contains { $0.contains(".leave(") })
    }
}
