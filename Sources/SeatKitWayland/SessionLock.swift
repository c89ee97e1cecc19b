import CWaylandServer
import SeatKit

// ext-session-lock-v1 (version 1): a lock screen (swaylock) locks the session; until it
// unlocks, only its lock surfaces get input.
//
// The lock is three grabs of the router (pointer, touch, keyboard) and a filter that puts them
// back before every event when anything else (a popup's grab, an input method's keyboard grab,
// an interactive move) took one: no other client's surface receives input while the session
// is locked, whatever it asks. A lock surface is placed on top of its output's tree, covering
// the output; the pointer and touches reach it where it is, keys reach the lock surface that is
// first responder. A lock client that dies while locked leaves the session locked (the
// protocol's rule): no client gets input until another lock client locks and unlocks.

/// What the session lock needs of a compositor's surfaces, beside the seat's
/// ``WaylandSurfaceRoles`` (whose ``WaylandSurfaceRoles/node(forSurface:)`` gives the node
/// of a lock surface, and ``WaylandSurfaceRoles/outputResources(for:client:)`` which output a
/// `wl_output` resource stands for).
public protocol SessionLockSurfaceRoles: AnyObject {
    /// `ext_session_lock_v1.get_lock_surface` named `surface` (a wl_surface): give it the
    /// lock-surface role, or return false when it has another role (the lock then posts
    /// `ext_session_lock_v1.error.role`). Call ``SessionLock/lockSurfaceCommitted(_:)`` after
    /// each commit of a surface with that role.
    func assignLockSurfaceRole(to surface: OpaquePointer) -> Bool
}

/// `ext_session_lock_manager_v1` (version 1) for one ``Seat``, for any compositor: a lock
/// screen locks the session, and until it unlocks only its lock surfaces get input.
///
/// While locked, the lock holds the router's pointer, touch and keyboard grabs and takes them
/// back before each injected event if anything else started one (that grab ends, as when
/// replaced: a popup is dismissed). Through them, pointer motion, buttons and scrolling reach
/// only a lock surface (where the pointer is, in layout space: each lock surface covers its
/// output and is kept on top of that output's tree), touches only those that went down on a
/// lock surface, keys only the lock surface that is first responder (the lock makes the lock
/// surface of the output under the pointer first responder when it maps and whenever a key
/// finds another first responder). Filters added before the lock's still see every event first:
/// they are the compositor's own policy, not a client.
///
/// The session is locked from `lock` on (`locked` is sent at once: the compositor is told by
/// ``lockChanged`` and blanks its outputs as it draws). `unlock_and_destroy` unlocks it; a lock
/// client that disconnects or is killed while locked leaves it locked, and then a new lock
/// client may lock (and unlock) in its place. A second lock while one is active is told
/// `finished`.
public final class SessionLock: GlobalOwner {
    /// The seat whose router is grabbed. Not kept: let go of the lock before the seat.
    public unowned let seat: Seat
    /// The seat's router, kept: the deinit takes its filter and grabs back even when the seat
    /// went first.
    private let router: Router
    /// Assigns the lock-surface role (the compositor's, usually its shell).
    public unowned let roles: any SessionLockSurfaceRoles
    /// Whether the session is locked: from a lock client's `lock` until its
    /// `unlock_and_destroy`, and on after a lock client died locked.
    /// Kept by the filter alone, which reads it per event without loading this lock; the
    /// router is told each change, since the filter is asked about events only while locked
    /// (its `SessionLockFilter.filteredKinds`).
    public private(set) var isLocked: Bool {
        get { filter.unchecked.isLocked }
        set {
            guard newValue != filter.unchecked.isLocked else { return }
            filter.unchecked.isLocked = newValue
            router.filteredKindsChanged(filter)
        }
    }
    /// Told each time ``isLocked`` changes (the compositor blanks or shows its outputs).
    public var lockChanged: ((Bool) -> Void)?
    /// Told when a lock surface first shows a buffer, with its node (in the tree, on top of
    /// its output's) and its output.
    public var lockSurfaceShown: ((Surface, Output?) -> Void)?
    /// Told when the active lock's client went without unlocking (it died): the session stays
    /// locked, with no lock surface, until another lock client locks and unlocks.
    public var lockAbandoned: (() -> Void)?
    /// The active lock (its client alive), nil when unlocked or abandoned.
    var active: LockObject?
    var surfaces: [LockSurface] = []
    private lazy var grab = SessionLockGrab(lock: self)
    private lazy var filter = SessionLockFilter(lock: self)
    private var global: OpaquePointer?

    /// Advertises `ext_session_lock_manager_v1` on the seat's display and adds the lock's filter
    /// to the router (after the filters already there).
    /// Kept, so that the display outlives the globals this object destroys when it goes,
    /// whatever order the compositor lets go of its objects in (an optimized build ends a
    /// local's lifetime at its last use).
    private let displayKeptAlive: WaylandDisplay

    public init(seat: Seat, roles: any SessionLockSurfaceRoles) {
        self.seat = seat
        displayKeptAlive = seat.display
        self.router = seat.router
        self.roles = roles
        global = Libwayland.createGlobal(seat.display.display, ext_session_lock_manager_v1_wire()!, version: 1, owner: self)
        seat.router.addFilter(filter)
    }

    deinit {
        if let global { Libwayland.destroyGlobal(global) }
        router.removeFilter(filter)
        if isLocked { releaseGrabs() }
    }

    package func bind(client: OpaquePointer, version: UInt32, id: UInt32) {
        _ = Libwayland.createResource(client, ext_session_lock_manager_v1_wire()!, version: Int32(version), id: id,
                                      implementation: lockManagerRequests, object: self)
    }

    // MARK: Locking

    func lock(client: OpaquePointer, version: Int32, id: UInt32) {
        let object = LockObject(lock: self)
        guard let r = Libwayland.createResource(client, ext_session_lock_v1_wire()!, version: version, id: id,
                                                implementation: lockRequests, object: object) else { return }
        object.resource = r
        guard active == nil else {
            Libwayland.post(r, EXT_SESSION_LOCK_V1_FINISHED)
            object.state = .finished
            return
        }
        active = object
        object.state = .locked
        if !isLocked {
            isLocked = true
            takeGrabs()
            lockChanged?(true)
        }
        Libwayland.post(r, EXT_SESSION_LOCK_V1_LOCKED)
    }

    func unlock(_ object: LockObject) {
        guard active === object else { return }
        active = nil
        for surface in surfaces where surface.lockObject === object { surface.node?.removeFromParent() }
        surfaces.removeAll { $0.lockObject === object }
        isLocked = false
        releaseGrabs()
        lockChanged?(false)
    }

    /// The lock object went without unlocking (its client died, or it was never locked).
    func abandoned(_ object: LockObject) {
        for surface in surfaces where surface.lockObject === object { surface.node?.removeFromParent() }
        surfaces.removeAll { $0.lockObject === object }
        guard active === object else { return }
        active = nil  // Still locked: a new lock client may take over.
        lockAbandoned?()
    }

    private func takeGrabs() {
        let router = seat.router
        router.startPointerGrab(grab)
        router.startTouchGrab(grab)
        router.startKeyboardGrab(grab, focus: .clear)
    }

    private func releaseGrabs() {
        if router.pointerGrab === grab { router.endPointerGrab() }
        if router.touchGrab === grab { router.endTouchGrab() }
        if router.keyboardGrab === grab { router.endKeyboardGrab() }
    }

    /// Before each event while locked: the grabs are the lock's, and the lock surfaces on top.
    func enforce() {
        let router = seat.router
        if router.pointerGrab !== grab { router.startPointerGrab(grab) }
        if router.touchGrab !== grab { router.startTouchGrab(grab) }
        if router.keyboardGrab !== grab { router.startKeyboardGrab(grab, focus: .clear) }
        for surface in surfaces {
            guard let node = surface.node, let parent = node.parent, parent.children.last !== node else { continue }
            parent.bringToFront(node)
        }
    }

    // MARK: Lock surfaces

    func getLockSurface(_ object: LockObject, client: OpaquePointer, lockResource: OpaquePointer, id: UInt32,
                        surface: OpaquePointer, outputResource: OpaquePointer) {
        guard roles.assignLockSurfaceRole(to: surface) else {
            Libwayland.postError(lockResource, code: EXT_SESSION_LOCK_V1_ERROR_ROLE.rawValue, "the surface already has another role")
            return
        }
        let output = seat.router.layout.outputs.first { output in
            seat.surfaceRoles?.outputResources(for: output, client: client).contains(outputResource) == true
        }
        if let output, surfaces.contains(where: { $0.lockObject === object && $0.output === output }) {
            Libwayland.postError(lockResource, code: EXT_SESSION_LOCK_V1_ERROR_DUPLICATE_OUTPUT.rawValue,
                                 "this lock already has a lock surface on the output")
            return
        }
        let lockSurface = LockSurface(lock: self, lockObject: object, surface: surface, output: output,
                                      node: seat.surfaceRoles?.node(forSurface: surface))
        guard let r = Libwayland.createResource(client, ext_session_lock_surface_v1_wire()!, version: Libwayland.version(of: lockResource),
                                                id: id, implementation: lockSurfaceRequests, object: lockSurface) else { return }
        lockSurface.resource = r
        guard object.state == .locked, active === object else { return }  // A finished lock's surfaces are never shown.
        surfaces.append(lockSurface)
        if let output, let node = lockSurface.node {
            node.frame.origin = .zero
            output.root.addChild(node)
        }
        let size = output?.root.frame.size ?? .zero
        lockSurface.configureSerial = seat.display.nextSerial()
        Libwayland.post(r, EXT_SESSION_LOCK_SURFACE_V1_CONFIGURE, .uint(lockSurface.configureSerial),
                        .uint(UInt32(max(0, size.width))), .uint(UInt32(max(0, size.height))))
    }

    /// Call after applying a commit of a surface with the lock-surface role (`surface` is the
    /// wl_surface): once it shows a buffer, the lock surface under the pointer (or the first
    /// shown) becomes first responder, so that the lock screen gets the keys typed.
    public func lockSurfaceCommitted(_ surface: OpaquePointer) {
        guard isLocked, let entry = surfaces.first(where: { $0.surface == surface }) else { return }
        if !entry.shown, let node = entry.node, node.isAttached, !node.isHidden {
            entry.shown = true
            lockSurfaceShown?(node, entry.output)
        }
        focusLockSurface()
        seat.router.refreshPointerFocus()
    }

    /// Whether `surface` is a shown lock surface or inside one.
    func isLockSurface(_ surface: Surface?) -> Bool {
        guard let surface else { return false }
        return surfaces.contains { entry in
            guard let node = entry.node, node.isAttached else { return false }
            return surface === node || surface.isDescendant(of: node)
        }
    }

    /// Makes a shown lock surface first responder unless one is.
    @discardableResult
    func focusLockSurface() -> Bool {
        let router = seat.router
        if isLockSurface(router.firstResponder) { return true }
        let shown = surfaces.compactMap { $0.node }.filter { $0.isAttached && !$0.isHidden }
        let underPointer = shown.first { node in node.output?.layoutFrame.contains(router.pointerLocation) == true }
        guard let target = underPointer ?? shown.first else { return false }
        return router.becomeFirstResponder(target)
    }
}

/// One client's `ext_session_lock_v1`.
final class LockObject: ResourceObject {
    enum State { case pending, locked, finished, unlocked }
    weak var lock: SessionLock?
    var resource: OpaquePointer?
    var state = State.pending
    init(lock: SessionLock) { self.lock = lock }

    package func resourceDestroyed() {
        resource = nil
        guard state != .unlocked else { return }
        lock?.abandoned(self)
    }
}

/// A lock surface: a wl_surface shown on top of one output while the session is locked.
final class LockSurface: ResourceObject {
    weak var lock: SessionLock?
    weak var lockObject: LockObject?
    let surface: OpaquePointer
    let output: Output?
    let node: Surface?
    var resource: OpaquePointer?
    var configureSerial: UInt32 = 0
    /// Whether it has shown a buffer since it was placed.
    var shown = false

    init(lock: SessionLock, lockObject: LockObject, surface: OpaquePointer, output: Output?, node: Surface?) {
        self.lock = lock
        self.lockObject = lockObject
        self.surface = surface
        self.output = output
        self.node = node
    }

    package func resourceDestroyed() {
        resource = nil
        guard let lock else { return }
        if lock.surfaces.contains(where: { $0 === self }) {
            lock.surfaces.removeAll { $0 === self }
            node?.removeFromParent()
        }
    }
}

/// The grab of pointer, touch and keyboard while the session is locked.
final class SessionLockGrab: PointerGrab, TouchGrab, KeyboardGrab {
    unowned let lock: SessionLock
    /// Touches that went down on a lock surface (the rest are dropped).
    private var touches: [TouchID] = []
    init(lock: SessionLock) { self.lock = lock }

    func pointerMoved(_ event: PointerMotionEvent, router: Router) {
        if lock.isLockSurface(router.surface(at: event.location)) {
            router.routePointerMotion(event)
        } else if router.pointerFocus != nil, router.heldButtons.isEmpty {
            router.setPointerFocus(nil, time: event.time)
        }
    }

    func pointerButton(_ event: PointerButtonEvent, router: Router) {
        if lock.isLockSurface(router.pointerFocus) { router.routePointerButton(event) }
    }

    func pointerAxis(_ event: PointerAxisEvent, router: Router) {
        if lock.isLockSurface(router.pointerFocus) { router.routePointerAxis(event) }
    }

    func touchpadGesture(_ event: TouchpadGestureEvent, router: Router) {
        if lock.isLockSurface(router.pointerFocus) { router.routeTouchpadGesture(event) }
    }

    func touchDown(_ event: InputEvent, id: TouchID, at point: LayoutPoint, router: Router) {
        guard lock.isLockSurface(router.surface(at: point, device: event.device)) else { return }
        touches.append(id)
        router.routeTouch(event)
    }

    func touchMoved(_ event: InputEvent, id: TouchID, to point: LayoutPoint, router: Router) {
        if touches.contains(id) { router.routeTouch(event) }
    }

    func touchUp(_ event: InputEvent, id: TouchID, router: Router) {
        guard let index = touches.firstIndex(of: id) else { return }
        touches.remove(at: index)
        router.routeTouch(event)
    }

    func touchCancelled(_ event: InputEvent, id: TouchID, router: Router) { touchUp(event, id: id, router: router) }

    func touchFrame(_ event: InputEvent, router: Router) { router.routeTouch(event) }

    func key(_ event: KeyEvent, router: Router) {
        if lock.isLockSurface(router.firstResponder) || (event.state != .released && lock.focusLockSurface()) {
            router.deliverKey(event)
        }
    }

    func cancel(router: Router) { touches.removeAll() }
}

/// Puts the lock's grabs back before each event while locked.
///
/// Reads whether the session is locked from its own copy, which the lock keeps up to date:
/// reading the lock's `isLocked` per event loaded the `unowned` lock (a
/// `swift_unownedRetainStrong` and a release) and made a dynamic exclusivity check, ~145
/// instructions a touch frame in the kiosk (issue 25, tenth round). The lock is loaded only
/// while locked. Unlocked, it declares no kinds (``filteredKinds``), so the router does not
/// call it at all (issue 25, eleventh round); the lock tells the router when that changes.
final class SessionLockFilter: InputFilter {
    unowned let lock: SessionLock
    /// The hot state, exempt from run-time exclusivity checks (the rules are in
    /// UnsafeFoundations.swift).
    struct HotState {
        /// The lock's ``SessionLock/isLocked``, copied by its `didSet`.
        var isLocked = false
    }
    @exclusivity(unchecked) var unchecked = HotState()

    init(lock: SessionLock) { self.lock = lock }

    /// Every kind while locked, none while unlocked: read by the router when the filter is
    /// added and when the lock tells it of a change (``Router/filteredKindsChanged(_:)``).
    var filteredKinds: InputEventKinds { unchecked.isLocked ? .all : [] }

    func filter(_ event: InputEvent, router: Router) -> FilterDecision {
        if unchecked.isLocked { lock.enforce() }
        return .pass
    }
}

// MARK: Requests

private nonisolated(unsafe) let lockManagerRequests = Libwayland.table(ext_session_lock_manager_v1_requests(
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } },
    lock: { client, resource, id in
        guard let client, let resource, let lock = Libwayland.object(resource, as: SessionLock.self) else { return }
        lock.lock(client: client, version: Libwayland.version(of: resource), id: id)
    }
))

private nonisolated(unsafe) let lockRequests = Libwayland.table(ext_session_lock_v1_requests(
    destroy: { _, resource in
        guard let resource, let object = Libwayland.object(resource, as: LockObject.self) else { return }
        if object.state == .locked {
            Libwayland.postError(resource, code: EXT_SESSION_LOCK_V1_ERROR_INVALID_DESTROY.rawValue,
                                 "the session is locked: unlock_and_destroy, not destroy")
            return
        }
        Libwayland.destroyResource(resource)
    },
    get_lock_surface: { client, resource, id, surface, output in
        guard let client, let resource, let surface, let output,
              let object = Libwayland.object(resource, as: LockObject.self), let lock = object.lock else { return }
        lock.getLockSurface(object, client: client, lockResource: resource, id: id, surface: surface, outputResource: output)
    },
    unlock_and_destroy: { _, resource in
        guard let resource, let object = Libwayland.object(resource, as: LockObject.self) else { return }
        guard object.state == .locked else {
            Libwayland.postError(resource, code: EXT_SESSION_LOCK_V1_ERROR_INVALID_UNLOCK.rawValue, "the session was not locked by this lock")
            return
        }
        object.state = .unlocked
        object.lock?.unlock(object)
        Libwayland.destroyResource(resource)
    }
))

private nonisolated(unsafe) let lockSurfaceRequests = Libwayland.table(ext_session_lock_surface_v1_requests(
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } },
    ack_configure: { _, _, _ in }
))
