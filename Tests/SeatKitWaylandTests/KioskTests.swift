import Foundation
import Testing

/// The kiosk as its users meet it: options, window placement, focus when clients die,
/// cursors, and what it logs.
extension EndToEndTests {
    /// Runs the kiosk binary with `arguments` until it exits (bounded), returning its status
    /// and output.
    private func runKiosk(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let binary = try #require(KioskSession.kioskBinary())
        var template = Array("/tmp/seatkit-kiosk-XXXXXX".utf8CString)
        let runtime = try #require(mkdtemp(&template).map { String(cString: $0) })
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.environment = ["XDG_RUNTIME_DIR": runtime]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = OutputWatcher(pipe.fileHandleForReading, name: "kiosk")
        _ = output.wait { _ in false }  // reads until the kiosk closes its output
        process.waitUntilExit()
        return (process.terminationStatus, output.text)
    }

    @Test func anUnknownOptionOrABadSizeIsAnErrorNotIgnored() throws {
        let unknown = try runKiosk(["--sise", "800x600", "--script", "/dev/null"])
        #expect(unknown.status == 2)
        #expect(unknown.output.hasPrefix("kiosk: unknown option --sise\nusage: kiosk "), "\(unknown.output)")
        for bad in ["800", "800x", "x600", "-800x600", "800x600x2", "0x600", "99999x600", "wide"] {
            let result = try runKiosk(["--size", bad, "--script", "/dev/null"])
            #expect(result.status == 2, "\(bad)")
            #expect(result.output.contains("--size takes WIDTHxHEIGHT in pixels, each 1 to 16384, like 1920x1080 (got \"\(bad)\")"),
                    "\(result.output)")
        }
        let missing = try runKiosk(["--script"])
        #expect(missing.status == 2 && missing.output.hasPrefix("kiosk: --script needs a value"), "\(missing.output)")
        let two = try runKiosk(["--script", "-", "--libinput"])
        #expect(two.status == 2 && two.output.hasPrefix("kiosk: choose one input source"), "\(two.output)")
    }

    @Test func withNoInputSourceTheKioskSaysSo() throws {
        let session = try KioskSession(inputOptions: [])
        #expect(session.log.text.contains(
            "kiosk: no input source (--replay FILE, --libinput or --script FILE): clients will get no input"))
    }

    @Test func aKeymapFileBeyondTheLimitsIsRefusedWithItsLine() throws {
        let path = NSTemporaryDirectory() + "/seatkit-kiosk-keymap-\(getpid()).xkb"
        try "xkb_keymap {\n xkb_keycodes \"x\" { <A> = 4294967294; };\n};\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { unlink(path) }
        let result = try runKiosk(["--keymap", path, "--script", "/dev/null"])
        #expect(result.status == 1)
        #expect(result.output.contains("kiosk: keymap (\(path)) rejected at line 2: keycode 4294967294 is above the limit of 4095"),
                "\(result.output)")
    }

    /// By default windows fill the output, fullscreen, the newest on top and focused; the
    /// log names them by app id and the client's pid.
    @Test func windowsAreFullscreenOnTheOutputByDefaultAndLogLinesNameTheClientsPid() throws {
        let session = try KioskSession(windowOptions: [])
        try session.addDevices()
        let wev = try session.launch("wev", debug: true)
        let window = try session.waitForWindow("wev")
        #expect(window.x == 0 && window.y == 0 && window.width == 1920 && window.height == 1080, "\(window)")
        #expect(window.pid == wev.pid)
        try session.log.require("focus wev[\(wev.pid)]")
        // The configure wev got: the output's size and the fullscreen state (2).
        try wev.output.require({ $0.contains("xdg_toplevel@") && $0.contains(".configure(") }, "wev got no configure")
        let configure = try #require(wev.output.lines.first { $0.contains("xdg_toplevel@") && $0.contains(".configure(") })
        #expect(configure.hasSuffix("configure(1920, 1080, array[8])"), "\(configure)")
        // A touch anywhere on the output reaches the window.
        let start = wev.output.mark
        session.send(Script.tap(1900, 1000))
        try wev.output.require("wl_touch] up:", after: start)
        #expect(WevLog(wev.output.text[start...]).events("wl_touch", "down").first?.hasSuffix("x, y: 1900.000000, 1000.000000") == true)
        #expect(!session.log.text.contains("hits no window"))
    }

    @Test func aTouchOrClickThatHitsNoWindowIsLogged() throws {
        let session = try KioskSession()
        try session.addDevices()
        _ = try session.launch("wev")
        let window = try session.waitForWindow("wev")
        session.send(Script.tap(window.width + 100, 700) + [Script.move(window.width + 5, 10)] + Script.click())
        try session.log.require("touch at \(Int(window.width) + 100),700 hits no window")
        try session.log.require("click at \(Int(window.width) + 5),10 hits no window")
    }

    /// Killing the newest, focused client hands focus to the newest remaining window, and
    /// typed text reaches it.
    @Test func whenTheFocusedClientDiesFocusGoesToTheNewestRemainingWindow() throws {
        let session = try KioskSession(windowOptions: [])
        try session.addDevices()
        let first = try session.launch("wev")
        _ = try session.waitForWindow("wev")
        let second = try session.launch("wev")
        _ = try session.waitForWindow("wev", nth: 2)
        let third = try session.launch("wev")
        _ = try session.waitForWindow("wev", nth: 3)
        try session.log.require("focus wev[\(third.pid)]")
        try third.output.require("wl_keyboard] enter:")

        third.kill()
        try session.log.require("unmapped wev[\(third.pid)]")
        try session.log.require("focus wev[\(second.pid)]")
        let start = second.output.mark
        session.send(Script.type([46]))  // c
        try second.output.require("sym: c", after: start)
        #expect(!first.output.text.contains("sym: c"))
    }

    /// Clients quote their latest serial of any kind in set_cursor (foot its button's): the
    /// seat takes any serial from the current enter on, however many came since.
    @Test func setCursorIsHonouredWithAnySerialFromTheCurrentEnterOn() throws {
        let (session, wire, seat) = try KioskSession.withSeatClient()
        let pointer = wire.getPointer(seat)
        let keyboard = wire.getKeyboard(seat)
        let compositor = try wire.bind("wl_compositor", version: 4)
        _ = try wire.mapToplevel(appID: "wire")
        _ = try session.waitForWindow("wire")
        let cursor = wire.newID()
        wire.send(compositor, 0, [cursor])  // create_surface

        // A serial from before the enter: the keyboard's enter.
        let keyboardEnter = try #require(wire.read(until: { $0.object == keyboard && $0.opcode == 1 }))
        session.send([Script.move(20, 30)])
        let enter = try #require(wire.read(until: { $0.object == pointer && $0.opcode == 0 }), "no wl_pointer.enter")
        // 40 keystrokes: 80 key serials and more for modifiers, far beyond the 32 kept per client.
        session.send(Script.type(Array(repeating: 30, count: 40)) + Script.click())
        var keys = 0
        let button = try #require(wire.read(until: { message in
            if message.object == keyboard && message.opcode == 3 { keys += 1 }
            return message.object == pointer && message.opcode == 3 && message.uint(at: 3) == 0  // released
        }), "no button release")
        #expect(keys == 80)
        wire.send(pointer, 0, [keyboardEnter.uint(at: 0), cursor, UInt32(9), UInt32(9)])  // before the enter: refused
        wire.send(pointer, 0, [button.uint(at: 0), cursor, UInt32(5), UInt32(6)])  // the latest button's serial
        try session.log.require("cursor wl_surface@\(cursor) hotspot 5,6")
        #expect(!session.log.text.contains("hotspot 9,9"), "a serial from before the enter moved the cursor")
        #expect(enter.uint(at: 0) &- keyboardEnter.uint(at: 0) < 1000)
    }
}

extension EndToEndTests {
    /// The README's quick start, as written: the example recording replayed into wev, every
    /// touch inside its (fullscreen) window.
    @Test func theReadmeQuickStartDeliversEveryTouchOfTheExampleToWev() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let example = repository.appendingPathComponent("examples/kiosk-touch.yml").path
        let readme = try String(contentsOf: repository.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains(".build/debug/kiosk --replay examples/kiosk-touch.yml --start-after-windows 1 &"))
        let session = try KioskSession(inputOptions: ["--replay", example, "--start-after-windows", "1"], windowOptions: [])
        let wev = try session.launch("wev")
        _ = try session.waitForWindow("wev")
        try session.log.require("replay ended")
        try wev.output.require({ WevLog($0[...]).events("wl_touch", "up").count == 5 }, "wev did not get five touches")
        #expect(WevLog(wev.output.text[...]).events("wl_touch", "down").count == 5)
        #expect(!session.log.text.contains("hits no window"))
    }
}
