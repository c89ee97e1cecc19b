/// A source of the router's on a compositor's `wl_event_loop` (its clock's timer, a libinput
/// context's fd), removed by whichever comes first: ``remove()`` (the router or the libinput
/// context destroyed), or the loop's end (`wl_display_destroy` before `seatkit_router_destroy`,
/// the order tinywl's teardown has). Without the second, the router's later removal wrote into
/// the freed loop (valgrind: invalid reads and writes in `wl_event_source_remove`).
final class EventLoopSource {
    /// The source, until removed or its loop ended.
    private(set) var source: OpaquePointer?
    private var watch: OpaquePointer?

    /// Adds a source to `loop` with `add`; nil if it failed.
    init?(loop: OpaquePointer, add: (OpaquePointer) -> OpaquePointer?) {
        guard let source = add(loop) else { return nil }
        self.source = source
        watch = CCalls.watchLoop(loop, { data in
            guard let data else { return }
            Unmanaged<EventLoopSource>.fromOpaque(data).takeUnretainedValue().remove()
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Removes the source from its loop now (if it is still there): it never fires again.
    func remove() {
        if let source { CCalls.removeSource(source) }
        source = nil
    }

    deinit {
        remove()
        CCalls.unwatchLoop(watch)
    }
}
