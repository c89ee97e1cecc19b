/// Kiosk behaviours that are input routing, as small components any compositor (the Swift
/// kiosk, the C API's wlroots kiosk) adds to its router: the touch that wakes a blanked
/// screen is swallowed, a long press becomes a secondary click, the cursor hides on touch.

/// A filter that swallows the input that wakes a blanked screen: the whole touch (every
/// finger that goes down before the last of them lifts), or the pointer motion, button or
/// key that woke it (a taken press takes its release). Nothing of it reaches recognizers or
/// responders. Add it first, so that no other filter acts on the waking input.
public final class WakeTouchFilter: InputFilter, SwitchedFilter {
    /// Whether the screen is blanked. Set it (or call ``blank()``) when the compositor
    /// blanks the screen; the filter clears it on waking.
    public var isBlanked: Bool {
        get { unchecked.isBlanked }
        set {
            unchecked.isBlanked = newValue
            updateInterests()
        }
    }
    /// Called once per wake, before the waking event is swallowed: turn the panel on here.
    public var onWake: (() -> Void)? {
        get { unchecked.onWake }
        set { unchecked.onWake = newValue }
    }
    /// Fingers of the waking touch still down.
    public var wakingTouches: [TouchID] { unchecked.wakingTouches }

    /// The hot state, exempt from run-time exclusivity checks (the rules are in
    /// UnsafeFoundations.swift): the filter sees every event, and as public stored
    /// properties each read was a check (~76 instructions, measured in the kiosk). Private
    /// storage alone did not do: `onWake` is a call out, so the optimizer kept the checks.
    struct HotState {
        var isBlanked: Bool
        var onWake: (() -> Void)?
        var wakingTouches: [TouchID] = []
    }

    @exclusivity(unchecked) var unchecked: HotState
    /// What the router asks the filter about: nothing while the screen is on and no waking
    /// touch is down (most of a kiosk's life), so that its touches and pointer events skip
    /// the filter without a call (it passed them all; asked through `any InputFilter`, each
    /// touch motion cost the wlroots kiosk an asking of the filters, issue 24).
    let filterSwitch: FilterSwitch

    /// A filter; add it with ``Router/addFilter(_:)``, before any other.
    public init(isBlanked: Bool = false, onWake: (() -> Void)? = nil) {
        unchecked = HotState(isBlanked: isBlanked, onWake: onWake)
        filterSwitch = FilterSwitch(isAsked: true, interests: Self.interests(isBlanked: isBlanked, waking: false))
    }

    /// The screen went blank: the next input wakes it and is swallowed.
    public func blank() {
        unchecked.isBlanked = true
        updateInterests()
    }

    private func wake() {
        unchecked.isBlanked = false
        updateInterests()
        let onWake = unchecked.onWake
        onWake?()
    }

    /// The events ``filter(_:router:)`` may act on in a state; it passes every other.
    private static func interests(isBlanked: Bool, waking: Bool) -> FilterInterests {
        var interests: FilterInterests = []
        if isBlanked { interests.formUnion([.touchDowns, .pointerMotion, .pointerAxis, .pointerButtons, .keys]) }
        if waking { interests.formUnion([.touchDowns, .touches]) }
        return interests
    }

    private func updateInterests() {
        filterSwitch.interests = Self.interests(isBlanked: unchecked.isBlanked, waking: !unchecked.wakingTouches.isEmpty)
    }

    /// While blanked, a touch down, pointer motion, scroll, button press or key press wakes
    /// the screen (`onWake` runs) and is consumed, with every finger that goes down before
    /// the waking touch's last finger lifts. Everything else passes.
    public func filter(_ event: InputEvent, router: Router) -> FilterDecision {
        switch event.kind {
        case .touchDown(let id, _):
            if unchecked.isBlanked {
                wake()
            } else if unchecked.wakingTouches.isEmpty {
                return .pass
            }
            // The waking finger, or another finger of the same touch.
            unchecked.wakingTouches.append(id)
            if unchecked.wakingTouches.count == 1 { updateInterests() }
            return .consume
        case .touchMotion(let id, _):
            return unchecked.wakingTouches.contains(id) ? .consume : .pass
        case .touchUp(let id), .touchCancel(let id):
            guard let index = unchecked.wakingTouches.firstIndex(of: id) else { return .pass }
            unchecked.wakingTouches.remove(at: index)
            if unchecked.wakingTouches.isEmpty { updateInterests() }
            return .consume
        case .pointerMotion, .pointerMotionAbsolute, .pointerAxis, .pointerButton(_, .pressed), .key(_, .pressed):
            guard unchecked.isBlanked else { return .pass }
            wake()
            return .consume
        default:
            return .pass
        }
    }
}

/// Whether a kiosk shows its cursor: hidden when a finger touches down, shown again when a
/// real pointer moves, clicks or scrolls. A spy: it changes no routing. `onChange` runs on
/// every change (set the cursor image or hide it there); starts visible.
public final class CursorVisibility: InputSpy {
    /// Whether the cursor should show now.
    public var isVisible: Bool { _isVisible }
    /// Called with the new visibility at each change (not for the initial value).
    public var onChange: ((Bool) -> Void)? {
        get { _onChange }
        set { _onChange = newValue }
    }
    /// Devices whose pointer events do not show the cursor: by default the synthetic pointer
    /// of ``LongPressAsSecondaryClick`` (a click made from a touch).
    public var ignoredDevices: [DeviceID] {
        get { _ignoredDevices }
        set { _ignoredDevices = newValue }
    }

    // Private storage behind the public properties: the whole-module optimizer then sees
    // every access and drops Swift's run-time exclusivity check on the per-event path (as
    // public stored properties each read was a check, ~76 instructions in the kiosk).
    private var _isVisible: Bool
    private var _onChange: ((Bool) -> Void)?
    private var _ignoredDevices: [DeviceID] = [LongPressAsSecondaryClick.device]

    /// A spy; add it with ``Router/addSpy(_:)``.
    public init(isVisible: Bool = true, onChange: ((Bool) -> Void)? = nil) {
        _isVisible = isVisible
        _onChange = onChange
    }

    /// Touch downs and pointer events: the router calls it for no other kind.
    public var observedKinds: InputEventKinds { Self.kinds }
    private static let kinds = InputEventKinds.touchDown.union(.pointer)

    /// A touch down hides the cursor; pointer motion, a button or scrolling from a device
    /// not in ``ignoredDevices`` shows it. Consumed events count too (a waking touch hides it).
    public func observe(_ event: InputEvent, consumed: Bool, router: Router) {
        switch event.kind {
        case .touchDown:
            set(false)
        case .pointerMotion, .pointerMotionAbsolute, .pointerButton, .pointerAxis:
            if !_ignoredDevices.contains(event.device) { set(true) }
        default:
            break
        }
    }

    private func set(_ visible: Bool) {
        guard visible != _isVisible else { return }
        _isVisible = visible
        _onChange?(visible)
    }
}

/// A long press becomes a secondary (right) click for the surface under the finger, as on a
/// touch-only kiosk an app's context menu must open somehow.
///
/// A ``LongPressGestureRecognizer`` (attach ``recognizer`` to an output or a surface with
/// ``attach(to:)-(Output)``): when it begins, the touch is withdrawn from the app (the
/// recognizer cancels the touches it took), then the pointer moves to the press's location
/// and the button is pressed and released there, injected through ``Router/inject(_:)`` from
/// the synthetic device ``device``: the app gets pointer enter, motion and a click at the
/// finger, as from a mouse. Layout space throughout.
public final class LongPressAsSecondaryClick {
    /// The device the click comes from (a number no libinput seat slot uses).
    public static let device = DeviceID(0x5EA7_C11C)
    /// BTN_RIGHT by default.
    public var button: UInt32 = 0x111
    /// The long-press recognizer that triggers the click; tune it or set its delegate, and
    /// attach it with ``attach(to:)-(Output)`` or ``attach(to:)-(Surface)``.
    public let recognizer: LongPressGestureRecognizer
    /// Called after each click, with the layout-space point it was made at.
    public var onClick: ((LayoutPoint) -> Void)?
    private weak var output: Output?
    private weak var surface: Surface?

    /// A long press of `minimumPressDuration` that moves at most `allowableMovement`
    /// millimetres (see ``LongPressGestureRecognizer``); not attached yet.
    public init(minimumPressDuration: TimeSpan = .milliseconds(500), allowableMovement: Double = 10) {
        recognizer = LongPressGestureRecognizer(name: "long-press-secondary-click",
                                                minimumPressDuration: minimumPressDuration,
                                                allowableMovement: allowableMovement)
        recognizer.addTarget { [weak self] recognizer in
            guard let self, recognizer.state == .began, let router = recognizer.router else { return }
            self.click(at: self.recognizer.location, router: router)
        }
    }

    /// Long presses anywhere on `output` click.
    public func attach(to output: Output) {
        detach()
        self.output = output
        output.addGestureRecognizer(recognizer)
    }

    /// Long presses in `surface`'s subtree click.
    public func attach(to surface: Surface) {
        detach()
        self.surface = surface
        surface.addGestureRecognizer(recognizer)
    }

    /// Removes the recognizer from where it was attached; long presses no longer click.
    public func detach() {
        output?.removeGestureRecognizer(recognizer)
        surface?.removeGestureRecognizer(recognizer)
        output = nil
        surface = nil
    }

    /// Moves the pointer to `point` and clicks ``button`` there, through every door.
    public func click(at point: LayoutPoint, router: Router) {
        let now = router.clock.now
        router.inject(InputEvent(time: now, device: Self.device, .pointerMotionAbsolute(point)))
        router.inject(InputEvent(time: now, device: Self.device, .pointerButton(button: button, state: .pressed)))
        router.inject(InputEvent(time: now, device: Self.device, .pointerButton(button: button, state: .released)))
        onClick?(point)
    }
}
