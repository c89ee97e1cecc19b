import Foundation
import SeatKitReplay
import Testing

extension EndToEndTests {
    /// `kiosk --libinput`: libinput finds a keyboard on a udev seat (an umockdev testbed, so
    /// no root and no uinput), its fd is watched by the Wayland event loop, and a key the
    /// device reports reaches wev with its keysym and text.
    @Test func withLiveLibinputAKeyFromAUdevSeatKeyboardReachesWev() throws {
        let devices = try EmulatedInputDevices([SyntheticDevice.keyboard()])
        let session = try KioskSession(inputOptions: ["--libinput", "--seat", "seat0"], environment: devices.environment())
        try session.log.require("capabilities keyboard")
        let wev = try session.launch("wev")
        _ = try session.waitForWindow("wev")
        try wev.output.require("wl_keyboard] enter:")
        let start = wev.output.mark

        try devices.write([FrameScript.key(48, 1)], toDevice: 0)  // KEY_B down
        try devices.write([FrameScript.key(48, 0)], toDevice: 0)
        try wev.output.require({ WevLog($0[start...]).events("wl_keyboard", "key").count == 2 }, "wev did not get the key's press and release")
        let keys = WevLog(wev.output.text[start...]).events("wl_keyboard", "key")
        #expect(keys[0].contains("key: 56; state: 1 (pressed)") && keys[0].contains("sym: b") && keys[0].contains("utf8: 'b'"), "\(keys)")
        #expect(keys[1].contains("key: 56; state: 0 (released)"), "\(keys)")
    }
}

extension EndToEndTests {
    /// `kiosk --libinput` with a touchscreen: the live backend routes a touch's down, motion
    /// and up from libinput's getters (`LibinputBackend.dispatcher(into:)`'s closure, which the
    /// kiosk's event loop calls, as `dispatch(into:)`; not the replay's `DeviceEvent`s), each
    /// closed by its frame; they reach wev where the replay puts the
    /// same touch (ReplayEndToEndTests), with the device's times, and one `wl_touch.frame`
    /// after each.
    @Test func withLiveLibinputATouchscreensDownMotionAndUpReachWevEachWithItsFrame() throws {
        typealias E = FrameScript
        let devices = try EmulatedInputDevices([SyntheticDevice.touchscreen()])
        let session = try KioskSession(inputOptions: ["--libinput", "--seat", "seat0"], environment: devices.environment())
        try session.log.require("capabilities touch")
        let wev = try session.launch("wev")
        // wev asks for its wl_touch when told the seat's capabilities, before it makes its
        // window: once the window is mapped, the kiosk has its wl_touch.
        _ = try session.waitForWindow("wev")
        let start = wev.output.mark

        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let t0 = Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000
        try devices.write([E.abs(0x2f, 0), E.abs(0x39, 1), E.abs(0x35, 1024), E.abs(0x36, 1024), E.key(0x14a, 1), E.abs(0, 1024), E.abs(1, 1024)],
                          toDevice: 0, time: t0)
        try devices.write([E.abs(0x35, 1088), E.abs(0, 1088)], toDevice: 0, time: t0 + 10_000)
        try devices.write([E.abs(0x39, -1), E.key(0x14a, 0)], toDevice: 0, time: t0 + 20_000)
        try wev.output.require({ WevLog($0[start...]).events("wl_touch", "frame").count == 3 }, "wev did not get three touch frames")

        let log = WevLog(wev.output.text[start...])
        let touch = log.events("wl_touch")
        #expect(touch.count == 6, "\(touch)")
        #expect(log.events("wl_touch", "down").map { $0.hasSuffix("id: 0; x, y: 480.000000, 270.000000") } == [true], "\(touch)")
        #expect(log.events("wl_touch", "motion").map { $0.hasSuffix("id: 0; x, y: 510.000000, 270.000000") } == [true], "\(touch)")
        #expect(log.events("wl_touch", "up").count == 1, "\(touch)")
        // Each of the three is followed by its frame.
        #expect(touch.indices.filter { $0 % 2 == 1 }.allSatisfy { touch[$0].contains("] frame") }, "\(touch)")
        let times = ["down", "motion", "up"].compactMap { log.events("wl_touch", $0).first.flatMap(WevLog.time) }
        #expect(times.count == 3 && times[1] - times[0] == 10 && times[2] - times[1] == 10, "\(times)")
    }
}

extension EndToEndTests {
    /// `kiosk --libinput` with a touchscreen that also has keys (libinput gives it both
    /// capabilities): its touches take the live backend's touch switch (the device's user data
    /// marks a touch device) and its key the whole switch, out of line; both reach wev, the
    /// key with its keysym and the touch with its frame.
    @Test func withLiveLibinputATouchscreensOwnKeyReachesWevBesideItsTouch() throws {
        typealias E = FrameScript
        var device = SyntheticDevice.touchscreen()
        device.codes[EvdevCodes.EV_KEY] = [0x14a] + Array(1...88)
        device.udevProperties += ["ID_INPUT_KEY=1", "ID_INPUT_KEYBOARD=1"]
        let devices = try EmulatedInputDevices([device])
        let session = try KioskSession(inputOptions: ["--libinput", "--seat", "seat0"], environment: devices.environment())
        try session.log.require("capabilities keyboard,touch")
        let wev = try session.launch("wev")
        _ = try session.waitForWindow("wev")
        try wev.output.require("wl_keyboard] enter:")
        let start = wev.output.mark

        try devices.write([E.key(48, 1)], toDevice: 0)  // KEY_B down
        try devices.write([E.key(48, 0)], toDevice: 0)
        try devices.write([E.abs(0x2f, 0), E.abs(0x39, 1), E.abs(0x35, 1024), E.abs(0x36, 1024), E.key(0x14a, 1), E.abs(0, 1024), E.abs(1, 1024)],
                          toDevice: 0)
        try devices.write([E.abs(0x39, -1), E.key(0x14a, 0)], toDevice: 0)
        try wev.output.require({ WevLog($0[start...]).events("wl_touch", "frame").count == 2 }, "wev did not get two touch frames")

        let log = WevLog(wev.output.text[start...])
        let keys = log.events("wl_keyboard", "key")
        #expect(keys.count == 2 && keys[0].contains("sym: b") && keys[1].contains("state: 0 (released)"), "\(keys)")
        #expect(log.events("wl_touch", "down").map { $0.hasSuffix("id: 0; x, y: 480.000000, 270.000000") } == [true], "\(log.events("wl_touch"))")
        #expect(log.events("wl_touch", "up").count == 1, "\(log.events("wl_touch"))")
    }
}
