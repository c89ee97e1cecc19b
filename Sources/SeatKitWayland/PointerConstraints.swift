import CWaylandServer
import SeatKit

/// A pointer lock or confinement (zwp_pointer_constraints_v1) on one wl_surface.
///
/// It is active while its surface has pointer focus (and keyboard focus, on a seat with a
/// keyboard) and the pointer is inside its region
/// (surface-local; the whole surface without one). While a lock is active, relative motion
/// does not move the pointer and reaches the client only as zwp_relative_pointer_v1 events;
/// while a confinement is active, relative motion is clipped so the pointer stays in the
/// region. Absolute motion (tablets, tests) is never constrained. A one-shot constraint that
/// deactivates is dead for good; a persistent one waits for the next chance.
///
/// Regions take effect at once, not at the surface's next commit (a simplification).
final class PointerConstraint: ResourceObject {
    enum Kind { case lock, confine }
    let kind: Kind
    /// The seat, without a weak reference (``SeatHandle``): nil once the seat is gone.
    var seat: Seat? { seatHandle.seat }
    private let seatHandle: SeatHandle
    /// The wl_surface it constrains (`struct wl_resource *`).
    let surface: OpaquePointer
    let persistent: Bool
    var region: [SurfaceRect]?
    var resource: OpaquePointer?
    private(set) var active = false
    private(set) var defunct = false

    init(kind: Kind, seat: Seat, surface: OpaquePointer, region: [SurfaceRect]?, persistent: Bool) {
        self.kind = kind
        self.seatHandle = seat.handle
        self.surface = surface
        self.region = region
        self.persistent = persistent
    }

    func contains(_ point: SurfacePoint) -> Bool {
        guard let region else { return true }
        return region.contains { $0.contains(point) }
    }

    func setActive(_ on: Bool) {
        guard on != active, !defunct, let resource else { return }
        active = on
        switch (kind, on) {
        case (.lock, true): Libwayland.post(resource, ZWP_LOCKED_POINTER_V1_LOCKED)
        case (.lock, false): Libwayland.post(resource, ZWP_LOCKED_POINTER_V1_UNLOCKED)
        case (.confine, true): Libwayland.post(resource, ZWP_CONFINED_POINTER_V1_CONFINED)
        case (.confine, false): Libwayland.post(resource, ZWP_CONFINED_POINTER_V1_UNCONFINED)
        }
        if !on && !persistent { defunct = true }
    }

    package func resourceDestroyed() {
        active = false
        resource = nil
        seat?.constraints.removeAll { $0 === self }
    }
}

extension Seat {
    /// The constraint in force now, if any.
    var activeConstraint: PointerConstraint? { constraints.first { $0.active } }

    /// Re-evaluates which constraint is active: after pointer focus moved, the pointer
    /// moved, or a constraint was created or changed.
    /// A constraint also needs its surface to have keyboard focus when the seat has a
    /// keyboard (as in weston): a window that loses focus to another one under a pointer
    /// that did not move is unlocked, and locked again when it regains focus.
    func updateConstraints() {
        // Most seats have none: nothing to look up for every motion then.
        guard !constraints.isEmpty else { return }
        let focusSurface = pointerFocus?.surfaceResource
        let keyboardSurface = keyboardFocus?.surfaceResource
        let needsKeyboardFocus = capabilities.contains(.keyboard)
        let local = router.pointerFocus.flatMap { $0.convert(router.pointerLocation) }
        constraints.scanEach { constraint in
            let focused = constraint.surface == focusSurface && (!needsKeyboardFocus || constraint.surface == keyboardSurface)
            constraint.setActive(focused && local.map { constraint.contains($0) } == true)
        }
    }

    /// Where relative motion by `delta` may take the pointer under `constraint`, as a delta.
    /// Confinement clips the move to the region rectangle holding the pointer now.
    func constrainedDelta(_ delta: Vector, under constraint: PointerConstraint) -> Vector {
        switch constraint.kind {
        case .lock:
            return .zero
        case .confine:
            guard let focus = router.pointerFocus, let here = focus.convert(router.pointerLocation) else { return .zero }
            let rects = constraint.region.map { $0.map { $0.intersection(focus.bounds) } } ?? [focus.bounds]
            guard let box = rects.first(where: { $0.contains(here) }) else { return .zero }
            // Half-open rectangles: a confined pointer stops on the last whole pixel inside
            // the right and bottom edges (width - 1, height - 1), as Mir does and as the
            // Wayland Conformance Suites expect; never less than the rectangle's origin.
            let x = min(max(here.x + delta.dx, box.minX), max(box.minX, box.maxX - 1))
            let y = min(max(here.y + delta.dy, box.minY), max(box.minY, box.maxY - 1))
            return Vector(dx: x - here.x, dy: y - here.y)
        }
    }
}

/// The seat's own input filter: applies active pointer constraints to relative motion
/// before routing. It consumes the motion and, for a confinement, injects the clipped
/// motion in its place (which it then lets through), so every filter and responder after it
/// sees the constrained pointer. A lock sends the client relative motion itself.
final class PointerConstraintFilter: InputFilter {
    /// Weak: the router keeps its filters, and may outlive the seat.
    /// The seat, without a weak reference (``SeatHandle``): nil once the seat is gone.
    var seat: Seat? { seatHandle.seat }
    private let seatHandle: SeatHandle
    /// Kept strongly: without constraints the filter passes every event without loading
    /// its weak seat.
    private let flag: ConstraintFlag
    /// The hot state, exempt from run-time exclusivity checks (the rules are in
    /// UnsafeFoundations.swift).
    struct HotState {
        var reinjecting = false
    }

    @exclusivity(unchecked) var unchecked = HotState()

    init(seat: Seat, flag: ConstraintFlag) {
        self.seatHandle = seat.handle
        self.flag = flag
    }

    /// Relative motion while some client has a constraint, nothing otherwise: the router asks
    /// about no other kind, and about nothing while no client constrains the pointer (the
    /// seat tells the router when that changes).
    var filteredKinds: InputEventKinds { flag.unchecked.hasConstraints ? .pointerMotion : [] }

    func filter(_ event: InputEvent, router: Router) -> FilterDecision {
        guard flag.unchecked.hasConstraints, !unchecked.reinjecting, case .pointerMotion(let delta, let raw) = event.kind, let seat,
              let constraint = seat.activeConstraint else { return .pass }
        if constraint.kind == .lock {
            if let focus = seat.pointerFocus, let devices = seat.client(focus.client) {
                focus.sendRelativeMotion(time: event.time, delta: delta, unaccelerated: raw, to: devices)
                for pointer in devices.unchecked.pointers { focus.frame(pointer) }
            }
            return .consume
        }
        let clipped = seat.constrainedDelta(delta, under: constraint)
        if clipped == delta { return .pass }
        unchecked.reinjecting = true
        router.inject(InputEvent(time: event.time, device: event.device, .pointerMotion(delta: clipped, unaccelerated: raw)))
        unchecked.reinjecting = false
        return .consume
    }
}

private func constrain(_ kind: PointerConstraint.Kind, client: OpaquePointer?, manager: OpaquePointer?, id: UInt32,
                       surface: OpaquePointer?, region: OpaquePointer?, lifetime: UInt32) {
    guard let client, let manager, let surface, let binding = Libwayland.object(manager, as: ExtensionBinding.self),
          let seat = binding.seat else { return }
    if seat.constraints.contains(where: { $0.surface == surface }) {
        Libwayland.postError(manager, code: ZWP_POINTER_CONSTRAINTS_V1_ERROR_ALREADY_CONSTRAINED.rawValue,
                             "the surface already has a pointer constraint on this seat")
        return
    }
    let rects = region.flatMap { seat.surfaceRolesOrWarn("constraint regions")?.rectangles(of: $0) }
    let constraint = PointerConstraint(kind: kind, seat: seat, surface: surface, region: rects,
                                       persistent: lifetime == ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_PERSISTENT.rawValue)
    let interface = kind == .lock ? zwp_locked_pointer_v1_wire()! : zwp_confined_pointer_v1_wire()!
    let requests = kind == .lock ? lockedPointerRequests : confinedPointerRequests
    guard let r = Libwayland.createResource(client, interface, version: Libwayland.version(of: manager), id: id,
                                            implementation: requests, object: constraint) else { return }
    constraint.resource = r
    seat.constraints.append(constraint)
    seat.updateConstraints()
}

private func setRegion(_ resource: OpaquePointer?, _ region: OpaquePointer?) {
    guard let constraint = Libwayland.object(resource, as: PointerConstraint.self) else { return }
    constraint.region = region.flatMap { constraint.seat?.surfaceRolesOrWarn("constraint regions")?.rectangles(of: $0) }
    constraint.seat?.updateConstraints()
}

nonisolated(unsafe) let pointerConstraintsRequests = Libwayland.table(zwp_pointer_constraints_v1_requests(
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } },
    lock_pointer: { client, resource, id, surface, _, region, lifetime in
        constrain(.lock, client: client, manager: resource, id: id, surface: surface, region: region, lifetime: lifetime)
    },
    confine_pointer: { client, resource, id, surface, _, region, lifetime in
        constrain(.confine, client: client, manager: resource, id: id, surface: surface, region: region, lifetime: lifetime)
    }
))

private nonisolated(unsafe) let lockedPointerRequests = Libwayland.table(zwp_locked_pointer_v1_requests(
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } },
    set_cursor_position_hint: { _, _, _, _ in },
    set_region: { _, resource, region in setRegion(resource, region) }
))

private nonisolated(unsafe) let confinedPointerRequests = Libwayland.table(zwp_confined_pointer_v1_requests(
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } },
    set_region: { _, resource, region in setRegion(resource, region) }
))
