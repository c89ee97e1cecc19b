/// A responder's answer to an event.
public enum ResponderResult: Sendable, Hashable {
    /// The responder took the event; it goes no further.
    case handled
    /// The router moves the event to the next responder in the chain.
    case notHandled
}

/// One link of a responder chain.
public enum ChainLink {
    /// A surface's responder.
    case surface(Surface)
    /// An output's responder: after the output's root surface, before the delegate.
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

extension ChainLink {
    /// The object behind the link (`nil` for the delegate): surfaces and outputs are
    /// distinct objects, so this tells links apart.
    @inline(__always)
    var identity: ObjectIdentifier? {
        switch self {
        case .surface(let s): return ObjectIdentifier(s)
        case .output(let o): return ObjectIdentifier(o)
        case .delegate: return nil
        }
    }
}

extension ChainLink: CustomStringConvertible {
    /// The surface's name, "output NAME", or "delegate".
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
/// Inside, it refers to the router, the link and the target without owning them, because an
/// owning reference cost an atomic increment and decrement per responder asked. That is safe
/// because the router keeps each of them alive for the whole call (a strong reference held
/// by the delivery; for the first responder, the router's own reference and the list that
/// keeps a replaced one until the delivery ends), and the context cannot outlive the call.
public struct ResponderContext: ~Escapable {
    private let routerLink: Unretained<Router>
    private let linkSurface: Unretained<Surface>?
    private let linkOutput: Unretained<Output>?
    /// Public under the SPI `SeatKitInternals` only so that `targetIdentity` can be inlined
    /// into the C API (inlinable code may read no internal stored property of an SPI type).
    @_spi(SeatKitInternals) public let targetSurface: Unretained<Surface>?

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

    /// The asked link's surface and output, unretained (`nil` both: the delegate): for
    /// ``TouchSequence/noteSeen(surface:output:)``, which makes the link's ``ChainLink`` only
    /// when it lists it (``link`` makes one, a retain, each time it is read).
    @inline(__always)
    var linkParts: (surface: Unretained<Surface>?, output: Unretained<Output>?) { (linkSurface, linkOutput) }

    /// The context for asking `output`'s responder.
    @inline(__always) @_lifetime(immortal)
    init(router: Router, output: Output, target: Surface?) {
        routerLink = Unretained(router)
        linkSurface = nil
        linkOutput = Unretained(output)
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

    /// The identity of the link being asked (`nil` for the delegate), without retaining it:
    /// what the touch path compares with the links that saw a touch begin.
    @inline(__always)
    var linkIdentity: ObjectIdentifier? { linkSurface?.identity ?? linkOutput?.identity }

    /// The target's identity, without retaining it (a lookup key for adapters, such as the C
    /// API's handle table, that must not pay a retain and release per responder asked).
    /// Public under the SPI `SeatKitInternals` and inlinable, not `package`: Swift 6.3 does not
    /// inline a `package` member into another module, and the C API asks it for every C
    /// responder a walk reaches (a call each; see docs/BENCHMARKS.md, the C API section).
    @_spi(SeatKitInternals) @inlinable @inline(__always)
    public var targetIdentity: ObjectIdentifier? { targetSurface?.identity }
}

/// One finger in a touch event.
public struct TouchPoint: Sendable, Hashable {
    /// Which finger (its seat slot).
    public var id: TouchID
    /// The touchscreen it is on.
    public var device: DeviceID
    /// Where the finger is, in layout space.
    public var location: LayoutPoint
    /// Where the finger is in the space of the surface the touch is bound to (which may be
    /// outside it: a touch stays with its surface after leaving it).
    public var surfaceLocation: SurfacePoint
    /// Where and when the finger went down.
    public var startLocation: LayoutPoint
    /// When the finger went down (the down's device time).
    public var startTime: Timestamp

    /// A touch point; `location` and `startLocation` in layout space, `surfaceLocation` in the
    /// bound surface's space. For tests and for recognizers fed by hand.
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
    /// The time of the device frame that carried these changes (the router's clock for a
    /// cancel).
    public var time: Timestamp
    /// The touches of this phase bound to one surface. Their `surfaceLocation` is in the bound
    /// (target) surface's space, also when the event is asked of an ancestor, output or the
    /// delegate up the chain.
    public var touches: [TouchPoint]
}

/// The pointer crossed into or out of a surface.
public struct PointerCrossingEvent {
    /// When the pointer crossed (the event that moved it or the edit that moved focus).
    public var time: Timestamp
    /// Pointer position in layout space.
    public var location: LayoutPoint
    /// Pointer position in the surface's space.
    public var surfaceLocation: SurfacePoint
}

/// Pointer motion over the focus surface.
public struct PointerMotionEvent {
    /// When the device produced the motion (the router's clock for a motion made up after an edit).
    public var time: Timestamp
    /// The pointing device (`DeviceID(0)` for a motion the router made up after an edit).
    public var device: DeviceID
    /// New position in layout space.
    public var location: LayoutPoint
    /// New position in the target surface's space (the pointer focus, or the surface given to
    /// ``Router/sendPointerMotion(_:to:)``; zero without one), also when asked of an ancestor
    /// up the chain; outside the surface during an implicit grab.
    public var surfaceLocation: SurfacePoint
    /// The motion that produced it, accelerated, in logical units: for absolute motion the
    /// displacement from the previous position (after clamping to the layout); zero for the
    /// motion the router makes up when an edit moves the focus under a still pointer.
    public var delta: Vector
    /// The same relative motion before pointer acceleration (zero for absolute motion).
    public var unacceleratedDelta: Vector
}

/// A pointer button press or release.
public struct PointerButtonEvent {
    /// When the button changed (the router's clock for a made-up cancelled release).
    public var time: Timestamp
    /// The pointing device (`DeviceID(0)` for a made-up cancelled release).
    public var device: DeviceID
    /// evdev code: BTN_LEFT is 0x110, BTN_RIGHT 0x111, BTN_MIDDLE 0x112.
    public var button: UInt32
    /// Pressed or released.
    public var state: ButtonState
    /// Pointer position in layout space.
    public var location: LayoutPoint
    /// Pointer position in the target surface's space (the pointer focus, or the surface given
    /// to ``Router/sendPointerButton(_:to:)``; zero without one), also when asked of an
    /// ancestor up the chain. During an implicit grab it may lie outside the surface.
    public var surfaceLocation: SurfacePoint
    /// A release the router made up because the press can no longer be released normally
    /// (the surface was removed, a grab took the pointer): the button is still physically
    /// down, and its real release will not be delivered.
    public var isCancelled = false
}

/// Scrolling.
public struct PointerAxisEvent {
    /// When the device produced the scroll.
    public var time: Timestamp
    /// The scrolling device.
    public var device: DeviceID
    /// How far and how, on both axes (logical units and v120 wheel steps).
    public var motion: AxisMotion
    /// Pointer position in layout space.
    public var location: LayoutPoint
    /// Pointer position in the target surface's space (the pointer focus, or the surface given
    /// to ``Router/sendPointerAxis(_:to:)``; zero without one), also when asked of an ancestor
    /// up the chain.
    public var surfaceLocation: SurfacePoint
}

/// A touchpad gesture delivered to the pointer focus.
public struct TouchpadGestureEvent {
    /// When the touchpad produced the gesture phase.
    public var time: Timestamp
    /// The touchpad.
    public var device: DeviceID
    /// Kind, phase, finger count and motion, as libinput reports them.
    public var gesture: TouchpadGesture
    /// Pointer position in layout space (a touchpad gesture happens where the pointer is).
    public var location: LayoutPoint
    /// Pointer position in the pointer focus's space (zero without a focus).
    public var surfaceLocation: SurfacePoint
}

/// Modifier keys, independent of the keymap's encoding.
public struct KeyModifiers: OptionSet, Hashable, Sendable, CustomStringConvertible {
    /// The modifier bits, one per static member below (bit 5 is unused).
    public var rawValue: UInt32
    /// Modifiers from their bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Shift.
    public static let shift = KeyModifiers(rawValue: 1 << 0)
    /// Caps Lock (a lock modifier: key commands ignore it).
    public static let capsLock = KeyModifiers(rawValue: 1 << 1)
    /// Control.
    public static let control = KeyModifiers(rawValue: 1 << 2)
    /// Alt (Mod1).
    public static let alt = KeyModifiers(rawValue: 1 << 3)
    /// Num Lock (a lock modifier: key commands ignore it).
    public static let numLock = KeyModifiers(rawValue: 1 << 4)
    /// The logo ("Super", "Windows") key (Mod4).
    public static let logo = KeyModifiers(rawValue: 1 << 6)
    /// AltGr (ISO_Level3_Shift, usually Mod5).
    public static let altGr = KeyModifiers(rawValue: 1 << 7)

    /// The modifiers that key commands compare; lock modifiers are ignored.
    public static let commandRelevant: KeyModifiers = [.shift, .control, .alt, .logo, .altGr]

    /// The modifier names joined with "+", e.g. "Ctrl+Shift".
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
    /// Modifiers held down, in the keymap's modifier bits (`xkb_state_serialize_mods` depressed).
    public var depressed: UInt32
    /// Modifiers latched (sticky keys), in the keymap's bits.
    public var latched: UInt32
    /// Modifiers locked (Caps Lock, Num Lock), in the keymap's bits.
    public var locked: UInt32
    /// The active layout: the effective layout index (`xkb_state_serialize_layout`).
    public var group: UInt32
    /// The masks as given; all zero by default (no keymap).
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
    /// When the key changed (the router's clock for a made-up cancelled release).
    public var time: Timestamp
    /// The keyboard (`DeviceID(0)` for made-up releases).
    public var device: DeviceID
    /// evdev code (KEY_A is 30); add 8 for an XKB keycode.
    public var keycode: UInt32
    /// Pressed, repeated or released.
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
    /// For a made-up release (`isCancelled`): whether the responder stays first responder
    /// after it. True when a keyboard grab that keeps focus began
    /// (``KeyboardGrabFocus/keep``), or a grab kept the real release of a press it forwarded:
    /// a client is sent the release (`wl_keyboard.key` released). False when the responder
    /// resigns right after (its surface was removed, a grab cleared focus): a client's
    /// `wl_keyboard.leave` ends the key.
    public var keepsFocus = false

    /// A key event as a key repeater or a test builds it; the interpreted fields default to
    /// "nothing interpreted" (0, "", no modifiers).
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
    /// The action's name; actions compare by it.
    public var name: String
    /// The action named `name`.
    public init(_ name: String) { self.name = name }
    /// An action from a literal: `let copy: Action = "copy"`.
    public init(stringLiteral value: String) { self.name = value }
    /// The action's name.
    public var description: String { name }
}

/// A key combination a responder declares, like `UIKeyCommand`: when a key press walking the
/// chain reaches the responder and matches, the router performs `action` on that responder
/// instead of calling `keyDown`, and swallows the key's release.
public struct KeyCommand: Hashable, Sendable {
    /// Which keysym of the event a command compares with its own.
    public enum Matching: Hashable, Sendable {
        /// Compare with the keysym the key produces now (Ctrl+Z is where the layout puts Z).
        case keysym
        /// Compare with the keysym of the first layout with no modifiers (Ctrl+Z stays on
        /// the same physical key whatever the active layout).
        case layoutIndependent
    }

    /// The keysym to match (for a letter, either case: see ``matches(_:)``).
    public var keysym: UInt32
    /// The modifiers that must be held, exactly (lock modifiers ignored).
    public var modifiers: KeyModifiers
    /// What the responder that declares the command is asked to ``Responder/perform(_:context:)``.
    public var action: Action
    /// Compare with the current keysym or the layout-independent one.
    public var matching: Matching

    /// A command for `keysym` with exactly `modifiers`.
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
    // cancelled, even if the surface moves (re-parented, restacked, another output). A
    // responder that got a touch's `touchesBegan` gets exactly one end of it, `touchesEnded`
    // or `touchesCancelled`; one that did not gets none of its later phases.
    // `touchesCancelled` reaches every responder that saw `touchesBegan` and was not told the
    // end yet, once, removed surfaces included, with all the touches of one cancel bound to
    // one surface (its `context.target`) in one event.
    /// Fingers went down on the target surface. Asked up the chain from the bound surface until
    /// one answers `.handled`; the recognizers of the touch's arena saw the phase first and may
    /// hold it back (delayed, or dropped if one takes the touch). Default: `.notHandled`.
    func touchesBegan(_ event: TouchEvent, context: ResponderContext) -> ResponderResult
    /// Fingers bound to the target surface moved, or the surface moved under them
    /// (``Router/refreshTouchLocations(time:)``): `surfaceLocation` is in the surface's space
    /// as it is now. Each phase walks the chain afresh from the bound surface, handling
    /// `touchesBegan` does not claim later phases, but only the responders that got the
    /// touch's `touchesBegan` are asked (with those of the event's touches they got).
    /// Default: `.notHandled`.
    func touchesMoved(_ event: TouchEvent, context: ResponderContext) -> ResponderResult
    /// Fingers bound to the target surface lifted. Asked as `touchesMoved` is; the responders
    /// that got `touchesBegan` and are not reached (one before them handled the end, or they
    /// left the surface's chain meanwhile) are told `touchesCancelled` instead.
    /// Default: `.notHandled`.
    func touchesEnded(_ event: TouchEvent, context: ResponderContext) -> ResponderResult
    /// The touches in `event` will get no more events: told once to every link that saw one of
    /// them (not walked up the chain), whatever it answered. Default: nothing; a responder
    /// tracking touches must drop them here or keep stale state.
    func touchesCancelled(_ event: TouchEvent, context: ResponderContext)

    // Pointer. Enter and leave go to the focus surface's responder only and always pair up,
    // removal included (a removed focus hears a cancelled release of each held button, then
    // `pointerLeft`). A button event with `isCancelled` is such a made-up release.
    /// The pointer focus became this responder's surface; `event.surfaceLocation` is in its
    /// space. Told to the focus surface only, not up the chain. Default: nothing.
    func pointerEntered(_ event: PointerCrossingEvent, context: ResponderContext)
    /// The pointer focus left this surface (moved away, a pointer grab started, or the surface
    /// was removed). Always follows a `pointerEntered`; told to that surface only. Default:
    /// nothing.
    func pointerLeft(_ event: PointerCrossingEvent, context: ResponderContext)
    /// The pointer moved over the focus (or, during an implicit grab, anywhere). Asked up the
    /// chain from the focus. Default: `.notHandled` (the next link is asked).
    func pointerMoved(_ event: PointerMotionEvent, context: ResponderContext) -> ResponderResult
    /// A button of the pointer changed, at the focus; asked up the chain. The pointer
    /// recognizers of the focus's subtree see it first and may take the press (then neither
    /// it nor its motion reaches responders). Default: `.notHandled`.
    func pointerButton(_ event: PointerButtonEvent, context: ResponderContext) -> ResponderResult
    /// Scrolling at the focus; asked up the chain. Default: `.notHandled`.
    func pointerAxis(_ event: PointerAxisEvent, context: ResponderContext) -> ResponderResult
    /// A touchpad gesture phase at the pointer focus, after touchpad recognizers let it
    /// through; asked up the chain. Default: `.notHandled`.
    func touchpadGesture(_ event: TouchpadGestureEvent, context: ResponderContext) -> ResponderResult

    // Pen (tablet tools); see PenInput.swift.
    /// A pen came into proximity over this surface or hovered onto it; told to the surface
    /// only (not up the chain). Default: nothing.
    func penEntered(_ event: PenEvent, context: ResponderContext)
    /// The pen hovered off this surface, left proximity, or the surface left the tree; told to
    /// the surface only. Default: nothing.
    func penLeft(_ event: PenEvent, context: ResponderContext)
    /// Hover motion over the surface, or stroke motion of a pen bound to it
    /// (`event.isInContact`); every axis with it. Asked up the chain. Default: `.notHandled`.
    func penMoved(_ event: PenEvent, context: ResponderContext) -> ResponderResult
    /// The tip touched: the stroke is bound to the hit-test surface until the up. Asked up
    /// the chain. Default: `.notHandled`.
    func penDown(_ event: PenEvent, context: ResponderContext) -> ResponderResult
    /// The tip lifted (or the stroke was cancelled: `event.isCancelled`). Asked up the chain;
    /// the responder that handled the down hears the up even when the walk ends before it
    /// (a surface moved between them handled it). A stroke that stops short (its surface
    /// removed or moved away from the responder, the responder removed, a pen grab, a
    /// recognizer taking it) is told as a cancelled up to the stroke's surface and to the
    /// responder that handled its down, once each, not up the chain. Default: `.notHandled`.
    func penUp(_ event: PenEvent, context: ResponderContext) -> ResponderResult
    /// A pen button, at the pen's target; asked up the chain. Default: `.notHandled`.
    func penButton(_ event: PenButtonEvent, context: ResponderContext) -> ResponderResult

    // Keyboard.
    /// A key press or repeat, asked up the chain from the first responder. At each link the
    /// link's ``keyCommands`` are matched first: a match performs its action instead, and
    /// the key goes no further. Default: `.notHandled`.
    func keyDown(_ event: KeyEvent, context: ResponderContext) -> ResponderResult
    /// A key release (`isCancelled` for a made-up one), asked up the chain from the first
    /// responder. Default: `.notHandled`.
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
    /// This responder's surface is now the first responder. Default: nothing.
    func didBecomeFirstResponder(context: ResponderContext)
    /// This responder's surface stopped being the first responder (focus moved, or the surface
    /// was removed). Always follows a `didBecomeFirstResponder`. Default: nothing.
    func didResignFirstResponder(context: ResponderContext)

    // Actions.
    /// Whether this responder performs `action`; ``Router/sendAction(_:to:)`` without a target
    /// walks the chain to the first that says yes. Default: false.
    func canPerform(_ action: Action) -> Bool
    /// Called only after ``canPerform(_:)`` said yes.
    func perform(_ action: Action, context: ResponderContext)

    // Chain and hit-testing.
    /// The link after this one. The default is the parent surface, the output after a root
    /// surface, the delegate after an output. Return another link to redirect unhandled
    /// events (a cycle is cut off and reported as a drop). `defaultNext` is handed over
    /// (`__owned`): returning it, as the default does, costs no retain.
    func nextResponder(after defaultNext: __owned ChainLink?) -> ChainLink?
    /// Narrows hit-testing of this responder's surface: called only for points (in the
    /// surface's space) already inside its bounds and input region. It can refuse a point,
    /// not add one, so bounding boxes stay valid. Default: accept.
    func refineHitTest(at point: SurfacePoint, in surface: Surface) -> Bool
}

extension Responder {
    /// Answers `.notHandled`: the touch goes on to the next link.
    public func touchesBegan(_ event: TouchEvent, context: ResponderContext) -> ResponderResult { .notHandled }
    /// Answers `.notHandled`.
    public func touchesMoved(_ event: TouchEvent, context: ResponderContext) -> ResponderResult { .notHandled }
    /// Answers `.notHandled`.
    public func touchesEnded(_ event: TouchEvent, context: ResponderContext) -> ResponderResult { .notHandled }
    /// Does nothing.
    public func touchesCancelled(_ event: TouchEvent, context: ResponderContext) {}
    /// Does nothing.
    public func pointerEntered(_ event: PointerCrossingEvent, context: ResponderContext) {}
    /// Does nothing.
    public func pointerLeft(_ event: PointerCrossingEvent, context: ResponderContext) {}
    /// Answers `.notHandled`: the motion goes on to the next link.
    public func pointerMoved(_ event: PointerMotionEvent, context: ResponderContext) -> ResponderResult { .notHandled }
    /// Answers `.notHandled`.
    public func pointerButton(_ event: PointerButtonEvent, context: ResponderContext) -> ResponderResult { .notHandled }
    /// Answers `.notHandled`.
    public func pointerAxis(_ event: PointerAxisEvent, context: ResponderContext) -> ResponderResult { .notHandled }
    /// Answers `.notHandled`.
    public func touchpadGesture(_ event: TouchpadGestureEvent, context: ResponderContext) -> ResponderResult { .notHandled }
    /// Answers `.notHandled`: the key goes on to the next link.
    public func keyDown(_ event: KeyEvent, context: ResponderContext) -> ResponderResult { .notHandled }
    /// Answers `.notHandled`.
    public func keyUp(_ event: KeyEvent, context: ResponderContext) -> ResponderResult { .notHandled }
    /// None.
    public var keyCommands: [KeyCommand] { [] }
    /// False: a responder must opt in to keyboard focus.
    public var canBecomeFirstResponder: Bool { false }
    /// True: focus may always move away.
    public var canResignFirstResponder: Bool { true }
    /// Does nothing.
    public func didBecomeFirstResponder(context: ResponderContext) {}
    /// Does nothing.
    public func didResignFirstResponder(context: ResponderContext) {}
    /// False: performs no action.
    public func canPerform(_ action: Action) -> Bool { false }
    /// Does nothing.
    public func perform(_ action: Action, context: ResponderContext) {}
    /// Returns `defaultNext`: parent surface, output, delegate. (It also notes, for the
    /// router, that this responder keeps the default: walks then follow the parent surface
    /// without calling it; `NextResponderProbe`.)
    public func nextResponder(after defaultNext: __owned ChainLink?) -> ChainLink? {
        NextResponderProbe.noteDefault(self)
        return defaultNext
    }
    /// Accepts every point of the bounds and input region. (It also notes, for the router,
    /// that this responder keeps the default: hit-tests then accept for it without calling
    /// it; `RefineHitTestProbe`.)
    public func refineHitTest(at point: SurfacePoint, in surface: Surface) -> Bool {
        RefineHitTestProbe.noteDefault(self)
        return true
    }

    /// The default ``refineHitTest(at:in:)``'s answer, for a responder whose own
    /// implementation defers to it while it has nothing to refine with (the C API's, while its
    /// table has no `refine_hit_test`): like the default, it notes that this responder keeps
    /// the default, and hit-tests then accept for it without calling it, for as long as the
    /// surface keeps the same responder holder. Such a responder must therefore be set on its
    /// surface again (``Surface/responder``, which makes a new holder) whenever it may start
    /// refining.
    @_spi(SeatKitInternals) public func refineHitTestAsTheDefault() -> Bool {
        RefineHitTestProbe.noteDefault(self)
        return true
    }
}

/// A responder that handles nothing: every event walks on to the next link.
public final class PassThroughResponder: Responder {
    /// A responder that handles nothing.
    public init() {}
}
