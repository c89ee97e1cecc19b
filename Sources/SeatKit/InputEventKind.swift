/// The kinds of input event, without their data: the one table of event kinds (issue 25,
/// goal 6). Every place that names or numbers a kind derives it from here: the trace's
/// text (``InputEvent/traceDescription`` starts with ``traceName``), the replay harness's
/// counts and its JSON (``name``, also `seatkit replay --format json` and the C API's
/// `seatkit_router_get_trace_json`), the C API's `seatkit_input_event_type`
/// (``cTypeNumber``) and the scripted input of the example kiosk (``init(name:)``).
///
/// A touchpad gesture has one row per gesture type (`gesture-swipe`, `gesture-pinch`,
/// `gesture-hold`); every other case of ``InputEvent/Kind`` has one row.
public enum InputEventKind: Int, CaseIterable, Sendable, Hashable, CustomStringConvertible {
    case touchDown, touchMotion, touchUp, touchCancel, touchFrame
    case pointerMotion, pointerMotionAbsolute, pointerButton, pointerAxis
    case touchpadSwipe, touchpadPinch, touchpadHold
    case key, switchToggled, tablet, unknown, deviceAdded, deviceRemoved

    /// The table, one row per case in declaration order: the stable name (JSON, counts,
    /// scripts), the words that begin the event's trace text, and the number of its
    /// `seatkit_input_event_type` in the C API's header (`SEATKIT_INPUT_…`; the three gesture rows
    /// share one).
    private static let rows: [(name: String, traceName: String, cTypeNumber: UInt32)] = [
        ("touch-down", "touch down", 0),
        ("touch-motion", "touch motion", 1),
        ("touch-up", "touch up", 2),
        ("touch-cancel", "touch cancel", 3),
        ("touch-frame", "touch frame", 4),
        ("pointer-motion", "pointer motion", 5),
        ("pointer-motion-absolute", "pointer absolute", 6),
        ("pointer-button", "button", 7),
        ("pointer-axis", "axis", 8),
        ("gesture-swipe", "touchpad swipe", 9),
        ("gesture-pinch", "touchpad pinch", 9),
        ("gesture-hold", "touchpad hold", 9),
        ("key", "key", 10),
        ("switch", "switch", 11),
        ("tablet", "tablet", 12),
        ("unknown", "unknown event", 15),
        ("device-added", "device added", 13),
        ("device-removed", "device removed", 14),
    ]

    /// The stable name, e.g. "touch-down", "gesture-pinch": ``InputEvent/Kind/name``, the
    /// replay trace's `kind` field and the `type` of a scripted input line.
    public var name: String { Self.rows[rawValue].name }

    /// The words an event's trace text begins with after its time and device, e.g.
    /// "touch down" in "12ms dev3 touch down 0 at (10, 20)".
    public var traceName: String { Self.rows[rawValue].traceName }

    /// The value of the event's `seatkit_input_event_type` in the C API (`SEATKIT_INPUT_TOUCH_DOWN`
    /// is 0); the three touchpad gesture rows share `SEATKIT_INPUT_TOUCHPAD_GESTURE`.
    public var cTypeNumber: UInt32 { Self.rows[rawValue].cTypeNumber }

    /// The kind with this ``name``; nil for any other string.
    public init?(name: String) {
        guard let index = Self.rows.firstIndex(where: { $0.name == name }) else { return nil }
        self.init(rawValue: index)
    }

    /// The ``name``.
    public var description: String { name }
}

extension InputEvent.Kind {
    /// The row of ``InputEventKind`` this event is.
    public var tableKind: InputEventKind {
        switch self {
        case .touchDown: .touchDown
        case .touchMotion: .touchMotion
        case .touchUp: .touchUp
        case .touchCancel: .touchCancel
        case .touchFrame: .touchFrame
        case .pointerMotion: .pointerMotion
        case .pointerMotionAbsolute: .pointerMotionAbsolute
        case .pointerButton: .pointerButton
        case .pointerAxis: .pointerAxis
        case .touchpadGesture(let g):
            switch g.kind {
            case .swipe: .touchpadSwipe
            case .pinch: .touchpadPinch
            case .hold: .touchpadHold
            }
        case .key: .key
        case .switchToggled: .switchToggled
        case .tablet: .tablet
        case .unknown: .unknown
        case .deviceAdded: .deviceAdded
        case .deviceRemoved: .deviceRemoved
        }
    }

    /// A short stable name for the kind, for counts and JSON: ``InputEventKind/name`` of
    /// ``tableKind``, e.g. "touch-down".
    public var name: String { tableKind.name }
}

/// A set of ``InputEventKind``s, one bit per kind: the events a spy is told
/// (``InputSpy/observedKinds``). `[.key]`, `.touches.union(.pointer)`, ``all``.
public struct InputEventKinds: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// The set of `kind` alone.
    public init(_ kind: InputEventKind) { rawValue = 1 << UInt32(kind.rawValue) }

    public static let touchDown = InputEventKinds(.touchDown)
    public static let touchMotion = InputEventKinds(.touchMotion)
    public static let touchUp = InputEventKinds(.touchUp)
    public static let touchCancel = InputEventKinds(.touchCancel)
    public static let touchFrame = InputEventKinds(.touchFrame)
    public static let pointerMotion = InputEventKinds(.pointerMotion)
    public static let pointerMotionAbsolute = InputEventKinds(.pointerMotionAbsolute)
    public static let pointerButton = InputEventKinds(.pointerButton)
    public static let pointerAxis = InputEventKinds(.pointerAxis)
    public static let touchpadSwipe = InputEventKinds(.touchpadSwipe)
    public static let touchpadPinch = InputEventKinds(.touchpadPinch)
    public static let touchpadHold = InputEventKinds(.touchpadHold)
    public static let key = InputEventKinds(.key)
    public static let switchToggled = InputEventKinds(.switchToggled)
    public static let tablet = InputEventKinds(.tablet)
    public static let unknown = InputEventKinds(.unknown)
    public static let deviceAdded = InputEventKinds(.deviceAdded)
    public static let deviceRemoved = InputEventKinds(.deviceRemoved)

    /// Touch down, motion, up, cancel and frame.
    public static let touches: InputEventKinds = [.touchDown, .touchMotion, .touchUp, .touchCancel, .touchFrame]
    /// Relative and absolute motion, buttons and scrolling.
    public static let pointer: InputEventKinds = [.pointerMotion, .pointerMotionAbsolute, .pointerButton, .pointerAxis]
    /// Touchpad swipes, pinches and holds.
    public static let touchpadGestures: InputEventKinds = [.touchpadSwipe, .touchpadPinch, .touchpadHold]
    /// Device announcements and removals.
    public static let devices: InputEventKinds = [.deviceAdded, .deviceRemoved]
    /// Every kind, those a later version adds included: a spy's default.
    public static let all = InputEventKinds(rawValue: .max)

    /// Whether `kind` is in the set.
    @inlinable public func contains(kind: InputEventKind) -> Bool { rawValue & (1 << UInt32(kind.rawValue)) != 0 }

    /// The bit of `event`'s kind: its row of the table (``InputEvent/Kind/tableKind``, a
    /// switch on the case alone, a gesture's phase kind read for the touchpad's three).
    @inline(__always)
    static func bit(of event: InputEvent) -> UInt32 {
        1 << UInt32(event.kind.tableKind.rawValue)
    }
}
