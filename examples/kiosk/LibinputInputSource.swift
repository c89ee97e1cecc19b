import SeatKit
import SeatKitLibinput
import SeatKitWayland

/// libinput on the Wayland event loop, with nothing but the public API of both modules: the
/// glue a compositor writes itself (SeatKitWayland does not link libinput).
extension WaylandDisplay {
    /// Reads `backend`'s devices on this display's event loop: whenever libinput's fd is
    /// readable, libinput is dispatched and each of its events goes through `seat`'s
    /// router, `Router.inject(_:)` (translated into the router's layout space by the backend's
    /// translator; touch frames closed per client; filters, grabs and recognizers
    /// respected). What libinput queued before the call, such as the devices a udev seat
    /// found, is delivered at once.
    ///
    /// libinput's event times are `CLOCK_MONOTONIC`, the clock of ``clock``, so timers the
    /// router arms from them (key repeat, gestures) line up.
    func watch(_ backend: LibinputBackend, deliveringTo seat: Seat) {
        // The router captured strongly (it does not hold the display): no unowned or weak
        // load per event. The seat's touch frames come from the router. `dispatch(into:)`
        // translates libinput's frequent events straight into the router's events, with no
        // `DeviceEvent` copied in between.
        // The backend's own closure (`dispatcher(into:)`) rather than one of ours around
        // `dispatch(into:)`: one call less per wake-up.
        let deliver = backend.dispatcher(into: seat.router)
        watch(fileDescriptor: backend.fileDescriptor, readable: deliver)
        deliver()
    }
}
