/// Pointer emulation from touch, as a small state machine: for a client that bound no
/// wl_touch (foot 1.13 never does), the first finger on its surface becomes its pointer:
/// enter (when the pointer is elsewhere) and motion to the finger, a left-button press;
/// motion while it moves; release (and leave, when the real pointer is elsewhere) when it
/// lifts or is cancelled. Other fingers are ignored while it is down.
///
/// It knows nothing of Wayland: it turns touch points in surface-local coordinates into
/// ``Action``s, handed to `perform` one by one (no allocation per event). Locations are in
/// the touched surface's space, as responders get them; the emulation goes through no grab
/// or filter (it sees what a responder was delivered).
/// SeatKitWayland's `ClientSurfaceResponder` applies them to the client's wl_pointer
/// resources; the C API (`seatkit_pointer_emulation_*`, which the wlroots bridge uses) drives
/// the same type. It is the one implementation: a front end maps its actions to its own
/// pointer, it does not write its own.
public struct TouchPointerEmulation: Sendable {
    public enum Action: Sendable, Hashable {
        /// The pointer enters the surface at this point.
        case enter(SurfacePoint)
        case motion(SurfacePoint)
        /// BTN_LEFT pressed or released.
        case press, release
        /// The pointer leaves the surface.
        case leave
    }

    /// The touch point driving the pointer, while one is down.
    public private(set) var primary: TouchID?
    /// Whether the emulation entered the surface itself (the real pointer was elsewhere).
    package private(set) var entered = false

    public init() {}

    /// A state saved outside Swift (the C API keeps it in a caller's struct).
    package init(primary: TouchID?, entered: Bool) {
        self.primary = primary
        self.entered = primary != nil && entered
    }

    /// True while a finger drives the pointer.
    public var isActive: Bool { primary != nil }

    /// A finger went down at `location`. `pointerIsHere`: the real pointer already has
    /// this surface (no enter is needed, and none is undone at the end).
    public mutating func touchDown(_ id: TouchID, at location: SurfacePoint, pointerIsHere: Bool,
                                   _ perform: (Action) -> Void) {
        guard primary == nil else { return }
        primary = id
        entered = !pointerIsHere
        perform(entered ? .enter(location) : .motion(location))
        perform(.press)
    }

    public mutating func touchMoved(_ id: TouchID, to location: SurfacePoint, _ perform: (Action) -> Void) {
        guard id == primary else { return }
        perform(.motion(location))
    }

    /// The finger lifted: release, and leave if the emulation entered.
    public mutating func touchUp(_ id: TouchID, _ perform: (Action) -> Void) {
        guard id == primary else { return }
        end(perform)
    }

    /// The touch was cancelled (a gesture took it, the surface went away): the button is
    /// released all the same, so the client is not left with it held.
    public mutating func touchCancelled(_ perform: (Action) -> Void) {
        guard primary != nil else { return }
        end(perform)
    }

    private mutating func end(_ perform: (Action) -> Void) {
        perform(.release)
        if entered { perform(.leave) }
        primary = nil
        entered = false
    }
}
