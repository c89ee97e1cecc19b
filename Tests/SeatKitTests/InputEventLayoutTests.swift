import Testing
@testable import SeatKit

/// InputEvent's size: every event is copied through filters, spies and the trace, so the
/// largest case sets what a touch costs to move around. Pens made it 161 bytes (the tool and
/// its axes inline); TabletEvent's compact storage and a boxed device announcement bring it
/// back under the 105 of before pens' pad layouts.
@Suite struct InputEventLayoutTests {
    @Test func anInputEventIsAtMost105BytesWithPensAndDeviceAnnouncementsInIt() {
        #expect(MemoryLayout<InputEvent>.size <= 105)
        #expect(MemoryLayout<TabletEvent>.size <= 88)
        // The touch, pointer and gesture payloads are not the largest any more than before.
        #expect(MemoryLayout<InputEvent.Kind>.size <= MemoryLayout<TabletEvent>.size + 1)
        // The tablet payload's last byte has no spare bits: the enum's case number has a byte of
        // its own (memcheck then sees a defined tag on every case, see ValgrindLog).
        #expect(MemoryLayout<InputEvent.Kind>.size == MemoryLayout<TabletEvent>.size + 1)
    }

    @Test func aToolEventKeepsPositionPressureDistanceAndTheToolExactlyAndTheRestInSinglePrecision() {
        let tool = PenTool(kind: .airbrush, serial: 0xFFFF_FFFF_1234_5678, hardwareID: 0x8000_0000_0000_0802,
                           capabilities: [.position, .pressure, .distance, .tilt, .rotation, .slider, .wheel])
        let axes = PenAxes(pressure: 0.30000000000000004, distance: 0.1, tiltX: 12.5, tiltY: -0.1, rotation: 359.75,
                           slider: -0.5, wheelDelta: 15, wheelDiscrete: -2)
        let e = TabletEvent(kind: .toolTip, position: LayoutPoint(x: 10.123456789, y: -3.3), code: 0x14b, value: 1,
                            tool: tool, axes: axes, changedAxes: [.position, .pressure, .tilt])
        #expect(e.kind == .toolTip && e.isToolEvent)
        #expect(e.position == LayoutPoint(x: 10.123456789, y: -3.3))
        #expect(e.code == 0x14b && e.value == 1)
        #expect(e.tool == tool)
        #expect(e.axes.pressure == 0.30000000000000004 && e.axes.distance == 0.1)
        #expect(e.axes.tiltX == 12.5 && e.axes.rotation == 359.75 && e.axes.slider == -0.5 && e.axes.wheelDelta == 15)
        #expect(e.axes.wheelDiscrete == -2)
        // Tilt is kept to a Float's precision: far finer than the protocol's 1/256 degree.
        #expect(e.axes.tiltY == Double(Float(-0.1)) && abs(e.axes.tiltY + 0.1) < 1e-7)
        #expect(e.changedAxes == [.position, .pressure, .tilt])
        #expect(e.padMode == PadMode() && !e.fromFinger)
        #expect(TabletEvent(kind: .toolAxis).position == nil)
        #expect(e == TabletEvent(kind: .toolTip, position: LayoutPoint(x: 10.123456789, y: -3.3), code: 0x14b, value: 1,
                                 tool: tool, axes: axes, changedAxes: [.position, .pressure, .tilt]))
        #expect(e != TabletEvent(kind: .toolTip, position: LayoutPoint(x: 10.123456789, y: -3.3), code: 0x14b, value: 1,
                                 tool: PenHarness.pen, axes: axes, changedAxes: [.position, .pressure, .tilt]))
    }

    @Test func aPadEventKeepsItsValueModeAndFingerExactlyAndNoTool() {
        let ring = TabletEvent(kind: .padRing, code: 3, value: 271.123456789, tool: PenHarness.pen,
                               axes: PenAxes(pressure: 1), padMode: PadMode(group: 0xFFFF_FFFF, mode: 7), fromFinger: true)
        #expect(ring.kind == .padRing && !ring.isToolEvent)
        #expect(ring.code == 3 && ring.value == 271.123456789)
        #expect(ring.padMode == PadMode(group: 0xFFFF_FFFF, mode: 7) && ring.fromFinger)
        #expect(ring.tool == PenTool() && ring.axes == PenAxes())
        #expect(ring == TabletEvent(kind: .padRing, code: 3, value: 271.123456789, padMode: PadMode(group: 0xFFFF_FFFF, mode: 7),
                                    fromFinger: true))
    }

    @Test func settingATabletEventsPropertiesKeepsTheOthers() {
        var e = TabletEvent(kind: .toolAxis, position: LayoutPoint(x: 1, y: 2), tool: PenHarness.eraser,
                            axes: PenAxes(pressure: 0.5), changedAxes: [.pressure])
        e.axes.pressure = 0.75
        e.position = nil
        e.value = 1
        e.kind = .toolTip
        e.changedAxes.insert(.tilt)
        #expect(e == TabletEvent(kind: .toolTip, value: 1, tool: PenHarness.eraser, axes: PenAxes(pressure: 0.75),
                                 changedAxes: [.pressure, .tilt]))
        e.tool.serial = 99
        #expect(e.tool.serial == 99 && e.tool.kind == .eraser && e.axes.pressure == 0.75)
        var pad = TabletEvent(kind: .padStrip, value: -1)
        pad.padMode.mode = 2
        pad.fromFinger = true
        pad.code = 1
        #expect(pad == TabletEvent(kind: .padStrip, code: 1, value: -1, padMode: PadMode(mode: 2), fromFinger: true))
    }

    @Test func aDeviceAnnouncementIsCarriedWhole() {
        let info = DeviceInfo(name: "Wacom Intuos Pro M Pad", capabilities: [.tabletPad], physicalSize: Size(width: 224, height: 148),
                              mappedOutput: "DP-1", pad: PadLayout(buttons: 9, rings: 1, groups: [.init(modes: 4, buttons: [0, 1], rings: [0])]))
        let event = InputEvent(time: .milliseconds(1), device: DeviceID(3), .deviceAdded(info))
        guard case .deviceAdded(let carried) = event.kind else { Issue.record("not a device announcement"); return }
        #expect(carried == info)
        #expect(event == InputEvent(time: .milliseconds(1), device: DeviceID(3), .deviceAdded(info)))
    }
}
