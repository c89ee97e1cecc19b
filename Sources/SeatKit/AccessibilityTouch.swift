/// Touch accommodations (iOS's name): a touch counts only after it has been held for
/// ``holdDuration``, and touches that begin within ``ignoreRepeat`` after a counted one are
/// ignored (they count as that one). For people whose touches land unsteadily, brush the
/// screen, or tap several times where they meant once. An ``InputFilter``: add it with
/// ``Router/addFilter(_:)``, first among the filters that act on touches.
///
/// A real touch is taken whole when it goes down (nothing of it reaches grabs, recognizers
/// or responders). Once held for ``holdDuration`` on the router's clock, a touch of its own
/// (``device``, a touch ID of ``syntheticIDBase`` plus the finger's) goes down where the
/// finger is then, follows its motion and lifts or is cancelled with it: apps see a touch
/// that begins after the hold. A finger that lifts sooner never reaches them. With no hold
/// duration, touches pass as they are (the repeat window still applies). Layout space.
///
/// Where it stands among the filters matters: the filters **before** it see the real
/// fingers (and may take them: it never sees those), not the counted touches; the filters
/// **after** it, then grabs, recognizers and responders, see the counted touches and not
/// the real fingers it took. Its counted touches are routed from it onwards
/// (`Router.injectTouch(_:afterFilter:)`, internal), not injected in front of every filter again.
/// Called by another filter instead of added to the router, it injects them through
/// ``Router/inject(_:)`` (every filter then sees them; it passes its own).
///
/// Off (``isEnabled`` false), every touch passes. Turning it off cancels the touches of its
/// own that are down (apps hear `touchesCancelled`) and drops the holds under way; turning it
/// on while a finger is down leaves that finger alone (its motion and lift pass).
public final class TouchAccommodations: InputFilter {
    /// What happened to a held touch, for a visual cue (iOS shows a shrinking circle).
    public enum HoldOutcome: Sendable, Hashable {
        /// The finger went down: the hold began.
        case began
        /// Held long enough: the touch reaches apps from here on.
        case counted
        /// Lifted before the hold duration, ignored as a repeat, or the filter turned off.
        case rejected
    }

    /// The device the counted touches come from.
    public static let device = DeviceID(0x5EA7_A11F)
    /// Added to a finger's touch ID for the counted touch that stands for it.
    public static let syntheticIDBase: Int32 = 0x4000_0000

    /// Whether touches are held and repeats ignored. Turning it off cancels the counted
    /// touches that are down.
    public var isEnabled: Bool {
        get { enabled }
        set {
            guard newValue != enabled else { return }
            enabled = newValue
            if !newValue { releaseAll() }
        }
    }
    /// How long a finger must stay down before its touch counts; `nil`: at once.
    public var holdDuration: TimeSpan? {
        get { unchecked.holdDuration }
        set { unchecked.holdDuration = newValue }
    }
    /// How long after a counted touch begins further touches are ignored; `nil`: none are.
    public var ignoreRepeat: TimeSpan? {
        get { unchecked.ignoreRepeat }
        set { unchecked.ignoreRepeat = newValue }
    }
    /// Told each hold's finger, location (layout space) and outcome.
    public var onHold: ((_ id: TouchID, _ location: LayoutPoint, _ outcome: HoldOutcome) -> Void)?

    struct Held {
        var id: TouchID
        var location: LayoutPoint
        var deadline: Timestamp
        var timer: TimerToken?
        /// The counted touch, once the hold is over.
        var counted: Bool
    }

    /// Backs `isEnabled`: whether the router asks this filter at all (off, it passes every
    /// event without being called: UnsafeFoundations.swift, `FilterSwitch`). It is asked
    /// about touch downs, and about the rest of touches only while it holds a finger (it
    /// passes the rest of every other touch without a look).
    let filterSwitch: FilterSwitch
    private var enabled: Bool {
        @inline(__always) get { filterSwitch.unchecked.isAsked }
        set { filterSwitch.isAsked = newValue }
    }
    /// What each touch event reads and writes, exempt from run-time exclusivity checks (the
    /// rules are in UnsafeFoundations.swift; no access spans a call out).
    struct HotState {
        var holdDuration: TimeSpan?
        var ignoreRepeat: TimeSpan?
        var held: [Held] = []
        /// Counted touches may not begin before this (the repeat window).
        var ignoreUntil: Timestamp?
    }
    @exclusivity(unchecked) var unchecked: HotState
    /// The router it was last asked by, without a weak reference (``RouterHandle``).
    private var routerHandle: RouterHandle?
    private var router: Router? {
        get { routerHandle?.router }
        set { if routerHandle !== newValue?.handle { routerHandle = newValue?.handle } }
    }
    /// Made once, so that a touch allocates no closure.
    private lazy var timerAction: () -> Void = { [weak self] in self?.holdsEnded() }

    /// A filter holding touches for `holdDuration` and ignoring touches within
    /// `ignoreRepeat` of a counted one (`nil` turns either off).
    public init(holdDuration: TimeSpan? = .milliseconds(100), ignoreRepeat: TimeSpan? = nil, isEnabled: Bool = true) {
        unchecked = HotState(holdDuration: holdDuration, ignoreRepeat: ignoreRepeat)
        filterSwitch = FilterSwitch(isAsked: isEnabled, interests: .touchDowns)
        unchecked.held.reserveCapacity(10)
    }

    /// The counted touch that stands for finger `id`.
    public static func countedID(for id: TouchID) -> TouchID { TouchID(id.rawValue &+ syntheticIDBase) }

    public func filter(_ event: InputEvent, router: Router) -> FilterDecision {
        filter(event, router: router, at: router.unchecked.filterList.index(of: self))
    }

    /// ``filter(_:router:)`` knowing its place among the router's asked filters (`nil`: not
    /// among them, as when another filter calls it): what the router calls, with the index of
    /// the asking under way, so that the counted touch's motion is routed from here without
    /// a lookup.
    func filter(_ event: InputEvent, router: Router, at filterIndex: Int?) -> FilterDecision {
        // Its own touches pass (they reach it only when it was not among the router's filters
        // as it routed them); a real finger's events are taken once its down was.
        if event.device == Self.device { return .pass }
        switch event.kind {
        case .touchDown(let id, let point):
            guard enabled else { return .pass }
            self.router = router
            let now = router.clock.now
            if let until = unchecked.ignoreUntil, now < until {
                onHold?(id, point, .rejected)
                return .consume
            }
            guard let duration = unchecked.holdDuration, duration.microseconds > 0 else {
                startRepeatWindow(at: now)
                return .pass
            }
            let deadline = now + duration
            let timer = router.clock.schedule(at: deadline, timerAction)
            unchecked.held.append(Held(id: id, location: point, deadline: deadline, timer: timer, counted: false))
            heldChanged()
            onHold?(id, point, .began)
            return .consume
        case .touchMotion(let id, let point):
            guard let index = unchecked.held.scanIndex(where: { $0.id == id }) else { return .pass }
            unchecked.held[index].location = point
            if unchecked.held[index].counted {
                route(InputEvent(time: event.time, device: Self.device, .touchMotion(Self.countedID(for: id), point)), router: router, after: filterIndex)
            }
            return .consume
        case .touchUp(let id), .touchCancel(let id):
            guard let index = unchecked.held.scanIndex(where: { $0.id == id }) else { return .pass }
            let finger = unchecked.held.remove(at: index)
            heldChanged()
            if finger.counted {
                let counted = Self.countedID(for: id)
                let kind: InputEvent.Kind
                if case .touchUp = event.kind { kind = .touchUp(counted) } else { kind = .touchCancel(counted) }
                route(InputEvent(time: event.time, device: Self.device, kind), router: router, after: filterIndex)
            } else {
                if let timer = finger.timer { router.clock.cancel(timer) }
                onHold?(id, finger.location, .rejected)
            }
            return .consume
        default:
            return .pass
        }
    }

    /// Routes an event of a counted touch: past this filter and the ones before it (they saw
    /// the finger itself), through the filters after it, grabs and the default rule
    /// (``Router/injectTouch(_:afterFilter:)``); through every filter when it is not among the
    /// router's (`index` nil: the event is then injected, and this filter passes it).
    private func route(_ event: InputEvent, router: Router, after index: Int?) {
        if let index { router.injectTouch(event, afterFilter: index) } else { router.inject(event) }
    }

    /// The events it acts on: touch downs, and the rest of touches while it holds a finger.
    private func heldChanged() {
        filterSwitch.interests = unchecked.held.isEmpty ? .touchDowns : FilterInterests.touchDowns.union(.touches)
    }

    private func startRepeatWindow(at now: Timestamp) {
        if let window = unchecked.ignoreRepeat, window.microseconds > 0 { unchecked.ignoreUntil = now + window }
    }

    /// Ends the holds whose duration has passed, in the order their fingers went down.
    private func holdsEnded() {
        guard let router else { return }
        while true {
            let now = router.clock.now
            guard let index = unchecked.held.scanIndex(where: { !$0.counted && $0.timer != nil && $0.deadline <= now }) else { break }
            holdEnded(at: index, router: router)
        }
    }

    private func holdEnded(at index: Int, router: Router) {
        let id = unchecked.held[index].id
        unchecked.held[index].timer = nil
        let now = router.clock.now
        if let until = unchecked.ignoreUntil, now < until {
            // Another touch counted meanwhile: this one is a repeat of it.
            let finger = unchecked.held.remove(at: index)
            heldChanged()
            onHold?(id, finger.location, .rejected)
            return
        }
        unchecked.held[index].counted = true
        startRepeatWindow(at: now)
        let location = unchecked.held[index].location
        onHold?(id, location, .counted)
        let filterIndex = router.unchecked.filterList.index(of: self)
        route(InputEvent(time: now, device: Self.device, .touchDown(Self.countedID(for: id), location)),
              router: router, after: filterIndex)
        // Its motion needs no more of this filter than the counted touch's motion, routed
        // past it: the router does that without asking it (the location is read only before
        // a touch counts).
        if filterIndex != nil { router.followFinger(id, asTouch: Self.countedID(for: id), device: Self.device, byFilter: self) }
        router.inject(InputEvent(time: now, device: Self.device, .touchFrame))
    }

    /// Cancels the counted touches that are down and drops the holds under way.
    private func releaseAll() {
        let fingers = unchecked.held
        unchecked.held.removeAll(keepingCapacity: true)
        heldChanged()
        unchecked.ignoreUntil = nil
        guard let router else { return }
        router.stopFollowingFingers(byFilter: self)
        var cancelled = false
        let filterIndex = router.unchecked.filterList.index(of: self)
        for finger in fingers {
            if finger.counted {
                route(InputEvent(time: router.clock.now, device: Self.device, .touchCancel(Self.countedID(for: finger.id))), router: router, after: filterIndex)
                cancelled = true
            } else {
                if let timer = finger.timer { router.clock.cancel(timer) }
                onHold?(finger.id, finger.location, .rejected)
            }
        }
        if cancelled { router.inject(InputEvent(time: router.clock.now, device: Self.device, .touchFrame)) }
    }
}

// Off, the router passes over them without a call (UnsafeFoundations.swift).
extension TouchAccommodations: SwitchedFilter {}
