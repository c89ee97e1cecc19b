import Testing
import SeatKit
@testable import SeatKitReplay
#if canImport(Glibc)
import Glibc
#endif

/// The `seatkit` tool's manners: a version, an output checked before the work, progress on
/// big files, and plots that say what their colours mean.
@Suite struct SeatkitCommandLineTests {
    let tool = SeatkitToolTests.tool
    let root = SeatkitToolTests.root

    @Test func versionNamesTheToolAndItsFormats() throws {
        let (status, output) = runProcess(tool, ["--version"])
        #expect(status == 0)
        #expect(output.hasPrefix("seatkit "))
        #expect(output.contains("replay trace schema \(ReplayTraceJSON.version)"))
    }

    @Test func aMistypedSubcommandIsNamedWithASuggestion() throws {
        let (status, output) = runProcess(tool, ["relpay", "x.yml"])
        #expect(status == 64)
        #expect(output == "Error: 'relpay' is not a seatkit subcommand. Did you mean 'replay'? Subcommands: demo, replay, info, plot.\n")
        let (status2, output2) = runProcess(tool, ["xyzzy"])
        #expect(status2 == 64)
        #expect(output2.hasPrefix("Error: 'xyzzy' is not a seatkit subcommand. Subcommands:"))
        // The default subcommand still runs with no words at all.
        let (status3, output3) = runProcess(tool, [])
        #expect(status3 == 0 && output3.contains("OK: tapped"))
    }

    @Test func outputThatCouldNotBeWrittenExitsNonZero() throws {
        let recording = root + "/examples/kiosk-touch.yml", layout = root + "/examples/kiosk.layout"
        for words in ["info \(recording)", "replay \(recording) --layout \(layout)", "replay \(recording) --layout \(layout) --format json", "demo"] {
            let (status, output) = runProcess("/bin/sh", ["-c", "exec \(tool) \(words) > /dev/full"])
            #expect(status == 1, "\(words)")
            #expect(output.contains("cannot write the output: No space left on device"), "\(words): \(output)")
        }
    }

    @Test func aReplayWithoutALayoutSaysWhyNothingWasRouted() throws {
        let (status, output) = runProcess(tool, ["replay", root + "/examples/kiosk-touch.yml"])
        #expect(status == 0)
        #expect(output.contains("note: no --layout, so there were no surfaces and every event went to the compositor delegate"))
        let (_, routed) = runProcess(tool, ["replay", root + "/examples/kiosk-touch.yml", "--layout", root + "/examples/kiosk.layout"])
        #expect(!routed.contains("note: no --layout"))
    }

    @Test func aTouchLineMatchingNoDeviceIsWarnedWithItsLine() throws {
        let layout = "/tmp/seatkit-touch-typo-\(getpid()).layout"
        defer { unlink(layout) }
        #expect(writeFile(layout, Array("output DSI-1 800x480\nsurface ok 0,0,100x100 in DSI-1\n# the device is a Touchscreen\ntouch Tuchscreen DSI-1\ntouch Touchscreen DSI-1\n".utf8)))
        let (status, output) = runProcess(tool, ["replay", root + "/examples/kiosk-touch.yml", "--layout", layout])
        #expect(status == 0)
        let warnings = output.split(separator: "\n").filter { $0.hasPrefix("warning:") }
        #expect(warnings == ["warning: \(layout):4: `touch Tuchscreen DSI-1` matches no device (the recording has \"SeatKit Example Kiosk Touchscreen\")"])
    }

    @Test func aMissingReplayWorkerIsNamed() throws {
        let (status, output) = runProcess("/usr/bin/env", ["SEATKIT_REPLAY_WORKER=/nonexistent/worker", tool, "replay", root + "/examples/kiosk-touch.yml"])
        #expect(status == 1)
        #expect(output.contains("the replay worker /nonexistent/worker does not exist or cannot run"), "\(output)")
        #expect(!output.contains("Permission denied"))
    }

    @Test func anUnwritableOutputFailsBeforeTheReplay() throws {
        // The recording does not exist either: the output is checked first, so that a long
        // replay is never thrown away at the end.
        let (status, output) = runProcess(tool, ["plot", "/nonexistent/recording.yml", "--layout", root + "/examples/kiosk.layout", "-o", "/nonexistent-dir/plot.svg"])
        #expect(status != 0)
        #expect(output.contains("cannot write /nonexistent-dir/plot.svg: the directory /nonexistent-dir does not exist"), "\(output)")
        let (status2, output2) = runProcess(tool, ["plot", root + "/examples/kiosk-touch.yml", "--layout", root + "/examples/kiosk.layout", "-o", "/tmp"])
        #expect(status2 != 0)
        #expect(output2.contains("it is a directory"))
        // A directory that exists but takes no new files (even for root): found by opening
        // the file, before the replay; one line, not the usage text.
        let (status3, output3) = runProcess(tool, ["plot", "/nonexistent/recording.yml", "--layout", root + "/examples/kiosk.layout", "-o", "/proc/seatkit-plot.svg"])
        #expect(status3 == 1)
        #expect(output3.contains("cannot write /proc/seatkit-plot.svg: "), "\(output3)")
        #expect(!output3.contains("Usage:") && !output3.contains("/nonexistent/recording.yml"), "\(output3)")
        // An existing file that can be written keeps its contents until the result replaces them.
        let existing = "/tmp/seatkit-plot-kept-\(getpid()).svg"
        #expect(writeFile(existing, Array("before".utf8)))
        defer { unlink(existing) }
        let (status4, _) = runProcess(tool, ["plot", "/nonexistent/recording.yml", "--layout", root + "/examples/kiosk.layout", "-o", existing])
        #expect(status4 != 0)
        #expect(RecordingParser.readFile(existing) == "before")
    }

    @Test func bigParsesReportProgress() throws {
        var s = FrameScript()
        for i in 0..<40_000 { s.frame([FrameScript.rel(0, 1), FrameScript.rel(1, Int32(i % 3))], advance: 1000) }
        var mouse = SyntheticDevice.mouse()
        mouse.frames = s.frames
        let bytes = Array(RecordingWriter.text(of: Recording(source: "big.yml", declaredDeviceCount: 1, devices: [mouse])).utf8)
        #expect(bytes.count > 4 << 20)
        var seen: [Int] = []
        _ = try RecordingParser.parse(bytes: bytes, source: "big.yml", progress: { done, total in
            #expect(total == bytes.count)
            seen.append(done)
        })
        #expect(seen.count >= 4 && seen == seen.sorted() && seen.last == bytes.count)

        let path = "/tmp/seatkit-big-\(getpid()).yml"
        defer { unlink(path) }
        #expect(writeFile(path, bytes))
        let (status, output) = runProcess("/usr/bin/env", ["SEATKIT_PROGRESS=1", tool, "info", path])
        #expect(status == 0)
        #expect(output.contains("MB parsed"))
        #expect(output.contains("frames: 40000"))
    }

    @Test func plotsHaveALegendPointerPathsAndTouchpadGestures() throws {
        let layout = "/tmp/seatkit-plot-layout-\(getpid()).layout"
        let out = "/tmp/seatkit-plot-\(getpid()).svg"
        defer { unlink(layout); unlink(out) }
        #expect(writeFile(layout, Array("output eDP-1 1920x1080\nsurface editor 0,0,960x1080 in eDP-1\nsurface browser 960,0,960x1080 in eDP-1\n".utf8)))
        let swipes = try SyntheticRecordings.file(SyntheticRecordings.touchpadThreeFingerSwipe(steps: [40, -40]))
        let mouse = try SyntheticRecordings.file(SyntheticRecordings.mouse())
        defer { unlink(swipes); unlink(mouse) }
        let (status, output) = runProcess(tool, ["plot", swipes, "--layout", layout, "-o", out])
        #expect(status == 0, "\(output)")
        #expect(output.contains("2 touchpad gestures"))
        let svg = try #require(RecordingParser.readFile(out))
        #expect(svg.contains("<g class=\"legend\""))
        #expect(svg.contains(">editor</text>") && svg.contains(">browser</text>") && svg.contains(">no surface</text>"))
        #expect(svg.contains(">touchpad gesture</text>") && svg.contains(">pointer (ring: press)</text>"))
        #expect(svg.components(separatedBy: "<polyline class=\"gesture\"").count == 3, "two swipes drawn")
        #expect(svg.contains(">3-finger swipe</text>"))

        // The legend stands right of the 1920-wide layout, and the swipes (one of them to the
        // left of where the pointer starts, at 0,0) stay inside it.
        let legend = try #require(svg.firstRange(of: "<g class=\"legend\" transform=\"translate("))
        let legendX = Double(svg[legend.upperBound...].prefix { $0 != "," }) ?? -1
        #expect(legendX >= 1920, "legend at x \(legendX)")
        var gesturePoints: [(Double, Double)] = []
        for line in svg.split(separator: "\n") where line.hasPrefix("<polyline class=\"gesture\" points=\"") {
            let points = line.dropFirst("<polyline class=\"gesture\" points=\"".count).prefix { $0 != "\"" }
            for pair in points.split(separator: " ") {
                let xy = pair.split(separator: ",").compactMap { Double($0) }
                if xy.count == 2 { gesturePoints.append((xy[0], xy[1])) }
            }
        }
        #expect(gesturePoints.count > 20)
        #expect(gesturePoints.allSatisfy { $0.0 >= 0 && $0.0 <= 1920 && $0.1 >= 0 && $0.1 <= 1080 }, "\(gesturePoints.filter { $0.0 < 0 || $0.0 > 1920 || $0.1 < 0 || $0.1 > 1080 }.prefix(3))")
        let xs = gesturePoints.map(\.0)
        #expect((xs.max() ?? 0) - (xs.min() ?? 0) > 20, "the swipes are drawn with their length, not collapsed")

        let (status2, _) = runProcess(tool, ["plot", mouse, "--layout", layout, "-o", out])
        #expect(status2 == 0)
        let mouseSVG = try #require(RecordingParser.readFile(out))
        #expect(mouseSVG.contains("<polyline class=\"pointer\""), "the pointer's path is drawn")
    }
}

extension String {
    fileprivate func components(separatedBy separator: String) -> [Substring] {
        split(separator: separator, omittingEmptySubsequences: false)
    }
}
