import Testing
import SeatKit
import SeatKitLibinput

/// The binary form that carries libinput's events from the replay worker to its parent.
@Suite struct DeviceEventTests {
    static let samples: [DeviceEvent] = [
        DeviceEvent(time: 1, device: 1, kind: .deviceAdded(DeviceDescription(name: "Tøuch \"screen\"", systemName: "event5", capabilities: [.touch, .pointer], size: Size(width: 10.5, height: 3)))),
        DeviceEvent(time: 2, device: 2, kind: .deviceAdded(DeviceDescription(name: "kbd", systemName: "event6", capabilities: .keyboard))),
        DeviceEvent(time: 3, device: 1, kind: .keyboardKey(key: 30, pressed: true)),
        DeviceEvent(time: -4, device: 1, kind: .pointerMotion(dx: 1.25, dy: -2, unacceleratedDx: 0.5, unacceleratedDy: -0.75)),
        DeviceEvent(time: 5, device: 1, kind: .pointerMotionAbsolute(x: 0.1, y: 0.9)),
        DeviceEvent(time: 6, device: 1, kind: .pointerButton(button: 0x111, pressed: false)),
        DeviceEvent(time: 7, device: 1, kind: .pointerScroll(ScrollDetail(source: .continuous, horizontal: 3, vertical: -1, horizontalV120: 0, verticalV120: 0, hasHorizontal: true, hasVertical: false))),
        DeviceEvent(time: 8, device: 1, kind: .touchDown(seatSlot: 4, x: 0.25, y: 0.75)),
        DeviceEvent(time: 9, device: 1, kind: .touchMotion(seatSlot: 4, x: 0.3, y: 0.7)),
        DeviceEvent(time: 10, device: 1, kind: .touchUp(seatSlot: 4)),
        DeviceEvent(time: 11, device: 1, kind: .touchCancel(seatSlot: 5)),
        DeviceEvent(time: 12, device: 1, kind: .touchFrame),
        DeviceEvent(time: 13, device: 1, kind: .gesture(TouchpadGesture(kind: .swipe, phase: .end(cancelled: true), fingers: 3, delta: Vector(dx: 1, dy: 2), unacceleratedDelta: Vector(dx: 3, dy: 4)))),
        DeviceEvent(time: 14, device: 1, kind: .gesture(TouchpadGesture(kind: .pinch, phase: .begin, fingers: 2, scale: 1.25, rotation: -4))),
        DeviceEvent(time: 15, device: 1, kind: .switchToggle(.lid, on: true)),
        DeviceEvent(time: 16, device: 1, kind: .tablet(TabletDetail(kind: .toolAxis, x: 0.5, y: 0.25, value: 0.8))),
        DeviceEvent(time: 17, device: 1, kind: .tablet(TabletDetail(kind: .padStrip, code: 1, value: -1))),
        DeviceEvent(time: 18, device: 1, kind: .other(type: 123)),
        DeviceEvent(time: 19, device: 2, kind: .deviceRemoved),
    ]

    @Test func everyKindSurvivesTheRoundTrip() throws {
        var bytes: [UInt8] = []
        for e in Self.samples { e.encode(into: &bytes) }
        var offset = 0
        var decoded: [DeviceEvent] = []
        while let e = try DeviceEvent.decode(bytes, at: &offset) { decoded.append(e) }
        #expect(decoded == Self.samples)
        #expect(offset == bytes.count)
    }

    @Test func aShortStreamWaitsForMoreInsteadOfFailing() throws {
        var bytes: [UInt8] = []
        Self.samples[0].encode(into: &bytes)
        for cut in 0..<bytes.count {
            var offset = 0
            #expect(try DeviceEvent.decode(Array(bytes[0..<cut]), at: &offset) == nil)
            #expect(offset == 0)
        }
    }

    @Test func garbageIsAnErrorNotACrash() {
        var offset = 0
        #expect(throws: DeviceEventDecodingError.self) {
            _ = try DeviceEvent.decode([0x77] + [UInt8](repeating: 0, count: 40), at: &offset)
        }
    }
}
