import Testing
import SeatKit
import SeatKitLibinput
@testable import SeatKitReplay

/// The typed results a test reads: each input event with its fields, the hit test, the
/// links asked and who took it.
@Suite struct RoutedEventsTests {

    @Test func twoTapsOnOneButtonAreTwo() throws {
        let layout = try SurfaceLayout.parse("output DSI-1 800x480\nsurface ok-button 600,380,160x60 in DSI-1\n", source: "kiosk")
        let harness = ReplayHarness(layout: layout)
        // 4095 units over 800 px: x 3500 is 683.6 px, y 3600 is 421.9 px.
        var s = FrameScript(startingAt: 100_000)
        for (id, x) in [(Int32(1), Int32(3500)), (2, 3520)] {
            s.frame(SyntheticRecordings.touch(slot: 0, trackingID: id, x: x, y: 3600) + [FrameScript.key(0x14a, 1), FrameScript.abs(0, x), FrameScript.abs(1, 3600)], advance: 50_000)
            s.frame([FrameScript.abs(0x39, -1), FrameScript.key(0x14a, 0)], advance: 300_000)
        }
        var screen = SyntheticDevice.touchscreen()
        screen.frames = s.frames
        let run = try harness.replay(SyntheticRecordings.recording([screen], name: "two-taps.yml"))
        #expect(run.surfaces(receiving: .touchesEnded) == ["ok-button", "ok-button"])
        let ended = run.handled(.touchesEnded)
        #expect(ended.map(\.time) == [150_000, 500_000])

        let events = run.routedEvents(surfaces: harness.surfaces)
        let downs = events.filter { $0.kind == "touch-down" }
        #expect(downs.count == 2)
        let first = try #require(downs.first)
        #expect(first.touch != nil)
        #expect(first.surface == "ok-button")
        let layoutPoint = try #require(first.layoutPoint)
        #expect(abs(layoutPoint.x - 3500.0 * 800 / 4095) < 0.5)
        let local = try #require(first.surfacePoint)
        #expect(abs(local.x - (layoutPoint.x - 600)) < 1e-9 && abs(local.y - (layoutPoint.y - 380)) < 1e-9, "surface space is layout minus the surface's origin")
        #expect(first.hitTest?.surface == "ok-button")
        #expect(downs.map(\.takenBy) == ["ok-button", "ok-button"], "each down carries its frame's answer")
        let takers = events.filter { $0.asked.contains { $0.event == .touchesEnded } }.map(\.takenBy)
        #expect(takers == ["ok-button", "ok-button"])
        let summary = run.summary(of: events)
        #expect(summary.byKind["touch-down"] == 2)
        #expect(summary.dropped == 0)
    }

    @Test func swipeDeltasAndPointerButtonsHaveTheirFields() throws {
        let harness = ReplayHarness(layout: try SurfaceLayout.parse("output DSI-1 800x480\nsurface all 0,0,800x480 in DSI-1\n", source: "one"))
        let swipe = try harness.replay(SyntheticRecordings.touchpadThreeFingerSwipe())
        let gestures = swipe.routedEvents(surfaces: harness.surfaces).filter { $0.gesture != nil }
        #expect(gestures.first?.gesture?.phase == .begin)
        #expect(gestures.contains { ($0.unacceleratedDelta?.dx ?? 0) > 0 }, "the fingers moved right")
        let json = ReplayTraceJSON.record(try #require(gestures.first { $0.gesture?.phase == .update }))
        #expect(json.contains("\"gesture\":{\"type\":\"swipe\",\"phase\":\"update\",\"fingers\":3}"))
        #expect(json.contains("\"delta\":{\"dx\":"))

        let mouse = try harness.replay(SyntheticRecordings.mouse())
        let buttons = mouse.routedEvents(surfaces: harness.surfaces).filter { $0.kind == "pointer-button" }
        #expect(buttons.map(\.code) == [0x110, 0x110, 0x111, 0x111])
        #expect(buttons.map(\.state) == ["pressed", "released", "pressed", "released"])
        #expect(buttons.allSatisfy { $0.layoutPoint != nil && $0.surface == "all" && $0.surfacePoint != nil })
        #expect(ReplayTraceJSON.record(buttons[0]).contains("\"button\":272,\"state\":\"pressed\",\"layout\":{"))
    }

    /// A pen's events carry their tool, tip and axes in the JSON trace, and the chain they
    /// were asked of.
    @Test func penEventsCarryTheirToolTipAndAxesInTheJSONTrace() throws {
        let harness = ReplayHarness(layout: try SurfaceLayout.parse("output DSI-1 1000x600\nsurface all 0,0,1000x600 in DSI-1\n", source: "one"))
        let run = try harness.replay(PenRecordings.penAndEraser())
        let tablet = run.routedEvents(surfaces: harness.surfaces).filter { $0.kind == "tablet" }
        let json = tablet.map { ReplayTraceJSON.record($0) }
        let down = try #require(json.first { $0.contains("\"tip\":\"down\"") })
        #expect(down.contains("\"pen\":{\"tool\":\"pen\",\"serial\":23130,\"tip\":\"down\",\"pressure\":"), "\(down)")
        #expect(down.contains("\"tilt_x\":") && down.contains("\"distance\":"), "\(down)")
        #expect(down.contains("\"link\":\"all\",\"event\":\"penDown\""), "\(down)")
        #expect(json.contains { $0.contains("\"tool\":\"eraser\"") && $0.contains("\"proximity\":\"in\"") })
        #expect(json.contains { $0.contains("\"link\":\"all\",\"event\":\"penEntered\"") })
    }
}
