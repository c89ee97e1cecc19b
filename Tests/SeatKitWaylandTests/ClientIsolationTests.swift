import Testing

extension EndToEndTests {
    @Test func withTwoClientsSideBySideTheUnfocusedOneReceivesNothingAtAll() throws {
        let session = try KioskSession()
        try session.addDevices()
        let focused = try session.launch("wev")
        let a = try session.waitForWindow("wev")
        let other = try session.launch("wev")
        let b = try session.waitForWindow("wev", nth: 2)
        #expect(b.x == a.x + a.width, "the kiosk lays windows out side by side")
        let start = focused.output.mark

        // Everything happens over the first window, which has keyboard focus.
        session.send([Script.move(a.x + 100, a.y + 100)] + Script.click() + [Script.scroll(vertical: 10, v120: 120)]
            + Script.tap(a.x + 200, a.y + 200) + Script.type([30, 48]))
        try focused.output.require({ WevLog($0[start...]).events("wl_keyboard", "key").count == 4 }, "the focused client missed keys")

        // Barrier: the pointer crosses into the other window, whose first input event must
        // be that enter. Events arrive in order, so anything sent earlier would come before.
        session.send([Script.move(b.x + 60, b.y + 120)])
        try other.output.require("wl_pointer] enter:")
        let otherEvents = WevLog(other.output.text[...]).inputEvents
        #expect(otherEvents.first?.contains("wl_pointer] enter:") == true, "the unfocused client got \(otherEvents)")
        #expect(otherEvents.first?.hasSuffix("x, y: 60.000000, 120.000000") == true, "enter is in the other surface's local space")
        #expect(otherEvents.allSatisfy { !$0.contains("wl_keyboard") && !$0.contains("wl_touch") })

        let log = WevLog(focused.output.text[start...])
        #expect(log.events("wl_pointer", "button").count == 2)
        #expect(log.events("wl_touch", "down").first?.hasSuffix("x, y: 200.000000, 200.000000") == true)
        try focused.output.require("wl_pointer] leave:", after: start)
    }

    @Test func aClientKilledMidTouchAndMidClickLeavesTheKioskServingOthers() throws {
        let session = try KioskSession()
        try session.addDevices()
        let doomed = try session.launch("wev")
        let window = try session.waitForWindow("wev")
        session.send(Script.touchDown(window.x + 40, window.y + 40) + [Script.move(window.x + 50, window.y + 50)]
            + [#"{"type": "button", "device": 2, "button": 272, "state": "pressed"}"#, #"{"type": "key", "device": 1, "key": 30, "state": "pressed"}"#])
        try doomed.output.require("wl_touch] down:")
        try doomed.output.require("wl_keyboard] key:")

        // The client dies holding a touch, the implicit grab and a pressed key.
        doomed.kill()
        try session.log.require("unmapped wev")
        session.send(Script.touchMove(window.x + 45, window.y + 45) + Script.touchUp()
            + [#"{"type": "button", "device": 2, "button": 272, "state": "released"}"#, #"{"type": "key", "device": 1, "key": 30, "state": "released"}"#])

        // A new client gets a fresh touch, focus and keys.
        let next = try session.launch("wev")
        let nextWindow = try session.waitForWindow("wev", nth: 2)
        #expect(nextWindow.x == 0, "the dead client's window is gone from the layout")
        try next.output.require("wl_keyboard] enter:")
        let start = next.output.mark
        session.send(Script.tap(nextWindow.x + 50, nextWindow.y + 60) + Script.type([46]))  // c
        try next.output.require("sym: c", after: start)
        let log = WevLog(next.output.text[start...])
        #expect(log.events("wl_touch", "down").first?.hasSuffix("id: 0; x, y: 50.000000, 60.000000") == true)
        #expect(session.kioskIsRunning)
        #expect(!session.log.text.contains("error"))
    }
}

extension EndToEndTests {
    /// Three clients side by side: each gets the input over its own window and nothing of
    /// the others'; keys go to the one focused by the last tap.
    @Test func withThreeClientsSideBySideEachGetsOnlyItsOwnInput() throws {
        let session = try KioskSession()
        try session.addDevices()
        var clients: [ClientProcess] = []
        var windows: [KioskSession.Window] = []
        for nth in 1...3 {
            clients.append(try session.launch("wev"))
            windows.append(try session.waitForWindow("wev", nth: nth))
        }
        #expect(windows[1].x == windows[0].x + windows[0].width && windows[2].x == windows[1].x + windows[1].width)
        for client in clients { try client.output.require("wl_seat] capabilities:") }
        let marks = clients.map { $0.output.mark }
        // A tap in each window at its own local (10 + 10i, 20), then keys to the last tapped.
        for (i, window) in windows.enumerated() { session.send(Script.tap(window.x + 10 + Double(10 * i), window.y + 20)) }
        session.send(Script.type([46]))  // c
        try clients[2].output.require("sym: c", after: marks[2])
        for (i, client) in clients.enumerated() {
            try client.output.require("wl_touch] up:", after: marks[i])
            let log = WevLog(client.output.text[marks[i]...])
            let downs = log.events("wl_touch", "down")
            #expect(downs.count == 1 && downs[0].hasSuffix("x, y: \(10 + 10 * i).000000, 20.000000"), "client \(i): \(downs)")
            #expect(log.events("wl_keyboard", "key").isEmpty == (i != 2), "client \(i) keys: \(log.events("wl_keyboard", "key"))")
        }
    }
}
