import SeatKit
@testable import SeatKitWLCS
import Testing

/// The wlcs integration's devices: one keyboard, plugged in at the start, however many fake
/// pointers and touchscreens wlcs adds and removes (each removal changes the capabilities).
@Suite struct WLCSDevicesTests {
    @Test func fakeDevicesComingAndGoingLeaveOneKeyboard() throws {
        let compositor = WLCSCompositor()
        defer { compositor.tearDown() }
        #expect(compositor.keyboardDeviceCount == 1)
        for round in 0..<3 {
            let pointer = compositor.addDevice(DeviceInfo(name: "wlcs pointer \(round)", capabilities: [.pointer]))
            let touch = compositor.addDevice(DeviceInfo(name: "wlcs touch \(round)", capabilities: [.touch]))
            compositor.inject(pointer, .deviceRemoved)
            compositor.inject(touch, .deviceRemoved)
        }
        #expect(compositor.keyboardDeviceCount == 1)
        #expect(compositor.router.devices.count == 1)
        #expect(compositor.seat.capabilities == WLCSCompositor.capabilities)
    }
}
