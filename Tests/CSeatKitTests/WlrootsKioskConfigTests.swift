import Foundation
import SeatKitReplay
import Testing

/// The wlroots kiosk's configuration file (issue 24 goal 10): `--config FILE`, read with
/// Debian's libinih. Every option is a setting (its long name), `[output NAME]` and
/// `[device NAME]` sections name what a setting is for, a bad line is refused as FILE:LINE
/// with the command line's own reason, and the command line, read after the file, wins.
@Suite(.serialized) struct WlrootsKioskConfigTests {
    /// Runs the kiosk with `config` as its file and `arguments` after it, for a refusal.
    private func refusal(_ config: String, _ arguments: [String] = []) throws -> (status: Int32, output: String, path: String) {
        let kiosk = try WlrootsKioskTests.builtKiosk()
        let runtime = try temporaryDirectory("seatkit-wlr-config")
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let path = runtime + "/kiosk.ini"
        try config.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try run(kiosk, ["--config", path] + arguments, environment: [:])
        return (result.status, result.output, path)
    }

    /// Every option that takes a value it checks, and every on/off option, is a setting: a
    /// bad value in the file is refused at its line with the option's own reason (so the
    /// setting reached that option's parser, not "unknown"). Options whose value is free
    /// (replay, seat, ignore-device, start-after-windows' count is checked) are set in the
    /// running tests below and in WlrootsKioskMappingTests.
    @Test func everyOptionIsASettingAndABadValueIsRefusedAtItsLine() throws {
        let cases: [(String, String)] = [
            ("long-press = both", "--long-press: 'both' is neither kiosk nor app"),
            ("outputs = all", "--outputs: 'all' is neither last nor extend"),
            ("transform = 45", "--transform: '45' is not 0, 90, 180, 270"),
            ("scale = 9", "--scale: '9' is not a scale from 1 to 4"),
            ("cursor = hidden", "--cursor: 'hidden' is not auto, never or always"),
            ("cursor-timeout = soon", "--cursor-timeout: 'soon' is not a number of milliseconds"),
            ("blank-after = soon", "--blank-after: 'soon' is not a number of milliseconds"),
            ("size = 12", "--size: '12' is not WIDTHxHEIGHT"),
            ("start-after-windows = 0", "--start-after-windows: '0' is not a number from 1 to 64"),
            ("slow-keys = 0", "--slow-keys: '0' is not a number of milliseconds (1 to 60000)"),
            ("bounce-keys = x", "--bounce-keys: 'x' is not a number of milliseconds"),
            ("touch-hold = x", "--touch-hold: 'x' is not a number of milliseconds"),
            ("touch-ignore-repeat = x", "--touch-ignore-repeat: 'x' is not a number of milliseconds"),
            ("secondary-click = x", "--secondary-click: 'x' is not a number of milliseconds"),
            ("dwell-click = x", "--dwell-click: 'x' is not a number of milliseconds"),
            ("map-touch = Touch", "--map-touch: 'Touch' is not DEVICE=VALUE"),
            ("calibrate = Touch=1,2", "--calibrate: 'Touch=1,2' is not DEVICE=a,b,c,d,e,f"),
            ("ignore-device =", "--ignore-device: names no device"),
            ("verbose = maybe", "verbose is true or false, not 'maybe'"),
            ("start-blanked = maybe", "start-blanked is true or false"),
            ("sticky-keys = maybe", "sticky-keys is true or false"),
            ("mouse-keys = maybe", "mouse-keys is true or false"),
            ("locate-pointer = maybe", "locate-pointer is true or false"),
            ("no-pointer = maybe", "no-pointer is true or false"),
            ("libinput = maybe", "libinput is true or false"),
            ("osk = sometimes", "--osk: 'sometimes' is neither auto nor always"),
            ("osk-resize = maybe", "osk-resize is true or false"),
            ("bogus = 1", "unknown option --bogus=1"),
            ("config = other.ini", "a configuration file cannot name another"),
        ]
        for (line, reason) in cases {
            // The bad setting on line 3, after a comment and a good one.
            let r = try refusal("# a kiosk\ncursor = never\n\(line)\n")
            #expect(r.status == 2, "\(line): \(r.output)")
            #expect(r.output.hasPrefix("wlroots-kiosk: \(r.path):3: \(reason)"), "\(line): \(r.output)")
            #expect(r.output.filter { $0 == "\n" }.count == 1, "one line: \(r.output)")
        }
        // Sections: what they hold, and which exist.
        for (text, line, reason) in [
            ("[output HDMI-A-1]\ncursor = never\n", 2, "an [output NAME] section takes transform and scale only"),
            ("[output HDMI-A-1]\ntransform = sideways\n", 2, "--transform: 'HDMI-A-1=sideways' is not 0, 90"),
            ("[device Pad]\nspeed = 3\n", 2, "a [device NAME] section takes output, calibration and ignore only"),
            ("[device Pad]\ncalibration = 1 0 0\n", 2, "--calibrate: 'Pad=1 0 0' is not DEVICE=a,b,c,d,e,f"),
            ("[device Pad]\nignore = perhaps\n", 2, "ignore is true or false"),
            ("\n\n[screen]\nscale = 2\n", 4, "sections are [kiosk], [output NAME] and [device NAME]"),
            ("cursor = never\nthis line has no equals sign\n", 2, "not a 'name = value' line, a [section] or a comment"),
        ] {
            let r = try refusal(text)
            #expect(r.status == 2 && r.output.hasPrefix("wlroots-kiosk: \(r.path):\(line): \(reason)"), "\(text): \(r.output)")
        }
        let missing = try run(try WlrootsKioskTests.builtKiosk(), ["--config", "/nonexistent/kiosk.ini"], environment: [:])
        #expect(missing.status == 2 && missing.output == "wlroots-kiosk: --config: cannot read /nonexistent/kiosk.ini: No such file or directory\n",
                "\(missing.output)")
    }

    /// A file's settings take effect (the scale of [output HEADLESS-1] halves the screen's
    /// logical size; `verbose = yes` prints the delivered events; a section's ignore leaves a
    /// device out), and the command line wins over the file (`--scale HEADLESS-1=1`).
    @Test func theFilesSettingsTakeEffectAndTheCommandLineWins() throws {
        let kiosk = try WlrootsKioskTests.builtKiosk()
        let runtime = try temporaryDirectory("seatkit-wlr-config")
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let recording = CProgramTests.packageRoot.appendingPathComponent("examples/kiosk-touch.yml").path
        let path = runtime + "/kiosk.ini"
        try """
            ; a kiosk on the headless output
            [kiosk]
            verbose = yes
            replay = \(recording)

            [output HEADLESS-1]
            scale = 2
            """.write(toFile: path, atomically: true, encoding: .utf8)
        func start(_ arguments: [String]) throws -> String {
            let server = try Background(kiosk, ["--config", path] + arguments + ["--", "stdbuf", "-oL", "wev"],
                                        environment: WlrootsKioskLaunchTests.headless.merging(["XDG_RUNTIME_DIR": runtime]) { $1 },
                                        log: runtime + "/kiosk.log")
            defer { server.stop() }
            _ = server.waitFor(timeout: 30) { $0.contains("replay finished") }
            return server.text
        }
        let fromFile = try start([])
        #expect(fromFile.contains("screen HEADLESS-1 640x360"), "\(fromFile)")
        #expect(fromFile.contains("configure: width: 640; height: 360"), "\(fromFile)")
        #expect(fromFile.contains("replay finished") && fromFile.contains("deliver touch down"), "verbose and replay from the file:\n\(fromFile)")
        let overridden = try start(["--scale", "HEADLESS-1=1"])
        #expect(overridden.contains("screen HEADLESS-1 1280x720"), "\(overridden)")
        #expect(overridden.contains("configure: width: 1280; height: 720"), "\(overridden)")
    }
}
