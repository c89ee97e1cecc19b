import CSeatKitSupport
@_spi(SeatKitInternals) import SeatKit
import SeatKitLibinput

// The player behind libseatkit-replay's seatkit_replay handles.

/// `seatkit_replay`: libinput's events for one recording (read by libseatkit-replay), and
/// where playing them has got to.
final class CReplay: HandleObject {
    /// The router that made it, unretained: it ends this object before it goes (rule 1 of
    /// `Unretained`).
    let ownerLink: Unretained<CRouter>
    var owner: CRouter { ownerLink.object }
    let announcements: [DeviceEvent]
    let input: [DeviceEvent]
    let translator = DeviceEventTranslator()
    var next = 0
    var offset: Int64 = 0
    var timer: TimerToken?
    var finished: (@convention(c) (UnsafeMutableRawPointer?, OpaquePointer?) -> Void)?
    var finishedData: UnsafeMutableRawPointer?
    var isDestroyed = false

    init(owner: CRouter, events: [DeviceEvent]) {
        ownerLink = Unretained(owner)
        announcements = events.filter { if case .deviceAdded = $0.kind { true } else { false } }
        input = events.filter { if case .deviceAdded = $0.kind { false } else { true } }
    }

    func addDevices() {
        let now = owner.router.clock.now.microseconds
        for event in announcements {
            owner.router.inject(translator.translate(event, router: owner.router, timeOffset: now - event.time))
        }
    }

    func play() {
        if let first = input.first { offset = owner.router.clock.now.microseconds - first.time }
        playDueEvents()
    }

    private func playDueEvents() {
        timer = nil
        guard !isDestroyed, !owner.isDestroyed else { return }
        let router = owner.router
        while next < input.count, input[next].time + offset <= router.clock.now.microseconds {
            router.inject(translator.translate(input[next], router: router, timeOffset: offset))
            next += 1
            if isDestroyed || owner.isDestroyed { return }
        }
        guard next < input.count else {
            if let finished { finished(finishedData, handle) }
            return
        }
        timer = router.clock.schedule(at: Timestamp(microseconds: input[next].time + offset)) { [weak self] in
            self?.playDueEvents()
        }
    }

    func destroy() {
        guard !isDestroyed else { return }
        isDestroyed = true
        if let timer { owner.router.clock.cancel(timer) }
        timer = nil
        finished = nil
        owner.replays.removeAll { $0 === self }
        Handles.remove(handle)
    }

}

// seatkit__player_*: libseatkit's private entry points for libseatkit-replay
// (CSeatKitReplaySupport/include/seatkit_replay_private.h). Nothing of replay is here: no
// recording, umockdev, worker or constructor; only device events already read out of libinput
// (SeatKitLibinput's binary form, as a live backend would translate them) played on the
// router's clock behind a `seatkit_replay` handle.

@_cdecl("seatkit__player_create")
public func seatkit__player_create(_ router: OpaquePointer?, _ bytes: UnsafePointer<UInt8>?, _ length: Int) -> OpaquePointer? {
    guard let r = live(router, .router, as: CRouter.self, #function) else { return nil }
    guard length >= 0, bytes != nil || length == 0 else {
        misuse(#function, "NULL events")
        return nil
    }
    let buffer = bytes.map { Array(UnsafeBufferPointer(start: $0, count: length)) } ?? []
    var events: [DeviceEvent] = []
    var offset = 0
    do {
        while let event = try DeviceEvent.decode(buffer, at: &offset) { events.append(event) }
    } catch {
        misuse(#function, "malformed device events: \(error)")
        return nil
    }
    let replay = CReplay(owner: r, events: events)
    guard let handle = Handles.insert(replay, kind: .replay) else {
        misuse(#function, "too many live handles")
        return nil
    }
    r.replays.append(replay)
    return handle
}

@_cdecl("seatkit__player_add_devices")
public func seatkit__player_add_devices(_ handle: OpaquePointer?) {
    guard let replay = live(handle, .replay, as: CReplay.self, "seatkit_replay_add_devices") else { return }
    APICall.run { replay.addDevices() }
}

@_cdecl("seatkit__player_play")
public func seatkit__player_play(_ handle: OpaquePointer?, _ finished: (@convention(c) (UnsafeMutableRawPointer?, OpaquePointer?) -> Void)?,
                                 _ data: UnsafeMutableRawPointer?) {
    guard let replay = live(handle, .replay, as: CReplay.self, "seatkit_replay_play") else { return }
    guard replay.next == 0, replay.timer == nil else {
        misuse("seatkit_replay_play", "the replay is already playing or has played; refused")
        return
    }
    replay.finished = finished
    replay.finishedData = data
    APICall.run { replay.play() }
}

@_cdecl("seatkit__player_get_event_count")
public func seatkit__player_get_event_count(_ handle: OpaquePointer?) -> Int {
    live(handle, .replay, as: CReplay.self, "seatkit_replay_get_event_count")?.input.count ?? 0
}

@_cdecl("seatkit__player_destroy")
public func seatkit__player_destroy(_ handle: OpaquePointer?) {
    guard let replay = live(handle, .replay, as: CReplay.self, "seatkit_replay_destroy") else { return }
    APICall.run { replay.destroy() }
}

@_cdecl("seatkit__router_is_live")
public func seatkit__router_is_live(_ router: OpaquePointer?) -> Int32 {
    Handles.object(router, .router) == nil ? 0 : 1
}

@_cdecl("seatkit__log")
public func seatkit__log(_ importance: Int32, _ message: UnsafePointer<CChar>?) {
    guard let message, importance > 0, importance < Int32(SEATKIT_LOG_IMPORTANCE_LAST.rawValue) else { return }
    CCalls.log(seatkit_log_importance(rawValue: UInt32(importance)), String(cString: message))
}
