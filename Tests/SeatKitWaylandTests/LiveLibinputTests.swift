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
