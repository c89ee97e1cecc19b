import Testing
import SeatKit

/// Recognizer thresholds are millimetres: the device's physical size over its output's size
/// gives layout units per millimetre, with a documented DPI when the device does not say.
@Suite struct MillimetreScaleTests {
    @Test func aPanelMappedToItsOutputGivesItsOwnScale() {
        let router = Router(clock: VirtualClock())
        let output = Output(name: "DSI-1", modeSize: Size(width: 1280, height: 800), scale: 2)  // 640x400 logical
        router.addOutput(output)
        router.inject(InputEvent(time: .zero, device: DeviceID(3), .deviceAdded(DeviceInfo(
            name: "panel", capabilities: .touch, physicalSize: Size(width: 160, height: 100), mappedOutput: "DSI-1"))))
        #expect(router.unitsPerMillimetre(device: DeviceID(3), at: LayoutPoint(x: 10, y: 10)) == 4)
    }

    @Test func aRotatedOutputIsMeasuredInThePanelsOwnOrientation() {
        let router = Router(clock: VirtualClock())
        let output = Output(name: "DSI-1", modeSize: Size(width: 1000, height: 500), transform: .rotated90)
        router.addOutput(output)
        router.inject(InputEvent(time: .zero, device: DeviceID(3), .deviceAdded(DeviceInfo(
            name: "panel", capabilities: .touch, physicalSize: Size(width: 100, height: 50), mappedOutput: "DSI-1"))))
        #expect(output.logicalSize == Size(width: 500, height: 1000))
        #expect(router.unitsPerMillimetre(device: DeviceID(3), at: LayoutPoint(x: 10, y: 10)) == 10)
    }

    @Test func aDeviceWithoutASizeUsesTheFallbackDPI() {
        let router = Router(clock: VirtualClock())
        router.addOutput(Output(name: "HDMI-A-1", modeSize: Size(width: 1920, height: 1080)))
        #expect(router.unitsPerMillimetre(device: DeviceID(9), at: .zero) == 96 / 25.4)
        router.fallbackDotsPerInch = 254
        #expect(router.unitsPerMillimetre(device: DeviceID(9), at: .zero) == 10)
    }

    @Test func aRecognizerMeasuresTheScaleWhenItsFirstTouchGoesDown() {
        let rig = GestureRig()  // 10 units per mm
        let pan = PanGestureRecognizer()
        rig.output.root.addGestureRecognizer(pan)
        rig.down(1, 100, 100)
        #expect(pan.layoutUnitsPerMillimetre == 10)
    }
}
