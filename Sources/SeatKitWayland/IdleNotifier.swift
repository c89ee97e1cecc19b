import CWaylandServer
import SeatKit
import SeatKitSystem

// ext-idle-notify-v1 (swayidle: blank the screen, lock after a while) and
// zwp_idle_inhibit_manager_v1 (a video player keeps the screen on), on the router's clock.
//
// Activity is what the router's spies see: every injected event but device announcements,
// consumed by a filter or not (a touch's down, motions and up noted at the frame that ends
// them: see `IdleSpy`). The spy only notes the time (nothing allocated per event); each
// notification's timer, on the router's clock, checks when it fires whether the seat has been
// idle for the client's timeout, and re-arms for the rest otherwise.

/// `ext_idle_notifier_v1` (version 1) and `zwp_idle_inhibit_manager_v1` (version 1) for one
/// ``Seat``, for any compositor.
///
/// A client asks to be told when the seat has had no input for its timeout (`idled`) and when
/// input comes again (`resumed`). Input is what the router's spies see (an `InputSpy` this
/// object adds): every event given to the router's `inject(_:)` but device announcements,
/// whether a filter took it or not; a touch's down, motions and up count at the touch frame
/// that ends them (the notifier's spy). Time is the router's clock (a `VirtualClock` in tests):
/// the wall clock is never read.
///
/// An idle inhibitor holds idle off while its surface is shown (its node, from
/// ``WaylandSurfaceRoles/node(forSurface:)``, is in the tree and not hidden): notifications
/// due meanwhile wait, and counting starts again when they find no inhibitor of a shown
/// surface; a notification already idle is resumed when an inhibitor of a shown surface is
/// made. Inhibitors of surfaces the roles provider does not know hold nothing off.
///
/// A notification counts from the last input or from its own creation, whichever is later.
///
/// With ``ActivityTracking/whileNotificationsExist`` the spy is in the router only while some
/// client holds a notification (as the wlroots bridge's): a compositor with no idle client
/// (no swayidle) pays nothing per event for the protocol. ``lastActivity`` then notes input
/// only meanwhile; no notification's count is changed by that, since each counts from its own
/// creation at the earliest.
public final class IdleNotifier {
    /// When the notifier watches input (``IdleNotifier/init(seat:inhibitors:activity:)``).
    public enum ActivityTracking: Sendable {
        /// Always: ``IdleNotifier/lastActivity`` is the last input whatever the clients do.
        case always
        /// Only while some client holds an idle notification (the router tells the spy no
        /// event otherwise); ``IdleNotifier/lastActivity`` is then stale while none does.
        case whileNotificationsExist
    }
    /// When this notifier watches input.
    public let activityTracking: ActivityTracking
    /// Whether the spy is in the router now.
    private var watching = false
    /// The seat whose input counts. Not kept: let go of the notifier before the seat.
    public unowned let seat: Seat
    /// The seat's router, kept (its clock, and the deinit removes the spy even when the seat
    /// went first).
    private let router: Router
    /// When the last input came (or the notifier started, or an inhibitor went away); with
    /// ``ActivityTracking/whileNotificationsExist``, the last input while a notification existed.
    public var lastActivity: Timestamp { state.unchecked.lastActivity }
    /// The state written for every event, shared with the spy (``IdleActivity``).
    let state: IdleActivity
    var notifications: [IdleNotification] = []
    var inhibitors: [IdleInhibitor] = []
    private var globals: [OpaquePointer] = []
    private var owners: [AnyObject] = []
    private lazy var spy = IdleSpy(notifier: self)

    var clock: any Clock { router.clock }

    /// Told when a client asks to be told after `timeout` milliseconds of idle.
    public var notificationAdded: ((_ timeout: UInt32) -> Void)?
    /// Told when an idle inhibitor is made or destroyed, with how many there are now.
    public var inhibitorsChanged: ((Int) -> Void)?
    /// Told when a client's notification is sent `idled` (true) or `resumed` (false).
    public var notificationChanged: ((_ timeout: UInt32, _ idle: Bool) -> Void)?

    /// Advertises `ext_idle_notifier_v1` and, when `inhibitors`, `zwp_idle_inhibit_manager_v1`
    /// on the seat's display, and adds a spy to the seat's router: now, or with
    /// `activity: .whileNotificationsExist` only while some client holds a notification.
    /// Kept, so that the display outlives the globals this object destroys when it goes,
    /// whatever order the compositor lets go of its objects in (an optimized build ends a
    /// local's lifetime at its last use).
    private let displayKeptAlive: WaylandDisplay

    public init(seat: Seat, inhibitors: Bool = true, activity: ActivityTracking = .always) {
        self.seat = seat
        activityTracking = activity
        displayKeptAlive = seat.display
        router = seat.router
        state = IdleActivity(clock: seat.router.clock, wakeUp: seat.display.wakeUp)
        let notifier = IdleGlobal(notifier: self, interface: ext_idle_notifier_v1_wire()!, requests: idleNotifierRequests)
        var offered = [notifier]
        if inhibitors {
            offered.append(IdleGlobal(notifier: self, interface: zwp_idle_inhibit_manager_v1_wire()!, requests: idleInhibitManagerRequests))
        }
        for owner in offered {
            owners.append(owner)
            if let g = Libwayland.createGlobal(seat.display.display, owner.interface, version: 1, owner: owner) { globals.append(g) }
        }
        if activity == .always { watch(true) }
    }

    deinit {
        spy.handle.detach()
        if watching { router.removeSpy(spy) }
        for g in globals { Libwayland.destroyGlobal(g) }
        for n in notifications { n.cancelTimer() }
    }

    /// Whether an idle inhibitor's surface is shown now.
    public var isInhibited: Bool {
        inhibitors.contains { inhibitor in
            guard let surface = inhibitor.surface, let node = seat.surfaceRoles?.node(forSurface: surface) else { return false }
            return node.isAttached && !node.isHidden
        }
    }

    /// Idle notifications resume: input came while some were idle (``IdleSpy`` notes the
    /// input and calls this), or an inhibitor now holds idle off.
    func resumeAll() {
        for n in notifications where n.isIdle {
            n.isIdle = false
            state.unchecked.idleCount -= 1
            if let r = n.resource { Libwayland.post(r, EXT_IDLE_NOTIFICATION_V1_RESUMED) }
            notificationChanged?(n.timeout, false)
            arm(n)
        }
    }

    func arm(_ n: IdleNotification) {
        n.cancelTimer()
        let deadline = start(of: n) + .milliseconds(Int64(n.timeout))
        n.timer = clock.schedule(at: deadline) { [weak self, weak n] in
            guard let self, let n else { return }
            n.timer = nil
            self.timerFired(n)
        }
        n.clock = clock
    }

    private func timerFired(_ n: IdleNotification) {
        guard !n.isIdle, n.resource != nil else { return }
        if isInhibited {
            // Held off: counted again from now, until no shown surface inhibits.
            state.unchecked.lastActivity = clock.now
            arm(n)
            return
        }
        if clock.now < start(of: n) + .milliseconds(Int64(n.timeout)) {
            arm(n)
            return
        }
        n.isIdle = true
        state.unchecked.idleCount += 1
        if let r = n.resource { Libwayland.post(r, EXT_IDLE_NOTIFICATION_V1_IDLED) }
        notificationChanged?(n.timeout, true)
    }

    /// When `n`'s count began: the last input, or its creation if later (a client that asks
    /// after the seat has been idle a while waits its whole timeout, as in wlroots).
    private func start(of n: IdleNotification) -> Timestamp { max(state.unchecked.lastActivity, n.created) }

    /// Puts the spy in the router or takes it out.
    private func watch(_ on: Bool) {
        guard on != watching else { return }
        watching = on
        if on { router.addSpy(spy) } else { router.removeSpy(spy) }
    }

    func add(_ n: IdleNotification) {
        n.created = clock.now
        notifications.append(n)
        watch(true)
        arm(n)
        notificationAdded?(n.timeout)
    }

    func remove(_ n: IdleNotification) {
        n.cancelTimer()
        if n.isIdle { state.unchecked.idleCount -= 1 }
        notifications.removeAll { $0 === n }
        if notifications.isEmpty, activityTracking == .whileNotificationsExist { watch(false) }
    }

    func inhibitorAdded(_ inhibitor: IdleInhibitor) {
        inhibitors.append(inhibitor)
        inhibitorsChanged?(inhibitors.count)
        if state.unchecked.idleCount > 0, isInhibited { resumeAll() }
    }

    func inhibitorRemoved(_ inhibitor: IdleInhibitor) {
        inhibitors.removeAll { $0 === inhibitor }
        inhibitorsChanged?(inhibitors.count)
        // Counting starts again now, as when the inhibitor's surface stopped holding idle off.
        state.unchecked.lastActivity = max(state.unchecked.lastActivity, clock.now)
    }
}

/// One client's `ext_idle_notification_v1`.
final class IdleNotification: ResourceObject {
    weak var notifier: IdleNotifier?
    let timeout: UInt32
    var resource: OpaquePointer?
    var isIdle = false
    var created = Timestamp.zero
    var timer: TimerToken?
    weak var clock: (any Clock)?

    init(notifier: IdleNotifier, timeout: UInt32) {
        self.notifier = notifier
        self.timeout = timeout
    }

    func cancelTimer() {
        if let timer { clock?.cancel(timer) }
        timer = nil
    }

    package func resourceDestroyed() {
        resource = nil
        if let notifier { notifier.remove(self) } else { cancelTimer() }
    }
}

/// One client's `zwp_idle_inhibitor_v1`, on `surface` (nil once the surface is destroyed:
/// then it holds nothing off, as the protocol says).
final class IdleInhibitor: ResourceObject {
    weak var notifier: IdleNotifier?
    private(set) var surface: OpaquePointer?
    init(notifier: IdleNotifier, surface: OpaquePointer) {
        self.notifier = notifier
        self.surface = surface
        Libwayland.onResourceDestroyed(surface) { [weak self] in self?.surface = nil }
    }
    package func resourceDestroyed() { notifier?.inhibitorRemoved(self) }
}

/// Notes the time of every injected event but device announcements and a touch's down,
/// motions and up: its ``observedKinds``, so that the router does not call it for the others.
/// Touch input counts at the touch frame instead, which the spy observes: a backend ends every
/// set of touch downs, motions and ups with a frame (libinput's `TOUCH_FRAME`, as
/// `wl_touch.frame`), in the same dispatch, and the router hands those changes to
/// recognizers, responders and clients only at that frame (before it, a down is asked of the
/// filters and recorded, a motion or an up only recorded). So the frames see all touch
/// activity that reaches a client, at the time its events were read (the same wake-up: see
/// below); touches a filter took have their frames too, which spies hear whatever a filter
/// or grab does. A down, motion or up with no frame after it (a backend that breaks the
/// rule), which reaches no client, does not count. A cancel is delivered at once, not
/// at a frame: it is noted itself. With a frame per set, one call per frame rather than one
/// per moving finger; and with no spy observing touch motions, the router moves a touch
/// without making an event for it (issue 25, twelfth round).
///
/// With the display's
/// ``EventLoopClock``, the events of one wake-up of a watched fd (the input a libinput
/// source read in one go) note the same time, read by the first of them (``WakeUpTime``);
/// input from elsewhere (a client's request, a timer) reads the clock itself.
///
/// Refers to its notifier through an ``IdleNotifierHandle`` (UnsafeFoundations.swift), not
/// `unowned`: an `unowned` load per event was a `swift_unownedRetainStrong`.
///
/// Writes the time into the notifier's ``IdleActivity``, which it holds strongly, and reaches
/// the notifier only while some notification is idle: calling the notifier's `activity()` per
/// event retained and released the notifier and its router and clock around it, ~270
/// instructions a touch frame in the kiosk (issue 25, tenth round).
final class IdleSpy: InputSpy {
    let handle: IdleNotifierHandle
    let state: IdleActivity
    init(notifier: IdleNotifier) {
        handle = IdleNotifierHandle(notifier)
        state = notifier.state
    }

    /// Input: every kind but device announcements and the touch kinds a frame ends (down,
    /// motion, up), which count at their frame.
    var observedKinds: InputEventKinds { Self.kinds }
    static let kinds = InputEventKinds.all.subtracting([.deviceAdded, .deviceRemoved, .touchDown, .touchMotion, .touchUp])

    func observe(_ event: InputEvent, consumed: Bool, router: Router) {
        state.unchecked.lastActivity = state.now
        if state.unchecked.idleCount > 0 { handle.notifier?.resumeAll() }
    }
}

/// What an ``IdleNotifier`` notes per event, shared with its spy, which holds it strongly
/// (as ``ConstraintFlag``): the time of the last input and how many notifications are idle,
/// and the router's clock.
final class IdleActivity {
    /// The router's clock (a `let` of the router's, kept here so that the spy reads it
    /// without reaching the router).
    let clock: any Clock
    /// The state written for every event, exempt from run-time exclusivity checks (the rules
    /// are in the core's UnsafeFoundations.swift: one thread, no access held across a call
    /// out): as stored properties, the two checks per event cost about 75 instructions
    /// (issue 25, seventh round).
    struct HotState {
        var lastActivity: Timestamp
        /// Notifications sent `idled` and not yet resumed.
        var idleCount = 0
    }
    @exclusivity(unchecked) var unchecked: HotState

    /// True when ``clock`` is an ``EventLoopClock`` (a final class), whose time is
    /// `MonotonicClock.microseconds()`: read directly, as its `now` does. A call through the
    /// existential retained and released the clock per event (~40 instructions).
    private let isEventLoopClock: Bool
    /// The display's wake-ups (``WakeUpTime``): with an ``EventLoopClock``, the clock is read
    /// once per wake-up of a watched fd, not per event.
    private let wakeUp: WakeUpTime

    init(clock: any Clock, wakeUp: WakeUpTime) {
        self.clock = clock
        self.wakeUp = wakeUp
        isEventLoopClock = clock is EventLoopClock
        unchecked = HotState(lastActivity: clock.now)
    }

    /// The clock's time; with an ``EventLoopClock``, inside a watched fd's wake-up, the time
    /// that wake-up first read (``WakeUpTime/now``).
    @inline(__always) var now: Timestamp {
        isEventLoopClock ? wakeUp.now : clock.now
    }
}

final class IdleGlobal: GlobalOwner {
    unowned let notifier: IdleNotifier
    let interface: UnsafePointer<wl_interface>
    let requests: UnsafeRawPointer
    init(notifier: IdleNotifier, interface: UnsafePointer<wl_interface>, requests: UnsafeRawPointer) {
        self.notifier = notifier
        self.interface = interface
        self.requests = requests
    }
    package func bind(client: OpaquePointer, version: UInt32, id: UInt32) {
        _ = Libwayland.createResource(client, interface, version: Int32(version), id: id, implementation: requests, object: self)
    }
}

private nonisolated(unsafe) let idleNotifierRequests = Libwayland.table(ext_idle_notifier_v1_requests(
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } },
    get_idle_notification: { client, resource, id, timeout, _ in
        guard let client, let resource, let global = Libwayland.object(resource, as: IdleGlobal.self) else { return }
        let notifier = global.notifier
        let n = IdleNotification(notifier: notifier, timeout: timeout)
        guard let r = Libwayland.createResource(client, ext_idle_notification_v1_wire()!, version: Libwayland.version(of: resource),
                                                id: id, implementation: destroyOnlyRequests, object: n) else { return }
        n.resource = r
        notifier.add(n)
    }
))

private nonisolated(unsafe) let idleInhibitManagerRequests = Libwayland.table(zwp_idle_inhibit_manager_v1_requests(
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } },
    create_inhibitor: { client, resource, id, surface in
        guard let client, let resource, let surface, let global = Libwayland.object(resource, as: IdleGlobal.self) else { return }
        let inhibitor = IdleInhibitor(notifier: global.notifier, surface: surface)
        guard Libwayland.createResource(client, zwp_idle_inhibitor_v1_wire()!, version: Libwayland.version(of: resource), id: id,
                                        implementation: destroyOnlyRequests, object: inhibitor) != nil else { return }
        global.notifier.inhibitorAdded(inhibitor)
    }
))
