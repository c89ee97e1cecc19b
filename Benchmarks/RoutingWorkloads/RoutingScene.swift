import SeatKit

/// Counts what reaches it and takes what it is told to; allocates nothing.
///
/// The counts are private storage read through a getter: a public stored property keeps
/// Swift's run-time exclusivity check on every `+= 1` (`swift_beginAccess`, about 100
/// instructions each, some 500 per touch frame and 600 per pointer motion of this scene:
/// the benchmark's own cost, not the router's; issue 25).
public final class CountingResponder: Responder {
    public var calls: Int { _calls }
    private var _calls = 0
    let takesTouches: Bool
    let focusable: Bool

    public init(takesTouches: Bool = false, focusable: Bool = false) {
        self.takesTouches = takesTouches
        self.focusable = focusable
    }

    public func touchesBegan(_ event: TouchEvent, context: ResponderContext) -> ResponderResult { take() }
    public func touchesMoved(_ event: TouchEvent, context: ResponderContext) -> ResponderResult { take() }
    public func touchesEnded(_ event: TouchEvent, context: ResponderContext) -> ResponderResult { take() }
    public func pointerEntered(_ event: PointerCrossingEvent, context: ResponderContext) { _calls += 1 }
    public func pointerLeft(_ event: PointerCrossingEvent, context: ResponderContext) { _calls += 1 }
    public func pointerMoved(_ event: PointerMotionEvent, context: ResponderContext) -> ResponderResult {
        _calls += 1
        return .notHandled
    }
    public func pointerButton(_ event: PointerButtonEvent, context: ResponderContext) -> ResponderResult {
        _calls += 1
        return .handled
    }
    public func keyDown(_ event: KeyEvent, context: ResponderContext) -> ResponderResult {
        _calls += 1
        return .handled
    }
    public func keyUp(_ event: KeyEvent, context: ResponderContext) -> ResponderResult {
        _calls += 1
        return .handled
    }
    // Pens as touches: a stroke walks to d0, which takes it.
    public func penDown(_ event: PenEvent, context: ResponderContext) -> ResponderResult { take() }
    public func penMoved(_ event: PenEvent, context: ResponderContext) -> ResponderResult { take() }
    public func penUp(_ event: PenEvent, context: ResponderContext) -> ResponderResult { take() }
    public var canBecomeFirstResponder: Bool { focusable }

    private func take() -> ResponderResult {
        _calls += 1
        return takesTouches ? .handled : .notHandled
    }
}

/// The compositor at the end of every chain: counts drops.
public final class CountingDelegate: CompositorDelegate {
    /// Private storage, as `CountingResponder.calls`.
    public var drops: Int { _drops }
    private var _drops = 0
    public init() {}
    public func router(_ router: Router, dropped event: DroppedEvent) { _drops += 1 }
}

/// A router on a 1920×1080 output with a five-deep chain (root › d0 › d1 › d2 › d3 › d4) and
/// 20 sibling panels beside it. Touches on the leaf walk all five surfaces up to d0, which
/// takes them; pointer motion walks to the delegate.
public final class RoutingScene {
    public let router: Router
    public let clock = VirtualClock()
    public let delegate = CountingDelegate()
    public let output: Output
    /// d0 … d4; the last is the leaf.
    public private(set) var chain: [Surface] = []
    public private(set) var siblings: [Surface] = []
    private var time: Int64 = 0

    /// Inside the leaf, and inside the first sibling, in layout space.
    public static let leafPoint = LayoutPoint(x: 60, y: 60)
    public static let siblingPoint = LayoutPoint(x: 505, y: 60)

    public init() {
        router = Router(clock: clock)
        router.delegate = delegate
        output = Output(name: "bench", modeSize: Size(width: 1920, height: 1080))
        router.addOutput(output)
        var parent = output.root
        for depth in 0..<5 {
            let surface = Surface(name: "d\(depth)",
                                  frame: SurfaceRect(x: 10, y: 10, width: 400 - Double(depth) * 50, height: 400),
                                  responder: CountingResponder(takesTouches: depth == 0, focusable: depth == 4))
            parent.addChild(surface)
            chain.append(surface)
            parent = surface
        }
        for i in 0..<20 {
            let panel = Surface(name: "panel\(i)", frame: SurfaceRect(x: 500 + Double(i) * 20, y: 0, width: 15, height: 500),
                                responder: CountingResponder())
            output.root.addChild(panel)
            siblings.append(panel)
        }
        attachGestureRecognizers()
    }

    /// The two gesture recognizers issue 7 puts in front of the touch chain. Both stay
    /// `.possible` for as long as the fingers the benchmark puts down stay down, so every
    /// routed motion passes through both and then reaches the chain:
    /// - a pan on d0 (an ancestor of the leaf) that would need 100 m of travel to begin: it
    ///   tracks every touch and never takes one;
    /// - a two-finger long press on the leaf that tolerates any movement and whose deadline
    ///   never comes (the virtual clock is not advanced): it too stays possible.
    /// Neither delays touches, so the chain sees each motion in the frame that carries it.
    public private(set) var pan: PanGestureRecognizer!
    public private(set) var longPress: LongPressGestureRecognizer!

    private func attachGestureRecognizers() {
        let pan = PanGestureRecognizer(name: "bench-pan", minimumDistance: 100_000)
        chain[0].addGestureRecognizer(pan)
        let longPress = LongPressGestureRecognizer(name: "bench-long-press", minimumPressDuration: .seconds(3600),
                                                   touches: 2, allowableMovement: 1_000_000)
        chain[chain.count - 1].addGestureRecognizer(longPress)
        self.pan = pan
        self.longPress = longPress
    }

    /// The same two recognizers as one composite (issue 30, goal 3): `pan.simultaneously(with:
    /// longPress)` on d0 in their place, for what a composed recognizer costs against its
    /// parts attached on their own.
    public func composeRecognizers() {
        pan.surface?.removeGestureRecognizer(pan)
        longPress.surface?.removeGestureRecognizer(longPress)
        chain[0].addGestureRecognizer(pan.simultaneously(with: longPress, name: "bench-composed"))
    }

    /// More pans, for the cost of each recognizer on a chain (issue 30, goal 7): `count` of
    /// them spread over d0 … d4 in turn, each needing 100 m of travel, so that every one stays
    /// `.possible` and sees every motion. With `failed`, each allows one finger only, so the
    /// second finger of ``putTwoFingersDown()`` fails them all: what a failed recognizer costs
    /// per later motion (nothing, is the goal).
    public func addPans(_ count: Int, failed: Bool = false) {
        var i = 0
        while i < count {
            let extra = PanGestureRecognizer(name: "bench-pan-\(i)", maximumTouches: failed ? 1 : .max, minimumDistance: 100_000)
            chain[i % chain.count].addGestureRecognizer(extra)
            i += 1
        }
    }

    public var leaf: Surface { chain[chain.count - 1] }

    @inline(__always)
    public func send(_ kind: InputEvent.Kind) {
        time &+= 1
        router.inject(InputEvent(time: Timestamp(microseconds: time * 1000), kind))
    }

    /// Puts two fingers on the leaf and moves them once, so that the touch path is warm.
    public func putTwoFingersDown() {
        send(.touchDown(TouchID(0), Self.leafPoint))
        send(.touchDown(TouchID(1), LayoutPoint(x: 70, y: 60)))
        send(.touchFrame)
        moveFinger(0, step: 1)
    }

    /// One routed touch motion: finger `id` moves (by `step`, within the leaf) and the frame
    /// ends, which is what delivers it.
    @inline(__always)
    public func moveFinger(_ id: Int32, step: Int) {
        send(.touchMotion(TouchID(id), LayoutPoint(x: 80 + Double(step % 50), y: 61)))
        send(.touchFrame)
        if readsVelocity { velocitySink += pan.velocityEstimate.perSecond.dx }
    }

    /// A three-finger window switch on the output, as the Swift kiosk's (`examples/kiosk`,
    /// `addWindowSwitcher`): a left or right swipe of 30 units that fails once a finger travels
    /// 10 mm or 250 ms pass before the third finger lands, with a target that ignores
    /// failures. For the tap workload (issue 25, fourteenth round).
    public private(set) var windowSwitch: SwipeGestureRecognizer?
    public private(set) var switchCount = 0

    public func addWindowSwitch() {
        let swipe = SwipeGestureRecognizer(name: "bench-switch", direction: [.left, .right], touches: 3, minimumDistance: 30)
        swipe.reportsProgress = true
        swipe.maximumTravelUntilAllTouches = 10
        swipe.maximumDelayUntilAllTouches = .milliseconds(250)
        swipe.addTarget { [unowned self] r in
            guard r.state != .failed else { return }
            self.switchCount += 1
        }
        output.addGestureRecognizer(swipe)
        windowSwitch = swipe
    }

    /// One tap on the leaf (issue 25, fourteenth round): a finger goes down and its frame is
    /// delivered, then it lifts and that frame is delivered: a down and an up, each in a frame
    /// of its own, as a touchscreen sends them. Bound to the leaf, through the scene's
    /// recognizers (and the switch, with ``addWindowSwitch()``), up the chain to d0, which
    /// takes it. Out of line, so that callgrind counts it per call.
    @inline(never)
    public func tapFinger(step: Int) { tap(TouchID(3), step: step) }

    /// ``tapFinger(step:)`` under another name, for the scene with ``addWindowSwitch()``: so
    /// that callgrind counts the two workloads apart. It also counts its taps (one add): with
    /// the same body, the compiler merged the two into one function that both jumped to, and
    /// callgrind then counted neither apart.
    @inline(never)
    public func tapFingerBesideSwitch(step: Int) {
        _tapsBesideSwitch &+= 1
        tap(TouchID(4), step: step)
    }
    public var tapsBesideSwitch: Int { _tapsBesideSwitch }
    private var _tapsBesideSwitch = 0

    /// A long press on the leaf that delays touches, as the wlroots kiosk's per app surface
    /// (600 ms within 10 mm, ``GestureRecognizer/delaysTouchesBegan``): the chain sees a touch
    /// only once the press is known not to be long. For the held-tap workload (issue 25,
    /// eighteenth round).
    public private(set) var heldPress: LongPressGestureRecognizer?

    public func addDelayingLongPress() {
        let press = LongPressGestureRecognizer(name: "bench-held-press", minimumPressDuration: .milliseconds(600), allowableMovement: 10)
        press.delaysTouchesBegan = true
        leaf.addGestureRecognizer(press)
        heldPress = press
    }

    /// A short press on the leaf with ``addDelayingLongPress()`` (issue 25, eighteenth round):
    /// a finger goes down (held: the long press may still recognize), moves a little (held
    /// too, behind its down), and lifts before the deadline (the virtual clock does not move):
    /// the long press fails, and the held down and move go out, then the up. Six events, each
    /// phase in a frame of its own, as a touchscreen sends them: the held path (hold, settle,
    /// release) of the wlroots kiosk's touches. Out of line, so that callgrind counts it per
    /// call.
    @inline(never)
    public func tapFingerHeld(step: Int) {
        _heldTaps &+= 1
        let id = TouchID(5)
        send(.touchDown(id, LayoutPoint(x: 80 + Double(step % 50), y: 61)))
        send(.touchFrame)
        send(.touchMotion(id, LayoutPoint(x: 81 + Double(step % 50), y: 61)))
        send(.touchFrame)
        send(.touchUp(id))
        send(.touchFrame)
    }
    public var heldTaps: Int { _heldTaps }
    private var _heldTaps = 0

    @inline(__always)
    private func tap(_ id: TouchID, step: Int) {
        send(.touchDown(id, LayoutPoint(x: 80 + Double(step % 50), y: 61)))
        send(.touchFrame)
        send(.touchUp(id))
        send(.touchFrame)
    }

    /// Whether the tap workload measures what it says: d0 took the taps, and no touch is left
    /// down.
    public var tapsReachedTheChain: Bool {
        (chain[0].responder as? CountingResponder).map { $0.calls > 0 } == true && router.activeTouchCount == 0
    }

    /// The pen of the pen workload (issue 27, goal 8): a pen with pressure and tilt.
    public static let penTool = PenTool(kind: .pen, serial: 0x5a5a, capabilities: penAxes)
    static let penAxes: PenAxisSet = [.position, .pressure, .tilt]
    static let penMotionAxes: PenAxisSet = [.position, .pressure]

    /// Brings the pen in over the leaf and puts its tip down: the stroke binds to the leaf,
    /// and both recognizers follow it (the built-in pan and long press follow pens: the pan on
    /// d0 tracks it and never begins, the two-touch long press waits for a second touch that
    /// never comes). Then moves it once, so that the pen path is warm.
    public func putPenDown() {
        send(.tablet(TabletEvent(kind: .toolProximity, position: Self.leafPoint, value: 1, tool: Self.penTool,
                                 changedAxes: Self.penAxes)))
        send(.tablet(TabletEvent(kind: .toolTip, position: Self.leafPoint, value: 1, tool: Self.penTool,
                                 axes: PenAxes(pressure: 0.3, tiltX: 10, tiltY: -5), changedAxes: .pressure)))
        movePen(step: 1)
    }

    private var lastPenX = 0.0

    /// Whether the pen workload measures what it says: both recognizers follow a pen stroke
    /// (the pan's one touch where the pen last moved, still possible) and d0 took the
    /// stroke's events.
    public var penStrokeIsFollowed: Bool {
        pan.currentInputKind == .pen && pan.touches.count == 1 && pan.state == .possible && pan.touches[0].location.x == lastPenX
            && longPress.currentInputKind == .pen && (chain[0].responder as? CountingResponder).map { $0.calls > 0 } == true
    }

    /// One routed pen motion in contact: the tip moves (by `step`, within the leaf) with a
    /// new pressure, through the recognizers, then up the leaf's chain to d0.
    @inline(__always)
    public func movePen(step: Int) {
        lastPenX = 80 + Double(step % 50)
        send(.tablet(TabletEvent(kind: .toolAxis, position: LayoutPoint(x: lastPenX, y: 61), tool: Self.penTool,
                                 axes: PenAxes(pressure: 0.3 + Double(step % 16) / 32, tiltX: 10, tiltY: -5),
                                 changedAxes: Self.penMotionAxes)))
    }

    /// Read the pan's velocity after every motion (the least-squares fit over its samples),
    /// as an effect that follows the fingers would (issue 30; SEATKIT_READ_VELOCITY=1).
    /// Private storage read through an accessor, as `CountingResponder.calls`: a public
    /// stored property kept Swift's run-time exclusivity check on the read in every
    /// ``moveFinger(_:step:)`` (`swift_beginAccess`, 76 instructions per touch motion + frame:
    /// the driver's cost, not the router's; issue 25).
    public var readsVelocity: Bool {
        get { _readsVelocity }
        set { _readsVelocity = newValue }
    }
    private var _readsVelocity = false
    public private(set) var velocitySink = 0.0

    /// One pointer motion that hit-tests and changes focus: odd steps land on the leaf, even
    /// steps on a sibling panel (leave, enter, then motion up the chain).
    @inline(__always)
    public func movePointerAcross(step: Int) {
        let x = step & 1 == 0 ? Self.siblingPoint.x + Double((step >> 1) % 7) * 20 : Self.leafPoint.x + Double(step % 7)
        send(.pointerMotionAbsolute(LayoutPoint(x: x, y: 60)))
    }

    /// A mixed stream: a touch down, eight motions and an up, each with its frame (20
    /// events), two pointer motions across surfaces, a click, a key press and release: 26.
    public static let eventsPerMixedCycle = 26

    @inline(__always)
    public func sendMixedCycle(_ step: Int) {
        send(.touchDown(TouchID(5), Self.leafPoint))
        send(.touchFrame)
        var i = 0
        while i < 8 {
            send(.touchMotion(TouchID(5), LayoutPoint(x: 60 + Double(i), y: 62)))
            send(.touchFrame)
            i += 1
        }
        send(.touchUp(TouchID(5)))
        send(.touchFrame)
        movePointerAcross(step: step)
        movePointerAcross(step: step + 1)
        send(.pointerButton(button: 0x110, state: .pressed))
        send(.pointerButton(button: 0x110, state: .released))
        send(.key(keycode: 30, state: .pressed))
        send(.key(keycode: 30, state: .released))
    }

    /// How long touch accommodations hold a finger with `underway`.
    public static let underwayHoldDuration = TimeSpan.milliseconds(1)

    /// ``putTwoFingersDown()``, then the clock moved past ``underwayHoldDuration``: with touch
    /// accommodations holding fingers, both are counted (their touches of its own go down),
    /// and each later motion of a real finger is taken and the counted one's injected. With
    /// no such filter the same fingers, the same time.
    public func holdFingersDown() {
        putTwoFingersDown()
        clock.advance(by: Self.underwayHoldDuration)
        moveFinger(0, step: 2)
        moveFinger(1, step: 3)
    }

    /// Presses the primary button where the pointer is and keeps it held: the pointer
    /// workload's motions then move with it held (a drag, with or without filters).
    public func holdPrimaryButton() {
        movePointerAcross(step: 1)
        send(.pointerButton(button: 0x110, state: .pressed))
    }

    /// Makes the leaf the first responder, for key events.
    public func focusLeaf() {
        _ = router.becomeFirstResponder(leaf)
    }

    /// The accessibility filters' names for ``addAccessibilityFilters(enabled:only:)``.
    public static let accessibilityFilterNames = ["touch", "bounce", "slow", "sticky", "secondary", "dwell", "mousekeys", "locate"]

    /// Adds the accessibility filters (issue 28) in front of everything, on or off. On, each
    /// is set so that the benchmark's events pass it whole (what they cost in front of input
    /// they do not act on): bounce keys with no delay (the scene's clock stands still, so any
    /// delay would take every repeated press), touch accommodations with no hold and no repeat
    /// window (the second finger would be a repeat), and no slow
    /// keys, which take every press by design. `only` (one of ``accessibilityFilterNames``)
    /// adds that filter alone; slow keys alone, on, take every press (it waits for a delay
    /// the scene's clock never reaches, and the release is swallowed with it).
    ///
    /// `underway` (SEATKIT_ACCESSIBILITY_UNDERWAY=1): the filters that act on motion only while
    /// something is under way have it under way: touch accommodations hold every finger for
    /// ``underwayHoldDuration`` (``holdFingersDown()`` then counts them: their motion is taken
    /// and the counted touch's injected), and simulated secondary click lets a hold of the
    /// primary button go on whatever the pointer does (``holdPrimaryButton()``: every motion
    /// is asked during the hold).
    public func addAccessibilityFilters(enabled: Bool, only: String? = nil, underway: Bool = false) {
        let all: [(String, any InputFilter)] = [
            ("touch", TouchAccommodations(holdDuration: underway ? Self.underwayHoldDuration : nil, ignoreRepeat: nil, isEnabled: enabled)),
            ("bounce", BounceKeys(delay: TimeSpan(microseconds: 0), isEnabled: enabled)),
            ("slow", SlowKeys(isEnabled: only == "slow" ? enabled : false)),
            ("sticky", StickyKeys(isEnabled: enabled)),
            ("secondary", SimulatedSecondaryClick(delay: .seconds(3600), movementThreshold: underway ? .infinity : 10, isEnabled: enabled)),
            ("dwell", DwellClick(isEnabled: enabled)),
            ("mousekeys", MouseKeys(isEnabled: enabled)),
            ("locate", LocatePointer(isEnabled: enabled)),
        ]
        precondition(only == nil || Self.accessibilityFilterNames.contains(only!), "no accessibility filter named \(only!)")
        let filters = all.filter { only == nil || $0.0 == only }.map(\.1)
        for filter in filters { router.addFilter(filter) }
    }
}
