/// A failure requirement that was refused.
public enum GestureRequirementError: Error, Equatable, CustomStringConvertible {
    /// The requirement would close a cycle: each recognizer named waits for the next to
    /// fail, and the last is the first.
    case cycle([String])

    /// A sentence naming the cycle, for logs.
    public var description: String {
        switch self {
        case .cycle(let names):
            return "require(toFail:) refused: it would make a cycle (\(names.joined(separator: " waits for ")))"
        }
    }
}

/// Where a gesture recognizer is in its life.
///
/// ```
///  possible ─► began ─► changed ─► changed … ─► ended
///     │          └──────────┴──────────────────► cancelled
///     ├─► recognized   (discrete gestures: one step)
///     └─► failed
///  ended, cancelled, recognized, failed ─► possible   (only the router's reset)
/// ```
public enum GestureRecognizerState: Sendable, Hashable, CustomStringConvertible {
    /// Watching input; nothing decided yet. Every recognizer starts and resets here.
    case possible
    /// A continuous gesture started (a pan moved far enough).
    case began
    /// A continuous gesture continues.
    case changed
    /// A continuous gesture finished normally.
    case ended
    /// A continuous gesture was stopped by something else (a touch cancel, a removed
    /// surface, another recognizer).
    case cancelled
    /// The input is not this gesture.
    case failed
    /// A discrete gesture (a tap, a swipe) happened, in one step.
    case recognized

    /// Whether a recognizer may move from `from` to `to` by setting ``GestureRecognizer/state``.
    /// Returning to `.possible` is the router's reset, never a recognizer's own move.
    public static func canTransition(from: GestureRecognizerState, to: GestureRecognizerState) -> Bool {
        switch (from, to) {
        case (.possible, .began), (.possible, .recognized), (.possible, .failed): return true
        case (.began, .changed), (.began, .ended), (.began, .cancelled): return true
        case (.changed, .changed), (.changed, .ended), (.changed, .cancelled): return true
        default: return false
        }
    }

    /// Ended, cancelled, failed or recognized: the recognizer waits for its reset.
    public var isFinal: Bool {
        switch self {
        case .ended, .cancelled, .failed, .recognized: return true
        case .possible, .began, .changed: return false
        }
    }

    /// Began or changed: a continuous gesture in progress.
    public var isInProgress: Bool { self == .began || self == .changed }

    /// The case's name, e.g. "began".
    public var description: String {
        switch self {
        case .possible: return "possible"
        case .began: return "began"
        case .changed: return "changed"
        case .ended: return "ended"
        case .cancelled: return "cancelled"
        case .failed: return "failed"
        case .recognized: return "recognized"
        }
    }
}

/// Lets an owner shape how a recognizer coordinates with others (UIKit's
/// `UIGestureRecognizerDelegate`). Every method has a default.
public protocol GestureRecognizerDelegate: AnyObject {
    /// Asked when `recognizer` is about to leave `.possible` for `.began` or `.recognized`;
    /// `false` makes it fail instead. Default: `true`.
    func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool
    /// Whether `recognizer` and `other` may both be recognized over the same touches. Asked
    /// of both recognizers' delegates; one `true` is enough. Default: `false` (the first to
    /// begin makes the other fail).
    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer) -> Bool
    /// Asked at touch down whether `recognizer` takes part in this touch at all (`touch` is
    /// in layout space and in the bound surface's space). Default: `true`.
    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldReceive touch: TouchPoint) -> Bool
}

extension GestureRecognizerDelegate {
    /// True: the recognizer begins or is recognized as it asks.
    public func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool { true }
    /// False: recognizers of the same touches exclude each other (unless the other's
    /// delegate allows it).
    public func gestureRecognizer(_ recognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer) -> Bool { false }
    /// True: the recognizer takes part in every touch of its arena.
    public func gestureRecognizer(_ recognizer: GestureRecognizer, shouldReceive touch: TouchPoint) -> Bool { true }
}

/// Watches the input of a surface's subtree (or of a whole output) before its responders
/// and decides whether it is a gesture, as UIKit's `UIGestureRecognizer`.
///
/// Attach one with ``Surface/addGestureRecognizer(_:)`` or ``Output/addGestureRecognizer(_:)``.
/// For each touch, the recognizers of the hit-test surface, of each of its ancestors and of
/// its output take part (the touch's *arena*). They see every phase of the touch before any
/// responder. Only touches routed by the default rule have an arena: a ``TouchGrab`` that
/// does not forward a touch down (``Router/routeTouch(_:)``) keeps that touch from
/// recognizers too. They coordinate:
///
/// - when one begins (or is recognized), the other recognizers of its arenas that are still
///   `.possible` fail, unless a delegate lets the pair recognize simultaneously; one that
///   wants to begin while a conflicting one is in progress fails instead;
/// - ``require(toFail:)``: a recognizer's recognition waits until another fails, and fails
///   if the other is recognized;
/// - ``cancelsTouchesInView``: on recognition the touches it took are withdrawn from the
///   responders: each responder that already saw one gets `touchesCancelled`, and none sees
///   any later phase of it;
/// - ``delaysTouchesBegan`` and ``delaysTouchesEnded``: touches are held back from the
///   responders while the recognizer is `.possible`, then delivered in order once it fails
///   (or dropped if it takes them).
///
/// Once a recognizer is in a final state and its touches are gone, the router resets it to
/// `.possible` and calls ``reset()``.
///
/// ```swift
/// let single = TapGestureRecognizer(name: "select")
/// let double = TapGestureRecognizer(name: "zoom", taps: 2)
/// single.require(toFail: double)          // a double tap is not also a tap
/// photo.addGestureRecognizer(single)
/// photo.addGestureRecognizer(double)
/// double.addTarget { _ in zoomIn() }
///
/// let admin = ScreenEdgePanGestureRecognizer(edges: .left, edgeWidth: 5)   // millimetres
/// admin.action = "admin-menu"             // sent up the chain when the pan ends
/// output.addGestureRecognizer(admin)      // global: every touch on the output
/// ```
///
/// Subclasses override the touch methods and set ``state`` following
/// ``GestureRecognizerState/canTransition(from:to:)``; an illegal transition traps, as a
/// programmer error. Locations given to recognizers are in layout space (``TouchPoint/location``).
/// Time-based recognizers use ``schedule(at:_:)``: the router's clock, so a virtual clock
/// makes them deterministic. All on the event loop's thread.
///
/// Subclassing is safe: every public property is an ordinary property to a subclass (those
/// that every touch event reads keep their storage internal and unchecked, see
/// UnsafeFoundations.swift), and the surface and output it hands out are owning references.
/// The built-in recognizers are ordinary Swift; they keep their settings in `private`
/// storage behind public properties, because the whole-module optimizer then sees every
/// access and drops Swift's runtime exclusivity checks (a public stored property must keep
/// them: other modules may access it). Measured: 7,244 against 6,904 instructions per touch
/// event in `Benchmarks/callgrind-per-event.sh`. A subclass may do the same.
open class GestureRecognizer {
    /// A name for traces.
    public var name: String {
        get { unchecked._name }
        set { unchecked._name = newValue }
    }
    /// The hot state, exempt from run-time exclusivity checks (the rules are in
    /// UnsafeFoundations.swift).
    struct HotState {
        var _name = ""
        /// `surface` and `output`, unretained (rule 1 of ``Unretained``: the surface or output
        /// clears its link when the recognizer is removed and when it goes away). Not `weak`: a
        /// weakly referenced surface pays the runtime's slow path on every retain, and touches
        /// retain their surfaces on every event.
        var surfaceLink: Unretained<Surface>?
        var outputLink: Unretained<Output>?
        /// `engagedRouter`, unretained (rule 1 of ``Unretained``: the router holds an engaged
        /// recognizer and clears the link when it resets it and in its `deinit`). Not `weak`,
        /// so that the router's reference count stays inline (issue 25).
        var engagedRouterLink: Unretained<Router>?
        var _isEnabled: Bool = true
        var _cancelsTouchesInView: Bool = true
        var _delaysTouchesBegan: Bool = false
        var _delaysTouchesEnded: Bool = true
        var _action: Action?
        var storedState = GestureRecognizerState.possible
        /// A recognition waiting for recognizers it requires to fail.
        var pendingState: GestureRecognizerState?
        var failureRequirements: [GestureRecognizer] = []
        var targets: [(GestureRecognizer) -> Void] = []
        var timers: [TimerToken] = []
        /// Deadlines of ``schedule(at:)``, one per entry of `timers` (closure timers of
        /// ``schedule(at:_:)`` have `.max`).
        var deadlines: [Timestamp] = []
        /// Backs `touches`.
        var touches: [TouchPoint] = []
        /// Bumped at every reset, so arenas of earlier gestures stop counting this recognizer.
        var generation: UInt64 = 0
        /// Has seen input since its last reset.
        var isEngaged = false
        /// Follows a touchpad gesture or a pointer press that has not ended.
        var followsPointerOrTouchpad = false
        /// A delegate was set at some point (it may have gone since): see `delegateIfSet`.
        var delegateWasSet = false
        var passMark: UInt64 = 0
        /// Its touches due in the delivery pass under way, as indices in the router's active
        /// touches: the first, how many, and the second and later ones (the first
        /// `passTouchCount - 1` entries of `passTouches`; the rest are stale, overwritten by a
        /// later pass).
        var passFirstTouch = 0
        var passTouchCount = 0
        var passTouches: [Int] = []
        /// Backs `layoutUnitsPerMillimetre`.
        var layoutUnitsPerMillimetre = Router.defaultFallbackDotsPerInch / 25.4
        /// Input kinds, priority, mask and the composite hosting it (GestureComposition.swift).
        var composition = CompositionState()
    }

    @exclusivity(unchecked) var unchecked = HotState()

    /// The touches it follows, in layout space, updated before each touch method is called.
    public var touches: [TouchPoint] { unchecked.touches }

    /// Layout units per millimetre for the device of the first touch of the current
    /// gesture, measured when it went down (see ``unitsPerMillimetre(for:)``): what the
    /// built-ins multiply their millimetre thresholds by.
    public var layoutUnitsPerMillimetre: Double { unchecked.layoutUnitsPerMillimetre }

    /// The surface it is attached to; `nil` for an output's recognizer or a detached one.
    public internal(set) var surface: Surface? {
        get { unchecked.surfaceLink?.object }
        set { unchecked.surfaceLink = newValue.map(Unretained.init) }
    }
    /// The output it is attached to as a global recognizer, if it is.
    public internal(set) var output: Output? {
        get { unchecked.outputLink?.object }
        set { unchecked.outputLink = newValue.map(Unretained.init) }
    }
    /// Shapes coordination with other recognizers; held weakly. `nil`: the delegate
    /// protocol's defaults.
    public var delegate: (any GestureRecognizerDelegate)? {
        get { _delegate }
        set {
            _delegate = newValue
            if newValue != nil { unchecked.delegateWasSet = true }
        }
    }
    /// Backs ``delegate``: private storage, so the optimizer drops the run-time exclusivity
    /// check a public stored property keeps (`swift_beginAccess`, about 75 instructions at
    /// each read: every recognizer joining a touch's arena read it; issue 25, fourteenth round).
    private weak var _delegate: (any GestureRecognizerDelegate)?

    /// ``delegate`` for the router's per-event reads: `nil` without loading the weak reference
    /// (`swift_weakLoadStrong`) when no delegate was ever set, as for most recognizers.
    var delegateIfSet: (any GestureRecognizerDelegate)? {
        @inline(__always) get { unchecked.delegateWasSet ? _delegate : nil }
    }
    /// A disabled recognizer takes part in no input. Disabling one that follows input stops
    /// it at once, as UIKit does: in progress it is cancelled, possible it fails (a recognition
    /// waiting for others included), its targets hear it, it resets and leaves its touches,
    /// and the touch phases it held back go on to the responders. A part of a composite
    /// stops the same way inside its composite. Enabling it again takes effect at the next
    /// touch, pen stroke, press or touchpad gesture.
    public var isEnabled: Bool {
        get { unchecked._isEnabled }
        set {
            let wasEnabled = unchecked._isEnabled
            unchecked._isEnabled = newValue
            if wasEnabled && !newValue { stopBecauseDisabled() }
        }
    }
    /// On recognition, withdraw its touches from the responders (they get `touchesCancelled`
    /// if they saw them; for client surfaces that becomes `wl_touch.cancel`). Default: `true`.
    public var cancelsTouchesInView: Bool {
        get { unchecked._cancelsTouchesInView }
        set { unchecked._cancelsTouchesInView = newValue }
    }
    /// Hold `touchesBegan` (and every later phase) back from the responders while this
    /// recognizer is `.possible`. Default: `false`.
    public var delaysTouchesBegan: Bool {
        get { unchecked._delaysTouchesBegan }
        set {
            unchecked._delaysTouchesBegan = newValue
            // Its routers forget which arenas they found delaying no begin or move
            // (`GestureArena.HotState.undelayedPass`).
            noteDelaySettingEdit()
        }
    }
    /// Hold `touchesEnded` back from the responders while this recognizer is `.possible`
    /// (a tap waiting for its second tap). Default: `true`, as in UIKit.
    public var delaysTouchesEnded: Bool {
        get { unchecked._delaysTouchesEnded }
        set {
            unchecked._delaysTouchesEnded = newValue
            // Held ends it no longer delays go at the next settle (`settleHeldGestures` skips
            // one with no such edit).
            noteDelaySettingEdit()
        }
    }

    /// A delay setting changed: bumps `delaySettingEdits` of the router that follows this
    /// recognizer and of the one its surface is in (the same but for a surface moved to
    /// another router mid-gesture).
    private func noteDelaySettingEdit() {
        unchecked.engagedRouterLink?.with { $0.gestures.unchecked.delaySettingEdits &+= 1 }
        router?.gestures.unchecked.delaySettingEdits &+= 1
    }
    /// Sent when the gesture is recognized (a discrete one) or ends (a continuous one): to
    /// the attached surface's responder if it can perform it, else up the chain from the first
    /// responder (see ``Router/sendAction(_:to:)``).
    public var action: Action? {
        get { unchecked._action }
        set { unchecked._action = newValue }
    }

    /// How far a compositor gesture has come toward its commit threshold, 0...1, while the
    /// fingers move (KWin's global gestures): an effect that follows the finger reads it at
    /// each `.began` and `.changed`. At `.ended` the gesture commits; at `.cancelled` the
    /// effect undoes what it showed (a lift short of the threshold, a cancelled touch, a
    /// removed surface). The built-ins that have a commit threshold set it
    /// (``SwipeGestureRecognizer/reportsProgress``, ``ScreenEdgePanGestureRecognizer/commitDistance``,
    /// ``PinchGestureRecognizer/commitScaleChange``, ``TouchpadSwipeGestureRecognizer/commitDistance``,
    /// ``TouchpadPinchGestureRecognizer/commitScaleChange``); others leave it 0. A subclass may
    /// set it; values are clamped to 0...1. The router's reset sets it back to 0.
    public var progress: Double {
        get { storedProgress }
        set { storedProgress = newValue.isNaN ? 0 : min(1, max(0, newValue)) }
    }
    private var storedProgress = 0.0

    /// The one timer action of ``schedule(at:)``, made at its first use.
    private var deadlineAction: (() -> Void)?
    /// Timer firings in a row that came before any deadline.
    private var earlyFirings = 0
    /// What its timer actions keep instead of `[weak self]`, made at the first timer
    /// (``RecognizerHandle``: no side table for the recognizer).
    private var storedTimerHandle: RecognizerHandle?
    private var timerHandle: RecognizerHandle {
        if let handle = storedTimerHandle { return handle }
        let handle = RecognizerHandle(self)
        storedTimerHandle = handle
        return handle
    }

    /// A detached recognizer in `.possible`, with UIKit's defaults (cancels touches in view,
    /// delays touches ended, not touches began). `name` appears in traces.
    public init(name: String) {
        unchecked._name = name
        unchecked.touches.reserveCapacity(5)
        // A long press's first timer otherwise grew both from empty inside the first touch
        // (with the arrays' metadata instantiated then: ~25,000 instructions, issue 24).
        unchecked.timers.reserveCapacity(2)
        unchecked.deadlines.reserveCapacity(2)
    }

    deinit {
        // Its timers that have not fired find no recognizer (``RecognizerHandle``).
        storedTimerHandle?.detach()
    }

    /// The router of the surface or output it is attached to.
    /// A part of a composed recognizer has its composite's.
    public var router: Router? { surface?.output?.router ?? output?.router ?? unchecked.composition.host?.object.coordinatingRouter }
    /// The router whose input it follows since its last reset; it stays set when the
    /// surface is removed mid-gesture, so that the gesture can still end through it.
    var engagedRouter: Router? {
        get { unchecked.engagedRouterLink?.object }
        set { unchecked.engagedRouterLink = newValue.map(Unretained.init) }
    }
    var coordinatingRouter: Router? { engagedRouter ?? router }

    /// The state. Subclasses set it (and only they should); the router may defer a
    /// recognition (require-to-fail), turn it into `.failed` (a delegate refused, a
    /// conflicting gesture is in progress), and sends the targets each transition.
    /// An illegal transition traps.
    public var state: GestureRecognizerState {
        get { unchecked.storedState }
        set {
            precondition(GestureRecognizerState.canTransition(from: unchecked.storedState, to: newValue),
                         "illegal gesture transition \(unchecked.storedState) -> \(newValue) in \(name)")
            if let host = unchecked.composition.host {
                // A part of a composed recognizer: its composite decides.
                host.object.part(self, requests: newValue)
            } else if let link = unchecked.engagedRouterLink, link.with({ $0.unchecked.touches.loops > 0 }) {
                // Set from inside one of its router's touch loops (a recognizer's
                // `touchesBegan`, `touchesMoved` or `touchesEnded` during a delivery pass: every
                // failure at a lift): the router is reached unretained. Rule 4 of `Unretained`:
                // the router is running one of its own calls, whose caller keeps it alive until
                // that call returns, which is after this one. Through `coordinatingRouter`, a
                // retain and a release of the router per transition (about 40 instructions;
                // issue 25, fifteenth round). Elsewhere (a timer, the compositor's own code)
                // the router is held as before.
                link.with { $0.gestureRecognizer(self, requests: newValue) }
            } else if let router = coordinatingRouter {
                router.gestureRecognizer(self, requests: newValue)
            } else {
                unchecked.storedState = newValue
                if newValue.isFinal { didSettle() }
            }
        }
    }

    /// True while its recognition waits for a recognizer it requires to fail.
    public var isWaitingForFailure: Bool { unchecked.pendingState != nil }

    /// Calls `handler` after every transition (the router's resets excepted), with this
    /// recognizer. Handlers run on the event loop's thread and may change the tree.
    public func addTarget(_ handler: @escaping (GestureRecognizer) -> Void) {
        unchecked.targets.append(handler)
    }

    /// Makes this recognizer's recognition wait until `other` fails; if `other` is recognized
    /// instead, this one fails. Only counts while `other` is following input: an idle `other`
    /// counts as failed.
    ///
    /// - Throws: ``GestureRequirementError`` when the requirement would make a recognizer
    ///   wait for itself, directly or through others (each would wait for the other forever);
    ///   nothing is changed then.
    public func require(toFail other: GestureRecognizer) throws(GestureRequirementError) {
        if other === self { throw .cycle([name, name]) }
        if let path = other.requirementPath(to: self) {
            throw .cycle([name] + path.map(\.name))
        }
        if unchecked.failureRequirements.scanIndex(where: { $0 === other }) == nil { unchecked.failureRequirements.append(other) }
    }

    /// The recognizers from this one to `target` through failure requirements (this one
    /// first, `target` last), if `target` can be reached.
    /// Follows failure requirements and inhibitions (``inhibitUntilCancelled(_:)``) alike.
    func requirementPath(to target: GestureRecognizer) -> [GestureRecognizer]? {
        var visited: Set<ObjectIdentifier> = []
        var path: [GestureRecognizer] = []
        func visit(_ node: GestureRecognizer) -> Bool {
            path.append(node)
            if node === target { return true }
            if visited.insert(ObjectIdentifier(node)).inserted {
                if node.forEachAwaited(visit) { return true }
            }
            path.removeLast()
            return false
        }
        return visit(self) ? path : nil
    }

    /// Runs `body` at `deadline` on the router's clock, unless the recognizer resets first.
    /// Does nothing when detached. The router settles held touches after `body`.
    public func schedule(at deadline: Timestamp, _ body: @escaping () -> Void) {
        guard let router else { return }
        var token: TimerToken?
        // The router through its handle, not weakly: a weak reference would give the router a
        // side table, and every retain of it on every event's path the runtime's slow path.
        // The recognizer through its handle too, not `[weak self]`: a weak reference would
        // give it a side table, and the router retains and releases a touch's recognizers at
        // its down, its transitions and its reset (``RecognizerHandle``).
        token = router.clock.schedule(at: deadline) { [recognizer = timerHandle, handle = router.handle] in
            guard let recognizer = recognizer.recognizer else { return }
            if let token, let index = recognizer.unchecked.timers.scanIndex(of: token) {
                recognizer.unchecked.timers.remove(at: index)
                recognizer.unchecked.deadlines.remove(at: index)
            }
            body()
            handle.router?.settleAfterGestureTimer()
        }
        if let token {
            unchecked.timers.append(token)
            unchecked.deadlines.append(Timestamp(microseconds: .max))
        }
    }

    /// Calls ``deadlineReached()`` at `deadline` on the router's clock, unless the recognizer
    /// resets first. Unlike ``schedule(at:_:)`` it allocates nothing once warm (one timer
    /// action per recognizer, made at the first call): what the built-in time-based
    /// recognizers use, once per gesture. Does nothing when detached. The router settles
    /// held touches after ``deadlineReached()``.
    public func schedule(at deadline: Timestamp) {
        // The clock through the links, not `router` (which retained and released the surface,
        // the output and the router), and the action made once and read in place, not copied
        // out of its optional (two outlined copies and four releases a call): about 300
        // instructions per long press's touch down (the wlroots kiosk's; issue 25,
        // seventeenth round).
        // The clock used in place, where the router keeps it (`Router.clock`, a constant):
        // copied out of it first, the existential was retained and released around the
        // call (issue 25, eighteenth round).
        let token = withRouterClock { clock -> TimerToken in
            // A pattern, not `== nil`: in debug builds the generic comparison reabstracted the
            // closure, an allocation per call (GestureAllocationTests).
            if case .none = deadlineAction {
                // Through the handle, not `[weak self]` (see ``schedule(at:_:)``).
                deadlineAction = { [recognizer = timerHandle] in recognizer.recognizer?.deadlineTimerFired() }
            }
            return clock.schedule(at: deadline, deadlineAction!)
        }
        guard let token else { return }
        unchecked.timers.append(token)
        unchecked.deadlines.append(deadline)
    }

    /// `body` with the clock of ``router``, read where the router keeps it; `nil` without
    /// calling `body` when detached. A surface's or output's recognizer reads it through the
    /// unretained links (rule 1 of ``Unretained``: the surface, the output and the router
    /// clear them when the recognizer is removed or they go away), with no retain and release
    /// of each; a composite's part, or a surface outside any layout, asks `router`.
    @inline(__always)
    private func withRouterClock<Result>(_ body: (any Clock) -> Result) -> Result? {
        if let surfaceLink = unchecked.surfaceLink {
            if let routerLink = surfaceLink.with({ $0.unchecked.outputLink })?.with({ $0.unchecked.routerLink }) {
                return routerLink.with { body($0.clock) }
            }
        } else if let outputLink = unchecked.outputLink, let routerLink = outputLink.with({ $0.unchecked.routerLink }) {
            return routerLink.with { body($0.clock) }
        }
        guard let router else { return nil }
        return body(router.clock)
    }

    private func deadlineTimerFired() {
        guard let router = coordinatingRouter else { return }
        // The clock runs a timer at or after its deadline: forget every deadline now due.
        let now = router.clock.now
        var i = 0
        var fired = false
        while i < unchecked.deadlines.count {
            if unchecked.deadlines[i] <= now, i < unchecked.timers.count {
                unchecked.deadlines.remove(at: i)
                unchecked.timers.remove(at: i)
                fired = true
            } else {
                i += 1
            }
        }
        // A clock that keeps firing early at the same time would re-arm forever: after a
        // few tries, the earliest deadline counts as reached.
        if !fired, earlyFirings >= 8, !unchecked.deadlines.isEmpty {
            var earliest = 0
            var k = 1
            while k < unchecked.deadlines.count {
                if unchecked.deadlines[k] < unchecked.deadlines[earliest] { earliest = k }
                k += 1
            }
            unchecked.deadlines.remove(at: earliest)
            unchecked.timers.remove(at: earliest)
            fired = true
        }
        guard fired else {
            earlyFirings += 1
            // The clock fired before the deadline (one that rounds waits down): arm again for
            // the earliest deadline still pending, so that none is lost.
            var earliest: Timestamp?
            var k = 0
            while k < unchecked.deadlines.count {
                let d = unchecked.deadlines[k]
                if d.microseconds != .max, earliest.map({ d < $0 }) ?? true { earliest = d }
                k += 1
            }
            if let earliest, let action = deadlineAction {
                unchecked.timers.append(router.clock.schedule(at: earliest, action))
                unchecked.deadlines.append(earliest)
            }
            return
        }
        earlyFirings = 0
        deadlineReached()
        router.settleAfterGestureTimer()
    }

    /// A deadline set with ``schedule(at:)`` passed (called once per deadline, on the router's
    /// clock, never early). Default: nothing. Without an override, ``schedule(at:)`` has no
    /// effect beyond settling held touches.
    open func deadlineReached() {}

    /// Cancels every timer of ``schedule(at:_:)`` and ``schedule(at:)`` that has not fired.
    public func cancelTimers() {
        if let router = coordinatingRouter { unchecked.timers.scan { token in router.clock.cancel(token) } }
        unchecked.timers.removeAll(keepingCapacity: true)
        unchecked.deadlines.removeAll(keepingCapacity: true)
    }

    /// Moves a still-possible recognizer to `.failed`; does nothing in any other state.
    public func failIfPossible() {
        if unchecked.storedState == .possible { state = .failed }
    }

    /// The centroid of ``touches`` in layout space (`.zero` without touches).
    public var centroid: LayoutPoint {
        // Inlined: a recognizer reads it per motion (the pan, per recognizer on the chain;
        // issue 25, seventh round).
        @inline(__always) get {
            // One read of the array for the whole sum: indexing a class's array property in a
            // loop retains and releases its buffer at each step.
            unchecked.touches.withUnsafeBufferPointer { touches in
                guard !touches.isEmpty else { return .zero }
                var x = 0.0, y = 0.0
                var i = 0
                while i < touches.count {
                    x += touches[i].location.x
                    y += touches[i].location.y
                    i += 1
                }
                let n = Double(touches.count)
                return LayoutPoint(x: x / n, y: y / n)
            }
        }
    }

    /// Layout units per millimetre for `touch`'s device on this recognizer's output, or the
    /// router's fallback (see ``Router/fallbackDotsPerInch``).
    public func unitsPerMillimetre(for touch: TouchPoint) -> Double {
        guard let router = coordinatingRouter else { return Router.defaultFallbackDotsPerInch / 25.4 }
        return router.unitsPerMillimetre(device: touch.device, at: touch.location)
    }

    // MARK: Overridables. Overrides need not call super unless stated.

    /// New touches of its arenas, in one frame, before any responder sees them; they are in
    /// ``touches`` already. Locations in layout space,
    /// `surfaceLocation` in the bound surface's space. Default: nothing.
    open func touchesBegan(_ event: TouchEvent) {}
    /// Moved touches. Default: nothing.
    open func touchesMoved(_ event: TouchEvent) {}
    /// Lifted touches; they leave ``GestureRecognizer/touches`` after this call. Default:
    /// nothing.
    open func touchesEnded(_ event: TouchEvent) {}
    /// Cancelled touches (device cancel, removed surface). Default: a gesture in progress is
    /// cancelled, a possible one fails. If an override leaves the recognizer in progress
    /// or possible once it has no touches left, the router does the same for it.
    open func touchesCancelled(_ event: TouchEvent) {
        if state.isInProgress { state = .cancelled } else if state == .possible { state = .failed }
    }
    /// Whether it takes part in touches. Default: `true`.
    open var receivesTouches: Bool { true }
    /// Whether it takes part in touchpad gestures (libinput's swipe, pinch and hold).
    /// Default: `false`.
    open var receivesTouchpadGestures: Bool { false }
    /// A touchpad gesture event aimed at the pointer focus of its subtree, before the
    /// responders. Default: nothing.
    open func touchpadGesture(_ event: TouchpadGestureEvent) {}
    /// Whether it takes part in pointer presses: from the press that starts the implicit
    /// grab to the release that ends it, it sees the buttons and motion aimed at the focus
    /// of its subtree, before the responders. Default: `false`.
    open var receivesPointerEvents: Bool { false }
    /// The kinds of input it can follow (see ``GestureInputKinds``); it follows those of
    /// them in ``allowedInputKinds``. Default: touch if ``receivesTouches``, touchpad if
    /// ``receivesTouchpadGestures``, pointer if ``receivesPointerEvents``. A recognizer that
    /// follows touches may add ``GestureInputKinds/pen`` and ``GestureInputKinds/pointer``:
    /// a pen stroke or a left-button drag then reaches its touch methods as one touch.
    open var supportedInputKinds: GestureInputKinds { defaultSupportedInputKinds }
    /// A pointer button, with locations in layout space and the focus's space. Default:
    /// nothing.
    open func pointerButton(_ event: PointerButtonEvent) {}
    /// Pointer motion while a button is held. Default: nothing.
    open func pointerMoved(_ event: PointerMotionEvent) {}
    /// Called when the router's arena rules (``Router/gestureArenaRules``) give this
    /// recognizer the win: the other members of the arena that were still possible have failed.
    /// Default: nothing more; the recognizer goes on by its own rules (a recognition that was
    /// waiting for them to fail goes ahead now). A subclass that, like Flutter's recognizers,
    /// acts on winning may begin or be recognized here.
    open func gestureArenaWon() {}
    /// Clears per-gesture state; called by the router after it has moved the state back to
    /// `.possible` and cancelled the timers. Default: nothing. An override that does not
    /// clear its own state carries it into the next gesture.
    open func reset() {}

    // MARK: Router side

    /// Reached a final state, and its targets have heard it. Default: nothing; a composite
    /// cancels its parts still in progress (GestureComposition.swift).
    func didSettle() {}

    /// `isEnabled` went from true to false.
    private func stopBecauseDisabled() {
        if let composite = unchecked.composition.host?.object {
            let s = unchecked.storedState
            if s.isInProgress { composite.part(self, requests: .cancelled) } else if s == .possible { composite.part(self, requests: .failed) }
            return
        }
        guard let router = coordinatingRouter else {
            if unchecked.storedState.isInProgress { unchecked.storedState = .cancelled; didSettle() }
            return
        }
        router.gestureRecognizerWasDisabled(self)
    }

    func detachFromHost() {
        if let surface { surface.removeGestureRecognizer(self) }
        if let output { output.removeGestureRecognizer(self) }
        // A part attached elsewhere leaves its composite (GestureComposition.swift).
        if let composite = unchecked.composition.host?.object { composite.release(self) }
    }

    func beginTouches(_ event: TouchEvent) {
        // An index, not `first`: unspecialized in debug builds, `first` allocates.
        if unchecked.touches.isEmpty, !event.touches.isEmpty {
            unchecked.layoutUnitsPerMillimetre = unitsPerMillimetre(for: event.touches[0])
        }
        appendTouchesAndBegin(event)
    }

    /// ``beginTouches(_:)`` from a delivery pass of `router`, which is running it (so it is
    /// alive for the call): the scale is asked of `router` itself when it is the one this
    /// recognizer follows (`coordinatingRouter`), with no retain and release of it
    /// (through `coordinatingRouter`, about 40 instructions per recognizer and touch down;
    /// issue 25, fifteenth round); of `coordinatingRouter` otherwise, as before.
    @inline(never)
    func beginTouches(_ event: TouchEvent, in router: Router) {
        if unchecked.touches.isEmpty, !event.touches.isEmpty {
            if unchecked.engagedRouterLink?.refers(to: router) == true {
                let touch = event.touches[0]
                unchecked.layoutUnitsPerMillimetre = router.unitsPerMillimetre(device: touch.device, at: touch.location)
            } else {
                unchecked.layoutUnitsPerMillimetre = unitsPerMillimetre(for: event.touches[0])
            }
        }
        appendTouchesAndBegin(event)
    }

    @inline(__always)
    private func appendTouchesAndBegin(_ event: TouchEvent) {
        var i = 0
        while i < event.touches.count {
            unchecked.touches.append(event.touches[i])
            i += 1
        }
        touchesBegan(event)
    }

    func moveTouches(_ event: TouchEvent) {
        updateTouches(event)
        touchesMoved(event)
    }

    func endTouches(_ event: TouchEvent) {
        updateTouches(event)
        touchesEnded(event)
        forgetTouches(event)
    }

    func cancelTouches(_ event: TouchEvent) {
        updateTouches(event)
        touchesCancelled(event)
        forgetTouches(event)
    }

    func updateTouches(_ event: TouchEvent) {
        // One access to each array for the whole update (no retain, release or uniqueness
        // check per touch).
        event.touches.withUnsafeBufferPointer { points in
            unchecked.touches.withUnsafeMutableBufferPointer { mine in
                // One moved touch (the usual motion): one scan, without the outer loop.
                if points.count == 1 {
                    let point = points[0]
                    var i = 0
                    while i < mine.count {
                        if mine[i].id == point.id { mine[i] = point }
                        i &+= 1
                    }
                    return
                }
                var j = 0
                while j < points.count {
                    let id = points[j].id
                    var i = 0
                    while i < mine.count {
                        if mine[i].id == id { mine[i] = points[j] }
                        i += 1
                    }
                    j += 1
                }
            }
        }
    }

    func forgetTouches(_ event: TouchEvent) {
        // One lifted touch and one touch of its own (a lone finger's lift, every tap): one
        // comparison, without the loops (issue 25, fifteenth round: measured at about 2
        // instructions per recognizer and lift, 225 -> 219 a tap beside the switch).
        if event.touches.count == 1 && unchecked.touches.count == 1 {
            if unchecked.touches[0].id == event.touches[0].id { unchecked.touches.removeLast() }
            return
        }
        var j = 0
        while j < event.touches.count {
            let id = event.touches[j].id
            var i = 0
            while i < unchecked.touches.count {
                if unchecked.touches[i].id == id {
                    // The last one (a lone finger, or the latest of several) by `removeLast`:
                    // `remove(at:)` is a generic call of about 90 instructions.
                    if i == unchecked.touches.count - 1 { unchecked.touches.removeLast() } else { unchecked.touches.remove(at: i) }
                } else {
                    i += 1
                }
            }
            j += 1
        }
    }

    /// Ready to be reset: final and following no input.
    var isSettled: Bool { unchecked.storedState.isFinal && unchecked.touches.isEmpty && !unchecked.followsPointerOrTouchpad }

    func conflicts(with other: GestureRecognizer) -> Bool {
        if delegateIfSet?.gestureRecognizer(self, shouldRecognizeSimultaneouslyWith: other) == true { return false }
        if other.delegateIfSet?.gestureRecognizer(other, shouldRecognizeSimultaneouslyWith: self) == true { return false }
        return true
    }
}

extension GestureRecognizer {
    /// Whether a touch of `event` is more than `millimetres` from where it went down (the
    /// allowable movement of a tap or a long press that has not begun).
    func anyTouch(in event: TouchEvent, movedBeyond millimetres: Double) -> Bool {
        let limit = millimetres * unchecked.layoutUnitsPerMillimetre
        var i = 0
        while i < event.touches.count {
            let touch = event.touches[i]
            if touch.location.vector(from: touch.startLocation).length > limit { return true }
            i += 1
        }
        return false
    }

    /// The end of a two-finger continuous gesture (pinch, rotation), at lifted touches: once
    /// fewer than two fingers remain, a gesture in progress ends (or, when `commits` is
    /// false, is cancelled: it fell short of its commit threshold) and a possible one fails.
    /// `freeze` runs just before the end, to keep the velocity that targets read at the end.
    func endWhenFewerThanTwoRemain(_ event: TouchEvent, commits: Bool = true, freeze: () -> Void) {
        guard unchecked.touches.count - event.touches.count < 2 else { return }
        if state.isInProgress {
            freeze()
            state = commits ? .ended : .cancelled
        } else {
            // Too few fingers left to start: fail now rather than hold the lifted
            // finger's touchesEnded back until the last one lifts.
            failIfPossible()
        }
    }
}

extension GestureRecognizer: CustomStringConvertible {
    /// "name@surface", "name@output:NAME", or the name when detached.
    public var description: String {
        if let surface { return "\(name)@\(surface.name)" }
        if let output { return "\(name)@output:\(output.name)" }
        return name
    }
}
