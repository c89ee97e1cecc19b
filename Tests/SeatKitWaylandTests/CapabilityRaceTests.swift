import Foundation
import SeatKit
import SeatKitWayland
import Testing

/// Capability changes never lose an event (issue 23, item 10): a key sent while the focused
/// client is still binding the wl_keyboard the new keyboard capability lets it have reaches
/// that wl_keyboard, press and release both, after its keymap and enter. The race (GTK gets
/// the capability with wtype's keymap and binds its keyboard only after wtype's first press
/// went out) is driven in order: the app binds only after the compositor handled the press.
extension EmbeddingTests {
    @Test func aVirtualKeyboardsFirstKeyReachesAClientThatBindsItsKeyboardAfterThePress() throws {
        let d = try InProcessDisplay(hardware: [.pointer], extensions: [.virtualKeyboard])
        defer { d.close() }
        let app = try d.connect()
        let appSeat = try app.bind("wl_seat", version: 8)
        #expect(app.drain { $0.object == appSeat && $0.opcode == 0 ? "capabilities \($0.uint(at: 0))" : nil } == ["capabilities 1"])
        let window = try d.window(of: app, frame: SurfaceRect(x: 0, y: 0, width: 200, height: 200))
        #expect(d.router.becomeFirstResponder(window.node))

        // wtype: its keymap gives the seat a keyboard, then its first key goes down.
        let typist = try d.connect()
        let typistSeat = try typist.bind("wl_seat", version: 8)
        let virtual = try typist.virtualKeyboard(seat: typistSeat, keymap: WireClient.wtypeKeymap("x"))
        typist.virtualKey(virtual, 1, pressed: true)
        #expect(typist.sync())

        // Only now does the app learn it may have a keyboard, and binds one.
        #expect(app.drain { $0.object == appSeat && $0.opcode == 0 ? "capabilities \($0.uint(at: 0))" : nil } == ["capabilities 3"])
        let keyboard = app.getKeyboard(appSeat)
        typist.virtualKey(virtual, 1, pressed: false)
        #expect(typist.sync())
        let events = app.drain { $0.object == keyboard ? WireClient.keyboardEvent($0) : nil }.filter { !$0.hasPrefix("modifiers") }
        // The seat's (no keymap: format 0), enter, wtype's keymap, then its key whole.
        #expect(events == ["keymap 0", "repeat", "enter \(window.id) []", "keymap 1", "down 1", "up 1"], "\(events)")
    }

    @Test func aKeyPressedAsAKeyboardIsPluggedInReachesAClientThatBindsItsKeyboardAfterThePressWithoutListingItHeld() throws {
        let d = try InProcessDisplay(hardware: [.pointer, .keyboard], extensions: [])
        defer { d.close() }
        // The keyboard is plugged in only now (the seat had none when the app bound wl_seat).
        d.seat.capabilities = [.pointer]
        let app = try d.connect()
        let appSeat = try app.bind("wl_seat", version: 8)
        #expect(app.drain { $0.object == appSeat && $0.opcode == 0 ? "capabilities \($0.uint(at: 0))" : nil } == ["capabilities 1"])
        let window = try d.window(of: app, frame: SurfaceRect(x: 0, y: 0, width: 200, height: 200))
        #expect(d.router.becomeFirstResponder(window.node))
        d.seat.capabilities = [.pointer, .keyboard]
        d.key(42, .pressed)  // Shift, before the app has its keyboard
        d.key(30, .pressed)  // A
        d.key(30, .released)
        #expect(app.drain { $0.object == appSeat && $0.opcode == 0 ? "capabilities \($0.uint(at: 0))" : nil } == ["capabilities 3"])
        let keyboard = app.getKeyboard(appSeat)
        var events = app.drain { $0.object == keyboard ? WireClient.keyboardEvent($0) : nil }
        d.key(42, .released)
        events += app.drain { $0.object == keyboard ? WireClient.keyboardEvent($0) : nil }
        // Enter lists nothing held (Shift's press follows it), then every key in order, each
        // with the modifiers the router reported with it.
        #expect(events == ["keymap 1", "repeat", "enter \(window.id) []", "modifiers 1 0 0 0",
                           "down 42", "down 30", "up 30", "up 42", "modifiers 0 0 0 0"], "\(events)")
    }

    @Test func keysSentLongAfterAClientWasToldOfTheKeyboardAreNotReplayedWhenItBindsOneLater() throws {
        let clock = VirtualClock()
        let d = try InProcessDisplay(hardware: [.pointer, .keyboard], extensions: [], virtualClock: clock)
        defer { d.close() }
        d.seat.capabilities = [.pointer]
        let app = try d.connect()
        let appSeat = try app.bind("wl_seat", version: 8)
        let window = try d.window(of: app, frame: SurfaceRect(x: 0, y: 0, width: 200, height: 200))
        #expect(d.router.becomeFirstResponder(window.node))
        d.seat.capabilities = [.pointer, .keyboard]
        // Two seconds on, the app has not bound a keyboard: it does not want one yet, and a
        // keyboard it binds later is not typed the keys of back then.
        clock.advance(to: .milliseconds(2_000))
        d.key(30, .pressed)
        d.key(30, .released)
        let keyboard = app.getKeyboard(appSeat)
        let events = app.drain { $0.object == keyboard ? WireClient.keyboardEvent($0) : nil }.filter { !$0.hasPrefix("modifiers") }
        #expect(events == ["keymap 1", "repeat", "enter \(window.id) []"], "\(events)")
    }

    @Test func keysForAClientThatNeverBindsAKeyboardAreDroppedWhenFocusMovesAndReachNoOneElse() throws {
        let d = try InProcessDisplay(hardware: [.pointer], extensions: [.virtualKeyboard])
        defer { d.close() }
        let app = try d.connect()
        let appSeat = try app.bind("wl_seat", version: 8)
        let first = try d.window(of: app, frame: SurfaceRect(x: 0, y: 0, width: 200, height: 200))
        let second = try d.window(of: app, frame: SurfaceRect(x: 300, y: 0, width: 200, height: 200))
        #expect(d.router.becomeFirstResponder(first.node))
        let typist = try d.connect()
        let typistSeat = try typist.bind("wl_seat", version: 8)
        let virtual = try typist.virtualKeyboard(seat: typistSeat, keymap: WireClient.wtypeKeymap("x"))
        typist.virtualKey(virtual, 1, pressed: true)
        #expect(typist.sync())
        // Focus moves before the app binds: the press was the first window's, and is gone.
        #expect(d.router.becomeFirstResponder(second.node))
        let keyboard = app.getKeyboard(appSeat)
        var events = app.drain { $0.object == keyboard ? WireClient.keyboardEvent($0) : nil }
        typist.virtualKey(virtual, 1, pressed: false)
        #expect(typist.sync())
        events += app.drain { $0.object == keyboard ? WireClient.keyboardEvent($0) : nil }
        events = events.filter { !$0.hasPrefix("modifiers") }
        // No press, and so no release either.
        #expect(events == ["keymap 0", "repeat", "enter \(second.id) []"], "\(events)")
    }
}

extension EndToEndTests {
    /// End to end, with real clients: on a kiosk with a mouse and no keyboard, GTK4 gets the
    /// keyboard capability only when wtype uploads its keymap, and binds its wl_keyboard while
    /// wtype types; wtype's first character reaches the entry all the same.
    @Test func wtypesFirstCharacterReachesAGTKEntryOnASeatWithNoKeyboard() throws {
        let session = try KioskSession(windowOptions: [])
        session.send([#"{"type": "device-added", "device": 2, "name": "mouse", "capabilities": ["pointer"]}"#])
        try session.log.require({ $0.contains("capabilities pointer") }, "the seat did not get the mouse")
        let (app, widgets) = try GTKApp.launch(in: session)
        #expect(!app.output.text.contains(".get_keyboard("), "GTK bound a keyboard on a seat that had none")
        let entry = try #require(widgets["entry"])
        session.send([Script.move(entry.centerX, entry.centerY)] + Script.click())
        try app.output.require({ $0.contains("wl_pointer@") && $0.contains(".button(") }, "GTK never got the click")
        _ = try session.launch("wtype", ["ça va"])
        try app.output.require("text:ça va")
        #expect(app.output.text.contains(".get_keyboard("))
    }
}
