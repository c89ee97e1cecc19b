import Foundation
import SeatKitReplay
import Testing

/// The wlroots kiosk's screen (issue 24, goals 3, 5 and 9), checked in pixels and in what
/// real clients printed: `grim` takes a screenshot through wlr-screencopy that shows the
/// app's pixels; the cursor is drawn from the xcursor theme (`--cursor always`), never
/// (`--cursor never`), or hidden on touch and after `--cursor-timeout` (`auto`); a rotated
/// output (`--transform`) configures the app in its logical size and a touch lands under
/// the finger.
@Suite(.serialized) struct WlrootsKioskScreenTests {
    /// A screenshot as width, height and RGB bytes (grim -t ppm: binary P6).
    struct Shot {
        let width: Int, height: Int
        let pixels: [UInt8]

        init(ppm path: String) throws {
            let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            // "P6\nW H\n255\n" then the pixels.
            var fields: [String] = []
            var i = 0
            while fields.count < 4 && i < data.count {
                var field = ""
                while i < data.count && !(data[i] == 0x20 || data[i] == 0x0A) { field.append(Character(UnicodeScalar(data[i]))); i += 1 }
                i += 1
                if !field.isEmpty { fields.append(field) }
            }
            try #require(fields.count == 4 && fields[0] == "P6", "not a P6 PPM: \(fields)")
            width = Int(fields[1]) ?? 0
            height = Int(fields[2]) ?? 0
            pixels = Array(data[i...])
            try #require(pixels.count == width * height * 3, "\(pixels.count) bytes for \(width)x\(height)")
        }

        func rgb(_ x: Int, _ y: Int) -> UInt32 {
            let i = (y * width + x) * 3
            return UInt32(pixels[i]) << 16 | UInt32(pixels[i + 1]) << 8 | UInt32(pixels[i + 2])
        }

        /// Dark or near-white pixels of the top-left 32x32 (where the cursor is, at the
        /// pointer's 0,0): the theme's left_ptr, black with a white outline (foot draws
        /// nothing so dark or so white on its red).
        var cursorPixels: Int {
            var count = 0
            for y in 0..<32 {
                for x in 0..<32 {
                    let c = rgb(x, y), r = c >> 16, g = (c >> 8) & 0xFF, b = c & 0xFF
                    if r + g + b < 150 || min(r, g, b) > 235 { count += 1 }
                }
            }
            return count
        }
    }

    /// foot on a dark red background as the kiosk's app (`--`), with `options`; runs
    /// `body` once foot is mapped, with the kiosk and a way to take a screenshot.
    private func withFoot(_ options: [String], _ body: (Background, () throws -> Shot) throws -> Void) throws {
        let kiosk = try WlrootsKioskTests.builtKiosk()
        let runtime = try temporaryDirectory("seatkit-wlr-screen")
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let environment = WlrootsKioskLaunchTests.headless.merging(["XDG_RUNTIME_DIR": runtime, "HOME": runtime, "LANG": "C.UTF-8"]) { $1 }
        let server = try Background(kiosk, options + ["--", "foot", "--override=colors.background=c00000",
                                                      "--override=colors.alpha=1.0", "sh", "-c", "sleep 60"],
                                    environment: environment, log: runtime + "/kiosk.log")
        defer { server.stop() }
        let socket = try #require(WlrootsKioskLaunchTests.socket(of: server), "\(server.text)")
        try #require(server.waitFor(timeout: 30) { $0.contains("mapped foot") } != nil, "\(server.text)")
        var shots = 0
        try body(server) {
            shots += 1
            let path = runtime + "/shot-\(shots).ppm"
            // grim waits for the next frame with the cursor composited (-c).
            let grim = try run("/usr/bin/grim", ["-c", "-t", "ppm", path],
                               environment: ["XDG_RUNTIME_DIR": runtime, "WAYLAND_DISPLAY": socket])
            try #require(grim.status == 0, "grim: \(grim.output)\nkiosk:\n\(server.text)")
            return try Shot(ppm: path)
        }
    }

    /// wlr-screencopy: what grim gets is what the app drew.
    @Test func grimTakesAScreenshotShowingTheAppsPixels() throws {
        try withFoot(["--cursor", "never"]) { server, shoot in
            // foot's first frame may still be coming: a few tries, bounded.
            var shot = try shoot()
            for _ in 0..<20 where shot.rgb(640, 360) != 0xC00000 {
                usleep(100_000)
                shot = try shoot()
            }
            #expect(shot.width == 1280 && shot.height == 720)
            #expect(shot.rgb(640, 360) == 0xC00000, "centre pixel \(String(shot.rgb(640, 360), radix: 16))")
            #expect(shot.rgb(1270, 710) == 0xC00000)
            #expect(shot.cursorPixels == 0, "no cursor with --cursor never")
        }
    }

    @Test func theCursorIsDrawnFromTheXcursorThemeWithCursorAlways() throws {
        try withFoot(["--cursor", "always"]) { server, shoot in
            var shot = try shoot()
            for _ in 0..<20 where shot.cursorPixels < 40 {
                usleep(100_000)
                shot = try shoot()
            }
            #expect(shot.cursorPixels >= 40, "the theme's left_ptr at the pointer (0,0): \(shot.cursorPixels) pixels")
        }
    }

    /// --cursor auto: a tap hides the cursor (SeatKit's cursor visibility policy), so the
    /// screenshot has none; --cursor-timeout hides it without any input.
    @Test func theCursorHidesOnTouchAndAfterTheTimeout() throws {
        let runtime = try temporaryDirectory("seatkit-wlr-screen")
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        var s = FrameScript(startingAt: 0)
        s.time = 500_000
        WlrootsKioskBehaviourTests.press(&s, 640, 360, id: 1, hold: 60_000)
        let recording = runtime + "/tap.yml"
        try WlrootsKioskBehaviourTests.write(s, to: recording)
        try withFoot(["--replay", recording]) { server, shoot in
            try #require(server.waitFor(timeout: 30) { $0.contains("cursor hidden") } != nil, "\(server.text)")
            #expect(try shoot().cursorPixels == 0)
        }
        try withFoot(["--cursor-timeout", "300"]) { server, shoot in
            try #require(server.waitFor(timeout: 30) { $0.contains("cursor hidden after 300 ms") } != nil, "\(server.text)")
            let shot = try shoot()
            #expect(shot.cursorPixels == 0, "\(server.text)")
        }
    }

    /// --transform 90 and 270 on the 1280x720 headless output: wev is configured 720x1280
    /// (logical units), and a finger at the panel's native point (1000, 200) lands where
    /// that pixel shows. wlroots renders a logical box through the inverse transform
    /// (wlr_box_transform with wlr_output_transform_invert, in the 720x1280 logical space):
    /// for 90, logical (x, y) is drawn at native (y, 720 - x), so the finger is on logical
    /// (520, 1000); for 270, at native (1280 - y, x): logical (200, 280).
    @Test(arguments: [("90", "519.96 999.69"), ("270", "200.04 280.31")])
    func aRotatedOutputGivesTheAppItsLogicalSizeAndTheTouchUnderTheFinger(transform: String, expected: String) throws {
        let kiosk = try WlrootsKioskTests.builtKiosk()
        let runtime = try temporaryDirectory("seatkit-wlr-screen")
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        var s = FrameScript(startingAt: 0)
        s.time = 500_000
        WlrootsKioskBehaviourTests.press(&s, 1000, 200, id: 1, hold: 60_000)
        let recording = runtime + "/tap.yml"
        try WlrootsKioskBehaviourTests.write(s, to: recording)
        let server = try Background(kiosk, ["--transform", transform, "--replay", recording, "--", "stdbuf", "-oL", "wev"],
                                    environment: WlrootsKioskLaunchTests.headless.merging(["XDG_RUNTIME_DIR": runtime]) { $1 },
                                    log: runtime + "/kiosk.log")
        defer { server.stop() }
        try #require(server.waitFor(timeout: 30) { $0.contains("replay finished") } != nil, "\(server.text)")
        _ = server.waitFor(timeout: 10) { WlrootsKioskTests.touches(inWev: $0).contains("up 0") }
        #expect(server.text.contains("screen HEADLESS-1 720x1280"), "\(server.text)")
        #expect(server.text.contains("configure: width: 720; height: 1280"), "\(server.text)")
        // (The raw touchscreen's 0...4095 grid puts the finger a fraction off the pixel.)
        #expect(WlrootsKioskTests.touches(inWev: server.text) == ["down 0 " + expected, "up 0"], "\(server.text.suffix(3000))")
    }
}
