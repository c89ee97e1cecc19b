import Testing

/// Real clients from Debian under the kiosk. One kiosk, one runtime directory and one socket
/// per test; serialized, because each test runs three processes on a small machine.
@Suite(.serialized) struct EndToEndTests {}

extension EndToEndTests {
    @Test func wevReceivesTouchesClicksScrollsAndKeysOfAScriptedSequence() throws {
        let session = try KioskSession()
        try session.addDevices()
        let wev = try session.launch("wev")
        let window = try session.waitForWindow("wev")
        #expect(window.x == 0 && window.y == 0)
        let start = wev.output.mark

        session.send([Script.move(100.5, 50.25)] + Script.click() + [Script.scroll(vertical: 15, v120: 120)]
            + Script.touchDown(30, 40) + Script.touchMove(35.5, 45) + Script.touchUp()
            + Script.type([30, 48]))  // a, b
        try wev.output.require("sym: b", after: start)
        try wev.output.require({ WevLog($0[start...]).events("wl_keyboard", "key").count == 4 }, "wev did not get four key events")
        let log = WevLog(wev.output.text[start...])

        // Pointer: surface-local coordinates, buttons with their state, the wheel.
        #expect(log.events("wl_pointer", "motion").contains { $0.hasSuffix("x, y: 100.500000, 50.250000") })
        let buttons = log.events("wl_pointer", "button")
        #expect(buttons.count == 2)
        #expect(buttons.first?.contains("button: 272 (left), state: 1 (pressed)") == true)
        #expect(buttons.last?.contains("button: 272 (left), state: 0 (released)") == true)
        #expect(log.events("wl_pointer", "axis_source").first?.contains("0 (wheel)") == true)
        #expect(log.events("wl_pointer", "axis").contains { $0.contains("axis: 0 (vertical), value: 15.000000") })
        #expect(!log.events("wl_pointer", "frame").isEmpty)

        // Touch: down, motion and up of finger 0, each closed by a frame.
        let down = log.events("wl_touch", "down")
        #expect(down.count == 1)
        #expect(down.first?.hasSuffix("id: 0; x, y: 30.000000, 40.000000") == true)
        #expect(log.events("wl_touch", "motion").first?.hasSuffix("id: 0; x, y: 35.500000, 45.000000") == true)
        #expect(log.events("wl_touch", "up").count == 1)
        #expect(log.events("wl_touch", "frame").count == 3)

        // Keys: wev's own xkbcommon, with the keymap the seat sent, finds keysym and text.
        let keys = log.events("wl_keyboard", "key")
        #expect(keys[0].contains("key: 38; state: 1 (pressed)") && keys[0].contains("sym: a") && keys[0].contains("utf8: 'a'"))
        #expect(keys[2].contains("key: 56; state: 1 (pressed)") && keys[2].contains("sym: b") && keys[2].contains("utf8: 'b'"))
        #expect(keys[1].contains("state: 0 (released)"))
    }

    @Test func wevGetsKeyboardEnterWithTheKeymapWhenItsWindowIsFocused() throws {
        let session = try KioskSession()
        try session.addDevices()
        let wev = try session.launch("wev")
        _ = try session.waitForWindow("wev")
        try wev.output.require("wl_keyboard] enter:")
        let log = WevLog(wev.output.text[...])
        #expect(log.events("wl_keyboard", "keymap").first?.contains("format: 1 (xkb v1)") == true)
        #expect(log.events("wl_keyboard", "repeat_info").first?.contains("rate: 25 keys/sec; delay: 600 ms") == true)
        #expect(log.events("wl_seat", "capabilities").first?.contains("pointer keyboard touch") == true)
    }

    @Test func westonSimpleTouchReceivesTouchDownMotionAndUp() throws {
        let session = try KioskSession()
        try session.addDevices()
        let client = try session.launch("weston-simple-touch", debug: true)
        let window = try session.waitForWindow("simple-touch")
        let start = client.output.mark
        let x = window.x + 100, y = window.y + 80
        session.send(Script.touchDown(x, y) + Script.touchMove(x + 10, y + 5) + Script.touchUp())
        // WAYLAND_DEBUG: libwayland-client prints each event as the client receives it.
        try client.output.require("wl_touch@", after: start)
        try client.output.require({ $0[start...].contains(".up(") && $0[start...].components(separatedBy: ".frame()").count >= 4 },
                                  "no touch up and frames")
        let received = client.output.text[start...].split(separator: "\n").filter { $0.contains("wl_touch@") && !$0.contains(" -> ") }
        #expect(received.contains { $0.contains(".down(") && $0.hasSuffix(", 0, 100.00000000, 80.00000000)") }, "\(received)")
        #expect(received.contains { $0.contains(".motion(") && $0.hasSuffix(", 0, 110.00000000, 85.00000000)") })
        #expect(received.contains { $0.contains(".up(") })
        #expect(received.filter { $0.contains(".frame()") }.count == 3)
    }
}

extension EndToEndTests {
    /// The router cancels a touch (here the device does; a recognizer taking the touch goes
    /// the same way, through touchesCancelled): the client gets wl_touch.cancel, and nothing
    /// of that finger afterwards.
    @Test func aCancelledTouchReachesTheClientAsWlTouchCancel() throws {
        let session = try KioskSession()
        try session.addDevices()
        let client = try session.launch("weston-simple-touch", debug: true)
        let window = try session.waitForWindow("simple-touch")
        let start = client.output.mark
        session.send(Script.touchDown(window.x + 20, window.y + 20)
            + [#"{"type": "touch-cancel", "device": 3, "id": 0}"#, #"{"type": "touch-frame", "device": 3}"#]
            + Script.touchMove(window.x + 30, window.y + 30) + Script.touchUp()
            + Script.tap(window.x + 60, window.y + 70, id: 1))
        try client.output.require({ $0[start...].contains(".down(") && $0[start...].contains(", 1, 60.00000000, 70.00000000)") },
                                  "the second finger never came")
        let received = client.output.text[start...].split(separator: "\n").filter { $0.contains("wl_touch@") && !$0.contains(" -> ") }
        let cancel = try #require(received.firstIndex { $0.contains(".cancel()") }, "no wl_touch.cancel in \(received)")
        let secondDown = try #require(received.firstIndex { $0.contains(", 1, 60.00000000, 70.00000000)") })
        #expect(cancel < secondDown)
        // Between the cancel and the next finger, finger 0 sends nothing.
        #expect(received[cancel..<secondDown].allSatisfy { !$0.contains(".motion(") && !$0.contains(".up(") })
    }
}

extension EndToEndTests {
    /// The kiosk's keyboard repeats a held key for the compositor's own responders; the
    /// client gets one press and one release, and repeats on its own from repeat_info.
    @Test func aHeldKeyRepeatsInTheCompositorButReachesTheClientAsOnePressAndOneRelease() throws {
        let session = try KioskSession()
        try session.addDevices()
        let wev = try session.launch("wev")
        _ = try session.waitForWindow("wev")
        try wev.output.require("wl_keyboard] enter:")
        let start = wev.output.mark
        session.send([#"{"type": "key", "device": 1, "key": 30, "state": "pressed"}"#])
        // The first repeat comes after the 600 ms delay; the kiosk says so once per hold.
        try session.log.require("key 30 repeats")
        session.send([#"{"type": "key", "device": 1, "key": 30, "state": "released"}"#] + Script.type([48]))  // then b
        try session.log.require("key 30 released after ")
        #expect(session.log.text.components(separatedBy: "key 30 repeats").count == 2, "one line per hold, not per repeat")
        // b's release is the last event sent; anything sent before it has arrived by then.
        try wev.output.require({ WevLog($0[start...]).events("wl_keyboard", "key").contains { $0.contains("key: 56; state: 0") } },
                               "wev never got b's release")
        let keys = WevLog(wev.output.text[start...]).events("wl_keyboard", "key")
        #expect(keys.count == 4, "\(keys)")
        #expect(keys.filter { $0.contains("key: 38; state: 1 (pressed)") }.count == 1, "\(keys)")
        #expect(keys.filter { $0.contains("key: 38; state: 0 (released)") }.count == 1, "\(keys)")
    }
}
