import Foundation
import SeatKitReplay
import Testing

/// `--touch-spots` (issue 24 goal 9, Ubuntu Frame's touch spots for remote support): a disc is
/// drawn under each touch by wlroots' renderer, so a wlr-screencopy client sees it. grim's
/// screenshots of the kiosk (wev fullscreen, headless, pixman) while a replayed finger is held
/// at 640,360 show the pixels there changed and those far from it not; once the finger lifts
/// they are as before the touch.
@Suite(.serialized) struct WlrootsKioskTouchSpotsTests {
    @Test func aHeldTouchShowsASpotUnderTheFingerInAScreenshotAndItGoesWhenTheFingerLifts() throws {
        let kiosk = try WlrootsKioskTests.builtKiosk()
        let runtime = try temporaryDirectory("seatkit-wlr-spots")
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        var s = FrameScript(startingAt: 0)
        s.time = 2_000_000
        // A quick tap far off first (the replay starts with it), then the finger held.
        WlrootsKioskBehaviourTests.press(&s, 100, 650, id: 1, hold: 50_000, after: 2_500_000)
        WlrootsKioskBehaviourTests.press(&s, 640, 360, id: 2, hold: 4_000_000, after: 500_000)
        let recording = runtime + "/hold.yml"
        try WlrootsKioskBehaviourTests.write(s, to: recording)
        let server = try Background(kiosk, ["--touch-spots", "--cursor", "never", "--replay", recording, "--size", "1280x720"],
                                    environment: WlrootsKioskLaunchTests.headless.merging(["XDG_RUNTIME_DIR": runtime]) { $1 },
                                    log: runtime + "/kiosk.log")
        defer { server.stop() }
        let socket = try #require(WlrootsKioskLaunchTests.socket(of: server), "the kiosk did not start:\n\(server.text)")
        let wev = try Background("/usr/bin/stdbuf", ["-oL", "/usr/bin/wev"],
                                 environment: ["XDG_RUNTIME_DIR": runtime, "WAYLAND_DISPLAY": socket],
                                 log: runtime + "/wev.log")
        defer { wev.stop() }
        var shots = 0
        func shoot() throws -> WlrootsKioskScreenTests.Shot {
            shots += 1
            let path = runtime + "/shot\(shots).ppm"
            let grim = try run("/usr/bin/grim", ["-t", "ppm", path], environment: ["XDG_RUNTIME_DIR": runtime, "WAYLAND_DISPLAY": socket])
            try #require(grim.status == 0, "grim: \(grim.output)\nkiosk:\n\(server.text)")
            return try WlrootsKioskScreenTests.Shot(ppm: path)
        }
        /// Screenshots until `done` holds for one (the scene draws a change at the output's
        /// next frame), at most 20, 100 ms apart.
        func shoot(until done: (WlrootsKioskScreenTests.Shot) -> Bool) throws -> WlrootsKioskScreenTests.Shot {
            var shot = try shoot()
            for _ in 0..<20 where !done(shot) {
                usleep(100_000)
                shot = try shoot()
            }
            return shot
        }
        // Before the held finger: the first tap lifted, 2.5 s before the finger comes.
        try #require(server.waitFor(timeout: 30) { $0.contains("touch spot lifted") } != nil, "\(server.text)")
        let before = try shoot { $0.rgb(100, 650) == $0.rgb(100, 600) }
        try #require(!server.text.contains("touch spot at 640,360"), "the finger came too early:\n\(server.text)")
        try #require(server.waitFor(timeout: 30) { $0.contains("touch spot at 640,360") } != nil, "\(server.text)")
        let held = try shoot { $0.rgb(640, 360) != before.rgb(640, 360) }
        try #require(server.waitFor(timeout: 30) { $0.components(separatedBy: "touch spot lifted").count - 1 == 2 } != nil,
                     "\(server.text)")
        let lifted = try shoot { $0.rgb(640, 360) == before.rgb(640, 360) }
        _ = server.waitFor(timeout: 30) { $0.contains("replay finished") }

        // Under the finger (its centre, and inside its ring 20 units off) the spot; far off, wev.
        for (x, y) in [(640, 360), (660, 360), (640, 340)] {
            #expect(held.rgb(x, y) != before.rgb(x, y), "\(x),\(y): \(String(held.rgb(x, y), radix: 16)) while held")
            #expect(lifted.rgb(x, y) == before.rgb(x, y), "\(x),\(y): \(String(lifted.rgb(x, y), radix: 16)) after the lift")
        }
        for (x, y) in [(100, 100), (640, 450), (760, 360)] {
            #expect(held.rgb(x, y) == before.rgb(x, y), "\(x),\(y) is far from the finger")
        }
        // The touch itself went on to the app: the spot is drawn, not hit.
        #expect(server.text.contains("secondary click at 640,360"), "\(server.text)")
    }
}
