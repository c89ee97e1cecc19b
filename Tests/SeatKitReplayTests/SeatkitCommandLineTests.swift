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
        let (status, output) = runProcess(tool, ["plot", SharedRecordings.path("touchpad-3fg-swipe-paperwm.yml"), "--layout", layout, "-o", out])
        #expect(status == 0, "\(output)")
        #expect(output.contains("2 touchpad gestures"))
        let svg = try #require(RecordingParser.readFile(out))
        #expect(svg.contains("<g class=\"legend\""))
        #expect(svg.contains(">editor</text>") && svg.contains(">browser</text>") && svg.contains(">no surface</text>"))
        #expect(svg.contains(">touchpad gesture</text>") && svg.contains(">pointer (ring: press)</text>"))
        #expect(svg.components(separatedBy: "<polyline class=\"gesture\"").count == 3, "two swipes drawn")
        #expect(svg.contains(">3-finger swipe</text>"))

        let (status2, _) = runProcess(tool, ["plot", SharedRecordings.path("mouse-dell-ms116-move.yml"), "--layout", layout, "-o", out])
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
