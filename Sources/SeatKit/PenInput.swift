// Pens (tablet tools) as their own kind of input: the values a pen event carries, the
// events responders get, and the pen grab.
//
// A pen hovers and touches. In proximity it is like the pointer: focus follows hit-testing
// with ``Responder/penEntered(_:context:)`` and ``Responder/penLeft(_:context:)``. When the
// tip touches, the pen is bound to that surface for the stroke, like a touch, until the
// tip lifts. Pressure, tilt and the rest arrive with every event, as a full snapshot
// (``PenAxes``), with the axes that changed marked (``PenAxisSet``).

/// What kind of tool a tablet reports (libinput's tool types; the Wayland tablet protocol's
/// `zwp_tablet_tool_v2.type`).
public enum PenToolKind: UInt8, Sendable, Hashable, CaseIterable {
    /// A pen's writing end.
    case pen
    /// The eraser end of a pen, or an eraser tool.
    case eraser
    /// A brush-like tool.
    case brush
    /// A pencil-like tool.
    case pencil
    /// An airbrush, with a finger wheel (the ``PenAxes/slider``).
    case airbrush
    /// A puck used on the tablet surface, with buttons and a wheel.
    case mouse
    /// A lens cursor, a puck with crosshairs.
    case lens
    /// A totem (rotary device placed on the tablet).
    case totem
}

/// The axes a tool can report, and the axes an event changed.
public struct PenAxisSet: OptionSet, Sendable, Hashable, CustomStringConvertible {
    /// One bit per axis.
    public var rawValue: UInt16
    /// Axes from their bits.
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    /// Position (x and y).
    public static let position = PenAxisSet(rawValue: 1 << 0)
    /// Tip pressure.
    public static let pressure = PenAxisSet(rawValue: 1 << 1)
    /// Hover distance.
    public static let distance = PenAxisSet(rawValue: 1 << 2)
    /// Tilt in x and y.
    public static let tilt = PenAxisSet(rawValue: 1 << 3)
    /// Rotation around the tool's axis (art pens, pucks).
    public static let rotation = PenAxisSet(rawValue: 1 << 4)
    /// A slider (an airbrush's finger wheel).
    public static let slider = PenAxisSet(rawValue: 1 << 5)
    /// A relative wheel (a puck's).
    public static let wheel = PenAxisSet(rawValue: 1 << 6)

    /// The names joined with commas, e.g. "pressure,tilt".
    public var description: String {
        let names: [(PenAxisSet, String)] = [(.position, "position"), (.pressure, "pressure"), (.distance, "distance"), (.tilt, "tilt"),
                                             (.rotation, "rotation"), (.slider, "slider"), (.wheel, "wheel")]
        return names.filter { contains($0.0) }.map(\.1).joined(separator: ",")
    }
}

/// One physical tool: its kind, its serial and what it can report.
///
/// Tools with a serial (most Wacom pens) are the same tool on any tablet; tools without one
/// (serial 0) are told apart by kind within one tablet.
public struct PenTool: Sendable, Hashable {
    /// Pen, eraser, airbrush, …
    public var kind: PenToolKind
    /// The tool's hardware serial, 0 when the tablet reports none.
    public var serial: UInt64
    /// The tool's hardware id (Wacom's tool id), 0 when unknown.
    public var hardwareID: UInt64
    /// The axes the tool can report (position is always reported).
    public var capabilities: PenAxisSet

    /// A tool; `capabilities` lists the axes it reports.
    public init(kind: PenToolKind = .pen, serial: UInt64 = 0, hardwareID: UInt64 = 0, capabilities: PenAxisSet = [.position]) {
        self.kind = kind
        self.serial = serial
        self.hardwareID = hardwareID
        self.capabilities = capabilities
    }

    /// Whether the tool erases (an eraser end or eraser tool) rather than draws.
    public var isEraser: Bool { kind == .eraser }
}

/// The axes of a tool at one moment, as libinput reports them. Axes the tool does not have
/// stay 0.
public struct PenAxes: Sendable, Hashable {
    /// Tip pressure, 0 (none) ... 1 (full), after the device's pressure curve.
    public var pressure: Double
    /// Hover distance, 0 (touching) ... 1 (the edge of proximity).
    public var distance: Double
    /// Tilt from the vertical toward positive x (right), in degrees.
    public var tiltX: Double
    /// Tilt from the vertical toward positive y (down), in degrees.
    public var tiltY: Double
    /// Rotation around the tool's axis, degrees clockwise from the tablet's logical north, 0 ..< 360.
    public var rotation: Double
    /// Slider position, -1 ... 1 (an airbrush's finger wheel).
    public var slider: Double
    /// Wheel motion in this event, degrees (relative: 0 on events without wheel motion).
    public var wheelDelta: Double
    /// Wheel motion in this event, in detents ("clicks").
    public var wheelDiscrete: Int32

    /// Axes; all zero by default.
    public init(pressure: Double = 0, distance: Double = 0, tiltX: Double = 0, tiltY: Double = 0, rotation: Double = 0,
                slider: Double = 0, wheelDelta: Double = 0, wheelDiscrete: Int32 = 0) {
        self.pressure = pressure
        self.distance = distance
        self.tiltX = tiltX
        self.tiltY = tiltY
        self.rotation = rotation
        self.slider = slider
        self.wheelDelta = wheelDelta
        self.wheelDiscrete = wheelDiscrete
    }
}

/// A tablet pad's mode group and its current mode, for pad events (libinput's
/// `libinput_tablet_pad_mode_group`): the compositor or client gives buttons, rings and
/// strips a meaning per mode.
public struct PadMode: Sendable, Hashable {
    /// The mode group's index on the pad.
    public var group: UInt32
    /// The group's current mode (0-based).
    public var mode: UInt32
    /// The group and mode.
    public init(group: UInt32 = 0, mode: UInt32 = 0) {
        self.group = group
        self.mode = mode
    }
}

/// What a tablet's pad has, announced with the device (``DeviceInfo/pad``).
public struct PadLayout: Sendable, Hashable {
    /// How many buttons.
    public var buttons: Int
    /// How many rings.
    public var rings: Int
    /// How many strips.
    public var strips: Int
    /// Per mode group: how many modes it has, and which buttons, rings and strips belong to it.
    public var groups: [Group]

    /// One mode group of a pad.
    public struct Group: Sendable, Hashable {
        /// How many modes the group has.
        public var modes: Int
        /// The buttons (indices) in the group.
        public var buttons: [Int]
        /// The rings (indices) in the group.
        public var rings: [Int]
        /// The strips (indices) in the group.
        public var strips: [Int]
        /// A mode group.
        public init(modes: Int, buttons: [Int] = [], rings: [Int] = [], strips: [Int] = []) {
            self.modes = modes
            self.buttons = buttons
            self.rings = rings
            self.strips = strips
        }
    }

    /// A pad's layout.
    public init(buttons: Int = 0, rings: Int = 0, strips: Int = 0, groups: [Group] = []) {
        self.buttons = buttons
        self.rings = rings
        self.strips = strips
        self.groups = groups
    }
}

/// A pen event as responders and pen grabs get it: one tool, its position and every axis.
public struct PenEvent {
    /// Where in its life the pen is.
    public enum Phase: Sendable, Hashable {
        /// The tool came into proximity (hovering). Goes to grabs and recognizers only; a
        /// responder hears it as ``Responder/penEntered(_:context:)``.
        case proximityIn
        /// Motion or an axis change while hovering.
        case hover
        /// The tip touched the surface: the stroke begins and binds the pen to its surface.
        case down
        /// Motion or an axis change while in contact (the stroke).
        case moved
        /// The tip lifted: the stroke ended.
        case up
        /// The tool left proximity. Goes to grabs; a responder hears it as
        /// ``Responder/penLeft(_:context:)``.
        case proximityOut
    }

    /// Where in its life the pen is.
    public var phase: Phase
    /// When the tablet reported it (the router's clock for an event the router made up).
    public var time: Timestamp
    /// The tablet.
    public var device: DeviceID
    /// The tool: pen or eraser, its serial and capabilities.
    public var tool: PenTool
    /// The tool's position in layout space.
    public var location: LayoutPoint
    /// The position in the target surface's space (the hovered surface, or the surface the
    /// stroke is bound to, where it may lie outside), also when asked of an ancestor up the
    /// chain; zero without a target.
    public var surfaceLocation: SurfacePoint
    /// Every axis, as of this event.
    public var axes: PenAxes
    /// The axes this event changed.
    public var changedAxes: PenAxisSet
    /// An up the router made up: the stroke's surface left the tree, or a pen grab began.
    /// The tip is still down; the rest of the stroke is not delivered.
    public var isCancelled = false

    /// A pen event; `location` in layout space, `surfaceLocation` in the target's space.
    public init(phase: Phase, time: Timestamp, device: DeviceID = DeviceID(0), tool: PenTool, location: LayoutPoint,
                surfaceLocation: SurfacePoint = .zero, axes: PenAxes = PenAxes(), changedAxes: PenAxisSet = [],
                isCancelled: Bool = false) {
        self.phase = phase
        self.time = time
        self.device = device
        self.tool = tool
        self.location = location
        self.surfaceLocation = surfaceLocation
        self.axes = axes
        self.changedAxes = changedAxes
        self.isCancelled = isCancelled
    }

    /// True from ``Phase/down`` through ``Phase/moved``: the tip touches.
    public var isInContact: Bool { phase == .down || phase == .moved }
}

/// A button on a pen (BTN_STYLUS 0x14b, BTN_STYLUS2 0x14c, BTN_STYLUS3 0x149; a puck's
/// BTN_LEFT and others) changed state.
public struct PenButtonEvent {
    /// When it changed.
    public var time: Timestamp
    /// The tablet.
    public var device: DeviceID
    /// The tool the button is on.
    public var tool: PenTool
    /// evdev code.
    public var button: UInt32
    /// Pressed or released.
    public var state: ButtonState
    /// The tool's position in layout space.
    public var location: LayoutPoint
    /// The position in the target surface's space, as ``PenEvent/surfaceLocation``.
    public var surfaceLocation: SurfacePoint

    /// A pen button event; `location` in layout space, `surfaceLocation` in the target's.
    public init(time: Timestamp, device: DeviceID = DeviceID(0), tool: PenTool, button: UInt32, state: ButtonState,
                location: LayoutPoint, surfaceLocation: SurfacePoint = .zero) {
        self.time = time
        self.device = device
        self.tool = tool
        self.button = button
        self.state = state
        self.location = location
        self.surfaceLocation = surfaceLocation
    }
}

extension Responder {
    /// Does nothing.
    public func penEntered(_ event: PenEvent, context: ResponderContext) {}
    /// Does nothing.
    public func penLeft(_ event: PenEvent, context: ResponderContext) {}
    /// Not handled: the router asks the next responder.
    public func penMoved(_ event: PenEvent, context: ResponderContext) -> ResponderResult { .notHandled }
    /// Not handled: the router asks the next responder.
    public func penDown(_ event: PenEvent, context: ResponderContext) -> ResponderResult { .notHandled }
    /// Not handled: the router asks the next responder.
    public func penUp(_ event: PenEvent, context: ResponderContext) -> ResponderResult { .notHandled }
    /// Not handled: the router asks the next responder.
    public func penButton(_ event: PenButtonEvent, context: ResponderContext) -> ResponderResult { .notHandled }
}

/// Takes pen input while active (``Router/startPenGrab(_:)``).
///
/// Events reach a grab after filters; locations are in layout space and `surfaceLocation`
/// in the space of the pen's current target (zero without one).
public protocol PenGrab: Grab {
    /// Proximity, hover, down, stroke motion, up. Default: ``Router/routePen(_:)``. If an
    /// override does not forward, no responder sees the event; a grab that swallows a down
    /// should swallow the stroke up to its up.
    func penEvent(_ event: PenEvent, router: Router)
    /// A pen button. Default: ``Router/routePenButton(_:)``; not forwarded, it is lost.
    func penButton(_ event: PenButtonEvent, router: Router)
}

extension PenGrab {
    /// Forwards to ``Router/routePen(_:)``: focus follows hit-testing while hovering, the
    /// stroke stays with its surface, the chain sees it.
    public func penEvent(_ event: PenEvent, router: Router) { router.routePen(event) }
    /// Forwards to ``Router/routePenButton(_:)``: the pen's target's chain.
    public func penButton(_ event: PenButtonEvent, router: Router) { router.routePenButton(event) }
}
