/// Pointer accessibility as input filters: simulated secondary click, dwell click, mouse
/// keys and locate pointer. Each is an ``InputFilter`` (add it with ``Router/addFilter(_:)``),
/// timed on the router's ``Router/clock``; the clicks and motion they make are injected
/// through ``Router/inject(_:)`` from ``accessibilityDevice`` (so they pass grabs, recognizers
/// and the other filters like a mouse's, and these filters let their own events pass).
/// Layout space throughout.

/// The device the clicks and motion of the pointer accessibility filters come from.
public let accessibilityDevice = DeviceID(0x5EA7_A11C)

/// evdev button codes.
private enum Button {
    static let left: UInt32 = 0x110
    static let right: UInt32 = 0x111
    static let middle: UInt32 = 0x112
}

/// Where a pointer event moves the pointer (before the router clamps it to the layout), or
/// `nil` for an event that does not move it.
private func destination(of event: InputEvent, from location: LayoutPoint) -> LayoutPoint? {
    switch event.kind {
    case .pointerMotion(let delta, _): return location.offset(by: delta)
    case .pointerMotionAbsolute(let point): return point
    default: return nil
    }
}

/// Simulated secondary click: holding the primary button still for ``delay`` gives a
/// secondary (right) click. For people who can press only one button.
///
/// The primary press is delivered as it comes (a drag starts at once). When the button has
/// been held for the delay without the pointer moving more than ``movementThreshold``, the
/// primary button is released and a secondary click made there (from
/// ``accessibilityDevice``); the real release that follows is taken. Moving further first
/// makes it a drag: nothing is simulated. Turning it off mid-hold stops the timer (the real
/// release then passes); the release owed after a simulated click is taken even then, so no
/// stray release reaches a client.
public final class SimulatedSecondaryClick: InputFilter {
    /// Whether holding the primary button clicks the secondary one.
    public var isEnabled: Bool {
        get { enabled }
        set {
            enabled = newValue
            filterSwitch.isAsked = newValue || unchecked.owesRelease
            if !newValue { cancelHold() }
        }
    }
    /// How long the primary button must be held (GNOME: 1.2 s).
    public var delay: TimeSpan {
        get { unchecked.delay }
        set { unchecked.delay = newValue }
    }
    /// How far, in layout units, the pointer may move while held (GNOME's dwell threshold: 10).
    public var movementThreshold: Double {
        get { unchecked.movementThreshold }
        set { unchecked.movementThreshold = newValue }
    }
    /// Told where each secondary click was made.
    public var onClick: ((LayoutPoint) -> Void)?

    /// Whether the router asks this filter at all: while it is on, and while a real release
    /// is still owed (UnsafeFoundations.swift, `FilterSwitch`); about pointer motion only
    /// while a hold is under way (it passes every other motion without a look).
    let filterSwitch: FilterSwitch
    /// What each event reads and writes, exempt from run-time exclusivity checks (the rules
    /// are in UnsafeFoundations.swift; no access spans a call out).
    struct HotState {
        var delay: TimeSpan
        var movementThreshold: Double
        var enabled: Bool
        var timer: TimerToken?
        var anchor = LayoutPoint.zero
        /// A click was simulated: the real primary release still to come is taken.
        var owesRelease = false
    }
    @exclusivity(unchecked) var unchecked: HotState
    private var enabled: Bool {
        get { unchecked.enabled }
        set { unchecked.enabled = newValue }
    }
    /// The router it was last asked by, without a weak reference (``RouterHandle``).
    private var routerHandle: RouterHandle?
    private var router: Router? {
        get { routerHandle?.router }
        set { if routerHandle !== newValue?.handle { routerHandle = newValue?.handle } }
    }
    /// Made once, so that a press allocates no closure.
    private lazy var timerAction: () -> Void = { [weak self] in self?.holdEnded() }

    /// A filter; add it with ``Router/addFilter(_:)``.
    public init(delay: TimeSpan = .milliseconds(1200), movementThreshold: Double = 10, isEnabled: Bool = true) {
        unchecked = HotState(delay: delay, movementThreshold: movementThreshold, enabled: isEnabled)
        filterSwitch = FilterSwitch(isAsked: isEnabled, interests: .pointerButtons)
    }

    /// The events it acts on: buttons, and motion while a hold is under way (its timer set).
    private func holdChanged() {
        filterSwitch.interests = unchecked.timer == nil ? .pointerButtons : FilterInterests.pointerButtons.union(.pointerMotion)
    }

    public func filter(_ event: InputEvent, router: Router) -> FilterDecision {
        if event.device == accessibilityDevice { return .pass }
        switch event.kind {
        case .pointerMotion, .pointerMotionAbsolute:
            // Asked about every motion during a hold: what it does there is small and ends in
            // calls that return its answer, so that it needs no frame of its own.
            guard unchecked.timer != nil, let to = destination(of: event, from: router.pointerLocation) else { return .pass }
            return to.vector(from: unchecked.anchor).length > unchecked.movementThreshold ? cancelHoldPassing() : .pass
        default:
            return filterButton(event, router: router)
        }
    }

    /// ``filter(_:router:)`` for the events other than motion.
    @inline(never)
    private func filterButton(_ event: InputEvent, router: Router) -> FilterDecision {
        switch event.kind {
        case .pointerButton(Button.left, .pressed):
            guard enabled, unchecked.timer == nil, !unchecked.owesRelease else { return .pass }
            self.router = router
            unchecked.anchor = router.pointerLocation
            unchecked.timer = router.clock.schedule(at: router.clock.now + unchecked.delay, timerAction)
            holdChanged()
        case .pointerButton(Button.left, .released):
            if unchecked.owesRelease {
                unchecked.owesRelease = false
                filterSwitch.isAsked = enabled
                return .consume
            }
            cancelHold()
        default:
            break
        }
        return .pass
    }

    /// ``cancelHold()``, then `.pass`.
    @inline(never)
    private func cancelHoldPassing() -> FilterDecision {
        cancelHold()
        return .pass
    }

    private func cancelHold() {
        guard let timer = unchecked.timer else { return }
        router?.clock.cancel(timer)
        unchecked.timer = nil
        holdChanged()
    }

    private func holdEnded() {
        unchecked.timer = nil
        holdChanged()
        guard let router else { return }
        unchecked.owesRelease = true
        let now = router.clock.now
        router.inject(InputEvent(time: now, device: accessibilityDevice, .pointerButton(button: Button.left, state: .released)))
        router.inject(InputEvent(time: now, device: accessibilityDevice, .pointerButton(button: Button.right, state: .pressed)))
        router.inject(InputEvent(time: now, device: accessibilityDevice, .pointerButton(button: Button.right, state: .released)))
        onClick?(router.pointerLocation)
    }
}

/// Dwell click: when the pointer rests for ``delay`` (within ``movementThreshold``), a click
/// of ``button`` is made there. For people who can move a pointer (a head or eye tracker)
/// but not press a button.
///
/// Rest is measured from the last motion that took the pointer more than the threshold from
/// where the dwell began; after a click, the pointer must move beyond the threshold before
/// the next. No dwell runs while a button is held. The click is injected from
/// ``accessibilityDevice``. For a visual cue (GNOME fills a circle at the pointer), read
/// ``progress(at:)`` with the time of each frame drawn; ``onDwellChange`` says when a dwell
/// begins and ends. Turning it off ends the dwell under way; it holds no button.
public final class DwellClick: InputFilter {
    /// Whether resting clicks.
    public var isEnabled: Bool {
        get { enabled }
        set {
            enabled = newValue
            if !newValue {
                endDwell()
                unchecked.anchor = nil
            }
        }
    }
    /// How long the pointer must rest (GNOME: 1.2 s).
    public var delay: TimeSpan {
        get { unchecked.delay }
        set { unchecked.delay = newValue }
    }
    /// How far, in layout units, the pointer may drift while resting (GNOME: 10).
    public var movementThreshold: Double {
        get { unchecked.movementThreshold }
        set { unchecked.movementThreshold = newValue }
    }
    /// The button clicked: evdev code (BTN_LEFT, 0x110, by default).
    public var button: UInt32 = 0x110
    /// Told each click's location.
    public var onClick: ((LayoutPoint) -> Void)?
    /// Told when a dwell begins (where, and when it will click) and ends (`nil`: clicked,
    /// moved away or cancelled).
    public var onDwellChange: ((_ dwell: (location: LayoutPoint, deadline: Timestamp)?) -> Void)? {
        get { unchecked.onDwellChange }
        set { unchecked.onDwellChange = newValue }
    }

    /// Backs `isEnabled`: whether the router asks this filter at all (off, it passes every
    /// event without being called: UnsafeFoundations.swift, `FilterSwitch`).
    let filterSwitch: FilterSwitch
    private var enabled: Bool {
        @inline(__always) get { filterSwitch.unchecked.isAsked }
        set { filterSwitch.isAsked = newValue }
    }
    /// What each motion reads and writes, exempt from run-time exclusivity checks (the
    /// rules are in UnsafeFoundations.swift; no access spans a call out).
    struct HotState {
        var delay: TimeSpan
        var movementThreshold: Double
        var onDwellChange: ((_ dwell: (location: LayoutPoint, deadline: Timestamp)?) -> Void)?
        var timer: TimerToken?
        var anchor: LayoutPoint?
        var started = Timestamp.zero
        /// When `timer` fires: the deadline of the dwell it was set for (a restart moves the
        /// dwell's deadline, `started + delay`, later, and the timer is set again when it fires).
        var timerDeadline = Timestamp.zero
    }
    @exclusivity(unchecked) var unchecked: HotState
    /// The router it was last asked by, without a weak reference (``RouterHandle``).
    private var routerHandle: RouterHandle?
    private var router: Router? {
        get { routerHandle?.router }
        set { if routerHandle !== newValue?.handle { routerHandle = newValue?.handle } }
    }
    /// Made once, so that a motion allocates no closure.
    private lazy var timerAction: () -> Void = { [weak self] in self?.dwellEnded() }

    /// A filter; add it with ``Router/addFilter(_:)``.
    public init(delay: TimeSpan = .milliseconds(1200), movementThreshold: Double = 10, isEnabled: Bool = true) {
        unchecked = HotState(delay: delay, movementThreshold: movementThreshold)
        filterSwitch = FilterSwitch(isAsked: isEnabled, interests: [.pointerMotion, .pointerButtons])
    }

    /// How far the dwell under way is at `time`, from 0 (just began) to 1 (clicks); `nil` when
    /// none is.
    public func progress(at time: Timestamp) -> Double? {
        let delay = unchecked.delay
        guard unchecked.timer != nil, delay.microseconds > 0 else { return nil }
        return min(1, max(0, Double((time - unchecked.started).microseconds) / Double(delay.microseconds)))
    }

    public func filter(_ event: InputEvent, router: Router) -> FilterDecision {
        switch event.kind {
        case .pointerMotion, .pointerMotionAbsolute:
            return filterMotionInline(event, router: router)
        case .pointerButton(_, .pressed):
            // A click of its own ends nothing (the dwell that made it is over).
            if enabled, event.device != accessibilityDevice { endDwell() }
        default:
            break
        }
        return .pass
    }

    /// ``filter(_:router:)`` for a pointer motion (relative or absolute; anything else
    /// passes): what the pointer's motion asks inline when dwell click is its lone filter
    /// (UnsafeFoundations.swift, `AskedFilter.askPointerMotion`). A motion within the
    /// threshold returns after the distance; one that restarts the dwell under way with no
    /// ``onDwellChange`` to tell stores its start and returns; the rest (a dwell to begin,
    /// a listener to tell, a button held) is out of line.
    @inline(__always)
    func filterMotionInline(_ event: InputEvent, router: Router) -> FilterDecision {
        guard enabled else { return .pass }
        return filterMotionWhileOn(event, router: router)
    }

    /// ``filterMotionInline(_:router:)`` past the switch's test: for the pointer's motion's
    /// lone filter, which the roster names only while every switch is as it was built (on).
    @inline(__always)
    func filterMotionWhileOn(_ event: InputEvent, router: Router) -> FilterDecision {
        // Any pointer's motion counts, mouse keys' included.
        guard let to = destination(of: event, from: router.pointerLocation) else { return .pass }
        if let anchor = unchecked.anchor, to.vector(from: anchor).length <= unchecked.movementThreshold { return .pass }
        unchecked.anchor = to
        guard router.unchecked.pointer.pressedButtons.isEmpty else {
            endDwell()
            return .pass
        }
        let now = router.clock.now
        let deadline = now + unchecked.delay
        if unchecked.timer != nil, unchecked.timerDeadline <= deadline, unchecked.onDwellChange == nil {
            // The dwell under way restarts. Its timer stays: when it fires before the new
            // deadline it is set again for it (no cancel and schedule at every motion of
            // a moving pointer, which is most of them).
            unchecked.started = now
        } else {
            beginDwell(at: to, now: now, deadline: deadline, router: router)
        }
        return .pass
    }

    /// A dwell begins at `to` (or the one under way restarts, telling ``onDwellChange``).
    @inline(never)
    private func beginDwell(at to: LayoutPoint, now: Timestamp, deadline: Timestamp, router: Router) {
        if unchecked.timer != nil, unchecked.timerDeadline <= deadline {
            // The dwell under way restarts (its timer stays, as above).
            unchecked.onDwellChange?(nil)
        } else {
            endDwell()
            self.router = router
            unchecked.timer = router.clock.schedule(at: deadline, timerAction)
            unchecked.timerDeadline = deadline
        }
        unchecked.started = now
        unchecked.onDwellChange?((to, deadline))
    }

    private func endDwell() {
        guard let timer = unchecked.timer else { return }
        router?.clock.cancel(timer)
        unchecked.timer = nil
        unchecked.onDwellChange?(nil)
    }

    private func dwellEnded() {
        if let router, unchecked.started + unchecked.delay > router.clock.now {
            // Restarted since the timer was set: the dwell goes on to its new deadline.
            let deadline = unchecked.started + unchecked.delay
            unchecked.timerDeadline = deadline
            unchecked.timer = router.clock.schedule(at: deadline, timerAction)
            return
        }
        unchecked.timer = nil
        unchecked.onDwellChange?(nil)
        guard let router, router.heldButtons.isEmpty else { return }
        let now = router.clock.now
        router.inject(InputEvent(time: now, device: accessibilityDevice, .pointerButton(button: button, state: .pressed)))
        router.inject(InputEvent(time: now, device: accessibilityDevice, .pointerButton(button: button, state: .released)))
        onClick?(router.pointerLocation)
    }
}

/// Mouse keys: the numeric keypad moves the pointer and clicks. For people who cannot use a
/// mouse but can press keys.
///
/// With Num Lock off (or no key interpreter), keypad 1–4 and 6–9 move the pointer in their
/// direction: one unit at once, then, after ``initialDelay``, every ``interval``, speeding up
/// over ``accelerationTime`` to ``maxSpeed`` units per second; keys held together add up.
/// 5 clicks the chosen button, + double-clicks, 0 presses and holds it (drag), . releases it;
/// / chooses the primary button, * the middle, - the secondary. The keys it uses are taken
/// (nothing else sees them); motion and buttons are injected from ``accessibilityDevice``.
/// Timed on the router's clock. Turning it off stops the motion and releases a button it
/// holds; its keys still held stay taken (their releases are swallowed).
public final class MouseKeys: InputFilter {
    /// Whether the keypad drives the pointer. Turning it off releases a held button.
    public var isEnabled: Bool {
        get { enabled }
        set {
            guard newValue != enabled else { return }
            enabled = newValue
            if !newValue { stop() }
        }
    }
    /// From the first step to the steady steps (GNOME: 160 ms).
    public var initialDelay: TimeSpan
    /// Between steps.
    public var interval: TimeSpan
    /// Top speed, layout units per second (GNOME: 750).
    public var maxSpeed: Double
    /// From the first steady step to top speed (GNOME: 1.2 s).
    public var accelerationTime: TimeSpan
    /// The button 5, 0, . and + act on (evdev code; BTN_LEFT by default).
    public private(set) var button: UInt32 = 0x110
    /// The button held by 0 (a drag), if any.
    public private(set) var heldButton: UInt32?

    /// Backs `isEnabled`: whether the router asks this filter at all (off, it passes every
    /// event without being called: UnsafeFoundations.swift, `FilterSwitch`).
    let filterSwitch: FilterSwitch
    private var enabled: Bool {
        @inline(__always) get { filterSwitch.unchecked.isAsked }
        set { filterSwitch.isAsked = newValue }
    }
    /// Direction keys held, in press order.
    private var directionKeys: [UInt32] = []
    private var timer: TimerToken?
    private var steadySince = Timestamp.zero
    /// The router it was last asked by, without a weak reference (``RouterHandle``).
    private var routerHandle: RouterHandle?
    private var router: Router? {
        get { routerHandle?.router }
        set { if routerHandle !== newValue?.handle { routerHandle = newValue?.handle } }
    }
    /// Made once, so that a step allocates no closure.
    private lazy var timerAction: () -> Void = { [weak self] in self?.step() }

    /// A filter; add it with ``Router/addFilter(_:)``. Defaults as GNOME's.
    public init(initialDelay: TimeSpan = .milliseconds(160), interval: TimeSpan = .milliseconds(20),
                maxSpeed: Double = 750, accelerationTime: TimeSpan = .milliseconds(1200), isEnabled: Bool = true) {
        self.initialDelay = initialDelay
        self.interval = interval
        self.maxSpeed = maxSpeed
        self.accelerationTime = accelerationTime
        filterSwitch = FilterSwitch(isAsked: isEnabled, interests: .interpretedKeys)
        directionKeys.reserveCapacity(8)
    }

    /// The direction of a keypad key (evdev code), or `nil`.
    static func direction(of keycode: UInt32) -> Vector? {
        switch keycode {
        case 71: return Vector(dx: -1, dy: -1)   // KP7
        case 72: return Vector(dx: 0, dy: -1)    // KP8
        case 73: return Vector(dx: 1, dy: -1)    // KP9
        case 75: return Vector(dx: -1, dy: 0)    // KP4
        case 77: return Vector(dx: 1, dy: 0)     // KP6
        case 79: return Vector(dx: -1, dy: 1)    // KP1
        case 80: return Vector(dx: 0, dy: 1)     // KP2
        case 81: return Vector(dx: 1, dy: 1)     // KP3
        default: return nil
        }
    }

    public func filterKey(_ event: KeyEvent, router: Router) -> FilterDecision {
        guard enabled, event.state == .pressed, Self.isMouseKey(event.keycode), !event.modifiers.contains(.numLock) else { return .pass }
        // Only its own keys store the router (a store of its handle, not weak) and read the clock: every other
        // key passes at the cost of the checks above.
        self.router = router
        let now = router.clock.now
        if let direction = Self.direction(of: event.keycode) {
            directionKeys.append(event.keycode)
            move(by: direction, at: now)
            if timer == nil {
                steadySince = now + initialDelay
                timer = router.clock.schedule(at: steadySince, timerAction)
            }
            return .consume
        }
        switch event.keycode {
        case 76: click(count: 1)                  // KP5
        case 78: click(count: 2)                  // KPPLUS
        case 82:                                  // KP0
            if heldButton == nil {
                heldButton = button
                inject(.pointerButton(button: button, state: .pressed))
            }
        case 83: releaseButton()                  // KPDOT
        case 98: button = Button.left             // KPSLASH
        case 55: button = Button.middle           // KPASTERISK
        case 74: button = Button.right            // KPMINUS
        default: return .pass
        }
        return .consume
    }

    /// The keypad keys mouse keys takes (with Num Lock off): directions, clicks and buttons.
    static func isMouseKey(_ keycode: UInt32) -> Bool {
        switch keycode {
        case 71, 72, 73, 75, 77, 79, 80, 81, 76, 78, 82, 83, 98, 55, 74: return true
        default: return false
        }
    }

    private func inject(_ kind: InputEvent.Kind) {
        guard let router else { return }
        router.inject(InputEvent(time: router.clock.now, device: accessibilityDevice, kind))
    }

    private func click(count: Int) {
        for _ in 0..<count {
            inject(.pointerButton(button: button, state: .pressed))
            inject(.pointerButton(button: button, state: .released))
        }
    }

    private func releaseButton() {
        guard let held = heldButton else { return }
        heldButton = nil
        inject(.pointerButton(button: held, state: .released))
    }

    private func move(by direction: Vector, at time: Timestamp) {
        guard direction.dx != 0 || direction.dy != 0 else { return }
        inject(.pointerMotion(delta: direction, unaccelerated: direction))
    }

    /// A steady step: the held direction keys' sum, at the speed reached by now.
    private func step() {
        timer = nil
        guard let router else { return }
        directionKeys.removeAll { router.heldKeyIndex($0) == nil }
        guard !directionKeys.isEmpty else { return }
        var sum = Vector.zero
        for key in directionKeys {
            if let d = Self.direction(of: key) {
                sum.dx += d.dx
                sum.dy += d.dy
            }
        }
        sum.dx = max(-1, min(1, sum.dx))
        sum.dy = max(-1, min(1, sum.dy))
        let now = router.clock.now
        let ramp = accelerationTime.microseconds > 0
            ? min(1, Double((now - steadySince).microseconds) / Double(accelerationTime.microseconds)) : 1
        let distance = max(1, maxSpeed * ramp * interval.seconds)
        move(by: Vector(dx: sum.dx * distance, dy: sum.dy * distance), at: now)
        timer = router.clock.schedule(at: now + interval, timerAction)
    }

    private func stop() {
        if let timer { router?.clock.cancel(timer) }
        timer = nil
        directionKeys.removeAll(keepingCapacity: true)
        releaseButton()
    }
}

/// Locate pointer: tapping Ctrl alone (press and release, nothing between) tells the
/// compositor where the pointer is, to draw a cue there (GNOME draws shrinking circles). For
/// people who lose sight of the pointer. Every event passes; it holds nothing, so turning it
/// on or off at any time strands nothing.
public final class LocatePointer: InputFilter {
    /// Whether a Ctrl tap locates.
    public var isEnabled: Bool {
        get { enabled }
        set {
            enabled = newValue
            unchecked.candidate = nil
            candidateChanged()
        }
    }
    /// Told the pointer's location (layout space) at each Ctrl tap.
    public var onLocate: ((LayoutPoint) -> Void)?

    /// Backs `isEnabled`: whether the router asks this filter at all (off, it passes every
    /// event without being called: UnsafeFoundations.swift, `FilterSwitch`).
    let filterSwitch: FilterSwitch
    private var enabled: Bool {
        @inline(__always) get { filterSwitch.unchecked.isAsked }
        set { filterSwitch.isAsked = newValue }
    }
    /// What each event reads and writes, exempt from run-time exclusivity checks (the rules
    /// are in UnsafeFoundations.swift; no access spans a call out).
    struct HotState {
        /// The Ctrl key pressed with nothing else since.
        var candidate: UInt32?
    }
    @exclusivity(unchecked) var unchecked = HotState()

    /// A filter; add it with ``Router/addFilter(_:)``.
    public init(isEnabled: Bool = true, onLocate: ((LayoutPoint) -> Void)? = nil) {
        filterSwitch = FilterSwitch(isAsked: isEnabled, interests: .interpretedKeys)
        self.onLocate = onLocate
    }

    /// The events it acts on: presses (as interpreted), and while a Ctrl press is a
    /// candidate, the releases, buttons and scrolling that end it (it passes them without
    /// a look otherwise).
    private func candidateChanged() {
        filterSwitch.interests = unchecked.candidate == nil
            ? .interpretedKeys : FilterInterests.interpretedKeys.union(.keyReleases).union(.pointerButtons).union(.pointerAxis)
    }

    public func filter(_ event: InputEvent, router: Router) -> FilterDecision {
        guard enabled else { return .pass }
        switch event.kind {
        case .key(let keycode, .released):
            if unchecked.candidate == keycode {
                unchecked.candidate = nil
                candidateChanged()
                onLocate?(router.pointerLocation)
            }
        case .pointerButton(_, .pressed), .pointerAxis:
            unchecked.candidate = nil
            candidateChanged()
        default:
            break
        }
        return .pass
    }

    public func filterKey(_ event: KeyEvent, router: Router) -> FilterDecision {
        guard enabled, event.state == .pressed else { return .pass }
        unchecked.candidate = StickyKeys.modifier(keysym: event.keysym, keycode: event.keycode) == .control ? event.keycode : nil
        candidateChanged()
        return .pass
    }
}

// Off, the router passes over them without a call (UnsafeFoundations.swift).
extension SimulatedSecondaryClick: SwitchedFilter {}
extension DwellClick: SwitchedFilter {}
extension MouseKeys: SwitchedFilter {}
extension LocatePointer: SwitchedFilter {}
