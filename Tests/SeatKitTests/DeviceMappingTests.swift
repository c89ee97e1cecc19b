import Testing
@testable import SeatKit

/// Devices mapped to outputs once, in the router (issue 25 goal 3, issue 24 goal 4): a rule by
/// device name beats the device's announced output (udev's WL_OUTPUT), a calibration is applied
/// before the output's transform, a rotated output is followed at once, and the point is
/// clamped once, inside the mapped output.
@Suite("Device to output mapping")
struct DeviceMappingTests {
    /// A: 1000x1000 at the origin (the harness's); B: a 800x480 panel right of it.
    func twoOutputs() -> (Harness, Output) {
        let h = Harness()
        let b = Output(name: "B", position: LayoutPoint(x: 1000, y: 0), modeSize: Size(width: 800, height: 480))
        h.router.addOutput(b)
        return (h, b)
    }

    func addTouchscreen(_ h: Harness, name: String = "Panel Touch", device: UInt32 = 7, announced: String? = nil) {
        h.send(.deviceAdded(DeviceInfo(name: name, capabilities: .touch, mappedOutput: announced)), device: device)
    }

    @Test func anUnmappedTouchscreenCoversTheFirstOutput() {
        let (h, _) = twoOutputs()
        addTouchscreen(h)
        #expect(h.router.output(for: DeviceID(7)) === h.output)
        #expect(h.router.layoutPoint(fromNormalized: 0.5, 0.25, device: DeviceID(7)) == LayoutPoint(x: 500, y: 250))
    }

    /// The announced output (WL_OUTPUT) maps the device, and a rule by its name wins over it;
    /// the touch reaches the surface on that output, at the surface-local point under the finger.
    @Test func aRuleByNameBeatsTheAnnouncedOutputAndTheTouchLandsOnIt() {
        let (h, b) = twoOutputs()
        let onB = Surface(name: "onB", frame: SurfaceRect(x: 0, y: 0, width: 800, height: 480),
                          responder: RecordingResponder("onB", log: h.log, handles: ["began", "ended"]))
        b.root.addChild(onB)
        h.surface("onA", 0, 0, 1000, 1000, handles: ["began", "ended"])
        addTouchscreen(h, announced: "A-is-not-here")
        #expect(h.router.output(for: DeviceID(7)) === h.output, "an announced output not in the layout: the first output")
        h.router.setDeviceMapping(DeviceMapping(output: "B"), forDevicesNamed: "Panel Touch")
        #expect(h.router.output(for: DeviceID(7)) === b)
        let p = h.router.layoutPoint(fromNormalized: 0.25, 0.5, device: DeviceID(7))
        #expect(p == LayoutPoint(x: 1200, y: 240))
        h.send(.touchDown(TouchID(1), p), device: 7)
        h.send(.touchFrame, device: 7)
        #expect(h.log.entries == ["onB.began"])
        #expect(onB.recorder.lastTouches.first?.surfaceLocation == SurfacePoint(x: 200, y: 240))
        // Another device is not touched by the rule.
        addTouchscreen(h, name: "Other Touch", device: 8)
        #expect(h.router.output(for: DeviceID(8)) === h.output)
        // Removing the rule returns the device to its default.
        h.router.setDeviceMapping(nil, forDevicesNamed: "Panel Touch")
        #expect(h.router.output(for: DeviceID(7)) === h.output)
    }

    /// A rule set before the device is plugged in applies when it appears; one for every
    /// device (nil name) applies to all but those named.
    @Test func rulesApplyToDevicesAnnouncedLaterAndTheNamedRuleWinsOverTheRuleForAll() {
        let (h, b) = twoOutputs()
        h.router.setDeviceMapping(DeviceMapping(output: "B"), forDevicesNamed: nil)
        h.router.setDeviceMapping(DeviceMapping(output: "OUT-1"), forDevicesNamed: "Panel Touch")
        addTouchscreen(h)
        addTouchscreen(h, name: "Pen", device: 9)
        #expect(h.router.output(for: DeviceID(7)) === h.output)
        #expect(h.router.output(for: DeviceID(9)) === b)
    }

    /// The calibration (libinput's convention) is applied to the normalized point, before the
    /// output's transform: a panel whose axes are swapped lands where the finger is.
    @Test func calibrationIsAppliedBeforeTheOutputsTransform() throws {
        let (h, _) = twoOutputs()
        addTouchscreen(h)
        let swap = try #require(CalibrationMatrix(parsing: "0 1 0 1 0 0"))
        h.router.setDeviceMapping(DeviceMapping(output: "B", calibration: swap), forDevicesNamed: "Panel Touch")
        #expect(h.router.layoutPoint(fromNormalized: 0.25, 0.5, device: DeviceID(7)) == LayoutPoint(x: 1400, y: 120))
        #expect(CalibrationMatrix(parsing: "1,0,0,0,1") == nil)
        #expect(CalibrationMatrix(parsing: "1 0 0 0 1 x") == nil)
        #expect(CalibrationMatrix(parsing: "1 0 0 0 1 nan") == nil)
    }

    /// Rotating the output is followed at once, with nothing re-mapped: the panel's native
    /// top-left corner shows the logical top-right of a 90° output.
    @Test func rotatingTheOutputIsFollowedAutomatically() {
        let (h, b) = twoOutputs()
        addTouchscreen(h)
        h.router.setDeviceMapping(DeviceMapping(output: "B"), forDevicesNamed: "Panel Touch")
        #expect(h.router.layoutPoint(fromNormalized: 0.1, 0.2, device: DeviceID(7)) == LayoutPoint(x: 1080, y: 96))
        b.transform = .rotated90 // logical 480x800
        #expect(h.router.layoutPoint(fromNormalized: 0.1, 0.2, device: DeviceID(7)) == LayoutPoint(x: 1000 + 0.8 * 480, y: 80))
        b.transform = .rotated270
        #expect(h.router.layoutPoint(fromNormalized: 0.1, 0.2, device: DeviceID(7)) == LayoutPoint(x: 1000 + 0.2 * 480, y: 720))
    }

    /// One clamp, inside the mapped output: beyond the device's range (a miscalibrated panel)
    /// the point stays on B, never spills onto A.
    @Test func thePointIsClampedOnceInsideTheMappedOutput() {
        let (h, _) = twoOutputs()
        addTouchscreen(h)
        h.router.setDeviceMapping(DeviceMapping(output: "B"), forDevicesNamed: "Panel Touch")
        #expect(h.router.layoutPoint(fromNormalized: -0.5, 1.5, device: DeviceID(7)) == LayoutPoint(x: 1000, y: 480 - Layout.edgeMargin))
    }

    /// An absolute pointer nothing maps spans the whole layout (as wlr_cursor); mapped, its
    /// output.
    @Test func anUnmappedAbsolutePointerSpansTheLayout() {
        let (h, b) = twoOutputs()
        h.send(.deviceAdded(DeviceInfo(name: "Tablet Mouse", capabilities: .pointer)), device: 3)
        #expect(h.router.output(for: DeviceID(3)) == nil)
        #expect(h.router.layoutPoint(fromNormalized: 0.75, 0.25, device: DeviceID(3)) == LayoutPoint(x: 1350, y: 250))
        h.router.setDeviceMapping(DeviceMapping(output: "B"), forDevicesNamed: "Tablet Mouse")
        #expect(h.router.output(for: DeviceID(3)) === b)
        #expect(h.router.layoutPoint(fromNormalized: 0.75, 0.25, device: DeviceID(3)) == LayoutPoint(x: 1600, y: 120))
    }

    /// When the mapped output goes away, the device falls back; when it comes back, the
    /// mapping holds again.
    @Test func theMappingFollowsItsOutputOutAndBackIn() {
        let (h, b) = twoOutputs()
        addTouchscreen(h)
        h.router.setDeviceMapping(DeviceMapping(output: "B"), forDevicesNamed: "Panel Touch")
        h.router.removeOutput(b)
        #expect(h.router.output(for: DeviceID(7)) === h.output)
        h.router.addOutput(b)
        #expect(h.router.output(for: DeviceID(7)) === b)
    }
}
