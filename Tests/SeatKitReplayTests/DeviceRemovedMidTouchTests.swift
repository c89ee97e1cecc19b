import Testing
import SeatKit
import SeatKitLibinput
import SeatKitReplay

/// Unplugging a touchscreen while a finger is down: libinput removes the device, the
/// router cancels the touch for everyone who saw it, and the seat loses its touch capability.
@Suite struct DeviceRemovedMidTouchTests {
    @Test func removalMidTouchCancelsTheTouchAndDropsTheCapability() throws {
        let layout = try SurfaceLayout.parse("output DSI-1 800x480\nsurface ok-button 0,0,800x480 in DSI-1\n", source: "one")
        let harness = ReplayHarness(layout: layout)
        // Finger down at 100 ms, held for 20 frames; the device goes at 150 ms.
        let recording = try SyntheticRecordings.touchscreenTap(x: 2000, y: 2000, holdFrames: 20)
        let run = try harness.replay(recording, options: ReplayOptions(removals: [(device: 0, time: 150_000)]))
        let names = run.inputEvents.map(\.kind.name)
        #expect(names.contains("touch-down"))
        #expect(names.last == "device-removed")
        #expect(!names.contains("touch-up"), "the finger never lifted before the device went")
        let cancels = run.trace.filter { if case .told(.surface(_, "ok-button"), .touchesCancelled) = $0 { true } else { false } }
        #expect(cancels.count == 1, "the surface that saw the touch was told it was cancelled")
        #expect(harness.router.capabilities.isEmpty)
        #expect(run.libinput?.events.contains { $0.kind == .deviceRemoved } == true)
        let touchTimes = run.inputEvents.filter { $0.kind.name.hasPrefix("touch") }.map(\.time.microseconds)
        #expect(touchTimes.allSatisfy { $0 <= 150_000 }, "no touch event after the device went")
        // libinput's clock is the replay's: the cancel happens when the device goes.
        #expect(run.inputEvents.last { $0.kind.name == "touch-cancel" }?.time.microseconds == 150_000)
    }

    @Test func capabilitiesFollowTheDevicesPresent() throws {
        var mouse = SyntheticDevice.mouse()
        var s = FrameScript()
        s.frame([FrameScript.rel(0, 1)])
        s.frame([FrameScript.rel(0, 1)], advance: 500_000)
        mouse.frames = s.frames
        var keyboard = SyntheticDevice.keyboard()
        var k = FrameScript()
        k.frame([FrameScript.key(30, 1)])
        k.frame([FrameScript.key(30, 0)])
        keyboard.frames = k.frames
        let recording = try SyntheticRecordings.recording([mouse, keyboard], name: "two.yml")
        let harness = ReplayHarness()
        var seen: [DeviceCapabilities] = []
        final class Watcher: CompositorDelegate {
            var onChange: (DeviceCapabilities) -> Void = { _ in }
            func router(_ router: Router, capabilitiesChanged capabilities: DeviceCapabilities) { onChange(capabilities) }
        }
        let watcher = Watcher()
        watcher.onChange = { seen.append($0) }
        harness.router.delegate = watcher
        try harness.replay(recording, options: ReplayOptions(removals: [(device: 1, time: 100_000)]))
        #expect(seen.first == [.pointer])
        #expect(seen.dropFirst().first == [.pointer, .keyboard])
        #expect(seen.last == [.pointer], "the keyboard went; the pointer stays")
    }
}
