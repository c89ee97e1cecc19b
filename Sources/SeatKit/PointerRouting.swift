/// The router's pointer state, apart from the touches' and the keyboard's: where the pointer
/// is, who has its focus, the buttons held and where their presses went, and what the last
/// hit-test found. Read with Router+Pointer.swift (the routing) and Grabs.swift (the pointer
/// grab's start and end).
///
/// Invariants (``checkInvariants(layout:treeEditCount:)`` checks them between events; the
/// fault-script soak calls it after every step):
/// 1. **On the layout.** `location` is a layout-space point the layout's clamp leaves where
///    it is (with no output, any finite point). Injected motion, ``Router/routePointerMotion(_:)``
///    and every change of outputs clamp it.
/// 2. **Focus is in the layout.** Between events `focus` is `nil` or an attached surface (and
///    `focusLink` names it: the two are set together): a
///    focus that leaves the layout is told its cancelled releases and `pointerLeft` and is
///    cleared before the edit returns (``Router/pointerFocusWasRemoved(_:)``). Every change of
///    `focus` raises `focusGeneration`, so a caller that called out can tell whether a
///    handler moved focus itself.
/// 3. **Buttons held once.** `pressedButtons` lists each held button once, in press order; it
///    is empty unless a button is held (the implicit grab: `isImplicitlyGrabbed`).
///    `buttonsSeenByFocus` lists each button once: the held buttons whose presses the current
///    focus got, owed a release (real or cancelled); it is emptied when focus moves to
///    another surface. `consumedButtons` are buttons whose releases are swallowed (a filter
///    took the press, or the implicit grab or a pointer grab that had the press ended).
/// 4. **Points carried, not recomputed.** When `hitAtEdit` equals the router's
///    `treeEditCount`, `hitOrigin` is the layout origin of the surface `hitSurface` names, so
///    the pointer's point in that surface's space is `location - hitOrigin` with no walk up
///    the tree. `hitSurface` is `nil` exactly when no hit-test has found a surface yet
///    (`hitAtEdit` is then `.max`, which no edit count reaches).
/// 5. **Checked no later than the tree.** `checkedAtEdit` and `hitAtEdit` (once set) are edit
///    counts the router has reached: never ahead of `treeEditCount`.
///
/// Stored in the router's unchecked hot state (UnsafeFoundations.swift): no access to it is
/// held across a call out. What the exemption saves per pointer event is in docs/BENCHMARKS.md
/// (issue 25, state per device class).
struct PointerRouting {
    /// Backs `Router.pointerLocation`, layout space (invariant 1).
    var location = LayoutPoint.zero
    /// Backs `Router.pointerFocus` (invariant 2).
    var focus: Surface? {
        @inline(__always) get { _focus }
        @inline(__always) set {
            _focus = newValue
            focusLink = newValue.map(Unretained.init)
        }
    }
    private var _focus: Surface?

    /// Sets the focus to `surface`, borrowed: one retain, for the focus's own reference (the
    /// setter takes its value owned, which cost a second retain and a release).
    @inline(__always)
    mutating func setFocus(_ surface: Surface) {
        _focus = surface
        focusLink = Unretained(surface)
    }

    /// Clears the focus and hands out the reference it held, moved, not copied.
    @inline(__always)
    mutating func takeFocus() -> Surface? {
        focusLink = nil
        return _focus.take()
    }
    /// `focus`, unretained (rule 2 of ``Unretained``: `_focus` owns it, and both change
    /// together): what a pointer motion's walk starts from, pinned, without a retain.
    private(set) var focusLink: Unretained<Surface>?
    /// Backs `Router.pointerGrab`.
    var grab: (any PointerGrab)?
    /// Buttons held now (evdev codes), in press order (invariant 3).
    var pressedButtons: [UInt32] = []
    /// Held buttons whose presses the pointer focus was delivered (by the default rule or a
    /// grab's `sendPointerButton(_:to:)`): what it is owed cancelled releases of. Buttons
    /// are few and rare, so they are tracked as delivered (invariant 3).
    var buttonsSeenByFocus: [UInt32] = []
    /// Buttons whose releases are swallowed: their presses were taken (invariant 3).
    var consumedButtons: [UInt32] = []
    /// `treeEditCount` when pointer focus was last hit-tested: when they differ, focus is
    /// checked again before the next pointer event (invariant 5).
    var checkedAtEdit: UInt64 = 0
    /// What the last pointer hit-test found (``Router/rememberPointerHit(_:at:edit:)``): the
    /// surface (an identity), its layout origin, and `treeEditCount` when the hit-test began;
    /// the origin holds while the count is unchanged (invariant 4).
    var hitSurface: ObjectIdentifier?
    var hitOrigin = LayoutPoint.zero
    var hitAtEdit: UInt64 = .max
    /// The hit before the last one, kept the same way (invariant 4 holds for it too): where
    /// the focus it found is when a motion moves the pointer off it, for the leave.
    var formerHitSurface: ObjectIdentifier?
    var formerHitOrigin = LayoutPoint.zero
    var formerHitAtEdit: UInt64 = .max
    /// Where the pointer focus was last told the pointer is, in its space: when an edit moves
    /// the focus under a still pointer, it is told the new point (a motion with no delta).
    var focusSurfaceLocation = SurfacePoint.zero
    /// Raised at every change of pointer focus (invariant 2).
    var focusGeneration: UInt64 = 0

    init() {
        pressedButtons.reserveCapacity(8)
        buttonsSeenByFocus.reserveCapacity(8)
        consumedButtons.reserveCapacity(8)
    }

    /// True while a button is held: the implicit grab keeps focus where the first button went
    /// down until the last one is released.
    @inline(__always)
    var isImplicitlyGrabbed: Bool { !pressedButtons.isEmpty }

    /// Focus moved to another surface: it has seen no held button's press (invariant 3).
    /// Nothing to do on most moves; `removeAll(keepingCapacity:)` on a list with storage is a
    /// generic `replaceSubrange` of about 85 instructions, paid per focus change otherwise.
    @inline(__always)
    mutating func forgetButtonsSeenByFocus() {
        if !buttonsSeenByFocus.isEmpty { buttonsSeenByFocus.removeAll(keepingCapacity: true) }
    }

    /// Notes a press of `button`: held from now on, once (invariant 3).
    @inline(__always)
    mutating func hold(_ button: UInt32) {
        if !pressedButtons.scanContains(button) { pressedButtons.append(button) }
    }

    /// Notes a release of `button`: no longer held.
    @inline(__always)
    mutating func letGo(of button: UInt32) {
        if let index = pressedButtons.scanIndex(of: button) { pressedButtons.remove(at: index) }
    }

    /// The release of `button` is swallowed from now on (its press was taken), once.
    @inline(__always)
    mutating func swallowRelease(of button: UInt32) {
        if !consumedButtons.scanContains(button) { consumedButtons.append(button) }
    }

    /// Every held button's release is swallowed, and none is held any more: the implicit grab
    /// ended with its surface.
    mutating func swallowEveryHeldRelease() {
        var i = 0
        while i < pressedButtons.count {
            swallowRelease(of: pressedButtons[i])
            i += 1
        }
        pressedButtons.removeAll(keepingCapacity: true)
    }

    /// The pointer's point in `surface`'s space from the last hit-test, when it found
    /// `surface` and the tree is as it was then (`treeEditCount`), else `nil` (invariant 4).
    @inline(__always)
    func carriedLocation(in surface: Surface, treeEditCount: UInt64) -> SurfacePoint? {
        carriedLocation(of: ObjectIdentifier(surface), treeEditCount: treeEditCount)
    }

    /// ``carriedLocation(in:treeEditCount:)`` for the surface with this identity.
    @inline(__always)
    func carriedLocation(of surface: ObjectIdentifier, treeEditCount: UInt64) -> SurfacePoint? {
        if hitAtEdit == treeEditCount, hitSurface == surface {
            return SurfacePoint(x: location.x - hitOrigin.x, y: location.y - hitOrigin.y)
        }
        guard formerHitAtEdit == treeEditCount, formerHitSurface == surface else { return nil }
        return SurfacePoint(x: location.x - formerHitOrigin.x, y: location.y - formerHitOrigin.y)
    }

    /// The invariants above that do not hold now, one line each (empty: all hold). Meant
    /// between events: during one, a handler may be told a change before the state settles.
    func checkInvariants(layout: Layout, treeEditCount: UInt64) -> [String] {
        var broken: [String] = []
        if !location.x.isFinite || !location.y.isFinite {
            broken.append("1. the pointer is at \(location), not a finite point")
        } else if layout.clamp(location) != location {
            broken.append("1. the pointer is at \(location), off the layout (the clamp moves it to \(layout.clamp(location)))")
        }
        if let focus, !focus.unchecked.isAttached {
            broken.append("2. the pointer focus \(focus.id) is not in the layout")
        }
        if focusLink?.identity != focus.map(ObjectIdentifier.init) {
            broken.append("2. the unretained focus link does not name the focus")
        }
        if hasDuplicates(pressedButtons) { broken.append("3. a button is listed twice as held: \(pressedButtons)") }
        if hasDuplicates(buttonsSeenByFocus) {
            broken.append("3. a button is listed twice as seen by the focus: \(buttonsSeenByFocus)")
        }
        if (hitSurface == nil) != (hitAtEdit == .max) {
            broken.append("4. the last hit names \(hitSurface == nil ? "no surface" : "a surface") but its edit count is \(hitAtEdit)")
        }
        if hitAtEdit == treeEditCount, let focus, hitSurface == ObjectIdentifier(focus),
           let walked = focus.convert(location) {
            let carried = SurfacePoint(x: location.x - hitOrigin.x, y: location.y - hitOrigin.y)
            if abs(carried.x - walked.x) > 1e-6 || abs(carried.y - walked.y) > 1e-6 {
                broken.append("4. the carried point in the focus is \(carried), a walk up the tree finds \(walked)")
            }
        }
        if checkedAtEdit > treeEditCount {
            broken.append("5. focus was checked at edit \(checkedAtEdit), after the tree's \(treeEditCount)")
        }
        if formerHitAtEdit == treeEditCount, let focus, formerHitSurface == ObjectIdentifier(focus), hitSurface != formerHitSurface,
           let walked = focus.convert(location) {
            let carried = SurfacePoint(x: location.x - formerHitOrigin.x, y: location.y - formerHitOrigin.y)
            if abs(carried.x - walked.x) > 1e-6 || abs(carried.y - walked.y) > 1e-6 {
                broken.append("4. the carried point in the focus (the hit before last) is \(carried), a walk up the tree finds \(walked)")
            }
        }
        if hitAtEdit != .max, hitAtEdit > treeEditCount {
            broken.append("5. the last hit is from edit \(hitAtEdit), after the tree's \(treeEditCount)")
        }
        return broken
    }
}

/// Whether a short list holds a value twice (a routing state check, not on the event path).
func hasDuplicates(_ values: [UInt32]) -> Bool {
    var i = 0
    while i < values.count {
        var j = i + 1
        while j < values.count {
            if values[i] == values[j] { return true }
            j += 1
        }
        i += 1
    }
    return false
}
