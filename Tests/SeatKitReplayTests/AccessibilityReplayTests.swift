import Testing
import SeatKit
import SeatKitLibinput
import SeatKitReplay

/// Accessibility filters on recordings the test writes, replayed through real libinput: the
/// router's virtual clock follows the recording, so the filters' delays give the same result
/// at any machine speed.
@Suite struct AccessibilityReplayTests {
    static let layout = """
        output DSI-1 800x480
        surface ok-button 600,380,160x60 in DSI-1
        surface cancel-button 40,380,160x60 in DSI-1
        """

    @Test func aRecordedBrushIsIgnoredAndAHeldTapCountsWithTouchAccommodations() throws {
        let layout = try SurfaceLayout.parse(Self.layout, source: "kiosk")
        var touch = TouchScript(layout: layout)
        touch.tap(at: LayoutPoint(x: 100, y: 410), hold: 60_000)     // a brush on cancel: too short
        touch.tap(at: LayoutPoint(x: 680, y: 410), hold: 500_000)    // held on OK: counts
        let recording = try touch.recording(name: "touch-accommodations.yml")

        let plain = try ReplayHarness(layout: layout).replay(recording)
        #expect(plain.surfaces(receiving: .touchesEnded) == ["cancel-button", "ok-button"], "without the filter both taps land")

        let harness = ReplayHarness(layout: layout)
        harness.router.addFilter(TouchAccommodations(holdDuration: .milliseconds(300)))
        let run = try harness.replay(recording)
        #expect(run.surfaces(receiving: .touchesBegan) == ["ok-button"])
        #expect(run.surfaces(receiving: .touchesEnded) == ["ok-button"])
        let began = try #require(run.handled(.touchesBegan).first)
        let fingerDown = try #require(plain.handled(.touchesBegan).last)
        #expect(began.time == fingerDown.time + 300_000, "the counted touch begins once held 300 ms")
    }
}
