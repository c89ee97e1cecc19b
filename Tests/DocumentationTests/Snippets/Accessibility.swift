// The code of AccessibilityFilters.md. Every ```swift block of that guide stands here verbatim
// (GuideCodeTests checks it); AccessibilityGuideTests drives it on a virtual clock.
import SeatKit

/// The accessibility filters a kiosk offers, each off until a setting turns it on.
final class KioskAccessibility {
    let touch = TouchAccommodations(holdDuration: .milliseconds(300), ignoreRepeat: .milliseconds(500), isEnabled: false)
    let bounce = BounceKeys(isEnabled: false)
    let slow = SlowKeys(isEnabled: false)
    let sticky = StickyKeys(isEnabled: false)
    let secondaryClick = SimulatedSecondaryClick(isEnabled: false)
    let dwell = DwellClick(isEnabled: false)
    let mouseKeys = MouseKeys(isEnabled: false)
    let locate = LocatePointer(isEnabled: false)

    init(router: Router, sendModifiers: @escaping (ModifierMasks) -> Void, showPointer: @escaping (LayoutPoint) -> Void) {
        for filter in [touch, bounce, slow, sticky, secondaryClick, dwell, mouseKeys, locate] as [any InputFilter] {
            router.addFilter(filter)
        }
        // Latched and locked modifiers changed outside a key (sticky keys turned off):
        // tell the focused client (SeatKitWayland's Seat.sendModifiers).
        sticky.onModifiersChange = sendModifiers
        locate.onLocate = showPointer
    }
}
