import Testing
import SeatKit
import SeatKitLibinput
@testable import SeatKitReplay
#if canImport(Glibc)
import Glibc
#endif

/// What the README shows a test author, as written: taps, swipes and pinches at layout
/// points, files found beside the test, and a worker that needs no build step.
@Suite struct TestAuthorsPathTests {
    @Test func theReadmeExampleRunsAsWritten() throws {
        // The README's example, word for word.
        let layout = try SurfaceLayout.parse("""
            output DSI-1 800x480
            surface ok-button 600,380,160x60 in DSI-1
            surface list 0,0,800x380 in DSI-1
            """, source: "kiosk")
        var touch = TouchScript(layout: layout)
        touch.tap(at: LayoutPoint(x: 680, y: 410))
        touch.swipe(from: LayoutPoint(x: 400, y: 300), to: LayoutPoint(x: 400, y: 60))
        let run = try ReplayHarness(layout: layout).replay(touch.recording())
        #expect(run.surfaces(receiving: .touchesEnded) == ["ok-button", "list"])
    }

    @Test func aTapLandsAtItsLayoutPointOnARotatedOffsetOutput() throws {
        let layout = try SurfaceLayout.parse("""
            output HDMI-A-1 1920x1080
            output DSI-1 800x480 at 1920,0 transform rotated90
            surface panel 0,0,480x800 in DSI-1
            surface corner 400,700,80x100 in panel
            touch Touchscreen DSI-1
            """, source: "two outputs")
        let harness = ReplayHarness(layout: layout)
        var touch = TouchScript(layout: layout)
        let target = LayoutPoint(x: 1920 + 440, y: 750)
        touch.tap(at: target)
        let run = try harness.replay(touch.recording())
        let down = try #require(run.routedEvents(surfaces: harness.surfaces).first { $0.kind == "touch-down" })
        let p = try #require(down.layoutPoint)
        #expect(abs(p.x - target.x) < 0.5 && abs(p.y - target.y) < 0.5, "\(p)")
        #expect(down.surface == "corner")
    }

    @Test func aPinchSpreadsTheTwoFingersAndASwipeMovesOne() throws {
        let layout = try SurfaceLayout.parse("output DSI-1 800x480\nsurface all 0,0,800x480 in DSI-1\n", source: "one")
        let harness = ReplayHarness(layout: layout)
        var touch = TouchScript(layout: layout)
        touch.pinch(center: LayoutPoint(x: 400, y: 240), fromDistance: 100, toDistance: 300)
        touch.swipe(from: LayoutPoint(x: 100, y: 400), to: LayoutPoint(x: 700, y: 400), steps: 10)
        let paths = try harness.replay(touch.recording()).touchPaths
        #expect(paths.count == 3)
        func spread(_ i: Int) -> Double { abs(paths[1].points[i].x - paths[0].points[i].x) }
        #expect(abs(spread(0) - 100) < 1 && abs(spread(paths[0].points.count - 1) - 300) < 1)
        #expect(abs((paths[2].points.last?.x ?? 0) - 700) < 0.5 && paths[2].points.count == 11)
    }

    @Test func filesAreFoundBesideTheTestWhateverTheWorkingDirectory() throws {
        let recording = try RecordingParser.parse(contentsOf: "Fixtures/two-taps.yml", relativeTo: #filePath)
        let layout = try SurfaceLayout.parse(contentsOf: "Fixtures/kiosk.layout", relativeTo: #filePath)
        let run = try ReplayHarness(layout: layout).replay(recording)
        #expect(run.surfaces(receiving: .touchesEnded) == ["ok-button", "ok-button"])
        #expect(RecordingParser.resolve("/abs/x.yml", relativeTo: #filePath) == "/abs/x.yml")
    }

    @Test func theWorkerIsThisVeryProgramWithNothingToBuild() throws {
        // No SEATKIT_REPLAY_WORKER and no workerExecutable: the test bundle itself, started
        // again in worker mode, runs libinput. Started so by hand, it is the worker.
        #expect(getenv("SEATKIT_REPLAY_WORKER") == nil)
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let exe = String(decoding: buffer[0..<max(n, 0)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let (status, output) = runProcess("/usr/bin/env", ["SEATKIT_REPLAY_WORKER_MODE=1", exe, "not-a-node"])
        #expect(status == 2)
        #expect(output.contains("replay-worker: "), "\(output.prefix(300))")
        let result = try LibinputReplay(recording: SyntheticRecordings.keyboard()).run()
        #expect(result.events.contains { $0.kind == .keyboardKey(key: 30, pressed: true) })
    }
}
