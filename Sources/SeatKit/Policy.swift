/// What a filter decides about an event.
public enum FilterDecision: Sendable, Hashable {
    /// Let the event go on to the next filter and then to routing.
    case pass
    /// Take the event: no later filter, grab, recognizer or responder sees it (spies do, told
    /// it was consumed). Taking a key press
    /// takes its repeats and release; taking a touch down takes the whole touch.
    case consume
}

/// Compositor-wide policy that sees input before grabs and routing and may take it: a lock
/// screen, a global shortcut, swallowing the touch that wakes the screen. Filters run in the
/// order they were added; the first to consume wins. They see whole touch sequences (down,
/// motion, up, cancel; frames are not asked): taking a touch mid-way cancels it for the
/// responders and recognizers that saw it, and the events of a taken touch are still shown
/// to the filters. The release of a key or button whose press was delivered is shown to
/// them but always delivered: taking it would leave the key or button stuck at the client.
/// Key repeats made by a key repeater (``Router/deliverKey(_:)``) skip them. A filter is
/// asked only about the kinds of events in its ``filteredKinds`` (all by default).
public protocol InputFilter: AnyObject {
    /// Each event of a kind in ``filteredKinds`` as it enters the router through
    /// ``Router/inject(_:)`` (a key as its raw
    /// keycode event), except touch frames, device announcements (added, removed), malformed
    /// events the router ignores (non-finite points, a touch ID already down), and the
    /// releases of keys and buttons whose presses were taken. Key repeats from a key repeater
    /// (``Router/deliverKey(_:)``) and events a grab forwards (`route…`) are not asked again.
    func filter(_ event: InputEvent, router: Router) -> FilterDecision
    /// Key presses and repeats after the key interpreter has filled in keysym, text and
    /// modifiers: where global shortcuts belong, when ``filteredKinds`` holds
    /// ``InputEventKinds/key``. Releases are not asked: a release follows its press.
    func filterKey(_ event: KeyEvent, router: Router) -> FilterDecision
    /// True when a key press this filter takes never happened as far as the keyboard is
    /// concerned (slow keys holding or rejecting it, bounce keys ignoring it): the router then
    /// tells the key interpreter the key was released at once, so the press changes no
    /// modifiers and starts no repeat, until the filter routes it (slow keys accepting it).
    /// False (the default): a press the filter takes
    /// for itself (a shortcut) still counts in the keyboard's state, so a modifier it takes
    /// keeps applying to later keys and the key repeats (spies hear the repeats consumed).
    var discardsTakenKeyPresses: Bool { get }
    /// The kinds of events the filter acts on; the router asks it about no other kind (no
    /// call at all: a filter that wants a few kinds costs the others nothing), keeping the
    /// order of the filters among those it asks. Default: ``InputEventKinds/all``.
    ///
    /// What the router asks about each kind, for a filter that declares it:
    /// - ``InputEventKinds/key``: raw key presses, repeats and releases through
    ///   ``filter(_:router:)`` and the interpreted presses and repeats through
    ///   ``filterKey(_:router:)``, both (`.key` is the one kind of both calls). A filter
    ///   without `.key` is asked neither.
    /// - Touch down, motion, up and cancel, pointer motion (relative and absolute, each its
    ///   own kind), buttons and axis, touchpad gestures (swipe, pinch, hold), switches,
    ///   tablet events and unknown events: through ``filter(_:router:)``.
    /// - Never asked, whatever the declaration (as for every filter): touch frames, device
    ///   announcements (added, removed), malformed events, the releases of keys and buttons
    ///   whose presses were taken, key repeats from a key repeater, and what a grab forwards.
    ///
    /// Declaring a touch's down without its motion, up and cancel means the filter is not
    /// asked about the rest of a touch (it cannot take it mid-way); declaring the motion
    /// without the down, that it is asked about the motion of touches it never saw begin.
    ///
    /// The router reads it when the filter is added (``Router/addFilter(_:)``) and when told
    /// it changed (``Router/filteredKindsChanged(_:)``), never per event.
    var filteredKinds: InputEventKinds { get }
}

extension InputFilter {
    /// False: a taken press still counts in the keyboard's state.
    public var discardsTakenKeyPresses: Bool { false }
    /// Every kind.
    public var filteredKinds: InputEventKinds { .all }
    /// Passes every event: a filter that only takes shortcuts implements
    /// ``filterKey(_:router:)`` alone.
    public func filter(_ event: InputEvent, router: Router) -> FilterDecision { .pass }
    /// Passes every key.
    public func filterKey(_ event: KeyEvent, router: Router) -> FilterDecision { .pass }
}

/// Sees each event given to ``Router/inject(_:)`` once, after the filters and before grabs
/// and routing, whether or not a filter consumed it, and cannot change anything about its
/// routing: idle tracking, on-screen display of keys, statistics. Touch frames, device
/// announcements and malformed events are shown too; key repeats from a key repeater
/// (``Router/deliverKey(_:)``) and what a grab forwards or sends are not. A spy sees only the
/// kinds of events in its ``observedKinds`` (all by default).
public protocol InputSpy: AnyObject {
    /// One injected event, of a kind in ``observedKinds``. `consumed` is true when a filter
    /// took it, when it belongs to a key, button or touch taken earlier (by a filter, a key
    /// command, or the removal of the surface that had it), or when the router ignored it as
    /// malformed.
    func observe(_ event: InputEvent, consumed: Bool, router: Router)
    /// The kinds of events ``observe(_:consumed:router:)`` is called for; the router reads
    /// it once, when the spy is added (``Router/addSpy(_:)``), and calls the spy for no other
    /// kind (no call at all: a spy that wants a few kinds costs the others nothing). To
    /// change it, remove the spy and add it again. Default: ``InputEventKinds/all``.
    var observedKinds: InputEventKinds { get }
}

extension InputSpy {
    /// Every kind.
    public var observedKinds: InputEventKinds { .all }
}

/// Turns evdev keycodes into keysyms, text and modifiers, keeping the keyboard's state.
/// SeatKitXKB implements it over xkbcommon; the core stays free of C.
public protocol KeyInterpreter: AnyObject {
    /// Updates the keyboard state with the key and fills in `keysym`, `baseKeysym`, `text`,
    /// `modifiers` and `modifierMasks`. Called once for every key event the router receives,
    /// consumed or not, so the state never drifts from the hardware, before any filter sees
    /// it. One exception: when a filter whose ``InputFilter/discardsTakenKeyPresses`` is true
    /// (slow keys, bounce keys) takes a press, the router calls ``discardPress(_:)`` at once,
    /// so the press leaves no state behind, and passes nothing more of that key (repeats,
    /// release) unless a filter routes the press later (slow keys accepting it), when it
    /// calls ``restorePress(_:)``.
    func interpret(_ event: inout KeyEvent)
    /// Called when `router` stops using this interpreter: another took its place, or the
    /// router is being deinitialized. An interpreter that keeps an unowned reference to its
    /// router drops it here. Default: nothing.
    func detached(from router: Router)
    /// Sets the modifiers held on by sticky keys (``StickyKeys``), on top of what held keys
    /// set: `latched` apply until the next key that is not a modifier, `locked` until
    /// changed again (`wl_keyboard.modifiers` carries them as latched and locked). Returns
    /// the serialized state after, or `nil` when this interpreter keeps no such state
    /// (the default): sticky keys then change nothing clients see.
    func setStickyModifiers(latched: KeyModifiers, locked: KeyModifiers) -> ModifierMasks?
    /// The press in `event`, interpreted before any filter, never happened after all: a
    /// filter whose ``InputFilter/discardsTakenKeyPresses`` is true took it. Default:
    /// interprets the key's release.
    func discardPress(_ event: KeyEvent)
    /// A discarded press counts after all (slow keys accepted it), at `event.time`: takes the
    /// key into the state again and fills in `event` as for a press, with the modifiers of
    /// now. Default: interprets the press again.
    func restorePress(_ event: inout KeyEvent)
}

extension KeyInterpreter {
    /// Does nothing.
    public func detached(from router: Router) {}
    /// Keeps no sticky modifiers: returns `nil`.
    public func setStickyModifiers(latched: KeyModifiers, locked: KeyModifiers) -> ModifierMasks? { nil }
    /// Interprets the key's release.
    public func discardPress(_ event: KeyEvent) {
        var release = KeyEvent(time: event.time, device: event.device, keycode: event.keycode, state: .released)
        interpret(&release)
    }
    /// Interprets the press again.
    public func restorePress(_ event: inout KeyEvent) {
        var press = KeyEvent(time: event.time, device: event.device, keycode: event.keycode, state: .pressed)
        interpret(&press)
        event = press
    }
}

/// Calls a key interpreter through a class the router knows, made once per interpreter: a
/// call through `any KeyInterpreter` loaded from the router retains and releases the
/// interpreter around every key (an atomic pair, the price of a third of xkbcommon's work per
/// key), while a vtable call on an unretained, router-owned object costs neither.
class KeyInterpreterCall {
    static func make<Interpreter: KeyInterpreter>(_ interpreter: Interpreter) -> KeyInterpreterCall {
        TypedKeyInterpreterCall(interpreter)
    }

    func interpret(_ event: inout KeyEvent) {
        preconditionFailure("KeyInterpreterCall is abstract")
    }

    func discardPress(_ event: KeyEvent) {
        preconditionFailure("KeyInterpreterCall is abstract")
    }

    func restorePress(_ event: inout KeyEvent) {
        preconditionFailure("KeyInterpreterCall is abstract")
    }
}

private final class TypedKeyInterpreterCall<Interpreter: KeyInterpreter>: KeyInterpreterCall {
    let interpreter: Interpreter

    init(_ interpreter: Interpreter) { self.interpreter = interpreter }

    override func interpret(_ event: inout KeyEvent) { interpreter.interpret(&event) }
    override func discardPress(_ event: KeyEvent) { interpreter.discardPress(event) }
    override func restorePress(_ event: inout KeyEvent) { interpreter.restorePress(&event) }
}

/// An event that reached the end of its chain with nobody handling it.
public enum DroppedEvent {
    /// Touches went down and no link of their surface's chain handled `touchesBegan`.
    case touchesBegan(TouchEvent)
    /// Nobody handled `touchesMoved`.
    case touchesMoved(TouchEvent)
    /// Nobody handled `touchesEnded`.
    case touchesEnded(TouchEvent)
    /// Nobody handled the pointer motion (also when there is no pointer focus).
    case pointerMotion(PointerMotionEvent)
    /// Nobody handled the button.
    case pointerButton(PointerButtonEvent)
    /// Nobody handled the scrolling.
    case pointerAxis(PointerAxisEvent)
    /// Nobody handled the touchpad gesture phase (recognizers did not take it either).
    case touchpadGesture(TouchpadGestureEvent)
    /// Nobody handled the key press or repeat, and no key command matched.
    case keyDown(KeyEvent)
    /// Nobody handled the key release.
    case keyUp(KeyEvent)
    /// ``Router/sendAction(_:to:)`` found nobody that can perform the action.
    case action(Action)

    /// The handler kind that went unhandled, as the trace's `dropped` record names it: its
    /// `rawValue` is also the name the C API's `dropped` callback gets.
    public var kind: RoutedEventKind {
        switch self {
        case .touchesBegan: .touchesBegan
        case .touchesMoved: .touchesMoved
        case .touchesEnded: .touchesEnded
        case .pointerMotion: .pointerMoved
        case .pointerButton: .pointerButton
        case .pointerAxis: .pointerAxis
        case .touchpadGesture: .touchpadGesture
        case .keyDown: .keyDown
        case .keyUp: .keyUp
        case .action: .action
        }
    }
}

/// The compositor: the last responder of every chain, and the one who decides what the
/// router cannot decide alone. Every method has a default.
public protocol CompositorDelegate: Responder {
    /// An event that no responder handled, the delegate's own responder methods included.
    func router(_ router: Router, dropped event: DroppedEvent)
    /// Chooses the next first responder when the first responder's surface is removed: the
    /// compositor's rule, asked first, after the removed responder resigned (`nil`: no first
    /// responder). `formerParent` is the removed subtree's former parent. Default:
    /// ``Router/defaultFirstResponder(afterRemoving:formerParent:)``, focus history (the most
    /// recent former first responder that can take focus again), else the nearest attached
    /// ancestor, from `formerParent` up, that can become first responder. A rule of your own
    /// can call that default for the cases it does not decide.
    func router(_ router: Router, firstResponderAfterRemoving removed: Surface, formerParent: Surface) -> Surface?
    /// Events that do not go through a responder chain: switches, tablet tools and pads
    /// (after filters and spies; not told when a filter consumed one), and device
    /// announcements (after ``Router/devices`` and ``Router/capabilities`` were updated).
    func router(_ router: Router, deviceEvent event: InputEvent)
    /// The union of the present devices' capabilities changed.
    func router(_ router: Router, capabilitiesChanged capabilities: DeviceCapabilities)
}

extension CompositorDelegate {
    /// Does nothing: dropped events are lost (the trace still records them).
    public func router(_ router: Router, dropped event: DroppedEvent) {}
    /// ``Router/defaultFirstResponder(afterRemoving:formerParent:)``: focus history, else the
    /// nearest ancestor from `formerParent` up that can become first responder.
    public func router(_ router: Router, firstResponderAfterRemoving removed: Surface, formerParent: Surface) -> Surface? {
        router.defaultFirstResponder(afterRemoving: removed, formerParent: formerParent)
    }
    /// Does nothing: switches and tablet events are lost.
    public func router(_ router: Router, deviceEvent event: InputEvent) {}
    /// Does nothing.
    public func router(_ router: Router, capabilitiesChanged capabilities: DeviceCapabilities) {}
}

/// Told when the router has finished delivering touch events: after each device frame, and
/// after touches held by recognizers were released (a timer, a cancel) outside a frame. A
/// Wayland seat sends `wl_touch.frame` to the clients that got touch events here.
public protocol TouchFrameObserver: AnyObject {
    /// The touch events of one frame (or one release of held touches) are all delivered.
    func routerDidFinishTouchFrame(_ router: Router)
}
