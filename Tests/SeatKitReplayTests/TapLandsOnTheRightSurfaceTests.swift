import Testing
import SeatKit
import SeatKitLibinput
import SeatKitReplay

/// A touchscreen tap replayed through libinput onto a kiosk layout lands on the surface
/// under the finger, also when the output is rotated.
@Suite struct TapLandsOnTheRightSurfaceTests {
    /// Raw touchscreen units (0...4095) for a fraction of the panel's native width or height.
    func raw(_ fraction: Double) -> Int32 { Int32((fraction * 4096).rounded()) }

    @Test func tapOnAnUnrotatedOutputLandsOnOK() throws {
        let layout = try SurfaceLayout.parse("""
            output DSI-1 800x480
            surface panel 0,0,800x480 in DSI-1
            surface ok-button 600,380,160x60 in panel
            surface cancel-button 40,380,160x60 in panel
            """, source: "kiosk")
        let harness = ReplayHarness(layout: layout)
        let run = try harness.replay(SyntheticRecordings.touchscreenTap(x: raw(680.0 / 800), y: raw(410.0 / 480)))
        #expect(run.surfaces(receiving: .touchesBegan) == ["ok-button"])
        #expect(run.surfaces(receiving: .touchesEnded) == ["ok-button"])
    }

    @Test func tapOnARotatedOutputLandsWhereTheFingerIs() throws {
        // The panel is 800x480 natively and mounted a quarter turn: the kiosk's logical
        // space is 480x800. The OK button sits at the logical bottom right.
        let layout = try SurfaceLayout.parse("""
            output DSI-1 800x480 transform rotated90
            surface ok-button 300,700,160x60 in DSI-1
            surface cancel-button 20,700,160x60 in DSI-1
            surface title 0,0,480x100 in DSI-1
            """, source: "rotated-kiosk")
        // Under rotated90 the panel's native top-left shows the logical top-right, and its
        // native bottom-left the logical top-left: logical (380, 730) is native
        // (u, v) = (730/800, 1 - 380/480).
        let u = 730.0 / 800, v = 1 - 380.0 / 480
        let harness = ReplayHarness(layout: layout)
        let run = try harness.replay(SyntheticRecordings.touchscreenTap(x: raw(u), y: raw(v)))
        #expect(run.surfaces(receiving: .touchesBegan) == ["ok-button"])
        guard case .touchDown(_, let point) = run.inputEvents.first(where: { $0.kind.name == "touch-down" })?.kind else {
            Issue.record("no touch down reached the router")
            return
        }
        #expect(abs(point.x - 380) < 0.5 && abs(point.y - 730) < 0.5, "layout point \(point)")

        // The same glass position on an unrotated output is somewhere else entirely.
        let flat = try SurfaceLayout.parse("output DSI-1 800x480\nsurface ok-button 300,700,160x60 in DSI-1\n", source: "flat")
        let flatRun = try ReplayHarness(layout: flat).replay(SyntheticRecordings.touchscreenTap(x: raw(u), y: raw(v)))
        #expect(flatRun.surfaces(receiving: .touchesBegan).isEmpty)
    }

    @Test func touchDeviceMappedToTheSecondOutput() throws {
        let layout = try SurfaceLayout.parse("""
            output HDMI-A-1 1920x1080
            output DSI-1 800x480 at 1920,0
            touch Touchscreen DSI-1
            surface big 0,0,1920x1080 in HDMI-A-1
            surface ok-button 600,380,160x60 in DSI-1
            """, source: "two-outputs")
        let run = try ReplayHarness(layout: layout).replay(SyntheticRecordings.touchscreenTap(x: raw(680.0 / 800), y: raw(410.0 / 480)))
        #expect(run.surfaces(receiving: .touchesBegan) == ["ok-button"])
    }

    @Test func calibrationIsAppliedBeforeTheOutputTransform() throws {
        // A calibration that mirrors x: the finger at the left edge of the glass lands right.
        let layout = try SurfaceLayout.parse("""
            output DSI-1 800x480
            surface left 0,0,400x480 in DSI-1
            surface right 400,0,400x480 in DSI-1
            """, source: "halves")
        let harness = ReplayHarness(layout: layout)
        let options = ReplayOptions(configuration: DeviceConfiguration(calibration: [-1, 0, 1, 0, 1, 0]))
        let run = try harness.replay(SyntheticRecordings.touchscreenTap(x: raw(0.1), y: raw(0.5)), options: options)
        #expect(run.surfaces(receiving: .touchesBegan) == ["right"])
    }
}
