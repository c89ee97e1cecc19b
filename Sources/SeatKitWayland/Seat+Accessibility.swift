import SeatKit

extension Seat {
    /// Makes `masks` the seat's modifier state and sends it (`wl_keyboard.modifiers`) to the
    /// client with keyboard focus, if it was not told them already: for modifiers that
    /// change outside a key, as when sticky keys are turned off with a modifier latched
    /// (wire SeatKit's `StickyKeys.onModifiersChange` here). Later keyboard enters carry
    /// them too. Goes through no filter or grab.
    public func sendModifiers(_ masks: ModifierMasks) {
        unchecked.modifierMasks = masks
        keyboardFocus?.sendSeatModifiers()
    }
}
