import SeatKit
import SeatKitLibinput

/// libinput on the Wayland event loop: the `wl_event_loop` source that SeatKitLibinput
/// leaves to this module (it does not link libwayland-server).
extension WaylandDisplay {
    /// Reads `backend`'s devices on this display's event loop: whenever libinput's fd is
    /// readable, libinput is dispatched and each of its events goes through `seat`'s
    /// ``Seat/inject(_:)`` (translated into the router's layout space by the backend's
    /// ``SeatKitLibinput/DeviceEventTranslator``; touch frames closed per client; filters,
    /// grabs and recognizers respected). What libinput queued before the call, such as the
    /// devices a udev seat found, is delivered at once. Stop with ``stopWatching(_:)``.
    ///
    /// libinput's event times are `CLOCK_MONOTONIC`, the clock of ``clock``, so timers the
    /// router arms from them (key repeat, gestures) line up.
    public func watch(_ backend: LibinputBackend, deliveringTo seat: Seat) {
        let deliver = { [unowned seat] in
            for event in backend.dispatchEvents() {
                seat.inject(backend.translator.translate(event, layout: seat.router.layout))
            }
        }
        watch(fileDescriptor: backend.fileDescriptor, readable: deliver)
        deliver()
    }

    /// Stops reading `backend` (for a VT switch away, together with ``SeatKitLibinput/LibinputBackend/suspend()``).
    public func stopWatching(_ backend: LibinputBackend) {
        stopWatching(fileDescriptor: backend.fileDescriptor)
    }
}
