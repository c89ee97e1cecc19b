import CWaylandServer
@testable import SeatKit
@testable import SeatKitWayland
import Testing

/// The seat's filters declare the kinds they filter (``InputFilter/filteredKinds``): the
/// router asks them about no other, so a touch screen's events cost them nothing.
@Suite struct SeatFilterKindsTests {
    final class NoLockSurfaces: SessionLockSurfaceRoles {
        func assignLockSurfaceRole(to surface: OpaquePointer) -> Bool { false }
    }

    /// The pointer constraints' filter wants relative motion while a client has a constraint
    /// (none here), the input method's keys, and an unlocked session lock nothing: no filter
    /// of the seat is asked about a touch, a button or a motion.
    @Test func theSeatsFiltersAndAnUnlockedLockAreAskedAboutNoTouchOrButton() throws {
        let raw = try #require(wl_display_create())
        defer { wl_display_destroy(raw) }
        do {
            let display = WaylandDisplay(wrapping: raw)
            let router = Router(clock: VirtualClock())
            let seat = Seat(display: display, router: router, extensions: SeatExtensions.all.union([.inputMethod]))
            let roles = NoLockSurfaces()
            let lock = SessionLock(seat: seat, roles: roles)
            #expect(router.filters.count == 3)
            let list = router.unchecked.filterList
            #expect(!list.asks(.touchDowns) && !list.asks(.touches) && !list.asks(.pointerButtons) && !list.asks(.pointerAxis))
            #expect(!list.asks(.other))
            #expect(!list.asks(.pointerMotion) && list.asks(.keys) && list.asks(.interpretedKeys))
            let constraintFilter = try #require(router.filters.compactMap { $0 as? PointerConstraintFilter }.first)
            #expect(constraintFilter.filteredKinds == [])
            seat.constraintFlag.unchecked.hasConstraints = true
            #expect(constraintFilter.filteredKinds == .pointerMotion)
            seat.constraintFlag.unchecked.hasConstraints = false
            #expect(router.filters.compactMap { $0 as? InputMethodGrabResumer }.first?.filteredKinds == .key)
            #expect(!lock.isLocked)
        }
    }

    /// The lock's filter wants every kind while locked, none while unlocked (the lock tells
    /// the router each change).
    @Test func theSessionLocksFilterWantsEveryKindWhileLockedOnly() throws {
        let raw = try #require(wl_display_create())
        defer { wl_display_destroy(raw) }
        do {
            let display = WaylandDisplay(wrapping: raw)
            let router = Router(clock: VirtualClock())
            let seat = Seat(display: display, router: router, extensions: [])
            let lock = SessionLock(seat: seat, roles: NoLockSurfaces())
            let filter = SessionLockFilter(lock: lock)
            #expect(filter.filteredKinds == [])
            filter.unchecked.isLocked = true
            #expect(filter.filteredKinds == .all)
        }
    }
}
