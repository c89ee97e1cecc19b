import Testing

extension EndToEndTests {
    /// weston-multi-resource creates several wl_keyboard and wl_pointer objects, some of
    /// them a second late. Every object of the focused client gets every event, with one
    /// serial per event; objects created later get enter at once: the pointer with where it
    /// is, the keyboard with the keys held.
    @Test func everyResourceOfAClientGetsTheEventsAndLateOnesGetEnter() throws {
        let session = try KioskSession()
        try session.addDevices()
        // -k/-p <seconds>: create a keyboard/pointer after that delay.
        let client = try session.launch("weston-multi-resource", ["-k", "0", "-k", "0", "-p", "0", "-p", "1", "-k", "1"], debug: true)
        _ = try session.waitForWindow("multi-resource")
        try client.output.require({ $0.components(separatedBy: "wl_keyboard@").filter { $0.contains(".enter(") }.count >= 2 },
                                  "the first keyboards got no enter")
        // Hold 'a' and move: the late keyboard and pointer must learn both.
        session.send([#"{"type": "key", "device": 1, "key": 30, "state": "pressed"}"#, Script.move(100, 50)])
        try client.output.require({ text in
            let lines = text.split(separator: "\n")
            return lines.filter { $0.contains(".get_pointer(") || $0.contains(".get_keyboard(") }.count == 5
                && lines.filter { $0.contains("wl_keyboard@") && $0.contains(".enter(") }.count == 3
                && lines.filter { $0.contains("wl_pointer@") && $0.contains(".enter(") }.count >= 2
        }, "the late resources got no enter")

        let lines = client.output.text.split(separator: "\n").filter { !$0.contains(" -> ") }
        let keys = lines.filter { $0.contains("wl_keyboard@") && $0.contains(".key(") }
        #expect(keys.count == 2, "both early keyboards get the key")
        let serials = Set(keys.map { $0.split(separator: "(")[1].split(separator: ",")[0] })
        #expect(serials.count == 1, "one serial per event, whichever object carries it")
        let keyboardEnters = lines.filter { $0.contains("wl_keyboard@") && $0.contains(".enter(") }
        #expect(keyboardEnters.last?.hasSuffix("array[4])") == true, "the late keyboard's enter carries the held key")
        let pointerEnters = lines.filter { $0.contains("wl_pointer@") && $0.contains(".enter(") }
        #expect(pointerEnters.last?.hasSuffix("100.00000000, 50.00000000)") == true, "the late pointer enters where the pointer is")
    }
}
