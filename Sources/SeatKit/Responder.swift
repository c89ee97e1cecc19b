/// A responder's answer to an event.
public enum ResponderResult: Sendable, Hashable {
    /// The responder took the event; it goes no further.
    case handled
    /// The router moves the event to the next responder in the chain.
    case notHandled
}

/// One link of a responder chain.
public enum ChainLink {
    case surface(Surface)
    case output(Output)
    /// The compositor delegate: the end of every chain.
    case delegate

    /// Identity comparison of the objects behind two links.
    public func isSame(as other: ChainLink) -> Bool {
        switch (self, other) {
        case let (.surface(a), .surface(b)): return a === b
        case let (.output(a), .output(b)): return a === b
        case (.delegate, .delegate): return true
        default: return false
        }
    }
}

extension ChainLink: CustomStringConvertible {
    public var description: String {
        switch self {
        case .surface(let s): return s.name
        case .output(let o): return "output \(o.name)"
        case .delegate: return "delegate"
        }
    }
}

/// What a responder is told along with an event.
///
/// A context lives only for the call it is passed to, and the compiler holds every responder
/// to that: it is a non-escapable type (`~Escapable`), so a handler can read it and pass it
/// down to functions it calls, but cannot store it, capture it in an escaping closure or
/// return it. What it hands out (``router``, ``link``, ``target``, ``surface``) are ordinary
/// owning references: keep those if you need them later.
///
/// Inside, it refers to the router, the link and the target without owning them (rule 2 of
/// the core's `Unretained`: the router keeps them alive while it delivers), because an owning
/// reference cost an atomic increment and decrement per responder asked.
public struct ResponderContext: ~Escapable {
    private let routerLink: Unretained<Router>
    private let linkSurface: Unretained<Surface>?
    private let linkOutput: Unretained<Output>?
    private let targetSurface: Unretained<Surface>?

    // Immortal as far as the compiler knows: the context is made by the router for one call
    // and dropped after it; it is responders, outside this module, that cannot keep it.
    @_lifetime(immortal)
    init(router: Router, link: ChainLink, target: Surface?) {
        routerLink = Unretained(router)
        switch link {
        case .surface(let s):
            linkSurface = Unretained(s)
            linkOutput = nil
        case .output(let o):
            linkSurface = nil
            linkOutput = Unretained(o)
        case .delegate:
            linkSurface = nil
            linkOutput = nil
        }
        targetSurface = target.map(Unretained.init)
    }

    /// The context for asking `surface`'s responder.
    @inline(__always) @_lifetime(immortal)
    init(router: Router, surface: Surface, target: Surface?) {
        routerLink = Unretained(router)
        linkSurface = Unretained(surface)
        linkOutput = nil
        targetSurface = target.map(Unretained.init)
    }

    /// The router delivering the event: ask it to change focus or send actions.
    public var router: Router { routerLink.object }

    /// The link being asked: its surface, output or the delegate.
    public var link: ChainLink {
        if let linkSurface { return .surface(linkSurface.object) }
        if let linkOutput { return .output(linkOutput.object) }
        return .delegate
    }

    /// The surface the event was aimed at (the hit-test surface, the touch's bound surface,
    /// the pointer focus or the first responder); `nil` when there is none.
    public var target: Surface? { targetSurface?.object }

    /// The surface whose responder is being asked, if it is a surface's.
    public var surface: Surface? { linkSurface?.object }

    /// The target's identity, without retaining it (a lookup key for adapters, such as the C
    /// API's handle table, that must not pay a retain and release per responder asked).
    @inline(__always)
    package var targetIdentity: ObjectIdentifier? { targetSurface?.identity }
}

/// One finger in a touch event.
public struct TouchPoint: Sendable, Hashable {
    public var id: TouchID
    public var device: DeviceID
    /// Where the finger is, in layout space.
    public var location: LayoutPoint
    /// Where the finger is in the space of the surface the touch is bound to (which may be
    /// outside it: a touch stays with its surface after leaving it).
    public var surfaceLocation: SurfacePoint
    /// Where and when the finger went down.
    public var startLocation: LayoutPoint
    public var startTime: Timestamp

    public init(id: TouchID, device: DeviceID, location: LayoutPoint, surfaceLocation: SurfacePoint,
                startLocation: LayoutPoint, startTime: Timestamp) {
        self.id = id
        self.device = device
        self.location = location
        self.surfaceLocation = surfaceLocation
        self.startLocation = startLocation
        self.startTime = startTime
    }
}

/// Touches of one phase, for one surface, from one device frame.
///
/// `touches` holds every point of that phase that the frame changed and that is bound to the
/// same surface. The array is the router's reused buffer: copy it if you keep it.
public struct TouchEvent {
    public var time: Timestamp
    public var touches: [TouchPoint]
}

/// The pointer crossed into or out of a surface.
public struct PointerCrossingEvent {
    public var time: Timestamp
    /// Pointer position in layout space.
    public var location: LayoutPoint
    /// Pointer position in the surface's space.
    public var surfaceLocation: SurfacePoint
}

/// Pointer motion over the focus surface.
public struct PointerMotionEvent {
    public var time: Timestamp
    public var device: DeviceID
    /// New position in layout space.
    public var location: LayoutPoint
    /// New position in the focus surface's space (outside it during an implicit grab).
    public var surfaceLocation: SurfacePoint
    /// Relative motion that produced it (zero for absolute motion), accelerated and raw.
    public var delta: Vector
    public var unacceleratedDelta: Vector
}

/// A pointer button press or release.
public struct PointerButtonEvent {
    public var time: Timestamp
    public var device: DeviceID
    /// evdev code: BTN_LEFT is 0x110, BTN_RIGHT 0x111, BTN_MIDDLE 0x112.
    public var button: UInt32
    public var state: ButtonState
    public var location: LayoutPoint
    public var surfaceLocation: SurfacePoint
    /// A release the router made up because the press can no longer be released normally
    /// (the surface was removed, a grab took the pointer): the button is still physically
    /// down, and its real release will not be delivered.
    public var isCancelled = false
}

/// Scrolling.
public struct PointerAxisEvent {
    public var time: Timestamp
    public var device: DeviceID
    public var motion: AxisMotion
    public var location: LayoutPoint
    public var surfaceLocation: SurfacePoint
}

/// A touchpad gesture delivered to the pointer focus.
public struct TouchpadGestureEvent {
    public var time: Timestamp
    public var device: DeviceID
    public var gesture: TouchpadGesture
    public var location: LayoutPoint
    public var surfaceLocation: SurfacePoint
}

/// Modifier keys, independent of the keymap's encoding.
public struct KeyModifiers: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let shift = KeyModifiers(rawValue: 1 << 0)
    public static let capsLock = KeyModifiers(rawValue: 1 << 1)
    public static let control = KeyModifiers(rawValue: 1 << 2)
    public static let alt = KeyModifiers(rawValue: 1 << 3)
    public static let numLock = KeyModifiers(rawValue: 1 << 4)
    public static let logo = KeyModifiers(rawValue: 1 << 6)
    /// AltGr (ISO_Level3_Shift, usually Mod5).
    public static let altGr = KeyModifiers(rawValue: 1 << 7)

    /// The modifiers that key commands compare; lock modifiers are ignored.
    public static let commandRelevant: KeyModifiers = [.shift, .control, .alt, .logo, .altGr]

    public var description: String {
        let names: [(KeyModifiers, String)] = [
            (.shift, "Shift"), (.capsLock, "Caps"), (.control, "Ctrl"), (.alt, "Alt"),
            (.numLock, "Num"), (.logo, "Logo"), (.altGr, "AltGr"),
        ]
        return names.filter { contains($0.0) }.map(\.1).joined(separator: "+")
    }
}

/// The serialized modifier state, as `wl_keyboard.modifiers` carries it.
public struct ModifierMasks: Hashable, Sendable {
    public var depressed: UInt32
    public var latched: UInt32
    public var locked: UInt32
    public var group: UInt32
    public init(depressed: UInt32 = 0, latched: UInt32 = 0, locked: UInt32 = 0, group: UInt32 = 0) {
        self.depressed = depressed
        self.latched = latched
        self.locked = locked
        self.group = group
    }
}

/// A key event at a responder. `keysym`, `text` and `modifiers` come from the router's
/// ``KeyInterpreter`` (SeatKitXKB provides one); without one they are 0, "" and empty.
public struct KeyEvent {
    public var time: Timestamp
    public var device: DeviceID
    /// evdev code (KEY_A is 30); add 8 for an XKB keycode.
    public var keycode: UInt32
    public var state: KeyState
    /// The keysym the key produces now, with the current modifiers and layout.
    public var keysym: UInt32
    /// The keysym in the first layout with no modifiers applied: for layout-independent
    /// key commands.
    public var baseKeysym: UInt32
    /// UTF-8 text the key produces (empty for modifiers, function keys and releases).
    public var text: String
    /// Modifiers in effect for this key.
    public var modifiers: KeyModifiers
    /// The serialized modifier state after this key.
    public var modifierMasks: ModifierMasks
    /// A release the router made up because the press can no longer be released normally
    /// (the first responder's surface was removed, a keyboard grab began): the key is still
    /// physically down, and its real release will not be delivered.
    public var isCancelled = false

    public init(time: Timestamp, device: DeviceID = DeviceID(0), keycode: UInt32, state: KeyState,
                keysym: UInt32 = 0, baseKeysym: UInt32 = 0, text: String = "",
                modifiers: KeyModifiers = [], modifierMasks: ModifierMasks = ModifierMasks()) {
        self.time = time
        self.device = device
        self.keycode = keycode
        self.state = state
        self.keysym = keysym
        self.baseKeysym = baseKeysym
        self.text = text
        self.modifiers = modifiers
        self.modifierMasks = modifierMasks
    }
}

/// A named action (UIKit's selector): "copy", "close-window", "admin-menu".
public struct Action: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public var name: String
    public init(_ name: String) { self.name = name }
    public init(stringLiteral value: String) { self.name = value }
    public var description: String { name }
}

/// A key combination a responder declares, like `UIKeyCommand`: when a key press walking the
/// chain reaches the responder and matches, the router performs `action` on that responder
/// instead of calling `keyDown`, and swallows the key's release.
public struct KeyCommand: Hashable, Sendable {
    public enum Matching: Hashable, Sendable {
        /// Compare with the keysym the key produces now (Ctrl+Z is where the layout puts Z).
        case keysym
        /// Compare with the keysym of the first layout with no modifiers (Ctrl+Z stays on
        /// the same physical key whatever the active layout).
        case layoutIndependent
    }

    public var keysym: UInt32
    public var modifiers: KeyModifiers
    public var action: Action
    public var matching: Matching

    public init(keysym: UInt32, modifiers: KeyModifiers = [], action: Action, matching: Matching = .keysym) {
        self.keysym = keysym
        self.modifiers = modifiers
        self.action = action
        self.matching = matching
    }

    /// True when `event` is a press or repeat of this combination. Lock modifiers (Caps
    /// Lock, Num Lock) are ignored; Shift, Control, Alt, Logo and AltGr must be exactly the
    /// command's. Latin letters compare without case, so a command for `z` with
    /// `[.control, .shift]` matches Ctrl+Shift+Z (whose keysym is `Z`), and one for `z` with
    /// `[.control]` does not: undo and redo stay apart.
    public func matches(_ event: KeyEvent) -> Bool {
        guard event.state != .released else { return false }
        let sym = matching == .keysym ? event.keysym : event.baseKeysym
        guard KeyCommand.foldCase(sym) == KeyCommand.foldCase(keysym) else { return false }
        return event.modifiers.intersection(.commandRelevant) == modifiers.intersection(.commandRelevant)
    }

    /// Latin letters compare without case: Ctrl+Shift+z reports the keysym Z.
    private static func foldCase(_ sym: UInt32) -> UInt32 {
        (0x41...0x5a).contains(sym) ? sym + 0x20 : sym
    }
}

/// The handlers of one surface, output or compositor delegate.
///
/// Every handler has a default that answers ``ResponderResult/notHandled`` (or does
/// nothing), so a responder implements only what it takes; the router, not the responder,
/// passes an unhandled event to the next link of the chain: surface, parent surface, ...,
/// root surface, output, compositor delegate. A responder that wants an event handled *and*
/// seen further up returns `.notHandled`.
///
/// Locations in events are given in layout space and in the target surface's space; use
/// ``Surface/convert(_:)`` for any other surface.
///
/// Responders run on the event loop's thread and may change the tree, focus or their own
/// surface from inside any handler; the router re-checks everything after each call.
public protocol Responder: AnyObject {
    // Touch. A touch is delivered to the surface it went down on, until it ends or is
    // cancelled, even if the surface moves (re-parented, restacked, another output);
    // `touchesCancelled` reaches every responder that saw `touchesBegan`, `touchesMoved` or
    // `touchesEnded` for the touch, once, removed surfaces included, with all the touches of
    // one cancel that it saw in one event.
    func touchesBegan(_ event: TouchEvent, context: ResponderContext) -> ResponderResult
    func touchesMoved(_ event: TouchEvent, context: ResponderContext) -> ResponderResult
    func touchesEnded(_ event: TouchEvent, context: ResponderContext) -> ResponderResult
    func touchesCancelled(_ event: TouchEvent, context: ResponderContext)

    // Pointer. Enter and leave go to the focus surface's responder only and always pair up,
    // removal included (a removed focus hears a cancelled release of each held button, then
    // `pointerLeft`). A button event with `isCancelled` is such a made-up release.
    func pointerEntered(_ event: PointerCrossingEvent, context: ResponderContext)
    func pointerLeft(_ event: PointerCrossingEvent, context: ResponderContext)
    func pointerMoved(_ event: PointerMotionEvent, context: ResponderContext) -> ResponderResult
    func pointerButton(_ event: PointerButtonEvent, context: ResponderContext) -> ResponderResult
    func pointerAxis(_ event: PointerAxisEvent, context: ResponderContext) -> ResponderResult
    func touchpadGesture(_ event: TouchpadGestureEvent, context: ResponderContext) -> ResponderResult

    // Keyboard.
    func keyDown(_ event: KeyEvent, context: ResponderContext) -> ResponderResult
    func keyUp(_ event: KeyEvent, context: ResponderContext) -> ResponderResult
    /// Key combinations matched while a key press walks the chain through this responder.
    var keyCommands: [KeyCommand] { get }

    // Focus.
    /// Whether this responder's surface may become the first responder.
    var canBecomeFirstResponder: Bool { get }
    /// Whether the first responder lets focus go (an unsaved form may say no). Removal of
    /// the surface takes focus regardless (it then hears a cancelled `keyUp` for each key
    /// held, then `didResignFirstResponder`).
    var canResignFirstResponder: Bool { get }
    func didBecomeFirstResponder(context: ResponderContext)
    func didResignFirstResponder(context: ResponderContext)

    // Actions.
    func canPerform(_ action: Action) -> Bool
    /// Called only after ``canPerform(_:)`` said yes.
    func perform(_ action: Action, context: ResponderContext)

    // Chain and hit-testing.
    /// The link after this one. The default is the parent surface, the output after a root
    /// surface, the delegate after an output. Return another link to redirect unhandled
    /// events (a cycle is cut off and reported as a drop).
    func nextResponder(after defaultNext: ChainLink?) -> ChainLink?
    /// Narrows hit-testing of this responder's surface: called only for points (in the
    /// surface's space) already inside its bounds and input region. It can refuse a point,
    /// not add one, so bounding boxes stay valid. Default: accept.
    func refineHitTest(at point: SurfacePoint, in surface: Surface) -> Bool
}

extension Responder {
    public func touchesBegan(_ event: TouchEvent, context: ResponderContext) -> ResponderResult { .notHandled }
    public func touchesMoved(_ event: TouchEvent, context: ResponderContext) -> ResponderResult { .notHandled }
    public func touchesEnded(_ event: TouchEvent, context: ResponderContext) -> ResponderResult { .notHandled }
    public func touchesCancelled(_ event: TouchEvent, context: ResponderContext) {}
    public func pointerEntered(_ event: PointerCrossingEvent, context: ResponderContext) {}
    public func pointerLeft(_ event: PointerCrossingEvent, context: ResponderContext) {}
    public func pointerMoved(_ event: PointerMotionEvent, context: ResponderContext) -> ResponderResult { .notHandled }
    public func pointerButton(_ event: PointerButtonEvent, context: ResponderContext) -> ResponderResult { .notHandled }
    public func pointerAxis(_ event: PointerAxisEvent, context: ResponderContext) -> ResponderResult { .notHandled }
    public func touchpadGesture(_ event: TouchpadGestureEvent, context: ResponderContext) -> ResponderResult { .notHandled }
    public func keyDown(_ event: KeyEvent, context: ResponderContext) -> ResponderResult { .notHandled }
    public func keyUp(_ event: KeyEvent, context: ResponderContext) -> ResponderResult { .notHandled }
    public var keyCommands: [KeyCommand] { [] }
    public var canBecomeFirstResponder: Bool { false }
    public var canResignFirstResponder: Bool { true }
    public func didBecomeFirstResponder(context: ResponderContext) {}
    public func didResignFirstResponder(context: ResponderContext) {}
    public func canPerform(_ action: Action) -> Bool { false }
    public func perform(_ action: Action, context: ResponderContext) {}
    public func nextResponder(after defaultNext: ChainLink?) -> ChainLink? { defaultNext }
    public func refineHitTest(at point: SurfacePoint, in surface: Surface) -> Bool { true }
}

/// A responder that handles nothing: every event walks on to the next link.
public final class PassThroughResponder: Responder {
    public init() {}
}
