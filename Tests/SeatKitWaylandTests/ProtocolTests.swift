import Foundation
import Testing

/// Protocols real kiosk apps expect, each shown with a real client.
extension EndToEndTests {
    /// foot asks for server-side decorations and gets them: it draws no title bar.
    @Test func footIsToldToLeaveDecorationsToTheServer() throws {
        let session = try KioskSession(windowOptions: [])
        try session.addDevices()
        let foot = try session.launch("foot", ["--", "sleep", "60"], debug: true)
        _ = try session.waitForWindow("foot")
        try foot.output.require("zxdg_toplevel_decoration_v1@")
        try foot.output.require("using SSD decorations")
        #expect(foot.output.lines.contains { $0.contains("zxdg_toplevel_decoration_v1@") && $0.hasSuffix(".configure(2)") })
        #expect(!foot.output.text.contains("using CSD decorations"))
    }

    /// wtype types through zwp_virtual_keyboard_v1 with a keymap of its own: wev, focused,
    /// gets that keymap, then the keys, and its own xkbcommon finds "é"; the next real key
    /// comes with the seat's keymap again.
    @Test func wtypeTypesIntoTheFocusedWindowWithItsOwnKeymap() throws {
        let session = try KioskSession()
        try session.addDevices()
        let wev = try session.launch("wev")
        _ = try session.waitForWindow("wev")
        try wev.output.require("wl_keyboard] enter:")
        let start = wev.output.mark
        let wtype = try session.launch("wtype", ["hé"])
        try wev.output.require("utf8: 'é'", after: start)
        try wev.output.require("sym: h", after: start)
        _ = wtype
        // wtype's keymap reached wev before its keys; a real key brings the seat's back.
        let afterTyping = wev.output.mark
        session.send(Script.type([30]))  // a
        try wev.output.require("sym: a", after: afterTyping)
        let log = WevLog(wev.output.text[start...])
        // At least wtype's and the seat's again (wtype may send its keymap more than once;
        // seen once in many runs).
        #expect(log.events("wl_keyboard", "keymap").count >= 2, "\(log.events("wl_keyboard", "keymap"))")
        let keys = log.events("wl_keyboard", "key").filter { $0.contains("state: 1 (pressed)") }
        #expect(keys.count == 3 && keys[0].contains("sym: h") && keys[1].contains("utf8: 'é'") && keys[2].contains("sym: a"), "\(keys)")
    }

    /// A virtual keyboard uploading a keymap that would abort xkbcommon ends that client
    /// with the protocol's error; the kiosk logs why and keeps serving the others.
    @Test func aVirtualKeyboardsHostileKeymapEndsOnlyThatClient() throws {
        let session = try KioskSession()
        try session.addDevices()
        let wev = try session.launch("wev")
        _ = try session.waitForWindow("wev")
        try wev.output.require("wl_keyboard] enter:")

        let wire = try WireClient(runtimeDirectory: session.runtimeDirectory, socket: session.socket)
        try wire.roundTripRegistry()
        let seat = try wire.bind("wl_seat", version: 8)
        let manager = try wire.bind("zwp_virtual_keyboard_manager_v1", version: 1)
        let keyboard = wire.newID()
        wire.send(manager, 0, [seat, keyboard])  // create_virtual_keyboard
        let text = "xkb_keymap {\n xkb_keycodes \"x\" { <A> = 4294967294; };\n xkb_types \"x\" { include \"complete\" };\n"
            + " xkb_compatibility \"x\" { include \"complete\" };\n xkb_symbols \"x\" { key <A> { [ a ] }; };\n};\n"
        let fd = try Self.memfd(text)
        defer { close(fd) }
        wire.send(keyboard, 0, [UInt32(1), UInt32(text.utf8.count + 1)], passing: fd)  // keymap(xkb_v1, fd, size)
        let error = try #require(wire.read(until: { $0.object == 1 && $0.opcode == 0 }), "no wl_display.error")
        #expect(error.uint(at: 0) == keyboard)
        #expect(error.uint(at: 1) == 0, "zwp_virtual_keyboard_v1.error.no_keymap")
        #expect(error.string(at: 2).contains("rejected at line 2: keycode 4294967294 is above the limit of 4095"), "\(error.string(at: 2))")
        try session.log.require("refused: keymap (virtual keyboard of pid ")

        // The others are served as before.
        let start = wev.output.mark
        session.send(Script.type([48]))  // b
        try wev.output.require("sym: b", after: start)
        #expect(session.kioskIsRunning)
    }

    static func memfd(_ text: String) throws -> Int32 {
        var template = Array("/tmp/seatkit-vk-XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        guard fd >= 0 else { throw SessionError("mkstemp failed") }
        unlink(template)
        let bytes = Array(text.utf8) + [0]
        guard write(fd, bytes, bytes.count) == bytes.count else { throw SessionError("write failed") }
        return fd
    }
}

extension EndToEndTests {
    /// foot binds no wl_touch: a tap on it focuses it and reaches it as a left click, at the
    /// finger, with enter before and leave after (the mouse is elsewhere).
    @Test func aTapOnFootWhichBoundNoTouchIsAClick() throws {
        let session = try KioskSession()
        try session.addDevices()
        _ = try session.launch("wev")
        let wevWindow = try session.waitForWindow("wev")
        let foot = try session.launch("foot", ["--", "sleep", "60"], debug: true)
        let window = try session.waitForWindow("foot")
        #expect(window.x == wevWindow.width)
        #expect(!foot.output.text.contains("wl_touch@"), "foot 1.13 binds no wl_touch")
        let start = foot.output.mark
        session.send(Script.touchDown(window.x + 40, window.y + 30) + Script.touchMove(window.x + 42, window.y + 33) + Script.touchUp())
        try session.log.require("focus foot[")
        try foot.output.require({ $0[start...].contains("wl_pointer@") && $0[start...].contains(".leave(") }, "foot got no leave")
        let events = foot.output.text[start...].split(separator: "\n").filter { $0.contains("wl_pointer@") && !$0.contains(" -> ") }
        // "[1286173.325] wl_pointer@15.enter(9, wl_surface@3, 40.00000000, 30.00000000)"
        let names = events.compactMap { line -> String? in
            guard let object = line.range(of: "wl_pointer@") else { return nil }
            let rest = line[object.upperBound...].drop { $0 != "." }.dropFirst()
            return String(rest.prefix { $0 != "(" })
        }
        #expect(names.filter { $0 != "frame" } == ["enter", "button", "motion", "button", "leave"], "\(events)")
        #expect(events.first { $0.contains(".enter(") }?.contains(", 40.0000") == true, "\(events)")
        let buttons = events.filter { $0.contains(".button(") }
        #expect(buttons.count == 2 && buttons[0].hasSuffix(", 272, 1)") && buttons[1].hasSuffix(", 272, 0)"), "\(buttons)")
    }
}

extension EndToEndTests {
    /// On a scale-2 output foot learns its output (wl_surface.enter), the scale (wl_output)
    /// and the logical size (xdg-output), and renders at scale 2: its 1920x1080 buffer maps
    /// as a 960x540 window filling the output.
    @Test func footOnAScale2OutputEntersItAndRendersAtScale2() throws {
        let session = try KioskSession(inputOptions: ["--script", "-", "--scale", "2"], windowOptions: [])
        try session.addDevices()
        let foot = try session.launch("foot", ["--", "sleep", "60"], debug: true)
        let window = try session.waitForWindow("foot")
        #expect(window.width == 960 && window.height == 540, "\(window)")
        try foot.output.require({ $0.contains("wl_surface@") && $0.contains(".enter(wl_output@") }, "foot got no wl_surface.enter")
        let lines = foot.output.lines
        #expect(lines.contains { $0.contains("wl_output@") && $0.hasSuffix(".scale(2)") })
        #expect(lines.contains { $0.contains("zxdg_output_v1@") && $0.hasSuffix(".logical_size(960, 540)") })
        #expect(lines.contains { $0.contains("zxdg_output_v1@") && $0.hasSuffix(".name(\"HEADLESS-1\")") })
        #expect(lines.contains { $0.contains(" -> wl_surface@") && $0.hasSuffix(".set_buffer_scale(2)") })
    }
}

extension EndToEndTests {
    /// A positioner whose rectangle and offset add up beyond 32 bits is placed (clamped), not
    /// a crash; the kiosk serves on.
    @Test func aPopupWithAnExtremePositionerIsConfiguredNotACrash() throws {
        let session = try KioskSession()
        try session.addDevices()
        let wire = try WireClient(runtimeDirectory: session.runtimeDirectory, socket: session.socket)
        try wire.roundTripRegistry()
        let window = try wire.mapToplevel(appID: "wire")
        _ = try session.waitForWindow("wire")
        let compositor = try wire.bind("wl_compositor", version: 4)
        let wmBase = try wire.bind("xdg_wm_base", version: 3)
        let positioner = wire.newID()
        wire.send(wmBase, 1, [positioner])  // create_positioner
        wire.send(positioner, 1, [UInt32(2_147_483_647), UInt32(2_147_483_647)])  // set_size
        wire.send(positioner, 2, [UInt32(2_147_483_000), UInt32(2_147_483_000), UInt32(2_147_483_647), UInt32(2_147_483_647)])  // anchor rect
        wire.send(positioner, 3, [UInt32(8)])  // anchor bottom_right
        wire.send(positioner, 4, [UInt32(8)])  // gravity bottom_right
        wire.send(positioner, 5, [UInt32(0)])  // no constraint adjustment: the sum stands
        wire.send(positioner, 6, [UInt32(2_147_483_647), UInt32(bitPattern: -2_147_483_648)])  // offset
        let surface = wire.newID()
        wire.send(compositor, 0, [surface])
        let xdgSurface = wire.newID()
        wire.send(wmBase, 2, [xdgSurface, surface])  // get_xdg_surface
        let popup = wire.newID()
        wire.send(xdgSurface, 2, [popup, window.xdgSurface, positioner])  // get_popup
        wire.send(surface, 6, [])  // commit
        #expect(wire.read(until: { $0.object == popup && $0.opcode == 0 }) != nil, "no xdg_popup.configure")
        #expect(wire.sync())
        #expect(session.kioskIsRunning)
    }
}
