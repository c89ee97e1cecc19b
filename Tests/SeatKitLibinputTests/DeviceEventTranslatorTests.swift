import Testing
import SeatKit
import SeatKitLibinput

@Suite struct DeviceEventTranslatorTests {
    let touchscreen = DeviceDescription(name: "Kiosk Touchscreen", systemName: "event5", capabilities: .touch, size: Size(width: 150, height: 90))

    func layout(_ outputs: [Output]) -> Router {
        let router = Router(clock: VirtualClock())
        for o in outputs { router.addOutput(o) }
        return router
    }

    @Test func touchGoesToTheFirstOutputWithoutARule() {
        let router = layout([Output(name: "A", modeSize: Size(width: 800, height: 600)), Output(name: "B", position: LayoutPoint(x: 800, y: 0), modeSize: Size(width: 100, height: 100))])
        let t = DeviceEventTranslator()
        let added = t.translate(DeviceEvent(time: 5, device: 3, kind: .deviceAdded(touchscreen)), router: router)
        router.inject(added)
        #expect(added.kind == .deviceAdded(DeviceInfo(name: "Kiosk Touchscreen", capabilities: .touch, physicalSize: Size(width: 150, height: 90))))
        #expect(router.output(for: DeviceID(3))?.name == "A")
        #expect(added.device == DeviceID(3))
        let down = t.translate(DeviceEvent(time: 10, device: 3, kind: .touchDown(seatSlot: 2, x: 0.5, y: 0.25)), router: router)
        #expect(down.kind == .touchDown(TouchID(2), LayoutPoint(x: 400, y: 150)))
        #expect(down.time == Timestamp(microseconds: 10))
    }

    @Test func ruleByNameMapsToItsOutputWithItsTransform() {
        let router = layout([Output(name: "A", modeSize: Size(width: 800, height: 600)),
                             Output(name: "DSI-1", position: LayoutPoint(x: 800, y: 0), modeSize: Size(width: 800, height: 480), transform: .rotated90)])
        var mapping = TouchOutputMapping()
        mapping.map("Touchscreen", toOutput: "DSI-1")
        let t = DeviceEventTranslator(touchMapping: mapping)
        router.inject(t.translate(DeviceEvent(time: 0, device: 1, kind: .deviceAdded(touchscreen)), router: router))
        // Native top-left of a rotated90 panel shows the logical top-right (480x800 logical).
        let down = t.translate(DeviceEvent(time: 1, device: 1, kind: .touchDown(seatSlot: 0, x: 0, y: 0)), router: router)
        // (Its right edge, 1280, is outside the half-open output: kept one wl_fixed_t step inside.)
        #expect(down.kind == .touchDown(TouchID(0), LayoutPoint(x: 800 + 480 - Layout.edgeMargin, y: 0)))
        let other = DeviceDescription(name: "Other pen", systemName: "event6", capabilities: .tabletTool)
        #expect(mapping.outputName(for: other) == nil)
    }

    /// A touch at the device's maximum is inside the output, as the clamped pointer is: a
    /// 640-wide surface never reads x = 640.0 (wl_fixed_t rounds to nearest); beyond the
    /// device's range (a miscalibrated panel) it stays on the output.
    @Test func touchAtTheDevicesEdgeStaysInsideTheOutputAsThePointerDoes() {
        let router = layout([Output(name: "A", modeSize: Size(width: 640, height: 480))])
        let t = DeviceEventTranslator()
        router.inject(t.translate(DeviceEvent(time: 0, device: 1, kind: .deviceAdded(touchscreen)), router: router))
        let corner = t.translate(DeviceEvent(time: 1, device: 1, kind: .touchDown(seatSlot: 0, x: 1, y: 1)), router: router)
        let inside = LayoutPoint(x: 640 - Layout.edgeMargin, y: 480 - Layout.edgeMargin)
        #expect(corner.kind == .touchDown(TouchID(0), inside))
        #expect(router.layout.clamp(inside) == inside)
        let beyond = t.translate(DeviceEvent(time: 2, device: 1, kind: .touchMotion(seatSlot: 0, x: 1.2, y: -0.1)), router: router)
        #expect(beyond.kind == .touchMotion(TouchID(0), LayoutPoint(x: 640 - Layout.edgeMargin, y: 0)))
    }

    @Test func customRuleAndTimeOffset() {
        let router = layout([Output(name: "A", modeSize: Size(width: 100, height: 100)), Output(name: "B", position: LayoutPoint(x: 100, y: 0), modeSize: Size(width: 100, height: 100))])
        var mapping = TouchOutputMapping()
        mapping.addRule { $0.systemName == "event5" ? "B" : nil }
        let t = DeviceEventTranslator(touchMapping: mapping)
        router.inject(t.translate(DeviceEvent(time: 0, device: 1, kind: .deviceAdded(touchscreen)), router: router))
        let e = t.translate(DeviceEvent(time: 1_000, device: 1, kind: .touchMotion(seatSlot: 0, x: 0.5, y: 0.5)), router: router, timeOffset: -1_000)
        #expect(e.kind == .touchMotion(TouchID(0), LayoutPoint(x: 150, y: 50)))
        #expect(e.time == Timestamp(microseconds: 0))
    }

    @Test func scrollStopsOnlyForFingerAndContinuousSources() {
        let t = DeviceEventTranslator()
        let l = Router(clock: VirtualClock())
        let finger = t.translate(DeviceEvent(time: 0, device: 1, kind: .pointerScroll(ScrollDetail(source: .finger, horizontal: 0, vertical: 0, horizontalV120: 0, verticalV120: 0, hasHorizontal: false, hasVertical: true))), router: l)
        #expect(finger.kind == .pointerAxis(AxisMotion(source: .finger, verticalStop: true)))
        let wheel = t.translate(DeviceEvent(time: 0, device: 1, kind: .pointerScroll(ScrollDetail(source: .wheel, horizontal: 0, vertical: 15, horizontalV120: 0, verticalV120: 120, hasHorizontal: false, hasVertical: true))), router: l)
        #expect(wheel.kind == .pointerAxis(AxisMotion(source: .wheel, vertical: 15, verticalV120: 120)))
    }

    @Test func everyKindIsTranslatedNothingDropped() {
        let t = DeviceEventTranslator()
        let l = Router(clock: VirtualClock())
        let kinds: [(DeviceEvent.Kind, String)] = [
            (.keyboardKey(key: 30, pressed: true), "key"),
            (.pointerMotion(dx: 1, dy: 2, unacceleratedDx: 1, unacceleratedDy: 2), "pointer-motion"),
            (.pointerMotionAbsolute(x: 0.5, y: 0.5), "pointer-motion-absolute"),
            (.pointerButton(button: 0x110, pressed: false), "pointer-button"),
            (.touchUp(seatSlot: 1), "touch-up"), (.touchCancel(seatSlot: 1), "touch-cancel"), (.touchFrame, "touch-frame"),
            (.gesture(TouchpadGesture(kind: .pinch, phase: .update, fingers: 2, scale: 1.5, rotation: 3)), "gesture-pinch"),
            (.gesture(TouchpadGesture(kind: .hold, phase: .end(cancelled: true), fingers: 3)), "gesture-hold"),
            (.switchToggle(.tabletMode, on: true), "switch"),
            (.tablet(TabletDetail(kind: .toolTip, x: 0.5, y: 0.5, value: 1)), "tablet"),
            (.tablet(TabletDetail(kind: .padRing, code: 0, value: 90)), "tablet"),
            (.other(type: 9999), "unknown"),
            (.deviceRemoved, "device-removed"),
        ]
        for (kind, name) in kinds {
            let e = t.translate(DeviceEvent(time: 0, device: 1, kind: kind), router: l)
            #expect(name == e.kind.name, "\(kind)")
        }
    }
}
