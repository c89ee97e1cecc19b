import Testing
import SeatKit
import SeatKitReplay

/// A test author's suite, as the guide "Replaying recordings in tests" shows it.
@Suite struct KioskTests {
    @Test func okTakesTheTapAndTheListTheSwipe() throws {
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

    @Test func aRecordingBesideTheTestTapsOKTwice() throws {
        let recording = try RecordingParser.parse(contentsOf: "Fixtures/two-taps.yml", relativeTo: #filePath)
        let layout = try SurfaceLayout.parse(contentsOf: "Fixtures/kiosk.layout", relativeTo: #filePath)
        let harness = ReplayHarness(layout: layout)
        let run = try harness.replay(recording)
        #expect(run.handled(.touchesEnded).map(\.surface) == ["ok-button", "ok-button"])
        let events = run.routedEvents(surfaces: harness.surfaces)
        let down = try #require(events.first { $0.kind == "touch-down" })
        #expect(down.surface == "ok-button")
        #expect(down.takenBy == "ok-button")
    }
}
