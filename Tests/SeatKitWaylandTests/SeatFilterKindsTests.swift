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
    /// (none here), the input method's grab resumer keys only while an input method holds a
    /// keyboard grab (none here), and an unlocked session lock nothing: no filter of the seat
    /// is asked about a touch, a button, a motion or a key.
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
            #expect(!list.asks(.pointerMotion) && !list.asks(.keys) && !list.asks(.interpretedKeys) && !list.asks(.keyReleases))
            let constraintFilter = try #require(router.filters.compactMap { $0 as? PointerConstraintFilter }.first)
            #expect(constraintFilter.filteredKinds == [])
            seat.constraintFlag.unchecked.hasConstraints = true
            #expect(constraintFilter.filteredKinds == .pointerMotion)
            seat.constraintFlag.unchecked.hasConstraints = false
            #expect(router.filters.compactMap { $0 as? InputMethodGrabResumer }.first?.filteredKinds == [])
            #expect(!lock.isLocked)
        }
    }

    /// The input method's grab resumer is asked about keys (raw and interpreted) only while
    /// the seat's input method holds a keyboard grab: from the grab's coming to its going,
    /// and not for an input method without one, nor once the input method goes.
    @Test func theGrabResumerIsAskedAboutKeysOnlyWhileAnInputMethodHoldsAKeyboardGrab() throws {
        let raw = try #require(wl_display_create())
        defer { wl_display_destroy(raw) }
        do {
            let display = WaylandDisplay(wrapping: raw)
            let router = Router(clock: VirtualClock())
            let seat = Seat(display: display, router: router, extensions: [.inputMethod])
            let resumer = try #require(router.filters.compactMap { $0 as? InputMethodGrabResumer }.first)
            func asked() -> Bool {
                let list = router.unchecked.filterList
                return list.asks(.keys) && list.asks(.interpretedKeys) && list.asks(.keyReleases)
            }
            #expect(resumer.filteredKinds == [] && !asked())
            let method = InputMethod(seat: seat)
            seat.inputMethod = method
            #expect(resumer.filteredKinds == [] && !asked())
            let client = try #require(OpaquePointer(bitPattern: 0x1000))
            method.keyboardGrab = InputMethodKeyboardGrab(seat: seat, method: method, client: ClientID(client))
            #expect(resumer.filteredKinds == .key && asked())
            method.keyboardGrab = nil
            #expect(resumer.filteredKinds == [] && !asked())
            method.keyboardGrab = InputMethodKeyboardGrab(seat: seat, method: method, client: ClientID(client))
            #expect(resumer.filteredKinds == .key && asked())
            seat.inputMethod = nil
            #expect(resumer.filteredKinds == [] && !asked())
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
