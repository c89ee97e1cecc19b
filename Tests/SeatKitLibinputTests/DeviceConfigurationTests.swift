import Testing
import SeatKitLibinput

@Suite struct DeviceConfigurationTests {
    @Test func commandLineFormRoundTrips() throws {
        let c = DeviceConfiguration(tapToClick: true, naturalScrolling: false, leftHanded: true, accelerationProfile: .flat,
                                    accelerationSpeed: -0.5, scrollMethod: .twoFinger, disableWhileTyping: true,
                                    calibration: [0, 1, 0, -1, 0, 1], sendEvents: .disabledOnExternalMouse)
        #expect(c.commandLineForm == "tap=1 natural=0 left-handed=1 accel-profile=flat accel-speed=-0.5 scroll=two-finger dwt=1 calibration=0.0,1.0,0.0,-1.0,0.0,1.0 send-events=disabled-on-external-mouse")
        #expect(try DeviceConfiguration(commandLineForm: c.commandLineForm) == c)
        #expect(try DeviceConfiguration(commandLineForm: "") == DeviceConfiguration())
    }

    @Test func badSettingsNameTheSetting() {
        let cases: [(String, String)] = [
            ("tap=maybe", "tap"), ("accel-speed=2", "accel-speed"), ("calibration=1,2,3", "calibration"),
            ("scroll=sideways", "scroll"), ("colour=blue", "colour"), ("tap", "tap"), ("send-events=sometimes", "send-events"),
        ]
        for (text, setting) in cases {
            do {
                _ = try DeviceConfiguration(commandLineForm: text)
                Issue.record("\(text) was accepted")
            } catch {
                #expect(error.setting == setting)
            }
        }
    }
}
