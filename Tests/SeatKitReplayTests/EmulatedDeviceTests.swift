import Testing
@testable import SeatKitReplay

/// The sysfs description and ioctl answers umockdev gives libinput for a recorded device.
@Suite struct EmulatedDeviceTests {
    let touchscreen = EmulatedDevice(device: SyntheticDevice.touchscreen(), number: 100)

    @Test func kernelBitmapsAreHighestWordFirst() {
        #expect(EmulatedDevice.kernelBitmap([0, 1, 3], count: 64) == "b")
        // BTN_TOUCH 0x14a is bit 10 of word 5, BTN_LEFT 0x110 bit 16 of word 4.
        #expect(EmulatedDevice.kernelBitmap([0x14a, 0x110], count: 0x300) == "400 10000 0 0 0 0")
        #expect(EmulatedDevice.kernelBitmap([], count: 32) == "0")
    }

    @Test func ioctlPayloadsHaveTheSizesLibevdevAsksFor() {
        let lines = touchscreen.ioctlRecord.split(separator: "\n")
        func payloadBytes(_ prefix: String) -> [Int] {
            lines.filter { $0.hasPrefix(prefix) }.map { ($0.split(separator: " ").last?.count ?? 0) / 2 }
        }
        #expect(payloadBytes("EVIOCGNAME(0)") == [255])
        #expect(payloadBytes("EVIOCGBIT(1) ") == [96])
        #expect(payloadBytes("EVIOCGBIT(3) ") == [8])
        #expect(payloadBytes("EVIOCGBIT(21) ") == [16])
        #expect(payloadBytes("EVIOCGABS(") == [24, 24, 24, 24, 24, 24])
        // 4 MT axes after ABS_MT_SLOT, each answered for 256 slots and for the real 10.
        #expect(payloadBytes("EVIOCGMTSLOTS(0)") == [1028, 44, 1028, 44, 1028, 44])
        #expect(payloadBytes("EVIOCGKEY(0)") == [96])
        #expect(!lines.contains { $0.hasPrefix("EVIOCGREP") }, "no EV_REP, no repeat settings")
        #expect(EmulatedDevice(device: SyntheticDevice.keyboard(), number: 101).ioctlRecord.contains("EVIOCGREP 0 F401000014000000"))
    }

    @Test func trackingIDsStartFreeAndTheNameIsNulPadded() {
        let record = touchscreen.ioctlRecord
        // ABS_MT_TRACKING_ID (57) current value -1.
        #expect(record.contains("EVIOCGABS(57) 0 FFFFFFFF00000000FFFF0000"))
        let name = record.split(separator: "\n").first { $0.hasPrefix("EVIOCGNAME(0)") }!
        #expect(name.hasPrefix("EVIOCGNAME(0) 25 5365"), "length includes the NUL; \"Se…\"")
    }

    @Test func descriptionCarriesTheUdevPropertiesAndDeviceNumber() {
        let d = touchscreen.description
        #expect(d.contains("P: /devices/virtual/input/input100/event100\nN: input/event100\n"))
        #expect(d.contains("E: ID_INPUT_TOUCHSCREEN=1"))
        #expect(d.contains("A: dev=13:164"))
        #expect(d.contains("E: PROP=2"))
        let dmi = EmulatedDevice.dmiDescription("dmi:bvnX:")
        #expect(dmi.contains("A: modalias=dmi:bvnX:"))
    }
}
