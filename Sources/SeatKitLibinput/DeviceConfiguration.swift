/// The usual per-device settings a compositor exposes. Each is optional: nil leaves
/// libinput's default. A setting the device does not support is skipped and reported by
/// ``LibinputBackend/apply(_:toDevice:)``.
public struct DeviceConfiguration: Hashable, Sendable {
    public enum AccelerationProfile: String, Hashable, Sendable { case flat, adaptive }
    public enum ScrollMethod: String, Hashable, Sendable { case none, twoFinger = "two-finger", edge, onButtonDown = "on-button-down" }
    public enum SendEventsMode: String, Hashable, Sendable {
        case enabled, disabled
        /// Disabled while an external pointer device is plugged in (touchpads).
        case disabledOnExternalMouse = "disabled-on-external-mouse"
    }

    public var tapToClick: Bool?
    public var naturalScrolling: Bool?
    public var leftHanded: Bool?
    public var accelerationProfile: AccelerationProfile?
    /// -1 (slowest) to 1 (fastest).
    public var accelerationSpeed: Double?
    public var scrollMethod: ScrollMethod?
    public var disableWhileTyping: Bool?
    /// Touch and tablet calibration: a 2×3 affine matrix `[a, b, c, d, e, f]` applied by
    /// libinput to normalized device coordinates (`x' = a·x + b·y + c`, `y' = d·x + e·y + f`),
    /// before the output's transform.
    public var calibration: [Float]?
    public var sendEvents: SendEventsMode?

    public init(tapToClick: Bool? = nil, naturalScrolling: Bool? = nil, leftHanded: Bool? = nil,
                accelerationProfile: AccelerationProfile? = nil, accelerationSpeed: Double? = nil,
                scrollMethod: ScrollMethod? = nil, disableWhileTyping: Bool? = nil, calibration: [Float]? = nil,
                sendEvents: SendEventsMode? = nil) {
        self.tapToClick = tapToClick
        self.naturalScrolling = naturalScrolling
        self.leftHanded = leftHanded
        self.accelerationProfile = accelerationProfile
        self.accelerationSpeed = accelerationSpeed
        self.scrollMethod = scrollMethod
        self.disableWhileTyping = disableWhileTyping
        self.calibration = calibration
        self.sendEvents = sendEvents
    }

    /// A one-line text form, `tap=1 natural=0 calibration=0,1,0,-1,0,1 …`: how the replay
    /// passes the configuration to its child process, and a handy command-line syntax.
    public var commandLineForm: String {
        var parts: [String] = []
        func flag(_ key: String, _ v: Bool?) { if let v { parts.append("\(key)=\(v ? 1 : 0)") } }
        flag("tap", tapToClick)
        flag("natural", naturalScrolling)
        flag("left-handed", leftHanded)
        if let p = accelerationProfile { parts.append("accel-profile=\(p.rawValue)") }
        if let s = accelerationSpeed { parts.append("accel-speed=\(s)") }
        if let m = scrollMethod { parts.append("scroll=\(m.rawValue)") }
        flag("dwt", disableWhileTyping)
        if let c = calibration { parts.append("calibration=\(c.map { "\($0)" }.joined(separator: ","))") }
        if let s = sendEvents { parts.append("send-events=\(s.rawValue)") }
        return parts.joined(separator: " ")
    }

    /// Parses ``commandLineForm``; throws naming the setting that is wrong.
    public init(commandLineForm text: String) throws(DeviceConfigurationError) {
        self.init()
        for part in text.split(separator: " ") {
            let kv = part.split(separator: "=", maxSplits: 1)
            guard kv.count == 2 else { throw DeviceConfigurationError(setting: String(part), problem: "expected key=value") }
            let key = String(kv[0]), value = String(kv[1])
            func bool() throws(DeviceConfigurationError) -> Bool {
                switch value {
                case "1", "true", "on": return true
                case "0", "false", "off": return false
                default: throw DeviceConfigurationError(setting: key, problem: "`\(value)` is not 1 or 0")
                }
            }
            switch key {
            case "tap": tapToClick = try bool()
            case "natural": naturalScrolling = try bool()
            case "left-handed": leftHanded = try bool()
            case "dwt": disableWhileTyping = try bool()
            case "accel-profile":
                guard let p = AccelerationProfile(rawValue: value) else { throw DeviceConfigurationError(setting: key, problem: "`\(value)` is not flat or adaptive") }
                accelerationProfile = p
            case "accel-speed":
                guard let s = Double(value), (-1...1).contains(s) else { throw DeviceConfigurationError(setting: key, problem: "`\(value)` is not a number in -1...1") }
                accelerationSpeed = s
            case "scroll":
                guard let m = ScrollMethod(rawValue: value) else { throw DeviceConfigurationError(setting: key, problem: "`\(value)` is not none, two-finger, edge or on-button-down") }
                scrollMethod = m
            case "calibration":
                let numbers = value.split(separator: ",").compactMap { Float($0) }
                guard numbers.count == 6, numbers.allSatisfy(\.isFinite) else { throw DeviceConfigurationError(setting: key, problem: "expected six numbers a,b,c,d,e,f") }
                calibration = numbers
            case "send-events":
                guard let s = SendEventsMode(rawValue: value) else { throw DeviceConfigurationError(setting: key, problem: "`\(value)` is not enabled, disabled or disabled-on-external-mouse") }
                sendEvents = s
            default:
                throw DeviceConfigurationError(setting: key, problem: "unknown setting")
            }
        }
    }
}

public struct DeviceConfigurationError: Error, CustomStringConvertible, Hashable {
    public var setting: String
    public var problem: String
    public var description: String { "device setting \(setting): \(problem)" }
}
